package data

import (
	"encoding/json"
	"math"
	"ntkrf/internal/check"
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
	// Every way a scaler's JSON can be wrong, strictly: each with its code
	// and the path of the field at fault.
	const base = `{"standardize":true,"unitNorm":false,"groups":[{"column":0,"start":0,"width":1,"categorical":false}],"fill":[1],"div":[2],"mu":[0.5],"inv":[3]}`
	var ok Scaler
	if err := json.Unmarshal([]byte(base), &ok); err != nil {
		t.Fatalf("the base scaler: %v", err)
	}
	for _, tc := range []struct{ old, new, want string }{
		{`"standardize":true,`, ``, `no field "standardize"`},
		{`"start":0`, `"Start":0`, `groups[0] has an unknown field "Start"`},
		{`"fill":[1]`, `"fill":[1e999]`, "fill[0] is 1e999, beyond the range"},
		{`"mu":[0.5]`, `"mu":[null]`, "mu[0] is null"},
		{`"inv":[3]`, `"inv":[null]`, "inv[0] is null"},
		{`"div":[2]`, `"div":[null]`, "div[0] is null"},
		{`"div":[2]`, `"div":[0]`, "div[0] is 0; a scale is positive"},
		{`"inv":[3]`, `"inv":[-3]`, "inv[0] is -3; a scale is positive"},
		{`"mu":[0.5]`, `"mu":[0.5,1]`, "mu has 2 values for 1 columns"},
		{`"fill":[1]`, `"fill":[]`, "fill is empty"},
		{`"unitNorm":false`, `"unitNorm":false,"scale":1`, `unknown field "scale"`},
		{`"unitNorm":false`, `"unitNorm":0`, `unitNorm is the number 0; it must be true or false`},
		{`"width":1`, `"width":1.0`, `groups[0].width is 1.0; it must be an integer`},
		{`"width":1`, `"width":2`, `groups`},
		{`"standardize":true`, `"standardize":false`, "div is given, but a scaler that does not standardize"},
	} {
		bad := strings.Replace(base, tc.old, tc.new, 1)
		var r Scaler
		if err := json.Unmarshal([]byte(bad), &r); err == nil || check.CodeOf(err) == "" || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v (code %q), want one containing %q", bad, err, check.CodeOf(err), tc.want)
		}
	}
}
