package playground

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// spiral is n points of two interleaved spirals in the plane (the
// playground's landing set), classes alternating.
func spiral(n int, seed uint64) (*mat.Dense, []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	X := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		c := i % 2
		t := float64(i/2) / float64(n/2)
		a := 3.5*math.Pi*t + float64(c)*math.Pi
		rad := 0.05 + 0.95*t
		X.Set(i, 0, rad*math.Sin(a)+0.025*r.NormFloat64())
		X.Set(i, 1, rad*math.Cos(a)+0.025*r.NormFloat64())
		y[i] = float64(c)
	}
	return X, y
}

// grid is the g×g grid of the plane ±1.5, as the lab orders it.
func grid(g int) *mat.Dense {
	P := mat.NewDense(g*g, 2, nil)
	for r := 0; r < g; r++ {
		for c := 0; c < g; c++ {
			P.Set(r*g+c, 0, -1.5+(float64(c)+0.5)*3/float64(g))
			P.Set(r*g+c, 1, 1.5-(float64(r)+0.5)*3/float64(g))
		}
	}
	return P
}

// models are the playground's three: the exact NTK of depth L, its random
// features at m, and the RBF kernel of γ = 10; the page's preprocessing
// (standardized, a bias input of 1) and λ.
func models(depth, m int, lambda float64) []pipeline.Config {
	prep := &data.Prep{Bias: 1}
	ridge := krr.Options{Lambda: lambda, Task: krr.Classification, Classes: 2}
	return []pipeline.Config{
		{Kernel: &kernel.Spec{Name: "ntk", Depth: depth}, Preprocess: prep, Ridge: ridge},
		{Features: rf.Config{Method: "ntk", Dim: m, Depth: depth, Seed: 1}, Preprocess: prep, Ridge: ridge},
		{Kernel: &kernel.Spec{Name: "rbf", Gamma: 10}, Preprocess: prep, Ridge: ridge},
	}
}

func sameBits(t *testing.T, what string, got, want *mat.Dense) {
	t.Helper()
	if !sameMatrix(got, want) {
		t.Fatalf("%s: the scores differ from pipeline.Fit's", what)
	}
}

// TestRunIsFit: every score is pipeline.Fit's model's Scores, bit for bit,
// whether computed now or kept from an earlier request; a request computes
// only what its settings changed.
func TestRunIsFit(t *testing.T) {
	X, y := spiral(200, 1)
	test, _ := spiral(200, 2)
	coarse, full := grid(16), grid(64)
	var c Cache
	ctx := context.Background()
	check1 := func(depth, m int, lambda float64, points []*mat.Dense, got []Surface) {
		t.Helper()
		for i, cfg := range models(depth, m, lambda) {
			p, err := pipeline.Fit(ctx, X, y, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got[i].Lambda != p.Lambda() {
				t.Fatalf("model %d: λ %v, want %v", i, got[i].Lambda, p.Lambda())
			}
			for j, P := range points {
				want, err := p.Scores(P)
				if err != nil {
					t.Fatal(err)
				}
				sameBits(t, "model", got[i].Scores[j], want)
			}
		}
	}
	run := func(depth, m int, lambda float64, points ...*mat.Dense) []Surface {
		t.Helper()
		s, err := c.Run(ctx, Request{Models: models(depth, m, lambda), X: X, Y: y, Points: points})
		if err != nil {
			t.Fatal(err)
		}
		check1(depth, m, lambda, points, s)
		return s
	}
	// The first picture: three fits, the test rows and the coarse grid scored.
	s := run(1, 512, 0.01, test, coarse)
	if c.Fits != 3 || s[0].Reused || s[0].Computed != 2 {
		t.Fatalf("first request: %d fits, reused %v, computed %d", c.Fits, s[0].Reused, s[0].Computed)
	}
	// The full picture: no fit, only the full grid.
	s = run(1, 512, 0.01, test, full)
	if c.Fits != 3 || !s[1].Reused || s[1].Computed != 1 {
		t.Fatalf("full grid: %d fits, reused %v, computed %d", c.Fits, s[1].Reused, s[1].Computed)
	}
	// A new λ: three fits, but the grid's kernels and features are kept.
	bases := c.Bases
	run(1, 512, 0.1, test, full)
	if c.Fits != 6 || c.Bases != bases {
		t.Fatalf("new λ: %d fits (want 6), %d bases computed (want none)", c.Fits, c.Bases-bases)
	}
	// A new m: the random features alone are fitted again.
	s = run(1, 1024, 0.1, test, full)
	if c.Fits != 7 || !s[0].Reused || s[1].Reused || !s[2].Reused || s[0].Computed != 0 || s[2].Computed != 0 {
		t.Fatalf("new m: %d fits, %+v", c.Fits, s)
	}
	// A new depth: the exact kernel and the features, not the RBF contrast.
	run(2, 1024, 0.1, test, full)
	if c.Fits != 9 {
		t.Fatalf("new depth: %d fits, want 9", c.Fits)
	}
	// Back to m = 512 at depth 1: kept.
	run(1, 512, 0.1, test, full)
	if c.Fits != 9 {
		t.Fatalf("back: %d fits, want 9", c.Fits)
	}
	// λ chosen by each model (leave-one-out in the dual).
	s = run(1, 512, 0, test, coarse)
	if s[0].Lambda <= 0 {
		t.Fatalf("λ auto chose %v", s[0].Lambda)
	}
	// Other rows: nothing kept applies.
	X2, y2 := spiral(200, 3)
	fits := c.Fits
	if _, err := c.Run(ctx, Request{Models: models(1, 512, 0.01), X: X2, Y: y2, Points: []*mat.Dense{coarse}}); err != nil {
		t.Fatal(err)
	}
	if c.Fits != fits+3 {
		t.Fatalf("new rows: %d fits, want %d", c.Fits, fits+3)
	}
}

// TestRunRefuses: bad requests end in coded errors, not panics, and a
// model that cannot be fitted names itself.
func TestRunRefuses(t *testing.T) {
	X, y := spiral(20, 1)
	ok := models(1, 64, 0.01)
	bad := []struct {
		name string
		req  Request
		code check.Code
	}{
		{"no models", Request{X: X, Y: y}, check.Option},
		{"too many models", Request{Models: make([]pipeline.Config, MaxModels+1), X: X, Y: y}, check.Option},
		{"nil X", Request{Models: ok, Y: y}, check.CodeOf(check.Matrix("X", nil))},
		{"short y", Request{Models: ok, X: X, Y: y[:3]}, check.Shape},
		{"points of 3 columns", Request{Models: ok, X: X, Y: y, Points: []*mat.Dense{mat.NewDense(2, 3, nil)}}, check.Shape},
		{"NaN in points", Request{Models: ok, X: X, Y: y, Points: []*mat.Dense{mat.NewDense(1, 2, []float64{math.NaN(), 0})}}, check.CodeOf(check.Matrix("points", mat.NewDense(1, 1, []float64{math.NaN()})))},
		{"negative depth", Request{Models: models(-1, 64, 0.01), X: X, Y: y}, ""},
	}
	for _, b := range bad {
		var c Cache
		_, err := c.Run(context.Background(), b.req)
		if err == nil {
			t.Fatalf("%s: no error", b.name)
		}
		if b.code != "" && check.CodeOf(err) != b.code {
			t.Fatalf("%s: code %v, want %v (%v)", b.name, check.CodeOf(err), b.code, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var c Cache
	if _, err := c.Run(ctx, Request{Models: ok, X: X, Y: y}); err == nil {
		t.Fatal("a cancelled request ran")
	}
}
