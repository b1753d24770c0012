package gram

import (
	"fmt"
	"runtime"
	"sync"
)

// mulFunc sets rows [i0, i1) of c = a·b (the shapes of Mul). Every
// implementation sums each entry in increasing inner index with separate
// multiply and add, so all give the same bits.
type mulFunc func(c, a, b []float64, i0, i1, k, m int)

// mulRows is the implementation Mul uses: SIMD across columns where the CPU
// supports it, or mulPortable (set by init from kernels).
var mulRows mulFunc

// Mul sets c = a·b for row-major a (n×k), b (k×m) and c (n×m). Every entry
// is summed in increasing order of the inner index with separate multiply
// and add (no fused multiply-add), so the result is bit-for-bit the same on
// every platform and for any blocking of the rows of a: random features
// built on it are reproducible natively and in WebAssembly. It panics if
// the lengths do not match.
func Mul(c, a, b []float64, n, k, m int) {
	if n < 0 || k < 0 || m < 0 || len(a) < n*k || len(b) < k*m || len(c) < n*m {
		panic(fmt.Sprintf("gram: Mul lengths %d, %d, %d do not fit n=%d, k=%d, m=%d", len(c), len(a), len(b), n, k, m))
	}
	mul(mulRows, c, a, b, n, k, m)
}

// mul splits the rows of c among GOMAXPROCS workers; rows are independent,
// so the split does not change any bit.
func mul(f mulFunc, c, a, b []float64, n, k, m int) {
	workers := 1
	if n*k*m >= minParallel {
		workers = min(runtime.GOMAXPROCS(0), n)
	}
	if workers <= 1 {
		f(c, a, b, 0, n, k, m)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { f(c, a, b, n*w/workers, n*(w+1)/workers, k, m) })
	}
	wg.Wait()
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
		panic(fmt.Sprintf("gram: Transpose length %d does not fit n=%d, k=%d", len(a), n, k))
	}
	t := make([]float64, k*n)
	for i := 0; i < n; i++ {
		for j, v := range a[i*k : (i+1)*k] {
			t[j*n+i] = v
		}
	}
	return t
}

// mulTiled is mulPortable with the rows and columns of c in 4×2 register
// tiles (WebAssembly has 16 float registers): each entry is still summed
// over l in increasing order, one rounded product at a time from 0, so the
// bits are those of mulPortable, with a fraction of the loads and stores.
func mulTiled(c, a, b []float64, i0, i1, k, m int) {
	i := i0
	for ; i+4 <= i1; i += 4 {
		a0 := a[i*k : i*k+k]
		a1 := a[(i+1)*k : (i+1)*k+k]
		a2 := a[(i+2)*k : (i+2)*k+k]
		a3 := a[(i+3)*k : (i+3)*k+k]
		j := 0
		for ; j+2 <= m; j += 2 {
			var c00, c01, c10, c11, c20, c21, c30, c31 float64
			bl := b[j:]
			for l := range a0 {
				p := bl[l*m : l*m+2]
				b0, b1 := p[0], p[1]
				x0, x1, x2, x3 := a0[l], a1[l], a2[l], a3[l]
				c00 += float64(x0 * b0)
				c01 += float64(x0 * b1)
				c10 += float64(x1 * b0)
				c11 += float64(x1 * b1)
				c20 += float64(x2 * b0)
				c21 += float64(x2 * b1)
				c30 += float64(x3 * b0)
				c31 += float64(x3 * b1)
			}
			c[i*m+j], c[i*m+j+1] = c00, c01
			c[(i+1)*m+j], c[(i+1)*m+j+1] = c10, c11
			c[(i+2)*m+j], c[(i+2)*m+j+1] = c20, c21
			c[(i+3)*m+j], c[(i+3)*m+j+1] = c30, c31
		}
		if j < m { // an odd last column
			var s0, s1, s2, s3 float64
			for l := range a0 {
				bv := b[l*m+j]
				s0 += float64(a0[l] * bv)
				s1 += float64(a1[l] * bv)
				s2 += float64(a2[l] * bv)
				s3 += float64(a3[l] * bv)
			}
			c[i*m+j], c[(i+1)*m+j], c[(i+2)*m+j], c[(i+3)*m+j] = s0, s1, s2, s3
		}
	}
	mulPortable(c, a, b, i, i1, k, m)
}
