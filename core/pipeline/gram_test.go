package pipeline

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/linalg"
	"ntkrf/core/rf"
	"ntkrf/internal/fixture"
)

// TestGramDefault checks that a plan settles an empty Ridge.Gram by krr's
// rule from its map's precision (krr.DefaultGram), so every host that fits
// through a plan (the CLI, the package, Beam) gets it: a primal fit with
// the default has the bits of the same fit with the rule's Gram given, and
// (with a float32 kernel) not those of the other; a given Gram wins.
func TestGramDefault(t *testing.T) {
	t.Parallel()
	const rows = 400
	X, labels := fixture.Data(rows, 5, 3, 2)
	_, values := fixture.Data(rows, 5, 0, 2)
	for _, c := range []struct {
		task      krr.Task
		precision rf.Precision
		gram      rf.Precision
		dim       int
		want      rf.Precision
	}{
		{krr.Classification, "", "", 64, rf.Float32},
		{krr.Classification, "", "", 256, rf.Float64}, // fewer than krr.Float32GramRows rows per feature
		{krr.Classification, rf.Float64, "", 64, rf.Float64},
		{krr.Regression, "", "", 64, rf.Float64},
		{krr.Classification, "", rf.Float64, 64, rf.Float64},
		{krr.Regression, "", rf.Float32, 64, rf.Float32},
	} {
		t.Run(fmt.Sprintf("%s/dim=%d/precision=%q/gram=%q", c.task, c.dim, c.precision, c.gram), func(t *testing.T) {
			t.Parallel()
			y := labels
			if c.task == krr.Regression {
				y = values
			}
			fit := func(gram rf.Precision) []float64 {
				cfg := Config{Preprocess: &data.Prep{},
					Features: rf.Config{Depth: 1, Dim: c.dim, Seed: 3, Precision: c.precision},
					Ridge:    krr.Options{Task: c.task, Lambda: 1e-3, Gram: gram}}
				p, err := Fit(context.Background(), X, y, cfg)
				if err != nil {
					t.Fatal(err)
				}
				s, err := p.Scores(X)
				if err != nil {
					t.Fatal(err)
				}
				return s.RawMatrix().Data
			}
			other := rf.Float32
			if c.want == rf.Float32 {
				other = rf.Float64
			}
			got, want, not := fit(c.gram), fit(c.want), fit(other)
			if !slices.Equal(got, want) {
				t.Errorf("the fit is not the fit with Gram %q", c.want)
			}
			if linalg.Float32() && slices.Equal(got, not) {
				t.Errorf("the fit with Gram %q has the bits of Gram %q: the option had no effect", c.want, other)
			}
		})
	}
}

// sumsTol is the relative tolerance between a fit of cfg split into parts
// and the same fit in one piece, float64 given for float64 sums: where the
// plan settles float32 Gram blocks (and this build has the kernel), the
// parts cut the rows into other blocks, each entry of ΦᵀΦ is then within
// (256 + 3)·2⁻²⁴ relative of the float64 sum (linalg.AddAtA32's bound),
// and λ (its grid scales with the trace) and the scores move by as much.
func sumsTol(t *testing.T, cfg Config, X *mat.Dense, y []float64, float64Tol float64) float64 {
	t.Helper()
	rows, cols := X.Dims()
	p, err := newPlan(cfg, rows, cols, y)
	if err != nil {
		t.Fatal(err)
	}
	if p.fmap == nil {
		return float64Tol // an exact kernel: a dual fit, no Gram step
	}
	// An open plan ('auto') keeps cfg as given until it settles; its map
	// is the first candidate's.
	gram := krr.Options{Task: p.Task(), Gram: cfg.Ridge.Gram}.GramFor(p.fmap.cfg.Float32(), rows, p.dim).Gram
	if gram == rf.Float32 && linalg.Float32() {
		return max(float64Tol, (256+3)*0x1p-24)
	}
	return float64Tol
}
