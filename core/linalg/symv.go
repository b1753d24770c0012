package linalg

import "fmt"

// DotAxpy adds s·a to y and returns the dot product a·x, in one pass over
// a: the row step of a symmetric matrix–vector product over an upper
// triangle, which reads each stored entry once for both of its places.
// On amd64 it uses AVX2 with fused multiply-add, so the dot product can
// differ from the plain Go order in the last bits (within len(a)·ε·Σ|aᵢxᵢ|).
// It panics if x or y is shorter than a.
func DotAxpy(y, a, x []float64, s float64) float64 {
	if len(x) < len(a) || len(y) < len(a) {
		panic(fmt.Sprintf("linalg: DotAxpy lengths %d, %d shorter than a (%d)", len(y), len(x), len(a)))
	}
	return dotAxpy(y, a, x, s)
}

// dotAxpyPortable is DotAxpy in plain Go; four partial sums break the
// dependency chain of the dot product. Plain indexing up to a multiple of
// 4 ran 1.5× faster in WebAssembly than four-element subslices.
func dotAxpyPortable(y, a, x []float64, s float64) float64 {
	x, y = x[:len(a)], y[:len(a)]
	var s0, s1, s2, s3 float64
	n := len(a) &^ 3
	for c := 0; c < n; c += 4 {
		a0, a1, a2, a3 := a[c], a[c+1], a[c+2], a[c+3]
		s0 += a0 * x[c]
		s1 += a1 * x[c+1]
		s2 += a2 * x[c+2]
		s3 += a3 * x[c+3]
		y[c] += a0 * s
		y[c+1] += a1 * s
		y[c+2] += a2 * s
		y[c+3] += a3 * s
	}
	for c := n; c < len(a); c++ {
		s0 += a[c] * x[c]
		y[c] += a[c] * s
	}
	return (s0 + s1) + (s2 + s3)
}
