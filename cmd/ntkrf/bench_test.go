package main

import (
	"math"
	"strings"
	"testing"
)

// TestBenchFlags: a bad precision or core count is refused with the flag
// named, before the data set is read.
func TestBenchFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-precision", "float16"}, "-precision"},
		{[]string{"-precision", ""}, "-precision"},
		{[]string{"-procs", "x"}, "-procs"},
		{[]string{"-procs", "0,2"}, "-procs"},
	} {
		err := runBench(c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("bench %v: %v; want an error naming %s", c.args, err, c.want)
		}
	}
}

// TestStageLimit: each stage's share divides by the limit of its own
// arithmetic: float32 features and a float32 Gram step by AddAtA32's rate,
// everything else by AddAtA's (a float32 Gram step over the float64 rate
// showed above 100 %). Fake limits and times: the choice, not a timing.
func TestStageLimit(t *testing.T) {
	l := limits{gflops64: 10, gflops32: 20, copyGBs: 5}
	for _, c := range []struct {
		stage          string
		feat32, gram32 bool
		want           float64
	}{
		{"features", false, false, 10},
		{"features", true, false, 20},
		{"features", false, true, 10},
		{"gram", false, false, 10},
		{"gram", false, true, 20},
		{"gram", true, false, 10},
		{"lambdaSearch", true, true, 10},
		{"solve", true, true, 10},
	} {
		if got := stageLimit(c.stage, c.feat32, c.gram32, l); got != c.want {
			t.Errorf("stageLimit(%s, features float32 %v, Gram float32 %v) = %g; want %g", c.stage, c.feat32, c.gram32, got, c.want)
		}
	}
	// A run of 1 s per stage: each stage's flops per second over the limit
	// of its arithmetic.
	const n, m, proj = 1000, 512, 3e5
	for _, c := range []struct {
		feat32, gram32   bool
		featLim, gramLim float64
	}{
		{false, false, 10, 10},
		{true, true, 20, 20},
		{false, true, 10, 20},
		{true, false, 20, 10},
	} {
		r := benchResult{N: n, Dim: m, Float32Gram: c.gram32, Features: 1, Gram: 1, LambdaSearch: 1}
		s := stageShares(r, proj, c.feat32, l)
		for stage, want := range map[string]float64{
			"features":     2 * n * proj / 1e9 / c.featLim,
			"gram":         n * m * (m + 1) / 1e9 / c.gramLim,
			"lambdaSearch": 4.0 / 3 * m * m * m / 1e9 / 10,
		} {
			if got := s[stage]; math.Abs(got-want) > 1e-12*want {
				t.Errorf("features float32 %v, Gram float32 %v: %s share %g; want %g", c.feat32, c.gram32, stage, got, want)
			}
		}
	}
}
