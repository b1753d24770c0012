package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestExpOfIsMathExp holds expOf to math.Exp bit for bit (in WebAssembly
// pmath.Exp): over the RBF map's range −745 … 0 and
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

// TestRBFKeepsExpOfBits: the RBF Gram and cross kernels give, entry for
// entry, expOf of −γ·max(‖x‖²+‖z‖²−2⟨x,z⟩, 0) (in SIMD WebAssembly two
// entries at a time), on rows that reach every case: equal rows (an
// argument of 0 or −0), rows a hair apart (near zero), far rows (below
// −708, and below expOf's underflow) and the rest.
func TestRBFKeepsExpOfBits(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	rows := func(n int) *mat.Dense {
		X := mat.NewDense(n, 3, nil)
		for i := range n {
			row := X.RawRowView(i)
			switch i % 5 {
			case 0:
				copy(row, []float64{0.5, -1, 2}) // repeated
			case 1:
				copy(row, []float64{0.5 + 1e-9*r.Float64(), -1, 2}) // a hair apart
			case 2:
				for j := range row {
					row[j] = 30 * r.NormFloat64() // far: γ·d² beyond 708 and 745
				}
			default:
				for j := range row {
					row[j] = r.NormFloat64()
				}
			}
		}
		return X
	}
	X, Z := rows(41), rows(23)
	for _, gamma := range []float64{0.5, 10} {
		for _, sym := range []bool{true, false} {
			var K, IP *mat.Dense
			var err error
			Zs := Z
			if sym {
				Zs = X
				K, err = RBF(X, gamma)
				IP = innerProducts(X, X, true) // the upper triangle, as the Gram has it
			} else {
				K, err = RBFCross(X, Z, gamma)
				IP = innerProducts(X, Z, false)
			}
			if err != nil {
				t.Fatal(err)
			}
			n, m := K.Dims()
			for i := range n {
				for j := range m {
					if sym && j <= i {
						continue // the diagonal is 1 and the lower triangle mirrored
					}
					g := IP.At(i, j)
					want := expOf(-gamma * max(sq(X.RawRowView(i))+sq(Zs.RawRowView(j))-2*g, 0))
					if got := K.At(i, j); math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("γ %v, sym %v: (%d, %d) = %v, expOf gives %v", gamma, sym, i, j, got, want)
					}
				}
			}
		}
	}
}
