//go:build (!amd64 || noasm) && !(wasm && goexperiment.simd)

package linalg

// gemmStrips covers no columns in this build: gemmBlock runs the portable
// loop on everything.
func gemmStrips(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, i0, i1, j0, j1, k int, add bool) int {
	return j0
}
