package linalg

import (
	"fmt"
	"sync/atomic"
)

// Blocking of AddAtA32: A is packed kc rows at a time as float32 into
// panels of panel32 columns; a micro-tile is tile32R rows of G (half a
// panel) by tile32C columns (three panels), and tiles start at multiples of
// tile32C. Work items are item32R rows by item32C columns of G: the right
// panels of an item (384 columns × 256 rows × 4 bytes) stay in L2.
const (
	panel32 = 16
	tile32R = 8
	tile32C = 3 * panel32
	item32R = 64
	item32C = 8 * tile32C
)

// tile32Func adds to the tile32R×tile32C float64 block c (row stride ldc)
// the float32 products of the left panel a (k rows, stride panel32, the
// first tile32R values used) and the three right panels starting at b,
// ps values apart.
type tile32Func func(k int, a, b []float32, ps int, c []float64, ldc int)

// tile32 is the float32 micro-kernel, or nil when the CPU has none (set by
// init from kernels32); tile32Fused is its kernel32Set.fused.
var (
	tile32      tile32Func
	tile32Fused bool
)

func init() {
	if ks := kernels32(); len(ks) > 0 {
		tile32, tile32Fused = ks[0].tile, ks[0].fused
	}
}

// kernel32Set is one implementation of the AddAtA32 micro-kernel. fused
// says how each entry adds a product: with one rounding (fused
// multiply-add, the x86 kernels) or with two (WebAssembly SIMD has no
// fused multiply-add); within one, every kernel gives the same bits.
type kernel32Set struct {
	name  string
	tile  tile32Func
	fused bool
}

// AddAtA32 adds AᵀA to the upper triangle of g as AddAtA does, but rounds
// A to float32 and sums each block of up to 256 rows in float32 (fused
// multiply-add on x86) before adding the block's sums to g in float64.
// That is 1.5 times the throughput of AddAtA with AVX-512 (n = 20,000,
// m = 4096) and 2.3 times with AVX2 and FMA (n = 8,000, m = 2048, CPU
// time); each entry is then within (min(n, 256) + 3)·2⁻²⁴·Σ_k |a_ki·a_kj|
// of the exact sum, far below the sampling error of random features (on
// Fashion-MNIST features the relative difference from AddAtA is 2.5e-8
// and ridge accuracy is unchanged). Where there is no float32 kernel (x86
// without AVX2 and FMA, other CPUs, WebAssembly without GOEXPERIMENT=simd,
// the noasm tag) it is AddAtA.
func AddAtA32(g, a []float64, n, m int) {
	if n < 0 || m < 0 || len(a) < n*m || len(g) < m*m {
		panic(fmt.Sprintf("linalg: AddAtA32 lengths %d, %d do not fit n=%d, m=%d", len(a), len(g), n, m))
	}
	if n == 0 || m == 0 {
		return
	}
	if tile32 == nil {
		addAtA(tile, g, m, a, n, m, false)
		return
	}
	var host Gram32Host
	if !tile32Fused {
		host = gram32Host
	}
	addAtA32Host(tile32, host, g, a, n, m)
}

// Float32 reports whether AddAtA32 sums in float32 on this machine; when
// false it is AddAtA.
func Float32() bool { return tile32 != nil }

// addAtA32 is AddAtA32 with the micro-kernel as a parameter, so tests can
// run the portable one everywhere.
func addAtA32(kern tile32Func, g, a []float64, n, m int) { addAtA32Host(kern, nil, g, a, n, m) }

// addAtA32Host is addAtA32 with each block handed to the host kernel
// (SetGram32Host), when there is one and the product runs on one
// goroutine (always, in WebAssembly).
func addAtA32Host(kern tile32Func, host Gram32Host, g, a []float64, n, m int) {
	tiles := (m + tile32C - 1) / tile32C
	np := 3 * tiles // panels past column m are zero
	pack := make([]float32, np*min(kc, n)*panel32)

	items := upperItems(m, item32R, item32C)
	workers := workersFor(n, m, len(items))
	tmp := make([][tile32R * tile32C]float64, workers)

	var scratch []float64
	if workers != 1 {
		host = nil
	} else if host != nil {
		scratch = make([]float64, Gram32HostScratch)
	}
	run := func(w, k int, next *atomic.Int64) {
		if host != nil {
			host(k, m, pack[:np*k*panel32], g, scratch)
			return
		}
		for {
			t := int(next.Add(1)) - 1
			if t >= len(items) {
				return
			}
			gram32Item(kern, items[t], k, m, pack, g, tmp[w][:])
		}
	}

	eachBlock(n, np, workers, func(k0, k, p0, p1 int) { pack32(pack, a[k0*m:(k0+k)*m], k, m, p0, p1) }, run)
}

// pack32 writes panels [p0, p1) of the k×m block a into dst as float32:
// panel p holds columns panel32·p … panel32·p+15 row after row, zero past
// column m. It goes pack32Rows rows at a time through every panel, so it
// reads a few rows of a in order and writes runs of whole lines: a panel
// at a time read k rows m·8 bytes apart (a page each: TLB and prefetcher
// lose, 9 times slower), a row at a time writes one line per panel, all
// k·64 bytes apart (the same L1 set).
func pack32(dst []float32, a []float64, k, m, p0, p1 int) {
	ps := k * panel32
	full := min(p1, m/panel32) // panels with every column inside m
	for r0 := 0; r0 < k; r0 += pack32Rows {
		r1 := min(r0+pack32Rows, k)
		for p := p0; p < full; p++ {
			for r := r0; r < r1; r++ {
				d := dst[p*ps+r*panel32 : p*ps+(r+1)*panel32]
				s := a[r*m+p*panel32 : r*m+(p+1)*panel32]
				for c := range d {
					d[c] = float32(s[c])
				}
			}
		}
		for p := max(p0, full); p < p1; p++ {
			w := min(panel32, max(0, m-p*panel32))
			for r := r0; r < r1; r++ {
				d := dst[p*ps+r*panel32 : p*ps+(r+1)*panel32]
				for c := range w {
					d[c] = float32(a[r*m+p*panel32+c])
				}
				clear(d[w:])
			}
		}
	}
}

// pack32Rows is the rows pack32 converts together: 8 measured fastest
// (1.3 ms for a 256×4096 block against 2.3 with 4 and 5.0 with 16).
const pack32Rows = 8

// tile32Portable is the tile32Func in plain Go: the reference the tests
// compare the SIMD kernel with.
func tile32Portable(k int, a, b []float32, ps int, c []float64, ldc int) {
	var acc [tile32R * tile32C]float32
	for l := range k {
		for r := range tile32R {
			av := a[l*panel32+r]
			for v := range 3 {
				row := b[v*ps+l*panel32 : v*ps+(l+1)*panel32]
				out := acc[r*tile32C+v*panel32 : r*tile32C+(v+1)*panel32]
				for s, bv := range row {
					out[s] += av * bv
				}
			}
		}
	}
	for r := range tile32R {
		for s, v := range acc[r*tile32C : (r+1)*tile32C] {
			c[r*ldc+s] += float64(v)
		}
	}
}
