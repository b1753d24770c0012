package rf

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

// TestPortableMath checks the portable copies against package math: they
// run the same algorithms, so they agree to 1 ulp (the assembly Exp and
// Log of amd64 may round differently in the last place). erfc multiplies
// two exps, each within 1 ulp, and rounds the product and a quotient: 4 ulps.
func TestPortableMath(t *testing.T) {
	t.Parallel()
	for x := -740.0; x < 710; x += 0.37 {
		if u := ulps(pexp(x), math.Exp(x)); u > 1 {
			t.Errorf("pexp(%v) = %v, math.Exp %v: %v ulps", x, pexp(x), math.Exp(x), u)
		}
	}
	for _, x := range []float64{1e-300, 1e-10, 0.3, 0.7071, 1, 1.5, 2.718281828, 1e5, 1e300} {
		if u := ulps(plog(x), math.Log(x)); u > 1 {
			t.Errorf("plog(%v) = %v, math.Log %v: %v ulps", x, plog(x), math.Log(x), u)
		}
	}
	for x := -7.0; x < 27; x += 0.013 {
		if u := ulps(perfc(x), math.Erfc(x)); u > 4 {
			t.Errorf("perfc(%v) = %v, math.Erfc %v: %v ulps", x, perfc(x), math.Erfc(x), u)
		}
	}
	if !math.IsInf(plog(0), -1) || !math.IsNaN(plog(-1)) || pexp(math.Inf(-1)) != 0 || perfc(math.Inf(-1)) != 2 {
		t.Error("special cases differ from package math")
	}
}

// TestGauss checks the polar sampler's first four moments on 200,000
// draws against 0, 1, 0, 3, within 4 standard errors (√(var/n) with the
// normal's var of x, x², x³, x⁴: 1, 2, 15, 96).
func TestGauss(t *testing.T) {
	t.Parallel()
	const n = 200000
	g := &gauss{r: newStream(1, 0, 0)}
	var m [4]float64
	for range n {
		x := g.next()
		p := x
		for k := range m {
			m[k] += p
			p *= x
		}
	}
	want := [4]float64{0, 1, 0, 3}
	variance := [4]float64{1, 2, 15, 96}
	for k := range m {
		if got, se := m[k]/n, math.Sqrt(variance[k]/n); math.Abs(got-want[k]) > 4*se {
			t.Errorf("moment %d: %.4f, want %v ± %.4f", k+1, got, want[k], 4*se)
		}
	}
}
