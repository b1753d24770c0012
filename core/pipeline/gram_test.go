package pipeline

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/linalg"
	"ntkrf/core/names"
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
	const rows, dim = 400, 64
	X, labels := fixture.Data(rows, 5, 3, 2)
	_, values := fixture.Data(rows, 5, 0, 2)
	for _, c := range []struct {
		task, precision, gram, want string
	}{
		{krr.Classification, "", "", names.Float32},
		{krr.Classification, names.Float64, "", names.Float64},
		{krr.Regression, "", "", names.Float64},
		{krr.Classification, "", names.Float64, names.Float64},
		{krr.Regression, "", names.Float32, names.Float32},
	} {
		t.Run(fmt.Sprintf("%s/precision=%q/gram=%q", c.task, c.precision, c.gram), func(t *testing.T) {
			t.Parallel()
			y := labels
			if c.task == krr.Regression {
				y = values
			}
			fit := func(gram string) []float64 {
				cfg := Config{Preprocess: &data.Prep{},
					Features: rf.Config{Depth: 1, Dim: dim, Seed: 3, Precision: c.precision},
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
			other := names.Float32
			if c.want == names.Float32 {
				other = names.Float64
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
