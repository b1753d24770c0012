package main

import (
	"math"
	"testing"

	"ntkrf/core/kernel"
	"ntkrf/core/metrics"
	"ntkrf/core/rf"
)

func TestMeanSE(t *testing.T) {
	// Values 1, 2, 3: mean 2, sample variance 1, SE = 1/√3.
	m, se := meanSE([]float64{1, 2, 3})
	if m != 2 || math.Abs(se-1/math.Sqrt(3)) > sumTol {
		t.Errorf("meanSE = %v, %v; want 2, %v", m, se, 1/math.Sqrt(3))
	}
	if _, se := meanSE([]float64{5}); !math.IsNaN(se) {
		t.Errorf("meanSE of one value: SE %v, want NaN (undefined)", se)
	}
}

// relErrTol bounds the difference between relErr and metrics.RelFrobenius:
// both sum the same n·m products, in another order and with or without
// fused multiply-add, so each entry of ΦΦᵀ agrees within m·ε·Σ|φφ| ≈
// 1e-14·|K| at m = 64; relative to ‖ΦΦᵀ − K‖_F, which is several percent
// of ‖K‖_F here, that is below 1e-12. 1e-10 leaves margin.
const relErrTol = 1e-10

func TestRelErrMatchesMetrics(t *testing.T) {
	t.Parallel()
	X := defaultsX(37, 5) // 37: not a multiple of any block size
	for _, L := range []int{1, 3} {
		K, err := kernel.NTK(X, L)
		if err != nil {
			t.Fatal(err)
		}
		f, err := rf.New(rf.Config{Depth: L, Dim: 64, Seed: 3}, 5)
		if err != nil {
			t.Fatal(err)
		}
		Phi, err := f.Transform(nil, X)
		if err != nil {
			t.Fatal(err)
		}
		want, err := metrics.RelFrobenius(K, Phi)
		if err != nil {
			t.Fatal(err)
		}
		if got := relErr(K, Phi); math.Abs(got-want) > relErrTol*want {
			t.Errorf("depth %d: relErr = %v, metrics.RelFrobenius = %v", L, got, want)
		}
	}
}
