package gram

import "fmt"

// DotAxpy adds s·a to y and returns the dot product a·x, in one pass over
// a: the row step of a symmetric matrix–vector product over an upper
// triangle, which reads each stored entry once for both of its places.
// On amd64 it uses AVX2 with fused multiply-add, so the dot product can
// differ from the plain Go order in the last bits (within len(a)·ε·Σ|aᵢxᵢ|).
// It panics if x or y is shorter than a.
func DotAxpy(y, a, x []float64, s float64) float64 {
	if len(x) < len(a) || len(y) < len(a) {
		panic(fmt.Sprintf("gram: DotAxpy lengths %d, %d shorter than a (%d)", len(y), len(x), len(a)))
	}
	return dotAxpy(y, a, x, s)
}

// dotAxpyPortable is DotAxpy in plain Go; four partial sums break the
// dependency chain of the dot product.
func dotAxpyPortable(y, a, x []float64, s float64) float64 {
	x, y = x[:len(a)], y[:len(a)]
	var s0, s1, s2, s3 float64
	c := 0
	for ; c+4 <= len(a); c += 4 {
		a4, x4, y4 := a[c:c+4:c+4], x[c:c+4:c+4], y[c:c+4:c+4]
		s0 += a4[0] * x4[0]
		s1 += a4[1] * x4[1]
		s2 += a4[2] * x4[2]
		s3 += a4[3] * x4[3]
		y4[0] += a4[0] * s
		y4[1] += a4[1] * s
		y4[2] += a4[2] * s
		y4[3] += a4[3] * s
	}
	for ; c < len(a); c++ {
		s0 += a[c] * x[c]
		y[c] += a[c] * s
	}
	return (s0 + s1) + (s2 + s3)
}
