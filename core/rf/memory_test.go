package rf

import (
	"errors"
	"runtime"
	"testing"
	"time"

	"ntkrf/internal/check"
)

// TestSeedLimit: seeds travel through JavaScript numbers, exact up to
// 2^53−1; past it a host would draw another map, so every host refuses
// it: the largest is drawn, the next refused with ERR_OPTION.
func TestSeedLimit(t *testing.T) {
	t.Parallel()
	if _, err := New(Config{Dim: 8, Seed: MaxSeed}, 3); err != nil {
		t.Errorf("seed 2^53−1: %v", err)
	}
	for _, seed := range []uint64{MaxSeed + 1, MaxSeed + 2, 1 << 63} {
		_, err := New(Config{Dim: 8, Seed: seed}, 3)
		var e *check.Error
		if !errors.As(err, &e) || e.Code != check.Option || e.Option != "seed" {
			t.Errorf("seed %d: %v, want ERR_OPTION on seed", seed, err)
		}
		if _, err2 := (Config{Dim: 8, Seed: seed}).Resolve(3); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("seed %d: Resolve says %v, New %v", seed, err2, err)
		}
		// The exported sketches take seeds too.
		_, e1 := NewCountSketch(4, 2, seed)
		_, e2 := NewTensorSketch(4, 4, 2, seed)
		_, e3 := NewTensorSRHT(4, 4, 2, seed)
		for i, e := range []error{e1, e2, e3} {
			if check.CodeOf(e) != check.Option {
				t.Errorf("seed %d, sketch %d: %v, want ERR_OPTION", seed, i, e)
			}
		}
	}
}

// TestMemoryBeforeDrawing: a map whose layers together (weights, Hadamard
// signs, sketches, FFT plans) exceed the memory limit is refused before
// any layer is drawn, for every method, sampler and sketch: quickly and
// allocating next to nothing. Each case's single largest buffer is under
// the limit, so only the total can refuse it. ("grad" and the one-layer
// "hadamard" maps cannot exceed it: their parameters are bounded by
// MaxDim columns.)
func TestMemoryBeforeDrawing(t *testing.T) {
	const big = MaxDim // 2^24 columns
	cases := []struct {
		name string
		cfg  Config
		d    int
	}{
		{"ntk hadamard, 64 layers", Config{Depth: 64, Dim: big, Sampler: "hadamard"}, 4},
		{"ntk hadamard tensorsrht, 64 layers", Config{Depth: 64, Dim: big, Sampler: "hadamard", Sketch: "tensorsrht"}, 4},
		{"ntk exact, 8 layers", Config{Depth: 8, M1: 1 << 15, SketchDim: 1 << 10}, 4},
		{"ntk gibbs", Config{Depth: 3, M1: 1 << 15, SketchDim: 16, Sampler: "gibbs"}, 4},
		{"ntk orthogonal", Config{Depth: 3, M1: 1 << 15, SketchDim: 16, Sampler: "orthogonal"}, 4},
		{"ntk gaussian", Config{Depth: 3, M1: 1 << 15, SketchDim: 16, Sampler: "gaussian"}, 4},
		{"nngp, 64 layers", Config{Method: "nngp", Depth: 64, Dim: 1 << 14}, 4},
		{"nngp hadamard, 64 layers", Config{Method: "nngp", Depth: 64, Dim: big, Sampler: "hadamard"}, 4},
		{"naive", Config{Method: "naive", Depth: 2, M0: 1, M1: 1 << 16}, 1 << 16},
		{"arccos0", Config{Method: "arccos0", Dim: big}, 1 << 10},
		{"arccos1", Config{Method: "arccos1", Dim: big}, 1 << 10},
		{"rff", Config{Method: "rff", Dim: big}, 1 << 10},
	}
	for _, tc := range cases {
		var err error
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		t0 := time.Now()
		_, err = New(tc.cfg, tc.d)
		took := time.Since(t0)
		runtime.ReadMemStats(&after)
		if check.CodeOf(err) != check.TooLarge {
			t.Errorf("%s: %v, want ERR_TOO_LARGE", tc.name, err)
			continue
		}
		if a := after.TotalAlloc - before.TotalAlloc; a > 1<<20 || took > time.Second {
			t.Errorf("%s: refused after allocating %d bytes in %v", tc.name, a, took)
		}
		if _, err2 := tc.cfg.Resolve(tc.d); check.CodeOf(err2) != check.TooLarge {
			t.Errorf("%s: Resolve says %v", tc.name, err2)
		}
	}
}

// TestResolveIsNewsConfig: Resolve fills in exactly what New's map reports.
func TestResolveIsNewsConfig(t *testing.T) {
	t.Parallel()
	for _, cfg := range []Config{{}, {Method: "nngp", Depth: 3, Dim: 16}, {M1: 8, SketchDim: 5}, {Method: "naive", Depth: 2, Dim: 200},
		{Method: "grad", Depth: 2, Dim: 300}, {Method: "arccos0", Dim: 7}, {Method: "rff", Dim: 9}, {Sampler: "hadamard", Depth: 2, Dim: 12, Seed: 5}} {
		f, err := New(cfg, 6)
		if err != nil {
			t.Fatal(err)
		}
		got, err := cfg.Resolve(6)
		if err != nil || got != f.Config() {
			t.Errorf("Resolve(%+v) = %+v, %v; New's map has %+v", cfg, got, err, f.Config())
		}
	}
}
