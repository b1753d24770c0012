//go:build !(wasm && goexperiment.simd) && !(amd64 && !noasm)

package linalg

// rotSweep is the sweep of plane rotations of this build: plain Go.
func rotSweep(w []float64, l, lo, hi int, cs, sn []float64, t0, t1 int) {
	rotSweepPortable(w, l, lo, hi, cs, sn, t0, t1)
}
