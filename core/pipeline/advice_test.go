package pipeline

import (
	"strings"
	"testing"

	"ntkrf/core/krr"
	"ntkrf/core/rf"
)

// Features far beyond the rows' needs get advice with Φ's memory at its
// precision (float32 by default: 4 bytes a value); a size the rows can use
// gets none, nor does the exact kernel.
func TestAdviceOnFeaturesBeyondTheRows(t *testing.T) {
	y := []float64{0.5, 1, 2, 3, 4, 5.5}
	plan := func(dim int) *fitPlan {
		p, err := newPlan(Config{Features: rf.Config{Method: "ntk", Depth: 1, Dim: dim, Seed: 1}, Ridge: krr.Options{Task: krr.Regression}}, len(y), 2, y)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if a := plan(featuresPerRow * len(y)).Advice(); a != nil {
		t.Errorf("%d features for %d rows: advice %q", featuresPerRow*len(y), len(y), a)
	}
	a := plan(100000).Advice()
	// 6 × 100000 × 4 bytes = 2.4 MB in float32, against 6 × 6 × 8 = 288 B.
	if len(a) != 1 || !strings.Contains(a[0], "2.4 MB (float32)") || !strings.Contains(a[0], "288 B") || !strings.Contains(a[0], "up to 48 features") {
		t.Errorf("advice %q", a)
	}
	// And the modelled times of both fits, from the cost model.
	c := defaultCosts
	feat := seconds(c.Seconds(c.FeatureFit(len(y), 2, 100000, 1, 1), 1, false))
	exact := seconds(c.Seconds(c.ExactFit(len(y), 2, 1, 1, 1), 1, false))
	if feat == exact || !strings.Contains(a[0], "the fit about "+feat) || !strings.Contains(a[0], "about "+exact+" for the exact") {
		t.Errorf("advice %q, want the times %s and %s", a, feat, exact)
	}
}
