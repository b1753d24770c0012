package pipeline

import (
	"context"
	"math"
	"slices"
	"testing"

	"ntkrf/core/krr"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
)

// TestClassNames: the names of predicted labels are the model's classes,
// label i ↔ Classes()[i], for the rows of its own file; anything that is
// no class index, and any regression model, is refused with its code.
func TestClassNames(t *testing.T) {
	t.Parallel()
	ds := parse(t, mixed)
	p, err := FitDataset(context.Background(), ds, Config{Features: rf.Config{Dim: 64}, Ridge: krr.Options{Lambda: 0.1}})
	if err != nil {
		t.Fatal(err)
	}
	pred, err := p.PredictCSV([]byte(mixed), 0)
	if err != nil {
		t.Fatal(err)
	}
	names, err := p.ClassNames(pred)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range pred {
		if names[i] != ds.Classes[int(v)] {
			t.Errorf("row %d: label %v named %q, want %q", i, v, names[i], ds.Classes[int(v)])
		}
	}
	if got, _ := p.ClassNames([]float64{2, 0, 1}); !slices.Equal(got, []string{"plum", "apple", "pear"}) {
		t.Errorf("ClassNames(2, 0, 1) = %q", got)
	}
	for _, bad := range []float64{-1, 3, 0.5, math.NaN(), math.Inf(1)} {
		if _, err := p.ClassNames([]float64{0, bad}); check.CodeOf(err) != check.Value {
			t.Errorf("ClassNames(0, %v): %v, want %s", bad, err, check.Value)
		}
	}
	X, y := fixture.Data(30, 2, 0, 0)
	r, err := Fit(context.Background(), X, y, Config{Features: rf.Config{Dim: 16, Depth: 1}, Ridge: krr.Options{Lambda: 0.1, Task: krr.Regression}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.ClassNames([]float64{0}); check.CodeOf(err) != check.Data {
		t.Errorf("a regression model's ClassNames: %v, want %s", err, check.Data)
	}
}
