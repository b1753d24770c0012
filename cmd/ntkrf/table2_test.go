package main

import (
	"math"
	"testing"
)

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
