package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"time"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
)

// runHoldout fits the pipeline with no options at all (pipeline.FitDataset
// with a zero Config: everything 'auto') on one CSV file and scores it on
// another, the side-by-side command's native column (bench/side.py writes
// the seeded 75/25 split). It prints one JSON line: the seconds of the fit
// (parse excluded, as the package's and scikit-learn's columns), the
// held-out accuracy (classification) or R² (regression), and what 'auto'
// chose.
func runHoldout(args []string) error {
	fs := flag.NewFlagSet("holdout", flag.ContinueOnError)
	train := fs.String("train", "", "training CSV file")
	test := fs.String("test", "", "test CSV file (same columns)")
	target := fs.String("target", "", "target column (empty: the last)")
	dim := fs.Int("dim", 0, "feature dimension m (0: 'auto', the defaults; for studies of m)")
	exact := fs.Bool("exact", false, "fit the exact NTK (depth and preprocessing still 'auto'; for studies)")
	depths := fs.String("depths", "", "comma-separated candidate depths of the search (empty: pipeline.DefaultDepths(); for studies)")
	preps := fs.String("preps", "", "comma-separated candidate preprocessings of the search (empty: pipeline.DefaultPreprocess(); for studies): std, unit, raw, rawunit, each optionally +bσ (a bias input σ)")
	kname := fs.String("kernel", "", "fit this exact kernel (ntk, nngp, rbf, linear; for studies)")
	gamma := fs.Float64("gamma", 0, "the rbf kernel's γ with -kernel rbf (0: 1/columns)")
	lambda := fs.Float64("lambda", 0, "fixed ridge λ (0: 'auto'; for studies)")
	searchRows := fs.Int("search-rows", 0, "rows the candidates are scored on (0: the default; for studies)")
	oracle := fs.Bool("oracle", false, "also print the oracle of issue 39: the exact NTK with a bias input, depth 1…5 and λ chosen on the test rows (classification)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	read := func(name string) (*data.Dataset, error) {
		raw, err := readBounded(name, nil, data.DefaultMaxBytes, "")
		if err != nil {
			return nil, err
		}
		return data.Parse(raw, data.Options{Target: *target})
	}
	tr, err := read(*train)
	if err != nil {
		return err
	}
	t0 := time.Now()
	cfg := pipeline.Config{Features: rf.Config{Dim: *dim}, Search: pipeline.Search{Rows: *searchRows}, Ridge: krr.Options{Lambda: *lambda}}
	if *depths != "" {
		if cfg.Search.Depths, err = parseInts(*depths); err != nil {
			return err
		}
	}
	if *preps != "" {
		if cfg.Search.Preprocess, err = parsePreps(*preps); err != nil {
			return err
		}
	}
	if *exact {
		cfg.Kernel = &kernel.Spec{}
	}
	if *kname != "" {
		cfg.Kernel = &kernel.Spec{Name: kernel.Name(*kname), Gamma: *gamma}
	}
	p, err := pipeline.FitDataset(context.Background(), tr, cfg)
	if err != nil {
		return err
	}
	secs := time.Since(t0).Seconds()
	raw, err := readBounded(*test, nil, data.DefaultMaxBytes, "")
	if err != nil {
		return err
	}
	pred, err := p.PredictCSV(raw, 0)
	if err != nil {
		return err
	}
	// The test targets by name: the test file's own classes may be fewer
	// or ordered otherwise than the model's.
	te, err := data.Parse(raw, data.Options{Target: *target, Task: tr.Task})
	if err != nil {
		return err
	}
	if len(te.Y) != len(pred) {
		return fmt.Errorf("%s: %d test rows with a target but %d predictions (rows without a target are not scored)", *test, len(te.Y), len(pred))
	}
	out := map[string]any{"target": tr.TargetName, "task": tr.Task, "rows": len(tr.Y), "testRows": len(te.Y), "seconds": secs}
	if tr.Task == data.Classification {
		classes := p.Classes()
		hit := 0
		for i, y := range te.Y {
			if classes[int(pred[i])] == te.Classes[int(y)] {
				hit++
			}
		}
		out["accuracy"] = float64(hit) / float64(len(te.Y))
	} else {
		var mean, ss, res float64
		for _, y := range te.Y {
			mean += y
		}
		mean /= float64(len(te.Y))
		for i, y := range te.Y {
			ss += (y - mean) * (y - mean)
			res += (y - pred[i]) * (y - pred[i])
		}
		out["r2"] = 1 - res/ss
	}
	out["chosen"] = chosenText(p)
	if *oracle && tr.Task == data.Classification {
		best, at := 0.0, ""
		bias := data.Prep{Bias: data.DefaultBias}
		for depth := 1; depth <= 5; depth++ {
			for e := -6.0; e <= 2; e += 0.5 {
				lam := math.Pow(10, e)
				q, err := pipeline.FitDataset(context.Background(), tr, pipeline.Config{Kernel: &kernel.Spec{Depth: depth}, Preprocess: &bias, Ridge: krr.Options{Lambda: lam}})
				if err != nil {
					continue // λ too small for these rows
				}
				pq, err := q.PredictCSV(raw, 0)
				if err != nil {
					return err
				}
				hit := 0
				for i, y := range te.Y {
					if q.Classes()[int(pq[i])] == te.Classes[int(y)] {
						hit++
					}
				}
				if a := float64(hit) / float64(len(te.Y)); a > best {
					best, at = a, fmt.Sprintf("L%d λ=%.2g", depth, lam)
				}
			}
		}
		out["oracle"], out["oracleAt"] = best, at
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(os.Stdout, string(b))
	return err
}

// chosenText names what 'auto' chose: the method (features with m, or
// the exact kernel), depth, preprocessing and λ.
func chosenText(p *pipeline.Pipeline) string {
	method := "exact"
	if f := p.Features(); f != nil {
		method = fmt.Sprintf("m=%d", f.Dim)
	}
	return method + " " + describe([]*pipeline.Pipeline{p})
}
