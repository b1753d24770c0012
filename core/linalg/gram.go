package linalg

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// Blocking of AddAtA. A is packed kc rows at a time into panels of panelW
// columns (panel p holds columns panelW·p … panelW·p+7, row after row), so
// each micro-tile reads two contiguous streams. A micro-tile is tileR rows
// (one panel) by tileC columns (three panels) of G. Work items are blocks
// of itemR rows by itemC columns of G, handed out to the workers.
const (
	panelW = 8
	tileR  = panelW
	tileC  = 3 * panelW
	kc     = 256 // rows of A per packed block: a left panel (16 KiB) stays in L1
	itemR  = 8 * tileR
	itemC  = 8 * tileC // right panels of one item (384 KiB) stay in L2
	// minParallel is the number of multiply-adds below which AddAtA and Mul
	// stay on one goroutine: starting workers costs more than it saves.
	minParallel = 1 << 18
)

// tileFunc adds to the tileR×tileC block c (row stride ldc) the product of
// the left panel a (k ≥ 1 rows of tileR values) and the three right panels
// starting at b, ps values apart (k rows of panelW values each).
type tileFunc func(k int, a, b []float64, ps int, c []float64, ldc int)

// tile is the micro-kernel AddAtA uses: the fastest one the CPU supports
// (set by init from kernels).
var tile tileFunc

// AddAtA adds AᵀA to the upper triangle of the m×m row-major matrix g
// (len(g) ≥ m·m, stride m), where A is the n×m row-major block a. The lower
// triangle of g is left untouched. It panics if the lengths do not match.
//
// The sums are blocked and, on amd64, use fused multiply-add, so entries
// can differ from a naive loop in the last bits (bounded by
// n·ε·Σ_k |a_ki·a_kj|). Each call passes once over the upper triangle of g
// and packs A 256 rows at a time, so blocks of a few hundred rows or more
// amortize that work.
func AddAtA(g []float64, a []float64, n, m int) {
	if n < 0 || m < 0 || len(a) < n*m || len(g) < m*m {
		panic(fmt.Sprintf("linalg: AddAtA lengths %d, %d do not fit n=%d, m=%d", len(a), len(g), n, m))
	}
	if n == 0 || m == 0 {
		return
	}
	addAtA(tile, g, m, a, n, m, false)
}

// SubAtAStride subtracts AᵀA from the upper triangle of the m×m block of g
// whose rows start ldg ≥ m values apart (entry (i, j) at g[i·ldg+j]), such
// as a trailing block of a larger matrix, in place, with the same rounding
// as subtracting a separately computed AᵀA. It panics if the lengths do
// not match.
func SubAtAStride(g []float64, ldg int, a []float64, n, m int) {
	checkStride(g, ldg, a, n, m)
	if n > 0 && m > 0 {
		addAtA(tile, g, ldg, a, n, m, true)
	}
}

func checkStride(g []float64, ldg int, a []float64, n, m int) {
	if n < 0 || m < 0 || ldg < m || len(a) < n*m || (m > 0 && len(g) < (m-1)*ldg+m) {
		panic(fmt.Sprintf("linalg: SubAtAStride lengths %d, %d do not fit n=%d, m=%d, ldg=%d", len(a), len(g), n, m, ldg))
	}
}

// addAtA is AddAtA on the m×m block of g with row stride ldg, with the
// micro-kernel as a parameter so tests can run every kernel the machine
// supports. With sub set it subtracts AᵀA instead: the left panels are
// packed negated, so each tile adds the exact negation of its sums and the
// result is the same as subtracting a separately computed AᵀA, without
// the m×m scratch matrix and the two passes over it.
func addAtA(kern tileFunc, g []float64, ldg int, a []float64, n, m int, sub bool) {
	addAtB(kern, g, ldg, a, nil, n, m, sub)
}

