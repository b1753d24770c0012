//go:build !(wasm && goexperiment.simd)

package linalg

// addRowAtB is addRowAtBPortable: natively the plain loop has gonum
// Dgemm's bits (its assembly multiplies and adds, never fuses).
func addRowAtB(c, al, bl []float64) { addRowAtBPortable(c, al, bl) }

// mulRow is mulRowPortable, Dgemm's bits natively as addRowAtB.
func mulRow(ci, ai, b []float64, ldb int) { mulRowPortable(ci, ai, b, ldb) }
