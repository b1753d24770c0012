package kernel

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/fixture"
)

// TestBadInputsAreErrors calls every function of kernel with nil, empty,
// negative, NaN and mismatched inputs: each returns a coded error, never a
// panic.
func TestBadInputsAreErrors(t *testing.T) {
	t.Parallel()
	X := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	nan := mat.NewDense(1, 2, []float64{math.NaN(), 1})
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"NTK nil", func() error { _, err := NTK(nil, 1); return err }},
		{"NTK empty", func() error { _, err := NTK(&mat.Dense{}, 1); return err }},
		{"NTK NaN", func() error { _, err := NTK(nan, 1); return err }},
		{"NTK depth -1", func() error { _, err := NTK(X, -1); return err }},
		{"NTK depth 65", func() error { _, err := NTK(X, 65); return err }},
		{"NTK huge row", func() error { _, err := NTK(mat.NewDense(1, 2, []float64{1e200, 1e200}), 1); return err }},
		{"NTKCross nil Z", func() error { _, err := NTKCross(X, nil, 1); return err }},
		{"NTKCross widths", func() error { _, err := NTKCross(X, mat.NewDense(1, 3, nil), 1); return err }},
		{"NNGP nil", func() error { _, err := NNGP(nil, 1); return err }},
		{"NNGPCross NaN", func() error { _, err := NNGPCross(X, nan, 1); return err }},
		{"RBF negative γ", func() error { _, err := RBF(X, -1); return err }},
		{"RBF NaN γ", func() error { _, err := RBF(X, math.NaN()); return err }},
		{"RBFCross nil", func() error { _, err := RBFCross(nil, X, 1); return err }},
		{"Gram nil", func() error { _, err := Spec{Name: "ntk", Depth: 1}.Gram(nil, nil); return err }},
		{"Gram unknown", func() error { _, err := Spec{Name: "poly"}.Gram(X, nil); return err }},
		{"Validate negative depth", func() error { return Spec{Name: "ntk", Depth: -2}.Validate() }},
		{"Filled negative d", func() error { _, err := Spec{Name: "rbf"}.Filled(-1); return err }},
	} {
		fixture.Refuse(t, tc.name, tc.call)
	}
}
