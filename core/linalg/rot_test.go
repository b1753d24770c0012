package linalg

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"ntkrf/internal/fixture"
)

// TestRotSweepBits: the sweep of plane rotations of this build (AVX on
// amd64, SIMD in WebAssembly, plain Go elsewhere) gives the bits of the
// portable loop, on widths around the vector widths and on partial spans
// of rows and columns.
func TestRotSweepBits(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for _, l := range []int{1, 2, 3, 7, 8, 9, 10, 11, 16, 17, 33} {
		const rows = 40
		w := randFloats(r, rows*l)
		cs, sn := randFloats(r, rows), randFloats(r, rows)
		for _, span := range [][4]int{{0, rows - 1, 0, l}, {5, 30, 0, l}, {3, 4, l / 2, l}, {7, 7, 0, l}, {2, 39, 1, l}} {
			got, want := append([]float64(nil), w...), append([]float64(nil), w...)
			rotSweep(got, l, span[0], span[1], cs, sn, span[2], span[3])
			rotSweepPortable(want, l, span[0], span[1], cs, sn, span[2], span[3])
			fixture.SameBits(t, fmt.Sprintf("rotSweep l=%d %v", l, span), got, want)
		}
	}
}
