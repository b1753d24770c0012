package krr

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/errs"
	"ntkrf/core/kernel"
	"ntkrf/internal/fixture"
)

// TestBadInputsAreErrors calls every exported function of krr with nil,
// empty, negative, NaN and mismatched inputs: each must return an error,
// never panic and never a result.
func TestBadInputsAreErrors(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(20, 3, 0, 1)
	f := fixture.NewReLU(3, 8, 1)
	nan := mat.NewDense(2, 3, []float64{1, math.NaN(), 0, 1, 2, 3})
	good, err := FitFeatures(f, X, y, Options{Task: Regression})
	if err != nil {
		t.Fatal(err)
	}
	kmodel, err := FitKernel(kernel.Spec{Name: "ntk", Depth: 1}, X, y, Options{Task: Regression})
	if err != nil {
		t.Fatal(err)
	}
	acc, _ := NewAccumulator(8, Options{Task: Regression})
	W, bias := good.Coefficients()
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"NewFeatureModel nil featurizer", func() error { _, err := NewFeatureModel(nil, W, bias, Regression, 1, nil); return err }},
		{"NewFeatureModel typed nil featurizer", func() error {
			_, err := NewFeatureModel((*fixture.ReLU)(nil), W, bias, Regression, 1, nil)
			return err
		}},
		{"NewFeatureModel nil W", func() error { _, err := NewFeatureModel(f, nil, bias, Regression, 1, nil); return err }},
		{"NewFeatureModel no bias", func() error { _, err := NewFeatureModel(f, W, nil, Regression, 1, nil); return err }},
		{"NewFeatureModel λ NaN", func() error { _, err := NewFeatureModel(f, W, bias, Regression, math.NaN(), nil); return err }},
		{"NewKernelModel nil X", func() error {
			_, err := NewKernelModel(kernel.Spec{Name: "ntk", Depth: 1}, nil, W, bias, Regression, 1, nil)
			return err
		}},
		{"NewKernelModel nil alpha", func() error {
			_, err := NewKernelModel(kernel.Spec{Name: "ntk", Depth: 1}, X, nil, bias, Regression, 1, nil)
			return err
		}},
		{"NewKernelModel bad spec", func() error {
			_, err := NewKernelModel(kernel.Spec{Name: "nope"}, X, mat.NewDense(20, 1, nil), []float64{0}, Regression, 1, nil)
			return err
		}},
		{"FitFeatures nil featurizer", func() error { _, err := FitFeatures(nil, X, y, Options{Task: Regression}); return err }},
		{"FitFeatures nil X", func() error { _, err := FitFeatures(f, nil, y, Options{Task: Regression}); return err }},
		{"FitFeatures NaN X", func() error { _, err := FitFeatures(f, nan, y[:2], Options{Task: Regression}); return err }},
		{"FitFeatures short y", func() error { _, err := FitFeatures(f, X, y[:3], Options{Task: Regression}); return err }},
		{"FitFeatures negative λ", func() error { _, err := FitFeatures(f, X, y, Options{Task: Regression, Lambda: -1}); return err }},
		{"FitFeatures subnormal λ", func() error { _, err := FitFeatures(f, X, y, Options{Task: Regression, Lambda: 5e-324}); return err }},
		{"FitKernel nil X", func() error {
			_, err := FitKernel(kernel.Spec{Name: "ntk", Depth: 1}, nil, y, Options{Task: Regression})
			return err
		}},
		{"FitKernel NaN y", func() error {
			_, err := FitKernel(kernel.Spec{Name: "ntk", Depth: 1}, X, append([]float64{math.NaN()}, y[1:]...), Options{Task: Regression})
			return err
		}},
		{"KernelCurve nil K", func() error { _, _, err := KernelCurve(nil, y, Options{Task: Regression}); return err }},
		{"KernelCurve non-square K", func() error {
			_, _, err := KernelCurve(mat.NewDense(2, 3, nil), y[:2], Options{Task: Regression})
			return err
		}},
		{"NewAccumulator 0", func() error { _, err := NewAccumulator(0, Options{Task: Regression}); return err }},
		{"NewAccumulator -1", func() error { _, err := NewAccumulator(-1, Options{Task: Regression}); return err }},
		{"NewAccumulator huge", func() error { _, err := NewAccumulator(1<<40, Options{Task: Regression}); return err }},
		{"Add nil", func() error { return acc.Add(nil, nil) }},
		{"Add NaN", func() error {
			return acc.Add(mat.NewDense(1, 8, []float64{math.NaN(), 0, 0, 0, 0, 0, 0, 0}), []float64{1})
		}},
		{"AddExcept nil dst", func() error { return acc.AddExcept(mat.NewDense(2, 8, nil), []float64{1, 2}, []int{0}, nil, 0) }},
		{"AddExcept out of order", func() error {
			return acc.AddExcept(mat.NewDense(2, 8, nil), []float64{1, 2}, []int{1, 0}, mat.NewDense(2, 8, nil), 0)
		}},
		{"Merge nil", func() error { return acc.Merge(nil) }},
		{"AddParts short", func() error { return acc.AddParts(Parts{Rows: 1}) }},
		{"SolveAt 0", func() error { _, err := acc.SolveAt(0); return err }},
		{"SolveAt NaN", func() error { _, err := acc.SolveAt(math.NaN()); return err }},
		{"Solve with no rows", func() error { a, _ := NewAccumulator(8, Options{Task: Regression}); _, err := a.Solve(); return err }},
		{"SolveHeldOut nil", func() error { _, err := acc.SolveHeldOut(nil, nil); return err }},
		{"Predict nil", func() error { _, err := good.Predict(nil); return err }},
		{"Predict NaN", func() error { _, err := good.Predict(nan); return err }},
		{"Predict kernel model wrong width", func() error { _, err := kmodel.Predict(mat.NewDense(1, 2, []float64{1, 2})); return err }},
		{"PredictLabels nil", func() error { _, err := good.PredictLabels(nil); return err }},
		{"SetFeaturizer nil", func() error { return good.SetFeaturizer(nil) }},
		{"Best empty", func() error { _, err := Best(nil, false); return err }},
		{"AddSums mismatched", func() error { _, err := AddSums(make([]CurvePoint, 3), make([]CurvePoint, 2)); return err }},
		{"Spectrum.Solve negative λ", func() error {
			a, _ := NewAccumulator(8, Options{Task: Regression})
			Phi, _ := f.Transform(nil, X)
			if err := a.Add(Phi, y); err != nil {
				return nil
			}
			s, err := a.Spectrum()
			if err != nil {
				return nil
			}
			_, err = s.Solve([]CurvePoint{{Lambda: -1, Score: 1}})
			return err
		}},
		{"Spectrum.LOOCurve short", func() error {
			a, _ := NewAccumulator(8, Options{Task: Regression})
			Phi, _ := f.Transform(nil, X)
			a.Add(Phi, y)
			s, err := a.Spectrum()
			if err != nil {
				return nil
			}
			_, err = s.LOOCurve(nil)
			return err
		}},
		{"Resolve NaN λ", func() error { _, err := Options{Lambda: math.NaN()}.Resolve(y); return err }},
		{"Resolve negative classes", func() error { _, err := Options{Classes: -1}.Resolve(y); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) { fixture.Refuse(t, tc.name, tc.call) })
	}
}

// TestLimits: the limits the schema reads are the core's, applied here:
// a classifier needs MinClasses, a grid holds at most MaxGrid λ.
func TestLimits(t *testing.T) {
	t.Parallel()
	y := []float64{0, 1, 1, 0}
	long := make([]float64, MaxGrid+1)
	for i := range long {
		long[i] = 1
	}
	fixture.Refuse(t, "one class", func() error { _, err := Options{Classes: MinClasses - 1}.Resolve(y); return err }, errs.Option)
	fixture.Refuse(t, "grid too long", func() error { _, err := Options{Task: Classification, Grid: long}.Resolve(y); return err }, errs.Option)
	if _, err := (Options{Task: Classification, Grid: long[:MaxGrid]}).Resolve(y); err != nil {
		t.Errorf("a grid of MaxGrid λ: %v", err)
	}
}
