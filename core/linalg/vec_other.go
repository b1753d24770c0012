//go:build !amd64 || noasm

package linalg

// dotFast is dot on this build.
func dotFast(a, x []float64) float64 { return dot(a, x) }

// axpyFast is axpy on this build.
func axpyFast(y, x []float64, s float64) { axpy(y, x, s) }
