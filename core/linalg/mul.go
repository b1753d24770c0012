package linalg

import (
	"fmt"
	"sync"
)

// mulFunc sets rows [i0, i1) of c = a·b (the shapes of Mul). Every
// implementation sums each entry in increasing inner index with separate
// multiply and add, so all give the same bits.
type mulFunc func(c, a, b []float64, i0, i1, k, m int)

// mulRows is the implementation Mul uses: mulGo, or mulHost where a host
// kernel is installed (SetMul64Host).
var mulRows mulFunc

// mulGo is the Go implementation: SIMD across columns where the CPU
// supports it, or mulPacked (set by init from kernels).
var mulGo mulFunc

// Mul sets c = a·b for row-major a (n×k), b (k×m) and c (n×m). Every entry
// is summed in increasing order of the inner index with separate multiply
// and add (no fused multiply-add), so the result is bit-for-bit the same on
// every platform and for any blocking of the rows of a: random features
// built on it are reproducible natively and in WebAssembly. It panics if
// the lengths do not match.
func Mul(c, a, b []float64, n, k, m int) {
	if n < 0 || k < 0 || m < 0 || len(a) < n*k || len(b) < k*m || len(c) < n*m {
		panic(fmt.Sprintf("linalg: Mul lengths %d, %d, %d do not fit n=%d, k=%d, m=%d", len(c), len(a), len(b), n, k, m))
	}
	mul(mulRows, c, a, b, n, k, m)
}

// mul splits the rows of c among GOMAXPROCS workers (splitRange); rows are
// independent, so the split does not change any bit. Mul32 shares it.
func mul[T float32 | float64](f func(c, a, b []T, i0, i1, k, m int), c, a, b []T, n, k, m int) {
	splitRange(n, coresFor(n*k*m, minParallel), 1, func(i0, i1 int) { f(c, a, b, i0, i1, k, m) })
}

// mulPortable is the mulFunc in plain Go: the reference order of sums.
func mulPortable(c, a, b []float64, i0, i1, k, m int) {
	for i := i0; i < i1; i++ {
		ci := c[i*m : (i+1)*m]
		clear(ci)
		for l, av := range a[i*k : (i+1)*k] {
			bl := b[l*m : (l+1)*m]
			for j := range ci {
				// The conversion forbids fusing into an FMA.
				ci[j] += float64(av * bl[j])
			}
		}
	}
}

// Transpose returns the k×n transpose of the n×k row-major a as a new
// slice, so that products like AAᵀ can run on AddAtA.
func Transpose(a []float64, n, k int) []float64 {
	if len(a) < n*k {
		panic(fmt.Sprintf("linalg: Transpose length %d does not fit n=%d, k=%d", len(a), n, k))
	}
	t := make([]float64, k*n)
	for i := 0; i < n; i++ {
		for j, v := range a[i*k : (i+1)*k] {
			t[j*n+i] = v
		}
	}
	return t
}

// mulStrip is the number of columns of b that mulPacked packs at a time:
// 128 columns of 784 rows (784 KiB) stay in L2 while every row group of a
// passes over them, and each group of a is repacked once per strip, which
// cost the SIMD kernels 9 % of their time with 64 columns (the product ran
// 1.2× faster in WebAssembly with 128).
const mulStrip = 128

// mulScratch holds mulPacked's packed copies, reused across calls.
type mulScratch struct{ a, b []float64 }

var mulPool = sync.Pool{New: func() any { return new(mulScratch) }}

// mulPacked is mulPortable in 4×2 register tiles over packed copies of a
// (4 rows interleaved) and b (4-column panels), which is what WebAssembly
// runs: Go's wasm port has 16 float64 registers, enough for 8 sums and 6
// operands, and contiguous operands let the compiler drop the bounds checks
// that made the unpacked loop 1.8× slower in Node. Each entry is still
// summed over l in increasing order, one rounded product at a time from 0,
// so the bits are those of mulPortable.
func mulPacked(c, a, b []float64, i0, i1, k, m int) {
	mulPackedWith(mul4x4Portable, c, a, b, i0, i1, k, m)
}

