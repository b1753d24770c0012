package kernel

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// bigPrec is the working precision of the reference: 256 bits. The worst
// cancellation, 1 − c for an angle of 1e-8 (about 2⁻⁵⁴), leaves some 200
// correct bits, far beyond float64's 53.
const bigPrec = 256

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func bigF(x float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(x) }

func newBig() *big.Float { return new(big.Float).SetPrec(bigPrec) }

// bigAtan returns arctan(x). It halves the argument with
// arctan x = 2·arctan(x / (1 + √(1+x²))) until |x| ≤ 2⁻⁶, then sums the
// Taylor series x − x³/3 + x⁵/5 − …, whose terms shrink by 2⁻¹² each.
func bigAtan(x *big.Float) *big.Float {
	y := newBig().Set(x)
	one, small := bigF(1), bigF(1.0/64)
	doublings := 0
	for newBig().Abs(y).Cmp(small) > 0 {
		t := newBig().Mul(y, y)
		t.Add(t, one)
		t.Sqrt(t)
		t.Add(t, one)
		y.Quo(y, t)
		doublings++
	}
	y2 := newBig().Mul(y, y)
	sum, pow := newBig().Set(y), newBig().Set(y)
	for n := 1; ; n++ {
		pow.Mul(pow, y2)
		pow.Neg(pow)
		term := newBig().Quo(pow, bigF(float64(2*n+1)))
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -bigPrec-8 {
			break
		}
		sum.Add(sum, term)
	}
	return sum.SetMantExp(sum, doublings)
}

// bigPi is π = 4·arctan 1.
var bigPi = func() *big.Float {
	p := bigAtan(bigF(1))
	return p.SetMantExp(p, 2)
}()

// bigAcos returns arccos c for c in [−1, 1] as atan2(√(1−c²), c), which is
// well conditioned near c = ±1 given 1 − c² to full precision.
func bigAcos(c *big.Float) *big.Float {
	s := newBig().Mul(c, c)
	s.Sub(bigF(1), s)
	s.Sqrt(s)
	switch c.Sign() {
	case 0:
		return newBig().Quo(bigPi, bigF(2))
	case 1:
		return bigAtan(newBig().Quo(s, c))
	}
	a := bigAtan(newBig().Quo(s, newBig().Neg(c)))
	return a.Sub(bigPi, a)
}

// bigReLU runs the arc-cosine recursion of the package doc in bigPrec-bit
// arithmetic on the exact values of the float64 rows x and z, and returns
// NTK_depth and NNGP_depth rounded to float64.
func bigReLU(x, z []float64, depth int) (ntk, nngp float64) {
	g, a2, b2 := newBig(), newBig(), newBig()
	for i := range x {
		g.Add(g, newBig().Mul(bigF(x[i]), bigF(z[i])))
		a2.Add(a2, newBig().Mul(bigF(x[i]), bigF(x[i])))
		b2.Add(b2, newBig().Mul(bigF(z[i]), bigF(z[i])))
	}
	ab := newBig().Mul(a2, b2)
	ab.Sqrt(ab)
	one := bigF(1)
	ng, k := newBig().Set(g), newBig().Set(g)
	for range depth {
		c := newBig().Quo(ng, ab)
		if c.Cmp(one) > 0 {
			c.Set(one)
		}
		if c.Cmp(bigF(-1)) < 0 {
			c.SetFloat64(-1)
		}
		theta := bigAcos(c)
		f0 := newBig().Quo(theta, bigPi)
		f0.Sub(one, f0)
		s := newBig().Mul(c, c)
		s.Sub(one, s)
		s.Sqrt(s)
		rest := newBig().Sub(bigPi, theta)
		rest.Mul(rest, c)
		s.Add(s, rest)
		s.Quo(s, bigPi)
		ng.Mul(ab, s)
		k.Mul(k, f0)
		k.Add(k, ng)
	}
	ntk, _ = k.Float64()
	nngp, _ = ng.Float64()
	return ntk, nngp
}

