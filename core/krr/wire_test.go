package krr

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
)

// filled returns an accumulator of the fixture's rows lo…hi−1.
func filled(t testing.TB, lo, hi int, opt Options) *Accumulator {
	t.Helper()
	X, y := fixture.Data(60, 4, 3, 2)
	f := fixture.NewReLU(4, 12, 5)
	phi, _ := f.Transform(nil, X)
	a, err := NewAccumulator(12, opt)
	if err != nil {
		t.Fatal(err)
	}
	if hi > lo {
		if err := a.Add(phi.Slice(lo, hi, 0, 12).(*mat.Dense), y[lo:hi]); err != nil {
			t.Fatal(err)
		}
	}
	return a
}

func sameState(a, b *Accumulator) bool {
	pa, pb := a.Parts(), b.Parts()
	eq := func(x, y []float64) bool {
		for i := range x {
			if i%a.m < i/a.m && len(x) == a.m*a.m {
				continue // the lower triangle of C is not kept
			}
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				return false
			}
		}
		return len(x) == len(y)
	}
	return pa.Rows == pb.Rows && eq(pa.Mu, pb.Mu) && eq(pa.Ybar, pb.Ybar) && eq(pa.C, pb.C) && eq(pa.D, pb.D) && eq(pa.E, pb.E)
}

// The wire form carries the state bit for bit, is as small as the upper
// triangle makes it, and merging it is merging the accumulator.
func TestAccumulatorWire(t *testing.T) {
	t.Parallel()
	for _, opt := range []Options{{Task: Classification, Classes: 3}, {Task: Regression}} {
		a := filled(t, 0, 25, opt)
		b := a.AppendBinary(nil)
		if len(b) != WireSize(12, a.k) || WireSize(12, a.k) >= 12*12*8 {
			t.Errorf("%s: %d bytes, WireSize %d", opt.Task, len(b), WireSize(12, a.k))
		}
		got, err := DecodeAccumulator(b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !sameState(a, got) {
			t.Errorf("%s: the decoded accumulator differs", opt.Task)
		}
		byValue, byWire := filled(t, 25, 60, opt), filled(t, 25, 60, opt)
		if err := byValue.Merge(a); err != nil {
			t.Fatal(err)
		}
		if err := byWire.MergeBinary(b); err != nil {
			t.Fatal(err)
		}
		if !sameState(byValue, byWire) {
			t.Errorf("%s: merging the wire form differs from Merge", opt.Task)
		}
		empty := filled(t, 0, 0, opt)
		if e, err := DecodeAccumulator(empty.AppendBinary(nil), opt); err != nil || e.Rows() != 0 {
			t.Errorf("%s: an empty accumulator: %v", opt.Task, err)
		}
	}
}

// Hostile forms are refused with a code, before allocating, and leave the
// accumulator they were to be merged into as it was.
func TestAccumulatorWireRefused(t *testing.T) {
	t.Parallel()
	opt := Options{Task: Classification, Classes: 3}
	good := filled(t, 0, 30, opt).AppendBinary(nil)
	edit := func(f func(b []byte) []byte) []byte { return f(slices.Clone(good)) }
	u64 := func(at int, v uint64) []byte {
		return edit(func(b []byte) []byte { binary.LittleEndian.PutUint64(b[at:], v); return b })
	}
	const hdr = 12
	for _, tc := range []struct {
		name string
		b    []byte
		code check.Code
	}{
		{"empty", nil, check.Type},
		{"other magic", edit(func(b []byte) []byte { b[0] = 'X'; return b }), check.Type},
		{"other version", edit(func(b []byte) []byte { b[8] = 9; return b }), check.Value},
		{"truncated", good[:len(good)-1], check.Shape},
		{"trailing byte", append(slices.Clone(good), 0), check.Shape},
		{"huge m, few bytes", u64(hdr+8, 1<<20), check.TooLarge},
		{"m over the bound", u64(hdr+8, 1<<40), check.Shape},
		{"task 2", u64(hdr, 2), check.Shape},
		{"regression of 3 outputs", u64(hdr, 0), check.Value},
		{"NaN in C", edit(func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[hdr+32+8*15+8*20:], math.Float64bits(math.NaN()))
			return b
		}), check.NonFinite},
		{"negative E", edit(func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[len(b)-8:], math.Float64bits(-1))
			return b
		}), check.Value},
	} {
		if _, err := DecodeAccumulator(tc.b, Options{}); check.CodeOf(err) != tc.code {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code)
		}
		a := filled(t, 30, 60, opt)
		before := a.AppendBinary(nil)
		if err := a.MergeBinary(tc.b); check.CodeOf(err) != tc.code {
			t.Errorf("%s: merge: %v, want %s", tc.name, err, tc.code)
		}
		if !slices.Equal(a.AppendBinary(nil), before) {
			t.Errorf("%s: a refused form changed the accumulator", tc.name)
		}
	}
	if _, err := DecodeAccumulator(good, Options{Task: Regression}); check.CodeOf(err) != check.Value {
		t.Errorf("another task: %v", err)
	}
	a := filled(t, 0, 10, Options{Task: Classification, Classes: 4})
	if err := a.MergeBinary(good); check.CodeOf(err) != check.Shape {
		t.Errorf("other classes: %v", err)
	}
}

// FuzzDecodeAccumulator: any bytes decode or are refused with a code,
// never a panic; what decodes encodes to the same bytes.
func FuzzDecodeAccumulator(f *testing.F) {
	f.Add(filled(f, 0, 30, Options{Task: Classification, Classes: 3}).AppendBinary(nil))
	f.Add(filled(f, 0, 7, Options{Task: Regression}).AppendBinary(nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := DecodeAccumulator(b, Options{})
		if err != nil {
			if check.CodeOf(err) == "" {
				t.Fatalf("uncoded error: %v", err)
			}
			return
		}
		if !slices.Equal(a.AppendBinary(nil), b) {
			t.Fatal("a decoded accumulator encodes differently")
		}
	})
}
