//go:build (!amd64 || noasm) && !(wasm && goexperiment.simd)

package linalg

// reflectNarrow has no kernel on this build.
func reflectNarrow(c []float64, ldc, cols, i0, n int, v []float64, tau float64) bool { return false }

// reflectLeft64 has no kernel on this build.
func reflectLeft64(c []float64, ldc, n int, v []float64, tau float64) bool { return false }
