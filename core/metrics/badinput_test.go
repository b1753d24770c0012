package metrics

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
)

// TestBadInputsAreErrors calls every function of metrics with nil, empty,
// NaN, mismatched and extreme inputs: each returns a coded error, never a
// panic, a NaN or a wrong finite number.
func TestBadInputsAreErrors(t *testing.T) {
	t.Parallel()
	I := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	huge := mat.NewDense(2, 2, []float64{1e200, 0, 0, 1e200})
	for _, tc := range []struct {
		name string
		call func() error
		code check.Code
	}{
		{"RelFrobenius nil K", func() error { _, err := RelFrobenius(nil, I); return err }, check.Shape},
		{"RelFrobenius nil Phi", func() error { _, err := RelFrobenius(I, nil); return err }, check.Shape},
		{"RelFrobenius NaN", func() error {
			_, err := RelFrobenius(mat.NewDense(1, 1, []float64{math.NaN()}), mat.NewDense(1, 1, []float64{1}))
			return err
		}, check.NonFinite},
		{"RelFrobenius overflow", func() error { _, err := RelFrobenius(huge, huge); return err }, check.Data},
		{"EntryMSE overflow", func() error { _, err := EntryMSE(huge, huge); return err }, check.Data},
		{"EntryMSE rows", func() error { _, err := EntryMSE(I, mat.NewDense(3, 1, nil)); return err }, check.Shape},
		{"Spectral non-symmetric K", func() error {
			_, err := Spectral(mat.NewDense(2, 2, []float64{2, 1, 0, 2}), I, 0.1)
			return err
		}, check.Value},
		{"Spectral NaN λ", func() error { _, err := Spectral(I, I, math.NaN()); return err }, check.Option},
		{"Spectral subnormal λ", func() error { _, err := Spectral(I, I, 5e-324); return err }, check.Option},
		{"Spectral nil", func() error { _, err := Spectral(nil, nil, 0); return err }, check.Shape},
		{"Spectral overflowing Phi", func() error { _, err := Spectral(I, huge, 0.1); return err }, check.Data},
		{"Accuracy empty", func() error { _, err := Accuracy(nil, nil); return err }, check.Shape},
		{"Accuracy mismatched", func() error { _, err := Accuracy([]float64{1}, []float64{1, 2}); return err }, check.Shape},
		{"Accuracy NaN", func() error { _, err := Accuracy([]float64{math.NaN()}, []float64{1}); return err }, check.NonFinite},
		{"MSE Inf", func() error { _, err := MSE([]float64{1}, []float64{math.Inf(1)}); return err }, check.NonFinite},
		{"MSE overflow", func() error { _, err := MSE([]float64{1e200}, []float64{-1e200}); return err }, check.Data},
		{"R2 constant", func() error { _, err := R2([]float64{3, 3, 3}, []float64{1, 2, 3}); return err }, check.Data},
		{"R2 constant after rounding", func() error { _, err := R2([]float64{0.1, 0.1, 0.1}, []float64{0, 0, 0}); return err }, check.Data},
		{"R2 empty", func() error { _, err := R2(nil, nil); return err }, check.Shape},
		{"Confusion k 0", func() error { _, err := Confusion([]float64{0}, []float64{0}, 0); return err }, check.Option},
		{"Confusion label out of range", func() error { _, err := Confusion([]float64{0}, []float64{5}, 2); return err }, check.Value},
	} {
		fixture.Refuse(t, tc.name, tc.call, tc.code)
	}
	// Values near the float64 limits score as their scaled copies do.
	yt, yp := []float64{1e300, -1e300, 5e299}, []float64{9e299, -1e300, 4e299}
	r2, err := R2(yt, yp)
	want, _ := R2([]float64{1, -1, 0.5}, []float64{0.9, -1, 0.4})
	if err != nil || !(math.Abs(r2-want) <= 1e-12) {
		t.Errorf("R2 of values near 1e300: %v (%v), want %v", r2, err, want)
	}
	big := mat.NewDense(2, 2, []float64{1e300, 0, 0, 1e300})
	switch v, err := Spectral(big, mat.NewDense(2, 1, []float64{1e150, 1e150}), 0.1); {
	case err == nil && !(v >= 1 && !math.IsInf(v, 0)):
		t.Errorf("Spectral of 1e300 entries: %v, a condition number is finite and ≥ 1", v)
	case err != nil && check.CodeOf(err) == "":
		t.Errorf("Spectral of 1e300 entries: %v has no code", err)
	}
}
