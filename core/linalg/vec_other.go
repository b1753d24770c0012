//go:build !amd64 || noasm

package linalg

// dotFast is dot on this build.
func dotFast(a, x []float64) float64 { return dot(a, x) }

// axpyFast is axpy on this build.
func axpyFast(y, x []float64, s float64) { axpy(y, x, s) }

// sub2Fast is sub2 on this build.
func sub2Fast(x, v, w []float64, f, g float64) { sub2(x, v, w, f, g) }

// reflectRight64 has no kernel on this build.
func reflectRight64(c []float64, ldc, n int, g []float64, tau float64) bool { return false }
