package rf

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
)

// TestConfigErrors checks that every invalid setting is rejected with an
// error that starts with "rf: " and names the offending field.
func TestConfigErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		cfg      Config
		inputDim int
		field    string
	}{
		{Config{Method: "svm", Dim: 8}, 3, "Config.Method"},
		{Config{Sketch: "fft", Depth: 1, Dim: 8}, 3, "Config.Sketch"},
		{Config{Sampler: "mcmc", Depth: 1, Dim: 8}, 3, "Config.Sampler"},
		{Config{Depth: 1, Dim: -4}, 3, "Config.Dim"},
		{Config{Depth: 1, Dim: 1}, 3, "Config.Dim"},
		{Config{Depth: 1, Dim: MaxDim + 1}, 3, "Config.Dim"},
		{Config{Depth: 1, Dim: 8, M0: -1}, 3, "Config.M0"},
		{Config{Depth: 1, Dim: 8, M1: -1}, 3, "Config.M1"},
		{Config{Depth: 1, Dim: 8, SketchDim: -2}, 3, "Config.SketchDim"},
		{Config{Depth: -1, Dim: 8}, 3, "Config.Depth"},
		{Config{Depth: check.MaxDepth + 1, Dim: 8}, 3, "Config.Depth"},
		{Config{Method: "naive", Depth: 2, Dim: 4}, 3, "Config.Dim"},
		{Config{Method: "grad", Depth: 2, Dim: 3}, 3, "Config.Dim"},
		{Config{Method: "rff", Dim: 8, Gamma: -1}, 3, "Config.Gamma"},
		{Config{Method: "rff", Dim: 8, Gamma: math.NaN()}, 3, "Config.Gamma"},
		{Config{Method: "rff", Dim: 8, Gamma: math.Inf(1)}, 3, "Config.Gamma"},
		{Config{Depth: 1, Dim: 8, GibbsSweeps: -1}, 3, "Config.GibbsSweeps"},
		{Config{Depth: 1, Dim: 8}, 0, "input dimension"},
		{Config{Depth: 1, Dim: 8, Seed: MaxSeed + 1}, 3, "Config.Seed"},
		{Config{Method: "rff", Dim: 8, Seed: math.MaxUint64}, 3, "Config.Seed"},
	}
	for _, c := range cases {
		_, err := New(c.cfg, c.inputDim)
		if err == nil || !strings.HasPrefix(err.Error(), "rf: ") || !strings.Contains(err.Error(), c.field) {
			t.Errorf("New(%+v, %d) = %v; want an error naming %s", c.cfg, c.inputDim, err, c.field)
		}
	}
}

// TestTransformErrors checks bad inputs to Transform.
func TestTransformErrors(t *testing.T) {
	t.Parallel()
	f, err := New(Config{Depth: 1, Dim: 8}, 3)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		dst, X *mat.Dense
	}{
		{"columns", nil, mat.NewDense(2, 4, nil)},
		{"NaN", nil, mat.NewDense(1, 3, []float64{1, math.NaN(), 0})},
		{"empty", nil, &mat.Dense{}},
		{"dst shape", mat.NewDense(2, 7, nil), mat.NewDense(2, 3, nil)},
	}
	for _, c := range cases {
		if _, err := f.Transform(c.dst, c.X); err == nil || !strings.HasPrefix(err.Error(), "rf: ") {
			t.Errorf("%s: Transform error %v, want an rf: error", c.name, err)
		}
	}
}

