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
// without float32 are coded option errors naming "precision", and the
// default reads back as "" whether given as "" or "float64".
func TestPrecisionOption(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cfg     Config
		wantErr bool
	}{
		{Config{Precision: "float16"}, true},
		{Config{Precision: "Float32"}, true},
		{Config{Method: "grad", Depth: 1, Dim: 64, Precision: "float32"}, true},
		{Config{Sampler: "hadamard", Precision: "float32"}, true},
		{Config{Precision: "float64"}, false},
		{Config{Precision: ""}, false},
		{Config{Precision: "float32"}, false},
		{Config{Method: "grad", Depth: 1, Dim: 64, Precision: "float64"}, false},
	} {
		f, err := New(tc.cfg, 3)
		var e *check.Error
		switch {
		case tc.wantErr && (!errors.As(err, &e) || e.Code != check.Option || e.Option != "precision" || !strings.Contains(e.Msg, "Config.Precision")):
			t.Errorf("%+v: error %v, want a coded option error for precision naming Config.Precision (the bridge renames it)", tc.cfg, err)
		case !tc.wantErr && err != nil:
			t.Errorf("%+v: %v", tc.cfg, err)
		case !tc.wantErr:
			want := ""
			if tc.cfg.Precision == "float32" {
				want = "float32"
			}
			if got := f.Config().Precision; got != want {
				t.Errorf("%+v: Config().Precision %q, want %q", tc.cfg, got, want)
			}
			if got := f.Config().Float32(); got != (want == "float32") {
				t.Errorf("%+v: Float32() %v", tc.cfg, got)
			}
		}
	}
}
