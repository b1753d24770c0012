//go:build amd64 && !noasm

package linalg

import "golang.org/x/sys/cpu"

// Implemented in rot_amd64.s.

//go:noescape
func rotRows(n int, x, y *float64, c, s float64)

var rotAVX = cpu.X86.HasAVX

// rotSweep is rotSweepPortable with AVX on the two rows of each rotation
// (contiguous, and the row shared with the next rotation stays in the L1
// cache). Multiplies and adds are separate, in the portable order, so
// every entry gets the portable bits (and WebAssembly's).
func rotSweep(w []float64, l, lo, hi int, cs, sn []float64, t0, t1 int) {
	n := (t1 - t0) &^ 7
	if !rotAVX || n == 0 || hi <= lo {
		rotSweepPortable(w, l, lo, hi, cs, sn, t0, t1)
		return
	}
	_, _, _ = w[hi*l+t1-1], cs[lo:hi], sn[lo:hi]
	for i := hi - 1; i >= lo; i-- {
		rotRows(n, &w[i*l+t0], &w[(i+1)*l+t0], cs[i], sn[i])
	}
	if t0+n < t1 {
		rotSweepPortable(w, l, lo, hi, cs, sn, t0+n, t1)
	}
}
