package gram

import "fmt"

// Mul sets c = a·b for row-major a (n×k), b (k×m) and c (n×m). Every entry
// is summed in increasing order of the inner index with separate multiply
// and add (no fused multiply-add), so the result is bit-for-bit the same on
// every platform and for any blocking of the rows of a: random features
// built on it are reproducible natively and in WebAssembly.
func Mul(c, a, b []float64, n, k, m int) {
	if len(a) < n*k || len(b) < k*m || len(c) < n*m {
		panic(fmt.Sprintf("gram: Mul lengths %d, %d, %d do not fit n=%d, k=%d, m=%d", len(c), len(a), len(b), n, k, m))
	}
	for i := 0; i < n; i++ {
		ci := c[i*m : (i+1)*m]
		clear(ci)
		for l, av := range a[i*k : (i+1)*k] {
			bl := b[l*m : (l+1)*m]
			for j := range ci {
				ci[j] += float64(av * bl[j])
			}
		}
	}
}
