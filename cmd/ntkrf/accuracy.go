package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"ntkrf/core/data"
	"ntkrf/core/metrics"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
)

// baseline is a row of ../shared/data/README.md: the exact-NTK KRR column
// (accuracy for classification, 1 − R² for regression).
type baseline struct {
	file, target string
	exactNTK     float64
}

var baselines = []baseline{
	{"iris.csv", "target", 0.954},
	{"wine.csv", "target", 0.972},
	{"breast_cancer.csv", "target", 0.975},
	{"digits.csv", "target", 0.987},
	{"Sonar.csv", "Class", 0.870},
	{"Ionosphere.csv", "Class", 0.929},
	{"Glass.csv", "Type", 0.692},
	{"Vehicle.csv", "Class", 0.806},
	{"PimaIndiansDiabetes.csv", "diabetes", 0.773},
	{"diabetes.csv", "target", 0.527},
	{"BostonHousing.csv", "medv", 0.176},
}

// candidate is one model choice made inside each training fold.
type candidate struct {
	depth int
	prep  data.Prep
}

// runAccuracy: 4-fold cross-validation of KRR on NTK random features. In
// each training fold the depth (1…5) and the preprocessing (standardized,
// or standardized then unit-norm rows, as the baselines allow) are chosen by
// the fit's own λ criterion (exact LOO when rows ≤ features, GCV otherwise),
// so the test fold is never looked at.
func runAccuracy(args []string) error {
	fs := flag.NewFlagSet("accuracy", flag.ContinueOnError)
	dir := fs.String("data", "../shared/data", "directory with the shared CSV files")
	dim := fs.Int("dim", 4096, "feature dimension m")
	seed := fs.Uint64("seed", 1, "seed of the folds and the features")
	only := fs.String("only", "", "comma-separated file names to run (default: all with a baseline)")
	jsonOut := fs.String("json", "", "also write the table as JSON to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var candidates []candidate
	for depth := 1; depth <= 5; depth++ {
		candidates = append(candidates, candidate{depth, data.Prep{}}, candidate{depth, data.Prep{UnitNorm: true}})
	}
	type row struct {
		File     string  `json:"file"`
		Task     string  `json:"task"`
		Metric   string  `json:"metric"`
		NTKRF    float64 `json:"ntkRF"`
		ExactNTK float64 `json:"exactNTK"`
		Seconds  float64 `json:"seconds"`
	}
	var rows []row
	fmt.Printf("%-24s %-15s %-10s %8s %10s %7s %8s\n", "file", "task", "metric", "NTK RF", "exact NTK", "Δ", "seconds")
	var sumDelta float64
	var nClass int
	for _, b := range baselines {
		if *only != "" && !strings.Contains(","+*only+",", ","+b.file+",") {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(*dir, b.file))
		if err != nil {
			return err
		}
		ds, err := data.Parse(raw, data.Options{Target: b.target})
		if err != nil {
			return fmt.Errorf("%s: %v", b.file, err)
		}
		t0 := time.Now()
		n, _ := ds.X.Dims()
		folds, err := data.KFold(n, 4, *seed)
		if err != nil {
			return err
		}
		var cands []pipeline.Config
		for _, c := range candidates {
			cands = append(cands, pipeline.Config{Preprocess: c.prep, Features: rf.Config{Method: "ntk", Depth: c.depth, Dim: *dim, Seed: *seed}})
		}
		pred, err := cvPredict(ds, folds, cands)
		if err != nil {
			return fmt.Errorf("%s: %v", b.file, err)
		}
		r := row{File: b.file, Task: ds.Task, ExactNTK: b.exactNTK, Seconds: time.Since(t0).Seconds()}
		if ds.Task == data.Classification {
			r.Metric = "accuracy"
			if r.NTKRF, err = metrics.Accuracy(ds.Y, pred); err != nil {
				return fmt.Errorf("%s: %v", b.file, err)
			}
			sumDelta += r.NTKRF - b.exactNTK
			nClass++
		} else {
			r.Metric = "1 − R²"
			r2, err := metrics.R2(ds.Y, pred)
			if err != nil {
				return fmt.Errorf("%s: %v", b.file, err)
			}
			r.NTKRF = 1 - r2
		}
		rows = append(rows, r)
		fmt.Printf("%-24s %-15s %-10s %8.3f %10.3f %+7.3f %8.1f\n", r.File, r.Task, r.Metric, r.NTKRF, r.ExactNTK, r.NTKRF-r.ExactNTK, r.Seconds)
	}
	if nClass > 0 {
		fmt.Printf("classification: mean accuracy difference NTK RF − exact NTK = %+.4f over %d sets (target ≥ −0.01)\n", sumDelta/float64(nClass), nClass)
	}
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(rows, "", "  ")
		return os.WriteFile(*jsonOut, b, 0o644)
	}
	return nil
}
