package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

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
