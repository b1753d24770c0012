package pmath

import (
	"math"
	"testing"
)

// ulps returns the distance between a and b in units in the last place.
func ulps(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / (math.Nextafter(math.Abs(b), math.Inf(1)) - math.Abs(b))
}

// TestPortableMath checks Exp, Log and Erfc against package math: they
// run the same algorithms, so they agree to 1 ulp (the assembly Exp and
// Log of amd64 may round differently in the last place). erfc multiplies
// two exps, each within 1 ulp, and rounds the product and a quotient: 4 ulps.
func TestPortableMath(t *testing.T) {
	t.Parallel()
	for x := -740.0; x < 710; x += 0.37 {
		if u := ulps(Exp(x), math.Exp(x)); u > 1 {
			t.Errorf("Exp(%v) = %v, math.Exp %v: %v ulps", x, Exp(x), math.Exp(x), u)
		}
	}
	for _, x := range []float64{1e-300, 1e-10, 0.3, 0.7071, 1, 1.5, 2.718281828, 1e5, 1e300} {
		if u := ulps(Log(x), math.Log(x)); u > 1 {
			t.Errorf("Log(%v) = %v, math.Log %v: %v ulps", x, Log(x), math.Log(x), u)
		}
	}
	for x := -7.0; x < 27; x += 0.013 {
		if u := ulps(Erfc(x), math.Erfc(x)); u > 4 {
			t.Errorf("Erfc(%v) = %v, math.Erfc %v: %v ulps", x, Erfc(x), math.Erfc(x), u)
		}
	}
	if !math.IsInf(Log(0), -1) || !math.IsNaN(Log(-1)) || Exp(math.Inf(-1)) != 0 || Erfc(math.Inf(-1)) != 2 {
		t.Error("special cases differ from package math")
	}
}
