package rf

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
)

// TestPrecisionWorkers checks that float32 features do not depend on the
// number of goroutines: 600 rows (three blocks, and Mul32 splitting each
// block's rows) on 1, 2 and 3 cores give the same bits.
func TestPrecisionWorkers(t *testing.T) {
	rows := make([]int, 600)
	for i := range rows {
		rows[i] = i % 178
	}
	X := loadRows(t, "wine.csv", rows)
	for _, cfg := range []Config{
		{Method: "ntk", Depth: 2, Dim: 300, Seed: 4, Precision: "float32"},
		{Method: "arccos1", Dim: 130, Seed: 4, Precision: "float32"},
	} {
		f, err := New(cfg, 13)
		if err != nil {
			t.Fatal(err)
		}
		var want uint64
		for _, procs := range []int{1, 2, 3} {
			old := runtime.GOMAXPROCS(procs)
			F, err := f.Transform(nil, X)
			runtime.GOMAXPROCS(old)
			if err != nil {
				t.Fatal(err)
			}
			if got := checksum(F); procs == 1 {
				want = got
			} else if got != want {
				t.Errorf("%+v: GOMAXPROCS %d gives checksum %#x, 1 gives %#x", cfg, procs, got, want)
			}
		}
	}
}

// TestFloat32NearFloat64 checks that float32 projections change the
// kernel estimate far less than the Monte Carlo error: the Gram matrices
// of the two precisions (same seed, so the same directions up to
// rounding) differ by under 1e-4 relative in Frobenius norm, where the
// estimate's own error at these widths is around 1e-1. A float32 product
// is within din·2⁻²⁴ relative of the float64 one, and a sign flips only
// where a projection is within that of zero.
func TestFloat32NearFloat64(t *testing.T) {
	t.Parallel()
	rows := make([]int, 60)
	for i := range rows {
		rows[i] = 3 * i
	}
	X := loadRows(t, "wine.csv", rows)
	for _, cfg := range []Config{
		{Method: "ntk", Depth: 1, Dim: 256},
		{Method: "ntk", Depth: 2, Dim: 256},
		{Method: "ntk", Depth: 2, Dim: 256, Sketch: "tensorsketch"},
		{Method: "arccos1", Dim: 256},
		{Method: "rff", Dim: 256},
	} {
		gram := func(c Config) *mat.Dense {
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
			return &G
		}
		cfg.Precision = "float64"
		g64 := gram(cfg)
		cfg.Precision = "float32"
		g32 := gram(cfg)
		var d mat.Dense
		d.Sub(g32, g64)
		rel := mat.Norm(&d, 2) / mat.Norm(g64, 2)
		if rel > 1e-4 || rel == 0 {
			t.Errorf("%+v: the float32 Gram is %.3g off the float64 one (relative Frobenius), want (0, 1e-4]", cfg, rel)
		}
	}
}

// TestPrecisionOption checks the option: unknown names and the forms
// without float32 are coded option errors naming "precision"; an unset
// precision is float32 where the map has a float32 form and float64 for
// grad and the hadamard sampler (and only where the method draws with the
// sampler: rff ignores it); an explicit one is kept; Map.Config and
// Resolve report the one used.
func TestPrecisionOption(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cfg  Config
		want Precision // "" : an error
	}{
		{Config{Precision: "float16"}, ""},
		{Config{Precision: "Float32"}, ""},
		{Config{Method: "grad", Depth: 1, Dim: 64, Precision: "float32"}, ""},
		{Config{Sampler: "hadamard", Precision: "float32"}, ""},
		{Config{Method: "nngp", Sampler: "hadamard", Precision: "float32"}, ""},
		{Config{Precision: "float64"}, "float64"},
		{Config{Precision: ""}, "float32"},
		{Config{}, "float32"},
		{Config{Precision: "float32"}, "float32"},
		{Config{Method: "grad", Depth: 1, Dim: 64}, "float64"},
		{Config{Method: "grad", Depth: 1, Dim: 64, Precision: "float64"}, "float64"},
		{Config{Sampler: "hadamard"}, "float64"},
		{Config{Method: "arccos1", Sampler: "hadamard"}, "float64"},
		{Config{Sampler: "hadamard", Precision: "float64"}, "float64"},
		{Config{Sampler: "orthogonal", Sketch: "tensorsrht", Depth: 2}, "float32"},
		{Config{Method: "rff", Dim: 16}, "float32"},
		{Config{Method: "rff", Dim: 16, Sampler: "hadamard"}, "float32"},
		{Config{Method: "rff", Dim: 16, Sampler: "hadamard", Precision: "float32"}, "float32"},
		{Config{Method: "naive", Depth: 2, Dim: 200}, "float32"},
		{Config{Method: "arccos0", Dim: 16}, "float32"},
	} {
		f, err := New(tc.cfg, 3)
		var e *check.Error
		switch {
		case tc.want == "" && (!errors.As(err, &e) || e.Code != check.Option || e.Option != "precision" || !strings.Contains(e.Msg, "Config.Precision")):
			t.Errorf("%+v: error %v, want a coded option error for precision naming Config.Precision (the bridge renames it)", tc.cfg, err)
		case tc.want != "" && err != nil:
			t.Errorf("%+v: %v", tc.cfg, err)
		case tc.want != "":
			if got := f.Config().Precision; got != tc.want {
				t.Errorf("%+v: Config().Precision %q, want %q", tc.cfg, got, tc.want)
			}
			if got := f.Config().Float32(); got != (tc.want == "float32") {
				t.Errorf("%+v: Float32() %v", tc.cfg, got)
			}
			if r, err := tc.cfg.Resolve(3); err != nil || r != f.Config() {
				t.Errorf("%+v: Resolve %+v, %v; the map has %+v", tc.cfg, r, err, f.Config())
			}
			if c := f.Config(); DefaultPrecision(c.Method, c.Sampler) != tc.want && tc.cfg.Precision == "" {
				t.Errorf("%+v: DefaultPrecision(%q, %q) is not the precision used", tc.cfg, c.Method, c.Sampler)
			}
		}
	}
}

// TestDefaultPrecisionBits: an unset precision draws the same map, bit for
// bit, as the precision it stands for, so the default's checksums are
// those of the explicit form.
func TestDefaultPrecisionBits(t *testing.T) {
	t.Parallel()
	X := mat.NewDense(4, 5, []float64{1, 2, 3, -1, 0.5, 2, 0, 1, -2, 3, 1, 1, 0.2, -0.3, 0.9, 0, 0, 1, 2, -1})
	for _, c := range []Config{{Depth: 2, Dim: 64, Seed: 7}, {Method: "grad", Depth: 2, Dim: 64}, {Sampler: "hadamard", Dim: 40}, {Method: "rff", Dim: 16, Sampler: "hadamard"}} {
		explicit := c
		explicit.Precision = DefaultPrecision(c.Method, c.Sampler)
		var out [2]*mat.Dense
		for i, cfg := range []Config{c, explicit} {
			f, err := New(cfg, 5)
			if err != nil {
				t.Fatal(err)
			}
			if out[i], err = f.Transform(nil, X); err != nil {
				t.Fatal(err)
			}
		}
		if !mat.Equal(out[0], out[1]) {
			t.Errorf("%+v: the default's features differ from precision %q's", c, explicit.Precision)
		}
	}
}
