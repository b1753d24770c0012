package main

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/rf"
)

// defaultsX returns n synthetic Gaussian rows of d columns.
func defaultsX(n, d int) *mat.Dense {
	r := rand.New(rand.NewPCG(7, 8))
	X := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			X.Set(i, j, r.NormFloat64())
		}
	}
	return X
}

// shrinkTol is the largest ratio allowed between the 10-seed mean errors
// at 4m and at m. Monte Carlo errors fall like 1/√m, so the expected ratio
// is 1/2 (a little less at depth 2, whose O(1/m1) bias falls faster); the
// 14 configurations × 2 depths here gave 0.43 … 0.60. One error's
// seed-to-seed coefficient of variation is at most 0.42 (TensorSRHT at
// m = 64; typically 0.1–0.25), so each mean varies by ≤ 0.42/√10 = 0.13 of
// itself and their ratio by ≤ 0.5·√2·0.13 ≈ 0.095: 0.8 is over 3 standard
// deviations above 1/2 for the noisiest configuration (other seeds or
// streams will not trip it), while a map that ignored m would give 1.
const shrinkTol = 0.8

// TestMeasureDefaults runs the measurement behind "ntkrf defaults" on a
// small input: every error is finite and positive, every timing is
// recorded, and every configuration's mean error shrinks when m grows 4×.
func TestMeasureDefaults(t *testing.T) {
	t.Parallel()
	const n, d, seeds = 30, 8, 10
	X := defaultsX(n, d)
	cfgs := defaultsConfigs()
	if len(cfgs) != len(rf.Samplers())*len(rf.Sketches())+len(defaultsShares) {
		t.Fatalf("%d configurations, want every sampler × sketch and every share", len(cfgs))
	}
	for _, L := range []int{1, 2} {
		var mean [2][]float64 // [m = 64, 256][configuration]
		for k, m := range []int{64, 256} {
			c, err := measureDefaults(X, L, m, seeds, cfgs)
			if err != nil {
				t.Fatal(err)
			}
			for i, cfg := range cfgs {
				for s := range seeds {
					if e := c.Err[i][s]; !(e > 0) || math.IsInf(e, 0) {
						t.Errorf("depth %d, m %d, %s, seed %d: error %v, want finite and positive", L, m, cfg, s+1, e)
					}
					if sec := c.Sec[i][s]; !(sec > 0) || math.IsInf(sec, 0) {
						t.Errorf("depth %d, m %d, %s, seed %d: %v seconds, want a recorded positive time", L, m, cfg, s+1, sec)
					}
				}
				e, _ := meanSE(c.Err[i])
				mean[k] = append(mean[k], e)
			}
		}
		for i, cfg := range cfgs {
			if r := mean[1][i] / mean[0][i]; !(r < shrinkTol) {
				t.Errorf("depth %d, %s: mean error %.4f at m=256 vs %.4f at m=64 (ratio %.2f), want a ratio below %v",
					L, cfg, mean[1][i], mean[0][i], r, shrinkTol)
			}
		}
	}
}

// TestSummarizeDefaults checks the summary on values worked by hand: two
// sets, two configurations, two seeds; set A has two depths, which are
// averaged seed by seed before the sets are combined.
func TestSummarizeDefaults(t *testing.T) {
	t.Parallel()
	cfgs := []defaultsCfg{{"exact", "tensorsketch", 0}, {"gaussian", "tensorsketch", 0}}
	cells := []defaultsCell{
		{Set: "A", Depth: 1, Err: [][]float64{{0.1, 0.3}, {0.2, 0.2}}, Sec: [][]float64{{1, 3}, {2, 2}}},
		{Set: "A", Depth: 2, Err: [][]float64{{0.3, 0.3}, {0.4, 0.6}}, Sec: [][]float64{{1, 1}, {4, 4}}},
		{Set: "B", Depth: 1, Err: [][]float64{{0.2, 0.4}, {0.5, 0.5}}, Sec: [][]float64{{2, 2}, {1, 1}}},
	}
	rows := summarizeDefaults(cells, cfgs)
	// Configuration 1. Set A per seed: (0.2+0.4)/2 = 0.3, (0.2+0.6)/2 = 0.4:
	// mean 0.35, SE 0.05. Set B: 0.5, 0.5: SE 0. Over sets: 0.425,
	// SE √(0.05²+0²)/2 = 0.025. Δ per seed: A 0.3−0.2 = 0.1, 0.4−0.3 = 0.1;
	// B 0.3, 0.1: mean (0.1 + 0.2)/2 = 0.15, SE √(0² + 0.1²)/2 = 0.05.
	// Seconds: medians 2, 4, 1 → 7/3; error·s: (0.2·2 + 0.5·4 + 0.5·1)/3
	// = 2.9/3; error²·s: (0.04·2 + 0.25·4 + 0.25·1)/3 = 1.33/3.
	want := defaultsRow{Config: "gaussian/tensorsketch", Err: 0.425, ErrSE: 0.025, Delta: 0.15, DeltaSE: 0.05,
		Seconds: 7. / 3, ErrSec: 2.9 / 3, Err2Sec: 1.33 / 3}
	got := rows[1]
	for _, f := range []struct {
		name      string
		got, want float64
	}{{"Err", got.Err, want.Err}, {"ErrSE", got.ErrSE, want.ErrSE}, {"Delta", got.Delta, want.Delta},
		{"DeltaSE", got.DeltaSE, want.DeltaSE}, {"Seconds", got.Seconds, want.Seconds},
		{"ErrSec", got.ErrSec, want.ErrSec}, {"Err2Sec", got.Err2Sec, want.Err2Sec}} {
		if math.Abs(f.got-f.want) > sumTol {
			t.Errorf("%s = %v, want %v", f.name, f.got, f.want)
		}
	}
	if got.Config != want.Config || rows[0].Delta != 0 || rows[0].DeltaSE != 0 {
		t.Errorf("rows = %+v; want the second named %q and the default's Δ exactly 0 ± 0", rows, want.Config)
	}
}
