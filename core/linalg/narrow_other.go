//go:build (!amd64 || noasm) && !(wasm && goexperiment.simd)

package linalg

// reflectNarrow has no kernel on this build.
func reflectNarrow(c []float64, ldc, cols, i0, n int, v []float64, tau float64) bool { return false }

// reflectPairs has no kernel on this build.
func reflectPairs(c []float64, ldc, n int, u []float64, tau float64) bool { return false }
