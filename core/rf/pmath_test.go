package rf

import (
	"math"
	"testing"
)

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
