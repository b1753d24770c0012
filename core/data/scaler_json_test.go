package data

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestScalerJSONRoundTrip(t *testing.T) {
	t.Parallel()
	// Two numeric columns (one with a missing value) and a one-hot group
	// of three categories.
	nan := math.NaN()
	X := mat.NewDense(4, 5, []float64{
		1.5, 1e-3, 1, 0, 0,
		-2.25, nan, 0, 1, 0,
		3, 7.125, nan, nan, nan,
		0.1, -4, 0, 1, 0,
	})
	groups := []Group{{Column: 0, Start: 0, Width: 1}, {Column: 1, Start: 1, Width: 1}, {Column: 2, Start: 2, Width: 3, Categorical: true}}
	for _, p := range []Prep{{Raw: true}, {}, {UnitNorm: true}, {Bias: 1}, {Raw: true, UnitNorm: true, Bias: 0.5}} {
		s, err := Fit(X, groups, p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var r Scaler
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if r.Cols() != 5 {
			t.Fatalf("Cols = %d", r.Cols())
		}
		want, _ := s.Apply(nil, X)
		got, err := r.Apply(nil, X)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range want.RawMatrix().Data {
			if math.Float64bits(v) != math.Float64bits(got.RawMatrix().Data[i]) {
				t.Fatalf("%+v: entry %d: %v after the round trip, %v before", p, i, got.RawMatrix().Data[i], v)
			}
		}
	}
	for _, bad := range []string{
		`{}`,
		`{"fill":[1,2],"groups":[{"Start":0,"Width":1}]}`,
		`{"standardize":true,"fill":[1],"groups":[{"Start":0,"Width":1}],"div":[1],"mu":[0]}`,
		`{"fill":[1e999]}`,
	} {
		var r Scaler
		if err := json.Unmarshal([]byte(bad), &r); err == nil || !strings.HasPrefix(err.Error(), "data: ") {
			t.Errorf("%s: error %v, want a data: error", bad, err)
		}
	}
}
