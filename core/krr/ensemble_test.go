package krr

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/kernel"
	"ntkrf/internal/check"
)

// TestEnsembleVariance checks the variance against a direct computation
// of the formula with an explicit inverse, for several depths and λ; it
// vanishes at the training rows as λ → 0 and grows away from them.
func TestEnsembleVariance(t *testing.T) {
	X := mat.NewDense(5, 2, []float64{-1, 1, -0.5, 1, 0, 1, 0.4, 1, 1, 1}) // 1-D inputs with a bias column
	Z := mat.NewDense(4, 2, []float64{-0.75, 1, 0.2, 1, 2, 1, 0, 1})
	direct := func(depth int, lambda float64) []float64 {
		theta, _ := kernel.NTK(X, depth)
		K, _ := kernel.NNGP(X, depth)
		thetaZ, _ := kernel.NTKCross(X, Z, depth)
		KZ, _ := kernel.NNGPCross(X, Z, depth)
		KZZ, _ := kernel.NNGP(Z, depth)
		var reg, inv, A, KA mat.Dense
		reg.Add(theta, scaledIdentity(5, lambda))
		if err := inv.Inverse(&reg); err != nil {
			t.Fatal(err)
		}
		A.Mul(&inv, thetaZ)
		KA.Mul(K, &A)
		out := make([]float64, 4)
		for j := range 4 {
			v := KZZ.At(j, j)
			for i := range 5 {
				v += A.At(i, j)*KA.At(i, j) - 2*A.At(i, j)*KZ.At(i, j)
			}
			out[j] = v
		}
		return out
	}
	for _, tc := range []struct {
		depth  int
		lambda float64
	}{{1, 1e-3}, {2, 0.1}, {3, 1}, {1, 10}} {
		got, err := EnsembleVariance(tc.depth, X, Z, tc.lambda)
		if err != nil {
			t.Fatal(err)
		}
		want := direct(tc.depth, tc.lambda)
		for j := range want {
			if math.Abs(got[j]-want[j]) > 1e-10*(1+math.Abs(want[j])) {
				t.Errorf("L = %d, λ = %v, row %d: %v, direct %v", tc.depth, tc.lambda, j, got[j], want[j])
			}
		}
	}
	// At a training row (Z's last is X's third) the networks agree as λ → 0; far away (x = 2) they do not.
	v, _ := EnsembleVariance(2, X, Z, 1e-9)
	if v[3] > 1e-6 || v[2] < 1e-3 {
		t.Errorf("variance %v at a training row and %v far from the data", v[3], v[2])
	}
}

func scaledIdentity(n int, s float64) *mat.Dense {
	I := mat.NewDense(n, n, nil)
	for i := range n {
		I.Set(i, i, s)
	}
	return I
}

// TestEnsembleVarianceErrors: bad input comes back as a coded error.
func TestEnsembleVarianceErrors(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{0, 1, 1, 1, 2, 1})
	for _, tc := range []struct {
		name   string
		depth  int
		Z      *mat.Dense
		lambda float64
		code   check.Code
	}{
		{"width", 1, mat.NewDense(1, 3, []float64{1, 2, 3}), 1, check.Shape},
		{"λ 0", 1, X, 0, check.Option},
		{"λ NaN", 1, X, math.NaN(), check.Option},
		{"λ +Inf", 1, X, math.Inf(1), check.Option},
		{"depth", -1, X, 1, check.Option},
		{"NaN in Z", 1, mat.NewDense(1, 2, []float64{math.NaN(), 1}), 1, check.NonFinite},
	} {
		if _, err := EnsembleVariance(tc.depth, X, tc.Z, tc.lambda); check.CodeOf(err) != tc.code {
			t.Errorf("%s: %v, want code %v", tc.name, err, tc.code)
		}
	}
}
