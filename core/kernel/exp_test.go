package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestExpOfIsMathExp holds expOf to math.Exp bit for bit (in WebAssembly
// its own copy of Go's exp): over the RBF map's range −745 … 0 and
// beyond, at the special cases and the edges of ldexp's denormals.
func TestExpOfIsMathExp(t *testing.T) {
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 709.78, 709.79, -745.13, -745.14, -708.39, -708.4, -720, -740, 1e-9, -1e-9, 3.7e-9, -3.7e-9, math.Inf(1), math.Inf(-1), math.NaN(), 5e-324}
	r := rand.New(rand.NewPCG(9, 10))
	for range 300000 {
		xs = append(xs, -750*r.Float64(), 1500*r.Float64()-750, -math.Ldexp(r.Float64(), -r.IntN(40)))
	}
	for _, x := range xs {
		got, want := expOf(x), math.Exp(x)
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("expOf(%v) = %v, math.Exp gives %v", x, got, want)
		}
	}
}
