package main

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
)

// cvTol is the agreement required of two predictions computed from the
// same training rows: the same fits on the same numbers, so only the
// blocking of the test rows could differ (it does not; 1e-12 is margin).
const cvTol = 1e-12

// TestCVPredictUsesTrainingFoldsOnly: cvPredict (behind docs/PERFORMANCE.md's
// accuracy table) must fit the scaler, the model, the pipeline's 'auto'
// search (depth, preprocessing, λ) and the choice between candidates on
// the training folds alone. Then the prediction of a test
// row depends only on that row and the other folds: replacing the other
// rows of its fold by wild values, and the fold's labels by others, leaves
// it unchanged. A scaler fitted on all rows (or on the test fold) would
// take its means and deviations from the wild values and move it.
func TestCVPredictUsesTrainingFoldsOnly(t *testing.T) {
	const n, d = 40, 3
	r := rand.New(rand.NewPCG(5, 6))
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		for j := range d {
			X.Set(i, j, 2+r.NormFloat64()*float64(j+1))
		}
		y[i] = math.Sin(X.At(i, 0)) + 0.3*X.At(i, 1) + 0.1*r.NormFloat64()
	}
	groups := make([]data.Group, d)
	for j := range groups {
		groups[j] = data.Group{Column: j, Start: j, Width: 1}
	}
	ds := func(X *mat.Dense, y []float64) *data.Dataset {
		return &data.Dataset{X: X, Y: y, Task: data.Regression, Groups: groups}
	}
	cands := []pipeline.Config{
		{Kernel: &kernel.Spec{Name: "ntk"}},                                        // depth and preprocessing 'auto'
		{Features: rf.Config{Dim: 64, Seed: 3}, Search: pipeline.Search{Rows: 20}}, // the search on a sample
	}
	folds, err := data.KFold(n, 4, 7)
	if err != nil {
		t.Fatal(err)
	}
	want, wantChosen, err := cvPredict(ds(X, y), folds, cands)
	if err != nil {
		t.Fatal(err)
	}
	test := folds[0]
	for _, keep := range test {
		Xw, yw := mat.DenseCopyOf(X), slices.Clone(y)
		for _, i := range test {
			yw[i] = 1e3 * r.NormFloat64()
			if i == keep {
				continue
			}
			for j := range d {
				Xw.Set(i, j, 1e6*r.NormFloat64())
			}
		}
		got, chosen, err := cvPredict(ds(Xw, yw), folds, cands)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(chosen[0].Selection())
		b, _ := json.Marshal(wantChosen[0].Selection())
		if chosen[0].Selection() == nil || !bytes.Equal(a, b) || chosen[0].Lambda() != wantChosen[0].Lambda() {
			t.Errorf("fold 0: the selection changed with its test rows:\n%s\n%s", a, b)
		}
		if math.Abs(got[keep]-want[keep]) > cvTol*math.Abs(want[keep]) {
			t.Errorf("row %d: predicted %.15g, but %.15g once the rest of its test fold changed", keep, want[keep], got[keep])
		}
	}
}
