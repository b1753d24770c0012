package fitbeam

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
)

// roundTrip sends v through the coder Beam uses for its type.
func roundTrip[T any](t *testing.T, v T) T {
	t.Helper()
	var buf bytes.Buffer
	if err := beam.NewElementEncoder(reflect.TypeFor[T]()).Encode(v, &buf); err != nil {
		t.Fatal(err)
	}
	got, err := beam.NewElementDecoder(reflect.TypeFor[T]()).Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return got.(T)
}

// TestCoders: every element type goes through Beam's coder and comes back
// with the same wire form (Beam's default coder would send only exported
// fields, which these types do not have: the rows would be lost), empty
// values included.
func TestCoders(t *testing.T) {
	shard := []byte("x,color,y\n1,red,a\n2,blue,b\n3,red,a\n4,,b\n")
	c, err := data.Survey("s0", shard, data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Prep: &data.Prep{}, Features: rf.Config{Method: "ntk", Depth: 1, Dim: 16, Seed: 1}, Lambda: 0.1}
	settled, err := (&settleFn{Opt: opt}).ProcessElement(Census{c})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := settled.plan()
	if err != nil {
		t.Fatal(err)
	}
	X, y, err := settled.Schema.ReadLabeled(shard, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	st := plan.NewStats()
	if err := st.Add(X); err != nil {
		t.Fatal(err)
	}
	scaler, err := plan.Scaler(st)
	if err != nil {
		t.Fatal(err)
	}
	part, err := plan.NewPart(scaler)
	if err != nil {
		t.Fatal(err)
	}
	if err := part.Add(context.Background(), X, y, 0); err != nil {
		t.Fatal(err)
	}

	t.Run("census", func(t *testing.T) {
		want, _ := c.MarshalBinary()
		got, _ := roundTrip(t, Census{c}).c.MarshalBinary()
		if !bytes.Equal(got, want) {
			t.Fatalf("census changed:\n got %s\nwant %s", got, want)
		}
		if roundTrip(t, Census{}).c != nil {
			t.Fatal("an empty census came back filled")
		}
	})
	t.Run("settled", func(t *testing.T) {
		if got := roundTrip(t, settled); !reflect.DeepEqual(got, settled) {
			t.Fatalf("settled changed:\n got %+v\nwant %+v", got, settled)
		}
	})
	t.Run("stats", func(t *testing.T) {
		got := roundTrip(t, Stats{st})
		if got.s == nil || got.s.Rows() != 4 || !bytes.Equal(got.s.AppendBinary(nil), st.AppendBinary(nil)) {
			t.Fatal("statistics changed")
		}
		if roundTrip(t, Stats{}).s != nil {
			t.Fatal("empty statistics came back filled")
		}
	})
	t.Run("shard", func(t *testing.T) {
		for _, sh := range []Shard{{Path: "s0", Settled: settled.of("s0")}, {Path: "s0", Settled: settled.of("s0"), Stats: Stats{st}}} {
			got := roundTrip(t, sh)
			if got.Path != sh.Path || !reflect.DeepEqual(got.Settled, sh.Settled) || (got.Stats.s == nil) != (sh.Stats.s == nil) ||
				sh.Stats.s != nil && !bytes.Equal(got.Stats.s.AppendBinary(nil), st.AppendBinary(nil)) {
				t.Fatalf("shard changed:\n got %+v\nwant %+v", got, sh)
			}
		}
		if got := settled.of("s0").Offsets; !reflect.DeepEqual(got, map[string]int{"s0": 0}) {
			t.Fatalf("a shard's offsets %v, want its own only", got)
		}
	})
	t.Run("part", func(t *testing.T) {
		of := Shard{Settled: settled.of(""), Stats: Stats{st}}
		form, err := encodePart(Part{of: of, p: part})
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodePart(form)
		if err != nil {
			t.Fatal(err)
		}
		if got.p == nil || got.p.Rows() != 4 || !bytes.Equal(got.p.AppendBinary(nil), part.AppendBinary(nil)) {
			t.Fatal("part changed")
		}
		if !reflect.DeepEqual(got.of.Settled, of.Settled) || !bytes.Equal(got.of.Stats.s.AppendBinary(nil), st.AppendBinary(nil)) {
			t.Fatal("the part's data set changed")
		}
		for _, cut := range []int{0, 1, len(settled.Plan), len(form) - 1} {
			if _, err := decodePart(form[:cut]); check.CodeOf(err) == "" {
				t.Fatalf("a form cut to %d bytes: %v, want a coded error", cut, err)
			}
		}
	})
}

// TestMergeParts: merging parts' forms (the first decoded, the others
// read in place) sums their rows in any order to the same labels, and a
// part of another fit is refused.
func TestMergeParts(t *testing.T) {
	X, y := fixture.Data(400, 3, 2, 3)
	csv := bytes.NewBufferString("a,b,c,y\n")
	for i := range 400 {
		fmt.Fprintf(csv, "%v,%v,%v,%v\n", X.At(i, 0), X.At(i, 1), X.At(i, 2), y[i])
	}
	ds, err := data.Parse(csv.Bytes(), data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := Settled{Rows: 400, Schema: ds.Schema()}
	opt := Options{Prep: &data.Prep{}, Features: rf.Config{Method: "ntk", Depth: 1, Dim: 32, Seed: 2}, Lambda: 0.01}
	if s.Plan, err = opt.plan(s.Schema, s.Rows); err != nil {
		t.Fatal(err)
	}
	plan, err := s.plan()
	if err != nil {
		t.Fatal(err)
	}
	st := plan.NewStats()
	if err := st.Add(X); err != nil {
		t.Fatal(err)
	}
	scaler, err := plan.Scaler(st)
	if err != nil {
		t.Fatal(err)
	}
	of := Shard{Settled: s, Stats: Stats{st}}
	form := func(lo, hi int) []byte {
		p, err := plan.NewPart(scaler)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Add(context.Background(), mat.DenseCopyOf(X.Slice(lo, hi, 0, 3)), y[lo:hi], lo); err != nil {
			t.Fatal(err)
		}
		b, err := encodePart(Part{of: of, p: p})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b, c := form(0, 150), form(150, 300), form(300, 400)
	merged := func(forms ...[]byte) Part {
		var m Part
		for _, f := range forms {
			if err := m.merge(f); err != nil {
				t.Fatal(err)
			}
		}
		return m
	}
	abc, cab := merged(a, b, c), merged(c, a, b)
	if abc.p.Rows() != 400 || cab.p.Rows() != 400 {
		t.Fatalf("rows %d and %d, want 400", abc.p.Rows(), cab.p.Rows())
	}
	other := opt
	other.Features.Seed++
	os := s
	if os.Plan, err = other.plan(s.Schema, s.Rows); err != nil {
		t.Fatal(err)
	}
	otherPlan, err := os.plan()
	if err != nil {
		t.Fatal(err)
	}
	op, _ := otherPlan.NewPart(scaler)
	if err := op.Add(context.Background(), mat.DenseCopyOf(X.Slice(0, 10, 0, 3)), y[:10], 0); err != nil {
		t.Fatal(err)
	}
	foreign, _ := encodePart(Part{of: Shard{Settled: os, Stats: of.Stats}, p: op})
	if err := abc.merge(foreign); check.CodeOf(err) != check.Protocol || abc.p.Rows() != 400 {
		t.Fatalf("a part of another fit: %v (rows %d), want ERR_PROTOCOL and nothing merged", err, abc.p.Rows())
	}
	var preds [2][]float64
	for i, p := range []Part{abc, cab} {
		m, err := plan.Solve(context.Background(), scaler, p.p)
		if err != nil {
			t.Fatal(err)
		}
		if preds[i], err = m.Predict(X); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(preds[0], preds[1]) {
		t.Fatal("the merge order changed the labels")
	}
}
