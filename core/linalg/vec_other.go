//go:build !amd64 || noasm

package linalg

// dotFast is dot on this build.
func dotFast(a, x []float64) float64 { return dot(a, x) }

// axpyFast sets y[i] += s·x[i] over the length of y.
func axpyFast(y, x []float64, s float64) {
	x = x[:len(y)]
	for i, v := range x {
		y[i] += s * v
	}
}
