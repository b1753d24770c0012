package krr

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestGCVTridiagonalMatchesEigen scores GCV from the tridiagonal form (the
// GCV path: a solve with T + λI per λ) and from the eigendecomposition
// (Spectrum, which LOO uses) on the same rows: the curves agree and pick
// the same λ. m = 600 runs the two-stage reduction; with fewer rows than
// features half the eigenvalues are zero up to rounding. A grid reaching
// far below the rounding of the eigenvalues takes the fallback that
// diagonalizes T.
//
// The tolerance is exactTol/den, den = 1 − tr P/n the GCV denominator from
// the eigenvalues: both ways sum tr P from m terms each exact to about
// ε·‖C‖/λ (the reduction's backward error), and 1/den² amplifies an error
// δ of tr P to 2δ/(n·den) in the score. With fewer rows than features and
// λ near the bottom of the grid, den falls to 1e-5 and the two curves part
// in the fifth digit (each as far from a dense dual solve).
func TestGCVTridiagonalMatchesEigen(t *testing.T) {
	t.Parallel()
	const m, k = 600, 3
	for _, c := range []struct {
		name     string
		n        int
		grid     []float64
		fallback bool
	}{
		{"full rank", 900, nil, false},
		{"rank deficient", 300, nil, false},
		{"grid below rounding", 300, []float64{1e-40, 1e-3, 1}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(c.n), 9))
			phi := mat.NewDense(c.n, m, nil)
			y := make([]float64, c.n)
			for i := range c.n {
				for j := range m {
					// A decaying spectrum, as random features give.
					phi.Set(i, j, r.NormFloat64()/(1+0.05*float64(j)))
				}
				y[i] = float64(r.IntN(k))
			}
			acc, err := NewAccumulator(m, Options{Task: Classification, Classes: k, Grid: c.grid})
			if err != nil {
				t.Fatal(err)
			}
			if err := acc.Add(phi, y); err != nil {
				t.Fatal(err)
			}
			tri, err := acc.spectrum(context.Background(), false)
			if err != nil {
				t.Fatal(err)
			}
			if fell := tri.values != nil; fell != c.fallback {
				t.Fatalf("diagonalized T: %v, want %v", fell, c.fallback)
			}
			eig, err := acc.Spectrum()
			if err != nil {
				t.Fatal(err)
			}
			got, want := tri.GCV(), eig.GCV()
			for i, w := range want {
				if math.Abs(got[i].Lambda-w.Lambda) > 1e-13*w.Lambda {
					t.Fatalf("λ %d: %g, want %g", i, got[i].Lambda, w.Lambda)
				}
				df := 1.0
				for _, l := range eig.values {
					df += l / (l + w.Lambda)
				}
				den := 1 - df/float64(c.n)
				if math.IsInf(w.Score, 1) && math.IsInf(got[i].Score, 1) {
					continue
				}
				if d := math.Abs(got[i].Score - w.Score); !(d <= exactTol/den*w.Score) {
					t.Errorf("λ=%.3g: GCV %.15g from T, %.15g from the eigendecomposition (den %.3g)", w.Lambda, got[i].Score, w.Score, den)
				}
			}
			bg, _ := Best(got, false)
			bw, _ := Best(want, false)
			if bg != bw {
				t.Errorf("best λ index %d from T, %d from the eigendecomposition", bg, bw)
			}
		})
	}
}
