package krr

import (
	"math"
	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/internal/fixture"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestPartsAcrossProcesses: accumulating row blocks separately and moving
// their Parts gives the model of one accumulator, and a model rebuilt from
// its coefficients predicts like the original.
func TestPartsAcrossProcesses(t *testing.T) {
	t.Parallel()
	const tol = 1e-10 // summation order differs between the splits
	X, y := fixture.Data(300, 5, 3, 11)
	f := fixture.NewReLU(5, 40, 3)
	opt := Options{Task: Classification, Classes: 3}
	whole, err := FitFeatures(f, X, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	acc, _ := NewAccumulator(f.Dim(), opt)
	held := HoldoutRows(300)
	phiHeld := mat.NewDense(len(held), f.Dim(), nil)
	for _, blk := range [][2]int{{0, 120}, {120, 121}, {121, 300}} {
		part, _ := NewAccumulator(f.Dim(), opt)
		xb := X.Slice(blk[0], blk[1], 0, 5).(*mat.Dense)
		phi, _ := f.Transform(nil, xb)
		out, at := heldIn(held, blk[0], blk[1])
		if err := part.AddExcept(phi, y[blk[0]:blk[1]], out, phiHeld, at); err != nil {
			t.Fatal(err)
		}
		if err := acc.AddParts(part.Parts()); err != nil {
			t.Fatal(err)
		}
	}
	merged, err := acc.SolveHeldOut(phiHeld, data.Take(y, held))
	if err != nil {
		t.Fatal(err)
	}
	W, bias := merged.Coefficients()
	rebuilt, err := NewFeatureModel(f, W, bias, merged.Task(), merged.Lambda(), merged.Curve())
	if err != nil {
		t.Fatal(err)
	}
	a, _ := whole.Predict(X)
	b, err := rebuilt.Predict(X)
	if err != nil {
		t.Fatal(err)
	}
	if d := fixture.RelDiff(a, b); d > tol {
		t.Errorf("merged parts predict %g away from one accumulator", d)
	}
	if whole.Lambda() != merged.Lambda() {
		t.Errorf("λ %g vs %g", whole.Lambda(), merged.Lambda())
	}

	k := kernel.Spec{Name: "ntk", Depth: 2}
	dual, err := FitKernel(k, X, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	alpha, dbias := dual.Coefficients()
	rd, err := NewKernelModel(k, X, alpha, dbias, Classification, dual.Lambda(), nil)
	if err != nil {
		t.Fatal(err)
	}
	la, _ := dual.PredictLabels(X)
	lb, _ := rd.PredictLabels(X)
	for i := range la {
		if la[i] != lb[i] {
			t.Fatalf("rebuilt kernel model labels row %d as %v, the original as %v", i, lb[i], la[i])
		}
	}
}

func TestExportErrors(t *testing.T) {
	t.Parallel()
	f := fixture.NewReLU(3, 4, 1)
	acc, _ := NewAccumulator(4, Options{Task: Regression})
	W := mat.NewDense(4, 1, []float64{1, 2, 3, 4})
	cases := []struct {
		err  error
		want string
	}{
		{acc.AddParts(Parts{Rows: 1, Mu: make([]float64, 3)}), "parts have 3"},
		{acc.AddParts(Parts{Rows: -1, Mu: make([]float64, 4), Ybar: make([]float64, 1), C: make([]float64, 16), D: make([]float64, 4), E: make([]float64, 1)}), "-1 rows"},
		{acc.AddParts(Parts{Rows: 1, Mu: []float64{1, 2, 3, math.Inf(1)}, Ybar: make([]float64, 1), C: make([]float64, 16), D: make([]float64, 4), E: make([]float64, 1)}), "non-finite"},
		{func() error { _, err := NewFeatureModel(f, W, []float64{0}, "ranking", 1, nil); return err }(), "unknown task"},
		{func() error { _, err := NewFeatureModel(f, W, []float64{0, 1}, Regression, 1, nil); return err }(), "2 biases"},
		{func() error { _, err := NewFeatureModel(f, W, []float64{0}, Regression, 0, nil); return err }(), "lambda 0"},
		{func() error {
			_, err := NewFeatureModel(fixture.NewReLU(3, 5, 1), W, []float64{0}, Regression, 1, nil)
			return err
		}(), "5 features but W has 4"},
		{func() error {
			_, err := NewKernelModel(kernel.Spec{Name: "ntk", Depth: 1}, mat.NewDense(2, 3, nil), W, []float64{0}, Regression, 1, nil)
			return err
		}(), "4 rows but there are 2"},
	}
	for i, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) || !strings.HasPrefix(c.err.Error(), "krr: ") {
			t.Errorf("case %d: %v, want an error containing %q", i, c.err, c.want)
		}
	}
}

// TestDualPathEqualsPrimal: with no more rows than features FitFeatures
// solves on ΦΦᵀ; at a fixed λ that is the primal model.
func TestDualPathEqualsPrimal(t *testing.T) {
	t.Parallel()
	const tol = 1e-9 // two different factorizations of the same problem
	X, y := fixture.Data(30, 4, 3, 5)
	f := fixture.NewReLU(4, 50, 9)
	opt := Options{Task: Classification, Classes: 3, Lambda: 0.3}
	dual, err := FitFeatures(f, X, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	acc, _ := NewAccumulator(50, opt)
	phi, _ := f.Transform(nil, X)
	if err := acc.Add(phi, y); err != nil {
		t.Fatal(err)
	}
	primal, err := acc.Solve()
	if err != nil {
		t.Fatal(err)
	}
	if err := primal.SetFeaturizer(f); err != nil {
		t.Fatal(err)
	}
	Xt, _ := fixture.Data(20, 4, 3, 6)
	a, _ := dual.Predict(Xt)
	b, _ := primal.Predict(Xt)
	if d := fixture.RelDiff(a, b); d > tol {
		t.Errorf("dual path predicts %g away from the primal solve", d)
	}
	auto, err := FitFeatures(f, X, y, Options{Task: Classification, Classes: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(auto.Curve()) == 0 || auto.Lambda() <= 0 {
		t.Errorf("automatic λ in the dual path: λ %g, curve of %d points", auto.Lambda(), len(auto.Curve()))
	}
}

// TestNonFiniteModels: a model never hands on NaN or ±Inf. Non-finite
// coefficients are refused when a model is rebuilt or fitted, and a row
// whose score overflows is an error naming it; before, its label was the
// class 0 (NaN compares false with every score).
func TestNonFiniteModels(t *testing.T) {
	t.Parallel()
	nanW := mat.NewDense(2, 1, []float64{1, math.NaN()})
	finite := mat.NewDense(2, 1, []float64{1, 2})
	huge := mat.NewDense(2, 2, []float64{1e300, 1, -1e300, 1}) // (x, x)·W overflows to Inf − Inf
	train := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	ntk := kernel.Spec{Name: "ntk", Depth: 1}
	rows := mat.NewDense(2, 2, []float64{1, 2, 1e10, 1e10})
	// Parts whose feature means are so large that the intercept ȳ − μᵀW
	// overflows although the solve itself succeeds (W ≈ D = 1).
	overflow := Parts{Rows: 10, Mu: []float64{1e308, 1e308}, Ybar: []float64{0}, C: []float64{1, 0, 0, 1}, D: []float64{1, 1}, E: []float64{1}}
	cases := []struct {
		name string
		err  func() error
		want string
	}{
		{"NaN coefficient", func() error {
			_, err := NewFeatureModel(identity{2}, nanW, []float64{0}, Regression, 1, nil)
			return err
		}, "coefficients has NaN at row 1"},
		{"Inf bias", func() error {
			_, err := NewFeatureModel(identity{2}, finite, []float64{math.Inf(-1)}, Regression, 1, nil)
			return err
		}, "bias -Inf is not finite"},
		{"Inf α", func() error {
			_, err := NewKernelModel(ntk, train, mat.NewDense(2, 1, []float64{math.Inf(1), 0}), []float64{0}, Regression, 1, nil)
			return err
		}, "coefficients has +Inf at row 0"},
		{"score overflows", func() error {
			m, err := NewFeatureModel(identity{2}, huge, []float64{0, 0}, Classification, 1, nil)
			if err != nil {
				return err
			}
			_, err = m.PredictLabels(rows)
			return err
		}, "score of row 1 (output 0) is NaN"},
		{"fitted intercept overflows", func() error {
			acc, err := NewAccumulator(2, Options{})
			if err != nil {
				return err
			}
			if err := acc.AddParts(overflow); err != nil {
				return err
			}
			_, err = acc.SolveAt(1e-9)
			return err
		}, "has a coefficient -Inf"},
	}
	for _, tc := range cases {
		if err := tc.err(); err == nil || !strings.HasPrefix(err.Error(), "krr: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want krr: …%s…", tc.name, err, tc.want)
		}
	}
	m, err := NewFeatureModel(identity{2}, huge, []float64{0, 0}, Classification, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	labels := m.Labels(mat.NewDense(2, 2, []float64{0, 1, math.NaN(), 1}))
	if labels[0] != 1 || !math.IsNaN(labels[1]) {
		t.Errorf("Labels of scores (0, 1) and (NaN, 1) = %v, want [1 NaN]", labels)
	}
}
