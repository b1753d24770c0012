package active

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/fixture"
)

// TestBadInputsAreErrors: SelectActive refuses nil, empty, NaN, negative
// and oversized inputs with a coded error, never a panic.
func TestBadInputsAreErrors(t *testing.T) {
	t.Parallel()
	Phi := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 1})
	for _, tc := range []struct {
		name   string
		phi    *mat.Dense
		k      int
		lambda float64
	}{
		{"nil", nil, 1, 1}, {"empty", &mat.Dense{}, 1, 1},
		{"NaN", mat.NewDense(1, 1, []float64{math.NaN()}), 1, 1},
		{"k 0", Phi, 0, 1}, {"k -1", Phi, -1, 1}, {"k > rows", Phi, 4, 1}, {"k 2^40", Phi, 1 << 40, 1},
		{"λ -1", Phi, 1, -1}, {"λ NaN", Phi, 1, math.NaN()}, {"λ Inf", Phi, 1, math.Inf(1)}, {"λ subnormal", Phi, 1, 5e-324},
	} {
		fixture.Refuse(t, tc.name, func() error { _, err := SelectActive(tc.phi, tc.k, tc.lambda); return err })
	}
}
