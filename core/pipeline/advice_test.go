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
	plan := func(dim int) *Plan {
		p, err := NewPlan(Config{Features: rf.Config{Method: "ntk", Depth: 1, Dim: dim, Seed: 1}, Ridge: krr.Options{Task: krr.Regression}}, len(y), 2, y)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if a := plan(FeaturesPerRow * len(y)).Advice(); a != nil {
		t.Errorf("%d features for %d rows: advice %q", FeaturesPerRow*len(y), len(y), a)
	}
	a := plan(100000).Advice()
	// 6 × 100000 × 4 bytes = 2.4 MB in float32, against 6 × 6 × 8 = 288 B.
	if len(a) != 1 || !strings.Contains(a[0], "2.4 MB (float32)") || !strings.Contains(a[0], "288 B") || !strings.Contains(a[0], "up to 48 features") {
		t.Errorf("advice %q", a)
	}
}
