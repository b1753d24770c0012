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

// TestPlanSharesSolve: a settled plan says its solve shares the
// factorization (an exact kernel on linalg.ShareMin rows or more, not a
// features fit or fewer rows), and the solve with a helper gives the
// model of the solve alone, byte for byte.
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
	} {
		plan, err := protocol.NewPlan(tc.cfg, tc.rows, cols, y[:tc.rows])
		if err != nil {
			t.Fatal(err)
		}
		if got := plan.Shares(); got != tc.want {
			t.Errorf("%s: Shares() = %v", tc.name, got)
		}
	}
	for _, cfg := range []pipeline.Config{exact, wide} {
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
	go func() { done <- linalg.ServeCholesky(helper) }()
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