// TestConfigDefaults checks the filled-in configuration and the output
// dimensions of every method.
func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		cfg  Config
		d    int
		want Config
	}{
		{Config{Depth: 2, Dim: 9}, 5, Config{Method: "ntk", Depth: 2, Dim: 9, M0: 4, M1: 4, SketchDim: 5, Sketch: "tensorsketch", Sampler: "exact", GibbsSweeps: 1, Precision: "float32"}},
		{Config{Depth: 1, M1: 3, SketchDim: 6}, 5, Config{Method: "ntk", Depth: 1, Dim: 9, M0: 3, M1: 3, SketchDim: 6, Sketch: "tensorsketch", Sampler: "exact", GibbsSweeps: 1, Precision: "float32"}},
		// The zero Config is the documented default: NTK of depth 1, DefaultDim columns.
		// The split form where it fits: the |·| and sketch blocks share
		// m − d = 1019 columns, the sketch's 509 rounded to 512, so the
		// |·| block (and M0) gets 507.
		{Config{}, 5, Config{Method: "ntk", Depth: 1, Dim: DefaultDim, M0: 507, Sketch: "split", Sampler: "exact", GibbsSweeps: 1, Precision: "float32"}},
		{Config{Method: "ntk", Dim: 2048}, 5, Config{Method: "ntk", Depth: 1, Dim: 2048, M0: 1019, Sketch: "split", Sampler: "exact", GibbsSweeps: 1, Precision: "float32"}},
		// Depth 2: shares ∝ 2, 1, 2, 2 of m − d = 123; sketches 17 → 16 and
		// 35 → 32, the |·| blocks 75 → 37 + 38.
		{Config{Depth: 2, Dim: 128}, 5, Config{Method: "ntk", Depth: 2, Dim: 128, M0: 38, Sketch: "split", Sampler: "exact", GibbsSweeps: 1, Precision: "float32"}},
		// Deeper than the split form's columns allow (and where its
		// integer weights would overflow): the paper's form.
		{Config{Depth: 8, Dim: 256}, 5, Config{Method: "ntk", Depth: 8, Dim: 256, M0: 128, M1: 128, SketchDim: 128, Sketch: "tensorsketch", Sampler: "exact", GibbsSweeps: 1, Precision: "float32"}},
		{Config{Depth: 64, Dim: 8}, 5, Config{Method: "ntk", Depth: 64, Dim: 8, M0: 4, M1: 4, SketchDim: 4, Sketch: "tensorsketch", Sampler: "exact", GibbsSweeps: 1, Precision: "float32"}},
		// Inputs wider than 3m/4: the paper's form.
		{Config{Dim: 64}, 49, Config{Method: "ntk", Depth: 1, Dim: 64, M0: 32, M1: 32, SketchDim: 32, Sketch: "tensorsketch", Sampler: "exact", GibbsSweeps: 1, Precision: "float32"}},
		{Config{Dim: 64}, 48, Config{Method: "ntk", Depth: 1, Dim: 64, M0: 8, Sketch: "split", Sampler: "exact", GibbsSweeps: 1, Precision: "float32"}},
		{Config{Method: "nngp", M1: 6}, 5, Config{Method: "nngp", Depth: 1, Dim: 6, M1: 6, Sketch: "tensorsketch", Sampler: "exact", GibbsSweeps: 1, Precision: "float32"}},
		{Config{Method: "arccos1", Depth: 3, Dim: 7}, 5, Config{Method: "arccos1", Dim: 7, M1: 7, Sketch: "tensorsketch", Sampler: "exact", GibbsSweeps: 1, Precision: "float32"}},
		{Config{Method: "rff", Dim: 7}, 4, Config{Method: "rff", Dim: 7, Gamma: 0.25, Sketch: "tensorsketch", Sampler: "exact", GibbsSweeps: 1, Precision: "float32"}},
		// naive: m1(1 + m0) + m0²d ≤ 100 with d = 5 → m0 = m1 = 4 (4·5 + 16·5 = 100).
		{Config{Method: "naive", Depth: 2, Dim: 100}, 5, Config{Method: "naive", Depth: 2, Dim: 100, M0: 4, M1: 4, Sketch: "tensorsketch", Sampler: "exact", GibbsSweeps: 1, Precision: "float32"}},
		// grad: width·(1 + d + (L−1)·width) ≤ 100 with d = 5, L = 2 → width 7 (7·13 = 91; 8 gives 112).
		{Config{Method: "grad", Depth: 2, Dim: 100}, 5, Config{Method: "grad", Depth: 2, Dim: 91, M1: 7, Sketch: "tensorsketch", Sampler: "gaussian", GibbsSweeps: 1, Precision: "float64"}},
	}
	for _, c := range cases {
		f, err := New(c.cfg, c.d)
		if err != nil {
			t.Fatal(err)
		}
		if f.Config() != c.want || f.Dim() != c.want.Dim || f.InputDim() != c.d {
			t.Errorf("New(%+v): Config %+v, Dim %d; want %+v", c.cfg, f.Config(), f.Dim(), c.want)
		}
	}
}