// addAtB is addAtA for the product AᵀB of two n×m row-major blocks (B = A
// when b is nil), added to (or with sub, subtracted from) the upper
// triangle of g only: callers use it when AᵀB is symmetric, such as
// [V; W]ᵀ[W; V] = VᵀW + WᵀV. The left panels come from a, the right ones
// from b, through the same micro-kernel.
func addAtB(kern tileFunc, g []float64, ldg int, a, b []float64, n, m int, sub bool) {
	np := (m + panelW - 1) / panelW
	// Two zero panels past the end let the last tile read three panels.
	ng := np + 2
	// Every block packs all ng panels over whatever the buffers held.
	sc := gramPool.Get().(*gramScratch)
	defer gramPool.Put(sc)
	sc.buf = grow(sc.buf, ng*min(kc, n)*panelW)
	buf := sc.buf
	same := b == nil
	if same {
		b = a
	}
	left := buf
	if sub || !same {
		sc.left = grow(sc.left, len(buf))
		left = sc.left
	}

	items := upperItems(m, itemR, itemC)
	workers := workersFor(n, m, len(items))
	tmp := make([][tileR * tileC]float64, workers)

	host := gram64Host
	if workers != 1 || runtime.GOARCH != "wasm" {
		host = nil
	}
	run := func(w, k int, next *atomic.Int64) {
		if host != nil {
			host(k, m, ldg, left[:ng*k*panelW], buf[:ng*k*panelW], g, tmp[w][:])
			return
		}
		for {
			t := int(next.Add(1)) - 1
			if t >= len(items) {
				return
			}
			gram64Item(kern, items[t], k, m, ldg, np, left, buf, g, tmp[w][:])
		}
	}

	pack := func(k0, k, p0, p1 int) {
		ps := k * panelW
		packPanels(buf[p0*ps:p1*ps], b[k0*m:(k0+k)*m], m, k, p0*panelW, m, p1-p0, false)
		src := buf
		if !same {
			packPanels(left[p0*ps:p1*ps], a[k0*m:(k0+k)*m], m, k, p0*panelW, m, p1-p0, false)
			src = left
		}
		if sub {
			for i, v := range src[p0*ps : p1*ps] {
				left[p0*ps+i] = -v
			}
		}
	}
	eachBlock(n, np, workers, pack, run)
}

// gramScratch holds addAtB's packed panels between calls: the reductions
// to tridiagonal form call it once per panel, and fresh buffers (8 MiB
// each at m = 4096) kept the garbage collector busy.
type gramScratch struct{ buf, left []float64 }

var gramPool = sync.Pool{New: func() any { return new(gramScratch) }}

// item is a block of G's rows and columns (from i0, j0) handed to one
// worker.
type item struct{ i0, j0 int }

// upperItems lists the blocks of rows × cols entries of an m×m G that
// touch its upper triangle.
func upperItems(m, rows, cols int) []item {
	var items []item
	for i0 := 0; i0 < m; i0 += rows {
		for j0 := 0; j0 < m; j0 += cols {
			if j0+cols > i0 {
				items = append(items, item{i0, j0})
			}
		}
	}
	return items
}

// workersFor is the number of goroutines for AᵀA with A n×m split in
// items: one when the work is too small to share.
func workersFor(n, m, items int) int {
	if n*m*m/2 < minParallel {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), items)
}

// addUpper adds to g (row stride ldg) the part of the rows×cols tile c at
// (i, j) that lies in the upper triangle of the m×m G.
func addUpper(g []float64, ldg int, c []float64, i, j, rows, cols, m int) {
	for r := 0; r < rows && i+r < m; r++ {
		for s := max(0, i+r-j); s < cols && j+s < m; s++ {
			g[(i+r)*ldg+j+s] += c[r*cols+s]
		}
	}
}

