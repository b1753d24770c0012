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