// mul4x4Func sets the 4×4 block c (row stride ldc) to the sums over l < k
// of the outer products of a[4l:4l+4] and b[4l:4l+4], each summed in
// increasing l from zero with separately rounded products.
type mul4x4Func func(k int, a, b, c []float64, ldc int)

// mulPackedWith is mulPacked with the 4×4 kernel as a parameter, so a SIMD
// kernel reuses the packing and the tails.
func mulPackedWith(kern mul4x4Func, c, a, b []float64, i0, i1, k, m int) {
	r1 := i1 - (i1-i0)%4 // rows in whole groups of 4
	m4 := m &^ 3         // columns in whole panels of 4
	if k == 0 || r1 == i0 || m4 == 0 {
		mulPortable(c, a, b, i0, i1, k, m)
		return
	}
	s := mulPool.Get().(*mulScratch)
	defer mulPool.Put(s)
	s.a, s.b = grow(s.a, 4*k), grow(s.b, mulStrip*k)
	ap, bp := s.a[:4*k], s.b
	for j0 := 0; j0 < m4; j0 += mulStrip {
		w := min(mulStrip, m4-j0)
		for q := 0; q < w; q += 4 {
			d := bp[q*k : (q+4)*k]
			for l := range k {
				copy(d[4*l:4*l+4], b[l*m+j0+q:])
			}
		}
		for i := i0; i < r1; i += 4 {
			// Repacked for every strip: 4k copies against 1024k flops.
			for r := range 4 {
				for l, v := range a[(i+r)*k : (i+r+1)*k] {
					ap[4*l+r] = v
				}
			}
			for q := 0; q < w; q += 4 {
				kern(k, ap, bp[q*k:(q+4)*k], c[i*m+j0+q:], m)
			}
		}
	}
	// The last i1−i0 mod 4 rows, and the last m mod 4 columns of the others.
	mulPortable(c, a, b, r1, i1, k, m)
	for i := i0; i < r1 && m4 < m; i++ {
		for j := m4; j < m; j++ {
			sum := 0.0
			for l, av := range a[i*k : (i+1)*k] {
				sum += float64(av * b[l*m+j])
			}
			c[i*m+j] = sum
		}
	}
}

func mul4x4Portable(k int, a, b, c []float64, ldc int) {
	mulKernel4x2(k, a, b, c, ldc)
	mulKernel4x2(k, a, b[2:], c[2:], ldc)
}

// mulKernel4x2 sets the 4×2 block c to the sums over k of the products of
// a[4l:4l+4] and b[4l:4l+2].
func mulKernel4x2(k int, a, b, c []float64, ldc int) {
	var c00, c01, c10, c11, c20, c21, c30, c31 float64
	// Exact lengths let the compiler drop most bounds checks in the loop.
	a, b = a[:(k-1)*4+4], b[:(k-1)*4+2]
	for l := 0; l < len(b); l += 4 {
		al, bl := a[l:l+4], b[l:l+2]
		b0, b1 := bl[0], bl[1]
		a0, a1, a2, a3 := al[0], al[1], al[2], al[3]
		// The conversions forbid fusing into FMAs.
		c00 += float64(a0 * b0)
		c01 += float64(a0 * b1)
		c10 += float64(a1 * b0)
		c11 += float64(a1 * b1)
		c20 += float64(a2 * b0)
		c21 += float64(a2 * b1)
		c30 += float64(a3 * b0)
		c31 += float64(a3 * b1)
	}
	c[0], c[1] = c00, c01
	c[ldc], c[ldc+1] = c10, c11
	c[2*ldc], c[2*ldc+1] = c20, c21
	c[3*ldc], c[3*ldc+1] = c30, c31
}
