package pipeline

import (
	"bytes"
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/names"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// TestPartSumsHeldRows: a part of a held-out plan sums its held-out rows
// beside its kept rows (so that the solving worker only merges them), its
// wire form carries those sums, and a form whose held-out sums do not
// match the rows it keeps out is refused without changing the part it was
// merged into.
func TestPartSumsHeldRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	X, y := protocolData(600, 3)
	n, _ := X.Dims()
	// A float64 Gram: float32 blocks (the default here) follow the parts'
	// rows, so two parts' λ would match one part's only to the blocks'
	// rounding; this test asks for the same bits (TestProtocolIsFit covers
	// the float32 blocks with their tolerance).
	cfg := Config{Features: rf.Config{Method: "ntk", Depth: 1, Dim: 40, Seed: 3}, Preprocess: &data.Prep{}, Ridge: krr.Options{Classes: 3, Criterion: krr.Holdout, Gram: names.Float64}}
	plan, scaler := planScaler(t, cfg, X, y)
	if plan.Holdout().Rows == 0 || plan.Collects() {
		t.Fatalf("the plan keeps out %d rows (collects: %v); the test needs a held-out search on sums", plan.Holdout().Rows, plan.Collects())
	}
	a, b := part(t, plan, scaler, X, y, 0, 250), part(t, plan, scaler, X, y, 250, n)
	for _, pt := range []*Part{a, b} {
		// The sums of the held-out rows' features the part keeps, block
		// by block as Add featurizes them (one block here).
		want, _ := krr.NewAccumulator(plan.Dim(), plan.cfg.Ridge)
		if err := want.Add(mat.NewDense(len(pt.y), plan.Dim(), pt.x), pt.y); err != nil {
			t.Fatal(err)
		}
		if pt.held == nil || !bytes.Equal(pt.held.AppendBinary(nil), want.AppendBinary(nil)) {
			t.Fatalf("a part of %d rows keeping %d out: its held-out sums are not theirs", pt.Rows(), len(pt.keys))
		}
		dec, err := plan.DecodePart(pt.AppendBinary(nil))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(dec.held.AppendBinary(nil), want.AppendBinary(nil)) {
			t.Error("the wire form lost the held-out sums")
		}
	}
	// b's form with its held-out sums replaced by a's (other rows).
	form := b.AppendBinary(nil)
	tail := len(b.held.AppendBinary(nil))
	swapped := append(bytes.Clone(form[:len(form)-tail]), a.held.AppendBinary(nil)...)
	// The same form without the held-out sums (version 1's layout).
	short := form[:len(form)-tail-8]
	for _, tc := range []struct {
		name string
		form []byte
		code check.Code
	}{
		{"other rows' held-out sums", swapped, check.Shape},
		{"no held-out sums", short, check.Shape},
	} {
		t.Run(tc.name, func(t *testing.T) {
			into := part(t, plan, scaler, X, y, 0, 250)
			before := into.AppendBinary(nil)
			err := into.MergeBinary(tc.form)
			if check.CodeOf(err) != tc.code {
				t.Fatalf("merged: %v; want code %s", err, tc.code)
			}
			if !bytes.Equal(into.AppendBinary(nil), before) {
				t.Error("refused, yet the part changed")
			}
			if _, err := plan.DecodePart(tc.form); check.CodeOf(err) == "" {
				t.Errorf("decoded: %v", err)
			}
		})
	}
	// Merged and solved, the parts give Fit's λ (one part, the same rows).
	if err := a.MergeBinary(b.AppendBinary(nil)); err != nil {
		t.Fatal(err)
	}
	got, err := plan.Solve(ctx, scaler, a, Meta{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Fit(ctx, X, y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got.Lambda() != want.Lambda() {
		t.Errorf("λ %v, Fit's %v", got.Lambda(), want.Lambda())
	}
}

// TestPartWireGrowsOnce: a part's wire form is written into one buffer
// grown once to its size (wireSize): appending the held-out rows and both sums one
// after another copied tens of megabytes over and over at m = 2048. Parts
// of sums with held-out sums, of sums alone and of rows kept whole.
func TestPartWireGrowsOnce(t *testing.T) {
	// Not parallel: AllocsPerRun counts every goroutine's allocations.
	X, y := protocolData(600, 3)
	n, _ := X.Dims()
	for _, c := range []struct {
		name      string
		criterion string
		held      bool
	}{
		{"held-out search on sums", krr.Holdout, true},
		{"GCV on sums", krr.GCV, false},
		{"LOO on rows kept whole", krr.LOO, false},
	} {
		cfg := Config{Features: rf.Config{Method: "ntk", Depth: 1, Dim: 40, Seed: 3}, Preprocess: &data.Prep{}, Ridge: krr.Options{Classes: 3, Criterion: c.criterion}}
		plan, scaler := planScaler(t, cfg, X, y)
		pt := part(t, plan, scaler, X, y, 0, n)
		if (pt.held != nil) != c.held {
			t.Fatalf("%s: held-out sums %v, want %v", c.name, pt.held != nil, c.held)
		}
		b := pt.AppendBinary(nil)
		if len(b) != pt.wireSize() {
			t.Errorf("%s: the form has %d bytes, wireSize says %d", c.name, len(b), pt.wireSize())
		}
		if allocs := testing.AllocsPerRun(3, func() { pt.AppendBinary(nil) }); allocs != 1 {
			t.Errorf("%s: AppendBinary allocated %v times; want once", c.name, allocs)
		}
	}
}
