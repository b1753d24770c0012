package rf

import (
	"fmt"
	"math"
	"ntkrf/core/kernel"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// wineRows are three standardized, unit-norm rows of wine.csv from the
// three classes; their cosines (−0.42, −0.20, 0.30) stay away from ±1,
// where the Jensen bias of deep estimators (below) would be largest.
var wineRows = []int{0, 60, 130}

// exactKernel returns the kernel that features of cfg estimate on X.
func exactKernel(t *testing.T, cfg Config, X *mat.Dense) *mat.Dense {
	t.Helper()
	var K *mat.Dense
	var err error
	switch cfg.Method {
	case "ntk", "naive", "grad":
		K, err = kernel.NTK(X, cfg.Depth)
	case "nngp":
		K, err = kernel.NNGP(X, cfg.Depth)
	case "arccos1":
		K, err = kernel.NNGP(X, 1)
	case "rff":
		K, err = kernel.RBF(X, cfg.Gamma)
	case "arccos0": // F0 = 1 − θ/π, independent of the norms
		n, _ := X.Dims()
		K = mat.NewDense(n, n, nil)
		for i := range n {
			for j := range n {
				c := mat.Dot(X.RowView(i), X.RowView(j)) / (mat.Norm(X.RowView(i), 2) * mat.Norm(X.RowView(j), 2))
				K.Set(i, j, 1-math.Acos(math.Max(-1, math.Min(1, c)))/math.Pi)
			}
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return K
}

// TestUnbiased checks E[Φ(x)·Φ(y)] = K(x, y) for every method: over
// seeds the mean of Φ(x)·Φ(y) must lie within 4 standard errors (estimated
// from the same samples) of the exact kernel, for every pair of wineRows
// and the diagonal. With seeds = 64 the standard error is 1–3 % of K, so a
// wrong constant (a missing √2, d instead of d+2, 1/m instead of 1/√m)
// fails by many standard errors.
//
// That resolution misses errors of a few per cent; TestUnbiasedPrecisely
// checks the depth-1 estimators to 1–2 %.
//
// At depth 1 the estimators are exactly unbiased, but for "gibbs": one
// sweep leaves a bias of about 1 % on these rows (d = 13), below this
// test's resolution (see TestGibbsDirections and the package doc). At
// depth L ≥ 2 they are only asymptotically so: layer l feeds the random Ψ of layer l−1 through
// the nonlinear F0 and F1, which leaves an O(1/m1) bias (the paper's own
// remark after Algorithm 1; the gradient features of a finite network have
// the same kind of bias). Measured with 2000 seeds at these sizes it is at
// most 0.35 standard errors of a 64-seed mean for ntk and nngp, and at most
// 0.7 for naive (m1 = 12) and grad (width 28, 4 %), so 4 SE still holds.
//
// The "hadamard" sampler's structured directions are not independent, so
// it is unbiased only up to the structured-sampling bias; with blocks of
// order ≥ 128 no bias showed at 3000 seeds (see hadamardMinOrder), and
// TestHadamardSmallInputs covers d = 2, where smaller blocks fail.
func TestUnbiased(t *testing.T) {
	t.Parallel()
	const (
		seeds = 64
		nSE   = 4.0
	)
	X := loadRows(t, "wine.csv", wineRows)
	type tc struct {
		cfg    Config
		depths []int
	}
	all := []int{1, 2, 3}
	var cases []tc
	for _, sk := range Sketches() {
		cases = append(cases, tc{Config{Method: "ntk", Sketch: sk, Dim: 256}, all})
	}
	for _, sk := range []Sketch{"split", "tensorsketch"} {
		for _, sm := range []Sampler{"gibbs", "orthogonal", "gaussian", "hadamard"} {
			cases = append(cases, tc{Config{Method: "ntk", Sketch: sk, Sampler: sm, Dim: 256}, []int{1, 2}})
		}
	}
	// The split form with fewer sign features than |·| features: the sign
	// scale 1/√m0 must follow m0.
	cases = append(cases, tc{Config{Method: "ntk", Sketch: "split", M0: 16, Dim: 256}, all})
	// Unequal widths: the Step scale √(2/m0) must follow m0, not m1 (the
	// defaults make them equal, which hides a mix-up).
	for _, sm := range []Sampler{"exact", "hadamard"} {
		cases = append(cases, tc{Config{Method: "ntk", Sampler: sm, M0: 32, M1: 128, SketchDim: 128}, []int{1, 2}})
	}
	cases = append(cases,
		tc{Config{Method: "nngp", Dim: 128}, all},
		tc{Config{Method: "nngp", Sampler: "gibbs", GibbsSweeps: 2, Dim: 128}, []int{1}},
		tc{Config{Method: "arccos0", Dim: 128}, []int{0}},
		tc{Config{Method: "arccos1", Dim: 128}, []int{0}},
		tc{Config{Method: "arccos1", Sampler: "gaussian", Dim: 128}, []int{0}},
		tc{Config{Method: "arccos1", Sampler: "orthogonal", Dim: 128}, []int{0}},
		tc{Config{Method: "arccos0", Sampler: "hadamard", Dim: 128}, []int{0}},
		tc{Config{Method: "arccos1", Sampler: "hadamard", Dim: 128}, []int{0}},
		tc{Config{Method: "naive", Dim: 2048}, all},
		tc{Config{Method: "grad", Dim: 2048}, all},
		tc{Config{Method: "rff", Gamma: 0.5, Dim: 128}, []int{0}},
	)
	for _, c := range cases {
		for _, depth := range c.depths {
			cfg := c.cfg
			cfg.Depth = depth
			name := fmt.Sprintf("%s/%s/%s/L%d", cfg.Method, cfg.Sketch, cfg.Sampler, depth)
			if cfg.M0 > 0 {
				name += fmt.Sprintf("/m0=%d,m1=%d", cfg.M0, cfg.M1)
			}
			t.Run(name, func(t *testing.T) {
				K := exactKernel(t, cfg, X)
				pairs := [][2]int{{0, 1}, {0, 2}, {1, 2}, {0, 0}}
				est := pairEstimates(t, cfg, X, pairs, 1000, seeds)
				for k, p := range pairs {
					mean, se := meanSE(est[k])
					want := K.At(p[0], p[1])
					if math.Abs(mean-want) > nSE*se+1e-12 {
						t.Errorf("pair %v: mean %.5f over %d seeds, kernel %.5f: off by %.1f SE (SE %.5f)", p, mean, seeds, want, math.Abs(mean-want)/se, se)
					}
				}
			})
		}
	}
}

// TestUnbiasedPrecisely repeats the depth-1 check of TestUnbiased with the
// power to see a few per cent: 2000 seeds on three unit rows in d = 3, two
// of them along the axes (where a sampler that is not rotation invariant
// shows most), so that nSE standard errors stay below resolution times the
// kernel's scale √(K(x,x)K(y,y)); a 5 % error in a feature scale (the
// Step scale √(2/m0), the ReLU scale √(2d/m1), a sketch's 1/√out) biases
// by 5–10 % and fails by 10 or more standard errors. Exactly unbiased
// estimators only: "gibbs" at a few sweeps and "hadamard" are not (see the
// package doc and TestGibbsDirections).
func TestUnbiasedPrecisely(t *testing.T) {
	t.Parallel()
	const (
		seeds      = 2000
		nSE        = 4.5
		resolution = 0.03
	)
	X := mat.NewDense(3, 3, []float64{1, 0, 0, 0.6, 0.8, 0, -0.48, 0.6, 0.64})
	cases := []Config{
		{Method: "arccos0", Dim: 64},
		{Method: "arccos0", Sampler: "orthogonal", Dim: 64},
		{Method: "arccos1", Dim: 64},
		{Method: "arccos1", Sampler: "orthogonal", Dim: 64},
		{Method: "arccos1", Sampler: "gaussian", Dim: 64},
		{Method: "nngp", Depth: 1, Dim: 64},
		{Method: "ntk", Depth: 1, Sketch: "split", Dim: 128},
		{Method: "ntk", Depth: 1, Sketch: "split", Sampler: "orthogonal", Dim: 128},
		{Method: "ntk", Depth: 1, Sketch: "split", M0: 16, Dim: 128},
		{Method: "ntk", Depth: 1, Sketch: "tensorsketch", Dim: 128},
		{Method: "ntk", Depth: 1, Sketch: "tensorsrht", Dim: 128},
		{Method: "ntk", Depth: 1, M0: 16, M1: 64, SketchDim: 64},
		{Method: "naive", Depth: 1, Dim: 256},
		{Method: "grad", Depth: 1, Dim: 256},
		{Method: "rff", Gamma: 0.5, Dim: 64},
	}
	pairs := [][2]int{{0, 1}, {0, 2}, {1, 2}, {1, 1}}
	for _, cfg := range cases {
		name := fmt.Sprintf("%s/%s/%s/m0=%d", cfg.Method, cfg.Sketch, cfg.Sampler, cfg.M0)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			K := exactKernel(t, cfg, X)
			est := pairEstimates(t, cfg, X, pairs, 0, seeds)
			for k, p := range pairs {
				mean, se := meanSE(est[k])
				want, scale := K.At(p[0], p[1]), math.Sqrt(K.At(p[0], p[0])*K.At(p[1], p[1]))
				if nSE*se > resolution*scale {
					t.Fatalf("pair %v: SE %.5f cannot resolve a bias of %g × %.4f; use more seeds", p, se, resolution, scale)
				}
				if math.Abs(mean-want) > nSE*se {
					t.Errorf("pair %v: mean %.5f over %d seeds, kernel %.5f: off by %.1f SE (SE %.5f)", p, mean, seeds, want, math.Abs(mean-want)/se, se)
				}
			}
		})
	}
}
