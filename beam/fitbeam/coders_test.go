package fitbeam

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
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
	settled, err := settle(Census{c})
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Prep: &data.Prep{}, Features: rf.Config{Method: "ntk", Depth: 1, Dim: 16, Seed: 1}, Lambda: 0.1}
	spec := opt.spec(settled)
	plan, err := planOf(spec)
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
	t.Run("part", func(t *testing.T) {
		got := roundTrip(t, Part{spec, part})
		if got.p == nil || got.p.Rows() != 4 || got.spec != spec || !bytes.Equal(got.p.AppendBinary(nil), part.AppendBinary(nil)) {
			t.Fatal("part changed")
		}
		if roundTrip(t, Part{}).p != nil {
			t.Fatal("an empty part came back filled")
		}
	})
}

// TestMergeParts: the combine's merge keeps a part merged with an empty
// accumulator on either side, and sums the rows of two parts in either
// order to the same model.
func TestMergeParts(t *testing.T) {
	X, y := fixture.Data(400, 3, 2, 3)
	s := Settled{Rows: 400, Schema: data.Schema{Task: data.Classification, Classes: []string{"0", "1"},
		Groups: []data.Group{{Column: 0, Width: 1}, {Column: 1, Start: 1, Width: 1}, {Column: 2, Start: 2, Width: 1}}}}
	opt := Options{Prep: &data.Prep{}, Features: rf.Config{Method: "ntk", Depth: 1, Dim: 32, Seed: 2}, Lambda: 0.01}
	spec := opt.spec(s)
	plan, err := planOf(spec)
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
	half := func(lo, hi int) Part {
		p, err := plan.NewPart(scaler)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Add(context.Background(), mat.DenseCopyOf(X.Slice(lo, hi, 0, 3)), y[lo:hi], lo); err != nil {
			t.Fatal(err)
		}
		return roundTrip(t, Part{spec, p})
	}
	merge := func(a, b Part) Part {
		m, err := mergeParts(a, b)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	ab := merge(merge(Part{}, half(0, 150)), merge(half(150, 400), Part{}))
	ba := merge(half(150, 400), merge(Part{}, half(0, 150)))
	if ab.p.Rows() != 400 || ba.p.Rows() != 400 {
		t.Fatalf("rows %d and %d, want 400", ab.p.Rows(), ba.p.Rows())
	}
	var preds [2][]float64
	for i, p := range []Part{ab, ba} {
		m, err := plan.Solve(context.Background(), scaler, p.p, pipeline.Meta{})
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
