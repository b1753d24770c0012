package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
	"ntkrf/internal/rowtree"
)

// heldNodes returns the part's nodes with the number of rows it keeps out
// within each node's rows.
func heldNodes(pt *fitPart) map[rowtree.Key]int {
	out := map[rowtree.Key]int{}
	for _, k := range pt.sums.Keys() {
		lo, _ := rowtree.LeafSpan(k.Index<<k.Level, pt.plan.rows)
		_, hi := rowtree.LeafSpan(min((k.Index+1)<<k.Level, rowtree.Leaf(pt.plan.rows-1)+1)-1, pt.plan.rows)
		for _, key := range pt.keys {
			if int(key) >= lo && int(key) < hi {
				out[k]++
			}
		}
	}
	return out
}

// TestPartKeepsHeldRows: a part of a held-out plan sums its kept rows per
// whole leaf and keeps the held-out rows' features whole, unsummed (the
// solve sums them, on a helper where there is one); its wire form round
// trips; a form whose node sums do not hold its rows less those kept out
// is refused without changing the part it was merged into; merged, the
// parts give Fit's model, bit for bit.
func TestPartKeepsHeldRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const n = 2*rowtree.LeafRows + 600
	X, y := fixture.Holey(n, 3)
	cfg := Config{Features: rf.Config{Method: "ntk", Depth: 1, Dim: 40, Seed: 3}, Preprocess: &data.Prep{}, Ridge: krr.Options{Classes: 3, Criterion: krr.Holdout}}
	plan, scaler := planScaler(t, cfg, X, y)
	if plan.Holdout().Rows == 0 || plan.Collects() {
		t.Fatalf("the plan keeps out %d rows (collects: %v); the test needs a held-out search on sums", plan.Holdout().Rows, plan.Collects())
	}
	a, b := part(t, plan, scaler, X, y, 0, rowtree.LeafRows), part(t, plan, scaler, X, y, rowtree.LeafRows, n)
	for _, pt := range []*fitPart{a, b} {
		for k, out := range heldNodes(pt) {
			v, _ := pt.sums.Node(k)
			lo, _ := rowtree.LeafSpan(k.Index<<k.Level, n)
			_, hi := rowtree.LeafSpan(min((k.Index+1)<<k.Level, rowtree.Leaf(n-1)+1)-1, n)
			if out == 0 || v.acc.Rows() != hi-lo-out {
				t.Fatalf("node %v of rows %d…%d keeps %d rows out but sums %d", k, lo, hi-1, out, v.acc.Rows())
			}
		}
		if len(pt.x) != len(pt.keys)*plan.width() {
			t.Fatalf("%d held-out rows but %d values of their features", len(pt.keys), len(pt.x))
		}
		form := pt.AppendBinary(nil)
		dec, err := plan.DecodePart(form)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(dec.AppendBinary(nil), form) {
			t.Error("the wire form does not round-trip")
		}
	}
	// b's form with its nodes' sums replaced by a's (other rows), or with
	// a held-out row dropped from the rows kept whole.
	reform := func(edit func(c *fitPart)) []byte {
		c, err := plan.DecodePart(b.AppendBinary(nil))
		if err != nil {
			t.Fatal(err)
		}
		edit(c)
		return c.AppendBinary(nil)
	}
	aNode, _ := a.sums.Node(a.sums.Keys()[0])
	for _, tc := range []struct {
		name string
		form []byte
		code check.Code
	}{
		{"other rows' sums", reform(func(c *fitPart) {
			for _, k := range c.sums.Keys() {
				v, _ := c.sums.Node(k)
				v.acc = aNode.acc
			}
		}), check.Value},
		{"a held-out row missing", reform(func(c *fitPart) {
			c.keys, c.y, c.x = c.keys[1:], c.y[1:], c.x[plan.width():]
		}), check.Value},
		{"b twice", nil, check.Protocol},
	} {
		t.Run(tc.name, func(t *testing.T) {
			into := part(t, plan, scaler, X, y, 0, rowtree.LeafRows)
			if tc.form == nil {
				if err := into.MergeBinary(b.AppendBinary(nil)); err != nil {
					t.Fatal(err)
				}
				tc.form = b.AppendBinary(nil)
			}
			before := into.AppendBinary(nil)
			err := into.MergeBinary(tc.form)
			if check.CodeOf(err) != tc.code {
				t.Fatalf("merged: %v; want code %s", err, tc.code)
			}
			if !bytes.Equal(into.AppendBinary(nil), before) {
				t.Error("refused, yet the part changed")
			}
		})
	}
	// Merged and solved, the parts give Fit's model (one part, the same rows).
	if err := b.MergeBinary(a.AppendBinary(nil)); err != nil {
		t.Fatal(err)
	}
	got, err := plan.Solve(ctx, scaler, b)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Fit(ctx, X, y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if !bytes.Equal(gj, wj) {
		t.Errorf("λ %v, Fit's %v: the models differ", got.Lambda(), want.Lambda())
	}
}

// TestPartWireGrowsOnce: a part's wire form is written into one buffer
// grown once to its size (wireSize; its capacity is exactly that): appending the held-out rows and the sums one
// after another copied tens of megabytes over and over at m = 2048. Parts
// of sums with held-out rows, of sums alone and of rows kept whole.
func TestPartWireGrowsOnce(t *testing.T) {
	// Not parallel: AllocsPerRun counts every goroutine's allocations.
	const n = rowtree.LeafRows + 600
	X, y := fixture.Holey(n, 3)
	for _, c := range []struct {
		name      string
		criterion krr.Criterion
		held      bool
	}{
		{"held-out search on sums", krr.Holdout, true},
		{"GCV on sums", krr.GCV, false},
		{"LOO on rows kept whole", krr.LOO, false},
	} {
		cfg := Config{Features: rf.Config{Method: "ntk", Depth: 1, Dim: 40, Seed: 3}, Preprocess: &data.Prep{}, Ridge: krr.Options{Classes: 3, Criterion: c.criterion}}
		plan, scaler := planScaler(t, cfg, X, y)
		pt := part(t, plan, scaler, X, y, 0, n)
		if held := len(heldNodes(pt)) > 0 && len(pt.keys) > 0; held != c.held {
			t.Fatalf("%s: held-out rows %v, want %v", c.name, held, c.held)
		}
		b := pt.AppendBinary(nil)
		if len(b) != pt.wireSize() {
			t.Errorf("%s: the form has %d bytes, wireSize says %d", c.name, len(b), pt.wireSize())
		}
		// Into a buffer of exactly wireSize bytes: never regrown.
		room := make([]byte, 0, pt.wireSize())
		if in := pt.AppendBinary(room); len(in) != cap(room) || &in[0] != &room[:1][0] {
			t.Errorf("%s: a buffer of wireSize bytes was regrown", c.name)
		}
	}
}