// TestBigReference checks the big-float reference itself: arctan gives π
// to the 50 digits printed in every table, and arccos(1/2) = π/3.
func TestBigReference(t *testing.T) {
	t.Parallel()
	pi50, _, err := big.ParseFloat("3.14159265358979323846264338327950288419716939937510", 10, bigPrec, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	if d := newBig().Sub(bigPi, pi50); newBig().Abs(d).Cmp(bigF(1e-49)) > 0 {
		t.Errorf("π = %s, want %s", bigPi.Text('g', 60), pi50.Text('g', 52))
	}
	third := newBig().Quo(bigPi, bigF(3))
	if d := newBig().Sub(bigAcos(bigF(0.5)), third); newBig().Abs(d).Cmp(bigF(1e-70)) > 0 {
		t.Errorf("arccos(1/2) − π/3 = %s", d.Text('g', 5))
	}
}

// nearTol is the relative error allowed against the 256-bit reference:
// the first angle comes from Kahan's formula to a few ulps, and each layer
// adds a few roundings, so depth 8 stays within about 1e-14; 1e-13 leaves
// room. Without the small-angle series, or with one of its first three
// coefficients wrong, the error reaches 1e-12 … 1e-9 on these pairs (the
// later terms are below 1e-15 of 1 − c even at θ = 0.1).
const nearTol = 1e-13

// TestSmallAnglesAgainstBigFloat compares the NTK and NNGP of nearly
// parallel (θ = 1e-8 … 0.09, where the small-angle series runs) and nearly
// opposite rows at depths 1…8 with the recursion evaluated in 256-bit
// arithmetic on the same float64 inputs. The error is relative to the
// larger of the value and ‖x‖‖z‖: for nearly opposite rows NNGP_1 is
// ‖x‖‖z‖·O(δ³) (δ = π − θ), a cancellation no float64 formula resolves to
// relative precision, while nearly parallel rows give values ≥ ‖x‖‖z‖/2.
func TestSmallAnglesAgainstBigFloat(t *testing.T) {
	t.Parallel()
	x := []float64{0.3, -1.2, 2.5, 0.7}
	u := []float64{1.1, 0.4, 0.2, -0.6} // made orthogonal to x below
	var xx, xu float64
	for i := range x {
		xx += x[i] * x[i]
		xu += x[i] * u[i]
	}
	var uu float64
	for i := range u {
		u[i] -= xu / xx * x[i]
		uu += u[i] * u[i]
	}
	nx, nu := math.Sqrt(xx), math.Sqrt(uu)
	angles := []float64{1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.05, 0.09, 0.2, math.Pi - 1e-6, math.Pi - 1e-3}
	for _, theta := range angles {
		// z = 1.7·‖x‖·(cos θ x̂ + sin θ û), rounded to float64; the
		// reference uses the rounded values, so the exact angle is moot.
		z := make([]float64, len(x))
		for i := range z {
			z[i] = 1.7 * nx * (math.Cos(theta)*x[i]/nx + math.Sin(theta)*u[i]/nu)
		}
		X, Z := mat.NewDense(1, 4, x), mat.NewDense(1, 4, z)
		ab := nx * math.Sqrt(dot(z, z))
		for depth := 1; depth <= 8; depth++ {
			t.Run(fmt.Sprintf("θ=%.3g/L%d", theta, depth), func(t *testing.T) {
				wantNTK, wantNNGP := bigReLU(x, z, depth)
				K, err := NTKCross(X, Z, depth)
				if err != nil {
					t.Fatal(err)
				}
				G, err := NNGPCross(X, Z, depth)
				if err != nil {
					t.Fatal(err)
				}
				if e := math.Abs(K.At(0, 0)-wantNTK) / math.Max(math.Abs(wantNTK), ab); e > nearTol {
					t.Errorf("NTK %.17g, 256-bit reference %.17g (rel err %.2g)", K.At(0, 0), wantNTK, e)
				}
				if e := math.Abs(G.At(0, 0)-wantNNGP) / math.Max(math.Abs(wantNNGP), ab); e > nearTol {
					t.Errorf("NNGP %.17g, 256-bit reference %.17g (rel err %.2g)", G.At(0, 0), wantNNGP, e)
				}
			})
		}
	}
}
