//go:build goexperiment.simd && wasm

package linalg

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"ntkrf/internal/fixture"
)

// The SIMD loops must give the bits of their portable twins, on lengths
// around the vector width and unrolling.

func TestVectorLoopsSIMDBits(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 41 {
		x, v, w := randFloats(r, n), randFloats(r, n), randFloats(r, n)
		fixture.SameBits(t, fmt.Sprintf("dot n=%d", n), []float64{dot(x, v)}, []float64{dotPortable(x, v)})
		got, want := append([]float64(nil), x...), append([]float64(nil), x...)
		sub2(got, v, w, 0.3, -1.7)
		sub2Portable(want, v, w, 0.3, -1.7)
		fixture.SameBits(t, fmt.Sprintf("sub2 n=%d", n), got, want)
		got, want = append([]float64(nil), x...), append([]float64(nil), x...)
		axpy(got, v, -0.7)
		axpyPortable(want, v, -0.7)
		fixture.SameBits(t, fmt.Sprintf("axpy n=%d", n), got, want)
	}
}
