package protocol_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/linalg"
	"ntkrf/core/pipeline"
	"ntkrf/core/protocol"
	"ntkrf/core/rf"
	"ntkrf/internal/fixture"
)

// TestPlanSharesSolve: a settled plan says its solve shares work with a
// helper (the factorization of an exact kernel on linalg.ShareMin rows or
// more, or of features that wide; a held-out search's sums where
// krr.HelpsHeld; not a narrow features fit on few rows nor one with λ
// fixed), and the solve with a helper gives the model of the solve alone,
// byte for byte.
func TestPlanSharesSolve(t *testing.T) {
	n, cols := linalg.ShareMin+80, 4
	X, y := fixture.Data(n, cols, 2, 5)
	exact := pipeline.Config{
		Preprocess: &data.Prep{},
		Kernel:     &kernel.Spec{Name: kernel.NameNTK, Depth: 2},
		Ridge:      krr.Options{Task: krr.Classification, Lambda: 0.01},
	}
	features := pipeline.Config{Preprocess: &data.Prep{}, Features: rf.Config{Dim: 32, Depth: 1}, Ridge: krr.Options{Task: krr.Classification}}
	wide := features
	wide.Features.Dim = linalg.ShareMin
	held := features // the held-out rows' sums, not the factorization
	held.Features.Dim = 512
	fixed := held
	fixed.Ridge.Lambda = 0.1
	for _, tc := range []struct {
		name string
		cfg  pipeline.Config
		rows int
		want bool
	}{
		{"exact, ShareMin rows and more", exact, n, true},
		{"exact, fewer", exact, linalg.ShareMin - 1, false},
		{"features, fewer than ShareMin", features, n, false},
		{"features, ShareMin", wide, n, true},
		{"features, a held-out search worth a helper", held, n, true},
		{"features, λ fixed", fixed, n, false},
	} {
		plan, err := protocol.NewPlan(tc.cfg, tc.rows, cols, y[:tc.rows])
		if err != nil {
			t.Fatal(err)
		}
		if got := plan.Shares(); got != tc.want {
			t.Errorf("%s: Shares() = %v", tc.name, got)
		}
	}
	for _, cfg := range []pipeline.Config{exact, wide, held} {
		sharedSolve(t, cfg, X, y)
	}
}

// sharedSolve fits cfg on X, y in one part and solves it alone and with a
// helper: the same model file.
func sharedSolve(t *testing.T, cfg pipeline.Config, X *mat.Dense, y []float64) {
	ctx := context.Background()
	n, cols := X.Dims()
	plan, err := protocol.NewPlan(cfg, n, cols, y)
	if err != nil {
		t.Fatal(err)
	}
	stats := plan.NewStats()
	if err := stats.AddAt(X, 0); err != nil {
		t.Fatal(err)
	}
	scaler, err := plan.Scaler(stats)
	if err != nil {
		t.Fatal(err)
	}
	solve := func(p *protocol.Plan) []byte {
		part, err := p.NewPart(scaler)
		if err != nil {
			t.Fatal(err)
		}
		if err := part.Add(ctx, X, y, 0); err != nil {
			t.Fatal(err)
		}
		pl, err := p.Solve(ctx, scaler, part)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(pl)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	alone := solve(plan)
	solver, helper := fixture.Pipes()
	done := make(chan error, 1)
	go func() { done <- protocol.ServeHelper(helper) }()
	shared := solve(plan.WithHelper(solver))
	if solver.Sent() < 2 {
		t.Fatalf("the solve sent the helper %d messages: it did not share", solver.Sent())
	}
	_ = linalg.EndShare(solver)
	if err := <-done; err != nil {
		t.Fatalf("the helper: %v", err)
	}
	if !bytes.Equal(shared, alone) {
		t.Errorf("%v: the model solved with a helper differs from the model solved alone", cfg.Kernel != nil)
	}
}