// TestNormalize checks that Normalize gives unit rows (zero rows stay zero).
func TestNormalize(t *testing.T) {
	t.Parallel()
	X := mat.NewDense(3, 2, []float64{3, 4, 0, 0, -1, 2})
	g, err := New(Config{Depth: 2, Dim: 16, Normalize: true}, 2)
	if err != nil {
		t.Fatal(err)
	}
	G, err := g.Transform(nil, X)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{1, 0, 1} {
		if n := mat.Norm(G.RowView(i), 2); math.Abs(n-want) > 1e-15 {
			t.Errorf("row %d norm %v, want %v", i, n, want)
		}
	}
}

// TestConvergence checks that the relative Frobenius error of the
// approximate NTK on 30 wine rows falls like m^(−1/2): the least-squares
// slope of log error against log m over m ∈ {256, 1024, 4096} (mean over 3
// seeds) must lie in [−0.65, −0.35], ±0.15 around the Monte Carlo rate,
// wide enough for the scatter of three points and narrow enough to reject
// a stalled (0) or a doubled (−1) rate.
func TestConvergence(t *testing.T) {
	t.Parallel()
	rows := make([]int, 30)
	for i := range rows {
		rows[i] = 6 * i
	}
	X := loadRows(t, "wine.csv", rows)
	for _, cfg := range []Config{{Method: "ntk", Depth: 1}, {Method: "ntk", Depth: 1, Sketch: "tensorsrht"}, {Method: "arccos1"}} {
		K := exactKernel(t, cfg, X)
		ms := []float64{256, 1024, 4096}
		var lx, ly []float64
		for _, m := range ms {
			var e float64
			for s := range 3 {
				c := cfg
				c.Dim, c.Seed = int(m), uint64(s)
				f, err := New(c, 13)
				if err != nil {
					t.Fatal(err)
				}
				F, err := f.Transform(nil, X)
				if err != nil {
					t.Fatal(err)
				}
				var G mat.Dense
				G.Mul(F, F.T())
				G.Sub(&G, K)
				e += mat.Norm(&G, 2) / mat.Norm(K, 2) / 3
			}
			lx, ly = append(lx, math.Log(m)), append(ly, math.Log(e))
		}
		mx, my := (lx[0]+lx[1]+lx[2])/3, (ly[0]+ly[1]+ly[2])/3
		var sxy, sxx float64
		for i := range lx {
			sxy += (lx[i] - mx) * (ly[i] - my)
			sxx += (lx[i] - mx) * (lx[i] - mx)
		}
		if slope := sxy / sxx; slope < -0.65 || slope > -0.35 {
			t.Errorf("%s/%s L=%d: log-log slope %.3f (errors %.4f), want −0.5 ± 0.15", cfg.Method, cfg.Sketch, cfg.Depth, slope, ly)
		}
	}
}

func ExampleNew() {
	f, err := New(Config{Method: "ntk", Depth: 2, Dim: 1000, Seed: 7}, 784)
	if err != nil {
		fmt.Println(err)
		return
	}
	c := f.Config()
	fmt.Println(f.Dim(), c.M0, c.M1, c.SketchDim, c.Sketch, c.Sampler)
	_, err = New(Config{Method: "ntk", Depth: 2, Dim: 1000, Sampler: "metropolis"}, 784)
	fmt.Println(err)
	// Output:
	// 1000 500 500 500 tensorsketch exact
	// rf: Config.Sampler "metropolis" is unknown; use one of ["exact" "gibbs" "orthogonal" "gaussian" "hadamard"]
}

func ExampleMap_Config() {
	f, err := New(Config{Method: "grad", Depth: 2, Dim: 1000}, 10)
	if err != nil {
		fmt.Println(err)
		return
	}
	// width·(1 + 10 + width) ≤ 1000 gives width 26: 26·37 = 962 columns.
	fmt.Println(f.InputDim(), f.Dim(), f.Config().M1)
	// Output:
	// 10 962 26
}

// TestProjectionMACs checks the projection cost a cost model reads, in
// the paper's form (din = d, then m1) and the split form (din = d, then
// d + |A_1|), from the widths the configuration reports.
func TestProjectionMACs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		cfg  Config
		d    int
		want int
	}{
		{Config{Depth: 2, Dim: 64, Sketch: "tensorsketch"}, 13, 13*64 + 32*64},
		{Config{Depth: 1, Dim: 64, Sketch: "tensorsketch", Sampler: "hadamard"}, 13, 0},
		// Split, depth 2, m − d = 51 in shares 2:1:2:2: sketches 7 → 8 and
		// 14 → 16, |A_1| = 13, |A_2| = 14 = M0.
		{Config{Depth: 2, Dim: 64}, 13, 13*(14+13) + (13+13)*(14+14)},
	}
	for _, c := range cases {
		f, err := New(c.cfg, c.d)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.ProjectionMACs(); got != c.want {
			t.Errorf("%+v: ProjectionMACs %d, want %d", f.Config(), got, c.want)
		}
	}
}