// eachBlock runs the blocked product in blocks of at most kc of the n
// rows: for the k rows from k0, pack writes panels [0, np) (split among
// the workers; every worker reads every panel, so all packing ends before
// any tile starts), then run computes the tiles on every worker, which
// take work items from next.
func eachBlock(n, np, workers int, pack func(k0, k, p0, p1 int), run func(w, k int, next *atomic.Int64)) {
	kb := min(kc, n)
	for k0 := 0; k0 < n; k0 += kb {
		k := min(kb, n-k0)
		var next atomic.Int64
		if workers == 1 {
			pack(k0, k, 0, np)
			run(0, k, &next)
			continue
		}
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() { pack(k0, k, np*w/workers, np*(w+1)/workers) })
		}
		wg.Wait()
		for w := range workers {
			wg.Go(func() { run(w, k, &next) })
		}
		wg.Wait()
	}
}

// packPanels copies columns [c0, c1) of the k rows of x (row stride ldx)
// into np panels of panelW columns in dst (panel p holds columns
// c0+panelW·p … c0+panelW·p+7 row after row, k·panelW values), zero past
// c1, negated with neg. AddAtA packs whole rows of its block with it,
// tileAtB (the λ search's products) column ranges of wider rows.
func packPanels(dst, x []float64, ldx, k, c0, c1, np int, neg bool) {
	ps := k * panelW
	for p := range np {
		d := dst[p*ps : (p+1)*ps]
		j := c0 + p*panelW
		w := min(panelW, max(0, c1-j))
		if w < panelW {
			clear(d)
			for r := 0; r < k && w > 0; r++ {
				copy(d[r*panelW:r*panelW+w], x[r*ldx+j:r*ldx+j+w])
			}
		} else {
			for r := range k {
				// Element by element: a copy of 8 values calls memmove.
				dr, xr := d[r*panelW:r*panelW+8], x[r*ldx+j:r*ldx+j+8]
				dr[0], dr[1], dr[2], dr[3] = xr[0], xr[1], xr[2], xr[3]
				dr[4], dr[5], dr[6], dr[7] = xr[4], xr[5], xr[6], xr[7]
			}
		}
		if neg {
			for i, v := range d {
				d[i] = -v
			}
		}
	}
}

// tilePortable is the tileFunc in plain Go, built from 4×2 blocks whose
// sums live in local variables; it is what WebAssembly runs. Go's wasm
// port has 16 float64 registers: 8 sums and 6 operands fit, a 4×4 block
// spills (4×2 measured 3.9 GFLOP/s in Node against 3.6 for 4×4, 2×4 and 3×4).
func tilePortable(k int, a, b []float64, ps int, c []float64, ldc int) {
	for r := 0; r < tileR; r += 4 {
		for s := 0; s < tileC; s += 2 {
			q, o := s/panelW, s%panelW
			kernel4x2(k, a[r:], b[q*ps+o:], c[r*ldc+s:], ldc)
		}
	}
}

// kernel4x2 adds to the 4×2 block c the sums over k rows l of the outer
// products of a[8l:8l+4] and b[8l:8l+2].
func kernel4x2(k int, a, b, c []float64, ldc int) {
	var c00, c01, c10, c11, c20, c21, c30, c31 float64
	// Exact lengths let the compiler drop most bounds checks in the loop.
	a, b = a[:(k-1)*panelW+4], b[:(k-1)*panelW+2]
	for l := 0; l < len(b); l += panelW {
		al, bl := a[l:l+4], b[l:l+2]
		b0, b1 := bl[0], bl[1]
		a0, a1, a2, a3 := al[0], al[1], al[2], al[3]
		c00 += a0 * b0
		c01 += a0 * b1
		c10 += a1 * b0
		c11 += a1 * b1
		c20 += a2 * b0
		c21 += a2 * b1
		c30 += a3 * b0
		c31 += a3 * b1
	}
	c[0] += c00
	c[1] += c01
	c[ldc] += c10
	c[ldc+1] += c11
	c[2*ldc] += c20
	c[2*ldc+1] += c21
	c[3*ldc] += c30
	c[3*ldc+1] += c31
}
