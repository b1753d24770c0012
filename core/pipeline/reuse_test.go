package pipeline

import (
	"context"
	"slices"
	"testing"

	"ntkrf/core/rf"
)

// TestDecodeReusing: a model decoded with the maps its plan (and another
// plan) drew takes the one drawn from its configuration for its inputs,
// not a copy, and scores as the model decoded alone; a plan that has drawn
// nothing offers no map; maps of other configurations are passed over.
func TestDecodeReusing(t *testing.T) {
	plan, scaler, X, y := smallPlan(t, false)
	if m := plan.drawnMap(); m != nil {
		t.Fatalf("a plan that has drawn nothing offers %p", m)
	}
	pt := part(t, plan, scaler, X, y, 0, 40)
	fit, err := plan.Solve(context.Background(), scaler, pt)
	if err != nil {
		t.Fatal(err)
	}
	own := plan.drawnMap()
	if own == nil {
		t.Fatal("the plan drew its map for the part but does not offer it")
	}
	header, coef, train, err := fit.Split()
	if err != nil {
		t.Fatal(err)
	}
	cfg := own.Config()
	cfg.Seed++
	other, err := rf.New(cfg, own.InputDim())
	if err != nil {
		t.Fatal(err)
	}
	alone, err := Decode(header, coef, train)
	if err != nil {
		t.Fatal(err)
	}
	want, err := alone.Scores(X)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		drawn []*rf.Map
		same  bool // the model's map is own
	}{
		{"none", nil, false},
		{"its own", []*rf.Map{own}, true},
		{"another first", []*rf.Map{nil, other, own}, true},
		{"another only", []*rf.Map{other}, false},
	} {
		p, err := decodeReusing(header, coef, train, tc.drawn)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := p.fmap == own; got != tc.same {
			t.Errorf("%s: the model's map is the plan's: %v, want %v", tc.name, got, tc.same)
		}
		if p.fmap == other {
			t.Errorf("%s: the model took a map of another seed", tc.name)
		}
		got, err := p.Scores(X)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.RawMatrix().Data, want.RawMatrix().Data) {
			t.Errorf("%s: the scores differ from the model decoded alone", tc.name)
		}
	}
}
