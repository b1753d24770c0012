package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/metrics"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
)

// runAccuracy: 4-fold cross-validation of KRR on NTK random features with
// the pipeline's defaults: depth, preprocessing and λ all 'auto', chosen
// inside each training fold (see pipeline.Config), so the test fold is
// never looked at. It prints what each fold chose.
func runAccuracy(args []string) error {
	fs := flag.NewFlagSet("accuracy", flag.ContinueOnError)
	dir := fs.String("data", "../shared/data", "directory with the shared CSV files")
	dim := fs.Int("dim", 0, "feature dimension m; 0 leaves the method to 'auto' (the exact NTK where it is cheaper than features, else features of an m chosen by cost: pipeline.Selection.Method), as with no options")
	depths := fs.String("depths", "", "comma-separated candidate depths of the search (empty: pipeline.DefaultDepths())")
	searchRows := fs.Int("search-rows", 0, "rows the candidates are scored on (0: the default)")
	biases := fs.String("biases", "", "comma-separated bias inputs σ_b of the search's bias candidates (empty: the default, data.DefaultBias), each after standardizing; the standardize and unit-norm candidates stay")
	seed := fs.Uint64("seed", 1, "seed of the folds and the features")
	preps := fs.String("preps", "", "comma-separated candidate preprocessings of the search, replacing -biases' (empty: pipeline.DefaultPreprocess()): std, unit, raw, rawunit, each optionally +bσ (a bias input σ)")
	only := fs.String("only", "", "comma-separated file names to run (default: all with a baseline)")
	jsonOut := fs.String("json", "", "also write the table as JSON to this file")
	precision := fs.String("precision", "", "arithmetic of the feature projections: float32 or float64; empty for the core's default, "+rf.PrecisionRule+" (rf.Config.Precision)")
	gram := fs.String("gram", "", "arithmetic of the Gram step ΦᵀΦ of primal fits: float32 or float64; empty for the core's default, "+krr.GramRule+" (krr.Options.Gram)")
	exact := fs.Bool("exact", false, "fit the exact NTK through the same pipeline and selection instead of random features (tells the approximation's share of a gap from the selection's)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	type row struct {
		File     string    `json:"file"`
		Task     data.Task `json:"task"`
		Metric   string    `json:"metric"`
		NTKRF    float64   `json:"ntkRF"`
		ExactNTK float64   `json:"exactNTK"`
		Seconds  float64   `json:"seconds"`
		Chosen   string    `json:"chosen"`
	}
	var rows []row
	name := "auto"
	if *exact {
		name = "NTK"
	}
	fmt.Printf("%-24s %-15s %-10s %8s %10s %7s %8s  %s\n", "file", "task", "metric", name, "exact NTK", "Δ", "seconds", "chosen per fold (depth, preprocessing, λ)")
	var sumDelta float64
	var nClass int
	for _, b := range baselines {
		if *only != "" && !strings.Contains(","+*only+",", ","+b.file+",") {
			continue
		}
		raw, err := readBounded(filepath.Join(*dir, b.file), nil, data.DefaultMaxBytes, "")
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
		cfg := pipeline.Config{Features: rf.Config{Dim: *dim, Seed: *seed, Precision: rf.Precision(*precision)}, Ridge: krr.Options{Gram: rf.Precision(*gram)}, Search: pipeline.Search{Rows: *searchRows}}
		if *biases != "" {
			bs, err := parseList(*biases, func(f string) (float64, error) { return strconv.ParseFloat(f, 64) })
			if err != nil {
				return fmt.Errorf("-biases %q: %v", *biases, err)
			}
			cfg.Search.Preprocess = []data.Prep{{}, {UnitNorm: true}}
			for _, b := range bs {
				cfg.Search.Preprocess = append(cfg.Search.Preprocess, data.Prep{Bias: b})
			}
		}
		if *preps != "" {
			if cfg.Search.Preprocess, err = parsePreps(*preps); err != nil {
				return err
			}
		}
		if *depths != "" {
			if cfg.Search.Depths, err = parseInts(*depths); err != nil {
				return err
			}
		}
		if *exact {
			cfg.Kernel = &kernel.Spec{Name: kernel.NameNTK}
		}
		pred, chosen, err := cvPredict(ds, folds, []pipeline.Config{cfg})
		if err != nil {
			return fmt.Errorf("%s: %v", b.file, err)
		}
		r := row{File: b.file, Task: ds.Task, ExactNTK: b.exactNTK, Seconds: time.Since(t0).Seconds(), Chosen: chosenList(chosen)}
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
		fmt.Printf("%-24s %-15s %-10s %8.3f %10.3f %+7.3f %8.1f  %s\n", r.File, r.Task, r.Metric, r.NTKRF, r.ExactNTK, r.NTKRF-r.ExactNTK, r.Seconds, r.Chosen)
	}
	if nClass > 0 {
		fmt.Printf("classification: mean accuracy difference %s − exact NTK (tuned) = %+.4f over %d sets (target ≥ −0.005, no set below −0.02)\n", name, sumDelta/float64(nClass), nClass)
	}
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(rows, "", "  ")
		return os.WriteFile(*jsonOut, b, 0o644)
	}
	return nil
}

// chosenList is chosenText of each fold's pipeline.
func chosenList(ps []*pipeline.Pipeline) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, chosenText(p))
	}
	return strings.Join(parts, ", ")
}
