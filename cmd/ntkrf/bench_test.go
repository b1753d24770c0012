package main

import (
	"encoding/json"
	"math"
	"os"
	"regexp"
	"strconv"
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

// TestBenchComparesLikeWithLike: each of our totals is divided by the
// authors' job timed the same way, the job with the λ search by theirs
// with their 6-λ grid and the job with λ fixed by theirs with λ fixed
// (the search was once divided by the total without the grid). Anchors and
// times are made up, each different, so a swapped pair shows.
func TestBenchComparesLikeWithLike(t *testing.T) {
	for _, c := range []struct {
		total, search, fixed, grid float64
	}{
		{10, 16, 40, 50},
		{7, 7.5, 19, 26},
		{30, 31, 20, 100},
	} {
		r := benchResult{Total: c.total, TotalSearch: c.search}
		r.compare(anchor{fixed: c.fixed, withGrid: c.grid})
		if r.AnchorFixed != c.fixed || r.AnchorWithGrid != c.grid {
			t.Errorf("anchors %g, %g; want %g with λ fixed, %g with the grid", r.AnchorFixed, r.AnchorWithGrid, c.fixed, c.grid)
		}
		if want := c.total / c.fixed; r.RatioFixed != want {
			t.Errorf("λ fixed: ratio %g; want %g (ours with λ fixed over theirs with λ fixed)", r.RatioFixed, want)
		}
		if want := c.search / c.grid; r.RatioWithSearch != want {
			t.Errorf("with the search: ratio %g; want %g (ours with the λ search over theirs with their grid)", r.RatioWithSearch, want)
		}
	}
	// The JSON names say which is which.
	b, err := json.Marshal(benchResult{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"anchorFixedSeconds"`, `"anchorWithGridSeconds"`, `"ratioFixed"`, `"ratioWithSearch"`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("bench JSON lacks %s: %s", k, b)
		}
	}
}

// TestAnchorsAreTheReferences: the anchor table is REFERENCE.md's
// re-measure, the lower end of each range: their totals with λ fixed, the
// extra time of their 6-λ grid, their test accuracy.
func TestAnchorsAreTheReferences(t *testing.T) {
	ref, err := os.ReadFile("../../../shared/REFERENCE.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(ref)), " ")
	lower := func(re string) float64 {
		t.Helper()
		m := regexp.MustCompile(re).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("REFERENCE.md has no %q", re)
		}
		v, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	grid := lower(`its search over 6 λ took ([0-9.]+)–[0-9.]+ s more`)
	acc := regexp.MustCompile(`test accuracy (0\.[0-9]+) / (0\.[0-9]+)`).FindStringSubmatch(text)
	if acc == nil {
		t.Fatal("REFERENCE.md's re-measure gives no test accuracy")
	}
	for L, re := range map[int]string{1: `L=1 total ([0-9.]+)–[0-9.]+ s`, 2: `L=2 ([0-9.]+)–[0-9.]+ s \(sampling`} {
		fixed := lower(re)
		want := anchor{fixed: fixed, withGrid: fixed + grid}
		want.accuracy, _ = strconv.ParseFloat(acc[L], 64)
		if got := anchors[L]; math.Abs(got.fixed-want.fixed) > 1e-9 || math.Abs(got.withGrid-want.withGrid) > 1e-9 || got.accuracy != want.accuracy {
			t.Errorf("anchors[%d] = %+v; REFERENCE.md gives %+v", L, got, want)
		}
	}
}
