//go:build !(wasm && goexperiment.simd) && !(amd64 && !noasm)

package linalg

// dot is the dot product of this build: plain Go.
func dot(x, y []float64) float64 { return dotPortable(x, y) }

// axpy is the vector update of this build: plain Go.
func axpy(y, x []float64, s float64) { axpyPortable(y, x, s) }

// sub2 is the two-term update of this build: plain Go.
func sub2(x, v, w []float64, f, g float64) { sub2Portable(x, v, w, f, g) }

// quadCols is Quad's sweep of columns [c0, c1) in this build: plain Go.
func quadCols(f *ShiftedLDL, out, x []float64, l, c0, c1 int) {
	quadColsPortable(f, out, x, l, c0, c1)
}