// TestSplitPlan checks the split form's layout: x first, the random blocks
// in proportion to their weights with every sketch a power of two (a fast
// FFT), and exactly m columns.
func TestSplitPlan(t *testing.T) {
	t.Parallel()
	cases := []struct {
		d, m, L int
		want    []int // x, A_1, G_1, …
	}{
		{64, 4096, 1, []int{64, 1984, 2048}},
		{784, 4096, 1, []int{784, 1264, 2048}},
		{784, 1024, 1, []int{784, 112, 128}},
		// Shares 2:1:2:2 of 4032: 1152, 576, 1152, 1152 → G 512, 1024.
		{64, 4096, 2, []int{64, 1248, 512, 1248, 1024}},
		{13, 64, 2, []int{13, 13, 8, 14, 16}},
	}
	for _, c := range cases {
		p, err := newSplitPlan(c.d, c.m, c.L)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.width, c.want) {
			t.Errorf("d %d, m %d, L %d: widths %v, want %v", c.d, c.m, c.L, p.width, c.want)
		}
	}
}

// TestSplitRefused: an explicit split form that cannot be laid out is an
// error naming what to change, never a panic or a wrong width.
func TestSplitRefused(t *testing.T) {
	t.Parallel()
	cases := []struct {
		cfg  Config
		d    int
		want string
	}{
		{Config{Sketch: "split", Dim: 64, Depth: 64}, 3, "too deep"},
		{Config{Sketch: "split", Dim: 64, Depth: 24}, 3, "too deep"},
		{Config{Sketch: "split", Dim: 64, Depth: 6}, 3, "too small"},
		{Config{Sketch: "split", Dim: 10}, 10, "too small"},
		{Config{Sketch: "split", Dim: 10}, 20, "too small"},
		{Config{Sketch: "split", M1: 4, SketchDim: 4}, 3, "M1 and Config.SketchDim"},
	}
	for _, c := range cases {
		if _, err := New(c.cfg, c.d); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v, %d): error %v, want one saying %q", c.cfg, c.d, err, c.want)
		}
	}
}

// TestUses: Uses(method) is exactly the options among depth, sketch,
// sampler, gibbsSweeps and gamma that change the method's features: each
// one listed changes a bit, each one left out changes none.
func TestUses(t *testing.T) {
	t.Parallel()
	X := mat.NewDense(5, 3, []float64{1, 2, 3, -1, 0.5, 2, 0, 1, -2, 3, 1, 1, 0.2, -0.3, 0.9})
	// Each option's other value, from a base that makes its effect visible.
	alts := map[string]struct{ base, alt func(*Config) }{
		"depth":       {func(*Config) {}, func(c *Config) { c.Depth = 2 }},
		"sketch":      {func(*Config) {}, func(c *Config) { c.Sketch = SketchTensorSRHT }},
		"sampler":     {func(*Config) {}, func(c *Config) { c.Sampler = Orthogonal }},
		"gibbsSweeps": {func(c *Config) { c.Sampler = Gibbs }, func(c *Config) { c.Sampler, c.GibbsSweeps = Gibbs, 3 }},
		"gamma":       {func(*Config) {}, func(c *Config) { c.Gamma = 0.7 }},
	}
	features := func(c Config) *mat.Dense {
		f, err := New(c, 3)
		if err != nil {
			t.Fatal(c, err)
		}
		P, err := f.Transform(nil, X)
		if err != nil {
			t.Fatal(err)
		}
		return P
	}
	for _, m := range Methods() {
		var used []string
		for _, o := range []string{"depth", "sketch", "sampler", "gibbsSweeps", "gamma"} {
			a, b := Config{Method: m, Dim: 64, Seed: 3}, Config{Method: m, Dim: 64, Seed: 3}
			alts[o].base(&a)
			alts[o].alt(&b)
			if !mat.Equal(features(a), features(b)) {
				used = append(used, o)
			}
		}
		if !slices.Equal(used, Uses(m)) {
			t.Errorf("%s: the options that change its features are %v; Uses says %v", m, used, Uses(m))
		}
	}
}
