package data

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
)

// TestBiasInput: the bias input is appended after every other step, so
// standardizing (which centres a constant column to 0) and unit norm keep
// it; it is Bias times the root-mean-square norm of the training rows so
// preprocessed, the same for test rows; the other columns are those of the
// same preprocessing without it.
func TestBiasInput(t *testing.T) {
	t.Parallel()
	// The second column is constant: a bias a user adds by hand, which
	// standardizing zeroes.
	X := mat.NewDense(4, 3, []float64{1, 5, 2, 3, 5, -1, -2, 5, 0.5, 4, 5, 3})
	test := mat.NewDense(2, 3, []float64{0.5, 5, 7, -9, 2, 1})
	for _, tc := range []struct {
		prep Prep
		want float64 // the constant: Bias × RMS row norm without it
	}{
		{Prep{Bias: 1}, math.Sqrt(2)},                     // two standardized columns, one zeroed
		{Prep{Bias: 2.5, UnitNorm: true}, 2.5},            // unit rows
		{Prep{Bias: 1, Raw: true}, rmsNorm(X)},            // raw rows
		{Prep{Bias: 0.5, Raw: true, UnitNorm: true}, 0.5}, // unit raw rows
	} {
		s, err := Fit(X, nil, tc.prep)
		if err != nil {
			t.Fatal(err)
		}
		plain := tc.prep
		plain.Bias = 0
		s0, _ := Fit(X, nil, plain)
		if s.OutCols() != 4 || s.Cols() != 3 || s0.OutCols() != 3 {
			t.Errorf("%+v: %d columns in, %d out; want 3 and 4", tc.prep, s.Cols(), s.OutCols())
		}
		if got := s.BiasInput(); math.Abs(got-tc.want) > 1e-14*tc.want {
			t.Errorf("%+v: bias input %v, want %v", tc.prep, got, tc.want)
		}
		for _, rows := range []*mat.Dense{X, test} {
			got, err := s.Apply(nil, rows)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := s0.Apply(nil, rows)
			n, _ := rows.Dims()
			for i := range n {
				if !floats.Equal(got.RawRowView(i)[:3], want.RawRowView(i)) || got.At(i, 3) != s.BiasInput() {
					t.Errorf("%+v row %d: %v; want %v then %v", tc.prep, i, got.RawRowView(i), want.RawRowView(i), s.BiasInput())
				}
			}
		}
		if _, err := s.Apply(X, X); err == nil {
			t.Errorf("%+v: Apply in place of X (3 columns) must fail: the bias adds one", tc.prep)
		}
	}
	// Zero rows have no norm: the bias input is then Bias itself.
	if s, _ := Fit(mat.NewDense(2, 2, nil), nil, Prep{Raw: true, Bias: 3}); s.BiasInput() != 3 {
		t.Errorf("zero rows: bias input %v, want 3", s.BiasInput())
	}
}

func rmsNorm(X *mat.Dense) float64 {
	n, _ := X.Dims()
	s := 0.0
	for i := range n {
		s += floats.Dot(X.RawRowView(i), X.RawRowView(i))
	}
	return math.Sqrt(s / float64(n))
}

// TestBiasJSON: a scaler without the bias writes what it wrote before
// (no bias fields), so old model files stay byte-identical; one with it
// reads back the same; bad values are refused with a code.
func TestBiasJSON(t *testing.T) {
	t.Parallel()
	X := mat.NewDense(3, 2, []float64{1, 2, 3, 5, -1, 0})
	s0, _ := Fit(X, nil, Prep{})
	b0, _ := json.Marshal(s0)
	if bytes.Contains(b0, []byte("bias")) {
		t.Errorf("a scaler without bias writes %s", b0)
	}
	p0, _ := json.Marshal(Prep{})
	if string(p0) != `{"standardize":true,"unitNorm":false}` {
		t.Errorf("Prep{} writes %s", p0)
	}
	s, _ := Fit(X, nil, Prep{Bias: 1})
	b, _ := json.Marshal(s)
	var r Scaler
	if err := json.Unmarshal(b, &r); err != nil || r.BiasInput() != s.BiasInput() || r.Prep() != s.Prep() {
		t.Fatalf("round trip of %s: %v, %+v", b, err, r.Prep())
	}
	for _, tc := range []struct{ from, to string }{
		{`,"biasInput":`, `,"biasInputX":`}, // bias without its input
		{`"bias":1`, `"bias":0`},            // an input without the bias
		{`"bias":1`, `"bias":-1`},
		{`"bias":1`, `"bias":1e9`},
	} {
		bad := strings.Replace(string(b), tc.from, tc.to, 1)
		if bad == string(b) {
			t.Fatalf("%q not in %s", tc.from, b)
		}
		if err := json.Unmarshal([]byte(bad), &r); err == nil {
			t.Errorf("%s: read without error", bad)
		}
	}
	for _, b := range []float64{-1, math.NaN(), math.Inf(1), 1e9} {
		if _, err := Fit(X, nil, Prep{Bias: b}); check.CodeOf(err) != check.Option {
			t.Errorf("bias %v: %v, want %s", b, err, check.Option)
		}
	}
	var p Prep
	if err := json.Unmarshal([]byte(`{"bias":-2}`), &p); check.CodeOf(err) != check.Option {
		t.Errorf("prep bias -2: %v", err)
	}
}
