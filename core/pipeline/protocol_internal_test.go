package pipeline

import (
	"context"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/rf"
	"ntkrf/internal/fixture"
)

// The protocol's tests through its exported API are ntkrf/core/protocol's;
// these need the implementation's insides (the plan's feature map, a
// part's sums).

// smallPlan is a held-out classification plan of 40 rows (8 held out) and
// its statistics' scaler.
func smallPlan(t testing.TB, collect bool) (*fitPlan, *data.Scaler, *mat.Dense, []float64) {
	t.Helper()
	X, y := fixture.Data(40, 3, 2, 5)
	cfg := Config{Preprocess: &data.Prep{}, Features: rf.Config{Dim: 8, Depth: 1}, Ridge: krr.Options{Task: krr.Classification, BlockRows: 16}}
	if collect {
		cfg.Ridge.Criterion = krr.LOO
	}
	plan, scaler := planScaler(t, cfg, X, y)
	return plan, scaler, X, y
}

// planScaler is cfg's plan for the rows X, y and the scaler of X's
// statistics.
func planScaler(t testing.TB, cfg Config, X *mat.Dense, y []float64) (*fitPlan, *data.Scaler) {
	t.Helper()
	n, d := X.Dims()
	plan, err := newPlan(cfg, n, d, y)
	if err != nil {
		t.Fatal(err)
	}
	s := plan.NewStats()
	if err := s.Add(X); err != nil {
		t.Fatal(err)
	}
	scaler, err := plan.Scaler(s)
	if err != nil {
		t.Fatal(err)
	}
	return plan, scaler
}

// part returns the part of rows lo…hi−1.
func part(t testing.TB, plan *fitPlan, s *data.Scaler, X *mat.Dense, y []float64, lo, hi int) *fitPart {
	t.Helper()
	pt, err := plan.NewPart(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := pt.Add(context.Background(), X.Slice(lo, hi, 0, X.RawMatrix().Cols).(*mat.Dense), y[lo:hi], lo); err != nil {
		t.Fatal(err)
	}
	return pt
}

// TestWithProgress: a plan kept across calls reports each call's progress
// to that call, with the same map.
func TestWithProgress(t *testing.T) {
	X, y := fixture.Data(60, 3, 2, 5)
	var first, second int
	cfg := Config{Preprocess: &data.Prep{}, Features: rf.Config{Dim: 16, Depth: 1, Seed: 2},
		Ridge: krr.Options{Task: krr.Classification, Lambda: 0.1, Progress: func(int, int, string) { first++ }}}
	p, err := newPlan(cfg, 60, 3, y)
	if err != nil {
		t.Fatal(err)
	}
	q := p.WithProgress(func(int, int, string) { second++ })
	if q.fmap != p.fmap || q.Dim() != p.Dim() {
		t.Fatal("WithProgress redrew the map")
	}
	s := q.NewStats()
	if err := s.Add(X); err != nil {
		t.Fatal(err)
	}
	sc, err := q.Scaler(s)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := q.NewPart(sc)
	if err != nil {
		t.Fatal(err)
	}
	if err := pt.Add(context.Background(), X, y, 0); err != nil {
		t.Fatal(err)
	}
	if second == 0 || first != 0 {
		t.Fatalf("progress reached the new call %d times and the plan's first %d times", second, first)
	}
}

// TestPlanDrawsLazily: planning draws no feature map (a host that only
// plans, as the package's fitPlan, spent a draw of 784×2048 directions on
// it); the first part draws it, once for the plan and its copies.
func TestPlanDrawsLazily(t *testing.T) {
	y := make([]float64, 3000)
	cfg := Config{Preprocess: &data.Prep{}, Features: rf.Config{Depth: 1, Dim: 2048}, Ridge: krr.Options{Task: krr.Regression}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	p, err := newPlan(cfg, len(y), 784, y)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if a := after.TotalAlloc - before.TotalAlloc; a > 1<<20 {
		t.Errorf("NewPlan allocated %d bytes; the map's weights are %d", a, 4*784*2048)
	}
	if p.Dim() != 2048 || len(p.Chunks(8<<20)) != 2 {
		t.Errorf("Dim %d, chunks %v", p.Dim(), p.Chunks(8<<20))
	}
	q := p.WithProgress(nil)
	m1, err1 := p.featureMap()
	m2, err2 := q.featureMap()
	if err1 != nil || err2 != nil || m1 == nil || m1 != m2 || m1.Dim() != 2048 {
		t.Errorf("maps %p %p (%v, %v): want one map of 2048 columns shared by the plan's copies", m1, m2, err1, err2)
	}
}
