package pipeline

import (
	"bytes"
	"context"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/errs"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/rf"
	"ntkrf/internal/fixture"
)

// TestBadInputsAreErrors calls the exported functions of pipeline with
// nil, empty, negative, NaN and mismatched inputs: each returns a coded
// error, never a panic.
func TestBadInputsAreErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	X, y := fixture.Data(30, 3, 2, 1)
	cfg := Config{Features: rf.Config{Dim: 16, Depth: 1, Seed: 1}, Preprocess: &data.Prep{}}
	cfg.Ridge.Task = "classification"
	p, err := Fit(ctx, X, y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	nan := mat.NewDense(1, 3, []float64{math.NaN(), 0, math.Inf(1)})
	open, stats, Xs, ys := openPlan(t, X, y, Config{Features: rf.Config{Dim: 16}, Ridge: krr.Options{Task: krr.Classification}})
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"Fit nil X", func() error { _, err := Fit(ctx, nil, y, cfg); return err }},
		{"Fit empty X", func() error { _, err := Fit(ctx, &mat.Dense{}, nil, cfg); return err }},
		{"Fit short y", func() error { _, err := Fit(ctx, X, y[:3], cfg); return err }},
		{"Fit Inf X", func() error { _, err := Fit(ctx, nan, []float64{0}, cfg); return err }},
		{"Fit negative dim", func() error { c := cfg; c.Features.Dim = -1; _, err := Fit(ctx, X, y, c); return err }},
		{"Fit bad kernel", func() error { c := cfg; c.Kernel = &kernel.Spec{Name: "nope"}; _, err := Fit(ctx, X, y, c); return err }},
		{"Fit overlapping groups", func() error {
			c := cfg
			c.Groups = []data.Group{{Start: 0, Width: 2, Categorical: true}, {Start: 1, Width: 1}}
			_, err := Fit(ctx, X, y, c)
			return err
		}},
		{"Fit subnormal λ", func() error { c := cfg; c.Ridge.Lambda = 5e-324; _, err := Fit(ctx, X, y, c); return err }},
		{"FitDataset nil", func() error { _, err := FitDataset(ctx, nil, cfg); return err }},
		{"FitDataset empty", func() error { _, err := FitDataset(ctx, &data.Dataset{}, cfg); return err }},
		{"Select nil X", func() error { _, _, err := Select(ctx, nil, y, cfg); return err }},
		{"Score part out of range", func() error { _, err := open.Score(ctx, Xs, ys, stats, 3, 2); return err }},
		{"Score negative parts", func() error { _, err := open.Score(ctx, Xs, ys, stats, 0, -1); return err }},
		{"Score nil rows", func() error { _, err := open.Score(ctx, nil, nil, stats, 0, 1); return err }},
		{"Score nil stats", func() error { _, err := open.Score(ctx, Xs, ys, nil, 0, 1); return err }},
		{"Score short targets", func() error { _, err := open.Score(ctx, Xs, ys[1:], stats, 0, 1); return err }},
		{"Choose nil", func() error { _, _, err := open.Choose(nil); return err }},
		{"Scaler of an open plan", func() error { _, err := open.Scaler(stats); return err }},
		{"NewPart of an open plan", func() error { _, err := open.NewPart(nil); return err }},
		{"DecodePart of an open plan", func() error { _, err := open.DecodePart(nil); return err }},
		{"Simplest nil", func() error { _, err := Simplest(nil, nil, false); return err }},
		{"Simplest mismatched", func() error { _, err := Simplest([]Candidate{{}, {}}, [][]float64{{1, 2}}, false); return err }},
		{"Simplest ragged losses", func() error {
			_, err := Simplest([]Candidate{{Lambda: 1, Score: 1}, {Lambda: 1, Score: 2}}, [][]float64{{1, 2}, {1, 2, 3}}, false)
			return err
		}},
		{"Simplest one row", func() error {
			_, err := Simplest([]Candidate{{Lambda: 1, Score: 1}, {Lambda: 1, Score: 2}}, [][]float64{{1}, {2}}, false)
			return err
		}},
		{"assemble zero", func() error { _, err := assemble(components{}); return err }},
		{"Decode nil", func() error { _, err := Decode(nil, nil, nil); return err }},
		{"Load empty", func() error { _, err := Load(bytes.NewReader(nil)); return err }},
		{"Scores nil", func() error { _, err := p.Scores(nil); return err }},
		{"Predict NaN", func() error { _, err := p.Predict(nan); return err }},
		{"Predict wrong width", func() error { _, err := p.Predict(mat.NewDense(1, 2, nil)); return err }},
		{"ReadCSV without a schema", func() error { _, err := p.ReadCSV([]byte("a,b,c\n1,2,3\n"), 0); return err }},
		{"PredictCSV negative maxBytes", func() error { _, err := p.PredictCSV([]byte("a,b,c\n1,2,3\n"), -1); return err }},
	} {
		fixture.Refuse(t, tc.name, tc.call)
	}
}

// TestSearchLimits: the search's bounds the schema reads are applied by
// the core: at most MaxSearchPreprocess preprocessings, kernel.MaxDepth
// depths, MinSearchRows … MaxSearchRows rows.
func TestSearchLimits(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(30, 3, 2, 1)
	fit := func(s Search) func() error {
		return func() error {
			_, err := Fit(context.Background(), X, y, Config{Features: rf.Config{Dim: 16}, Search: s, Ridge: krr.Options{Task: krr.Classification}})
			return err
		}
	}
	fixture.Refuse(t, "17 preprocessings", fit(Search{Preprocess: make([]data.Prep, MaxSearchPreprocess+1)}), errs.Option)
	fixture.Refuse(t, "65 depths", fit(Search{Depths: slices.Repeat([]int{1}, kernel.MaxDepth+1)}), errs.Option)
	fixture.Refuse(t, "2 rows", fit(Search{Rows: MinSearchRows - 1}), errs.Option)
	fixture.Refuse(t, "too many rows", fit(Search{Rows: MaxSearchRows + 1}), errs.Option)
}
