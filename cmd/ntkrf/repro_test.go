package main

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sharedData is the shared CSV directory seen from this package.
const sharedData = "../../../shared/data"

// sumTol absorbs the rounding of sums of a few shares of 100.
const sumTol = 1e-12

func TestSummarize(t *testing.T) {
	// Two sets, three methods; worked by hand.
	// Set 1: best 0.8; 0.77 is 96.25 %, 0.7 is 87.5 %.
	// Set 2: best 0.5 (methods 1 and 3); 0.46 is 92 %.
	acc := [][]float64{{0.8, 0.77, 0.7}, {0.5, 0.46, 0.5}}
	mean, p90, p95, pma := summarize(acc)
	want := map[string][2][]float64{
		"mean": {mean, {65, 61.5, 60}},
		"P90":  {p90, {100, 100, 50}},
		"P95":  {p95, {100, 50, 50}},
		"PMA":  {pma, {100, (0.9625 + 0.92) * 50, (0.875 + 1) * 50}},
	}
	for name, g := range want {
		for j := range g[1] {
			if math.Abs(g[0][j]-g[1][j]) > sumTol*100 {
				t.Errorf("%s[%d] = %v, want %v", name, j, g[0][j], g[1][j])
			}
		}
	}
}

func TestSubsample(t *testing.T) {
	tests := []struct{ n, k, want int }{{10, 0, 10}, {10, 10, 10}, {10, 20, 10}, {100, 7, 7}}
	for _, tc := range tests {
		idx := subsample(tc.n, tc.k, 3)
		if len(idx) != tc.want || !slices.IsSorted(idx) || len(slices.Compact(slices.Clone(idx))) != tc.want {
			t.Errorf("subsample(%d, %d) = %v: want %d distinct sorted indices", tc.n, tc.k, idx, tc.want)
		}
		if idx[0] < 0 || idx[len(idx)-1] >= tc.n {
			t.Errorf("subsample(%d, %d) = %v: index out of range", tc.n, tc.k, idx)
		}
		if !slices.Equal(idx, subsample(tc.n, tc.k, 3)) {
			t.Errorf("subsample(%d, %d) differs between calls with the same seed", tc.n, tc.k)
		}
	}
}

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

func TestReproUnknown(t *testing.T) {
	for _, args := range [][]string{nil, {"fig9"}} {
		if err := runRepro(args); err == nil || !strings.HasPrefix(err.Error(), "repro: ") {
			t.Errorf("runRepro(%q) = %v, want an error starting with \"repro: \"", args, err)
		}
	}
}

// TestReproFig1Small runs Figure 1 on 60 rows of iris and checks the CSV:
// one row per sampler and m, and condition numbers ≥ 1 that shrink as m
// grows 16-fold (at m = 8 the features have rank ≤ 8 < 60, so λ bounds
// the smallest eigenvalue and the condition number is large).
func TestReproFig1Small(t *testing.T) {
	out := t.TempDir()
	args := []string{"fig1", "-data", sharedData, "-sets", "iris.csv", "-n", "60", "-dims", "8,128", "-seeds", "2", "-out", out}
	if err := runRepro(args); err != nil {
		t.Fatal(err)
	}
	fh, err := os.Open(filepath.Join(out, "fig1.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+3*2 {
		t.Fatalf("fig1.csv has %d records, want a header and 6 rows", len(recs))
	}
	cond := map[string]float64{}
	for _, r := range recs[1:] {
		c, err := strconv.ParseFloat(r[5], 64)
		if err != nil || c < 1 {
			t.Fatalf("row %v: condition number %q, want a number ≥ 1", r, r[5])
		}
		cond[r[3]+"/"+r[4]] = c
	}
	for _, s := range []string{"gibbs", "exact", "gaussian"} {
		if !(cond[s+"/128"] < cond[s+"/8"]) {
			t.Errorf("%s: condition number %v at m=128, not below %v at m=8", s, cond[s+"/128"], cond[s+"/8"])
		}
	}
}
