package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/metrics"
	"ntkrf/core/rf"
)

// reproFig1: the paper's Figure 1. For order-1 arc-cosine features Φ and
// the exact kernel A1 (the depth-1 NNGP on unit rows), the condition number
// of (A1+λI)^{-1/2}(ΦΦᵀ+λI)(A1+λI)^{-1/2}, λ = 1e-4·n, averaged over seeds.
func reproFig1(args []string) error {
	fs := flag.NewFlagSet("repro fig1", flag.ContinueOnError)
	dir := fs.String("data", "../shared/data", "directory with the shared CSV files")
	sets := fs.String("sets", "digits.csv,Satellite.csv,LetterRecognition.csv", "comma-separated files")
	n := fs.Int("n", 1000, "rows subsampled from each file (0: all; the exact kernel is n×n, and each point costs O(n³))")
	dims := fs.String("dims", "64,128,256,512,1024,2048", "feature dimensions m")
	samplers := fs.String("samplers", "gibbs,exact,gaussian", "a1 direction samplers (gaussian = plain Cho–Saul features)")
	seeds := fs.Int("seeds", 3, "feature seeds averaged")
	seed := fs.Uint64("seed", 1, "seed of the subsample and the first feature seed")
	out := fs.String("out", "repro-results", "directory for the CSV")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ms, err := parseInts(*dims)
	if err != nil {
		return fmt.Errorf("repro fig1: -dims: %v", err)
	}
	if *seeds < 1 {
		return fmt.Errorf("repro fig1: -seeds %d; use at least 1", *seeds)
	}
	samp := strings.Split(*samplers, ",")
	long := &table{header: []string{"set", "n", "d", "sampler", "m", "cond_mean", "cond_se", "seeds", "seconds"}}
	pivot := &table{header: append([]string{"set", "m"}, samp...)}
	for _, file := range strings.Split(*sets, ",") {
		ds, err := loadShared(*dir, file)
		if err != nil {
			return err
		}
		X, _, err := subset(ds.X, nil, *n, *seed)
		if err != nil {
			return fmt.Errorf("repro fig1: %s: -n: %v", file, err)
		}
		X, err = data.Prepare(X, ds.Groups, data.Prep{UnitNorm: true})
		if err != nil {
			return fmt.Errorf("repro fig1: %s: %v", file, err)
		}
		nr, d := X.Dims()
		K, err := kernel.NNGP(X, 1)
		if err != nil {
			return err
		}
		fmt.Printf("%s: n=%d, d=%d, λ=%.3g\n", file, nr, d, 1e-4*float64(nr))
		for _, m := range ms {
			cells := []any{file, m}
			for _, s := range samp {
				t0 := time.Now()
				var conds []float64
				for k := range *seeds {
					f, err := rf.New(rf.Config{Method: rf.ArcCos1, Dim: m, Sampler: rf.Sampler(s), Seed: *seed + uint64(k)}, d)
					if err != nil {
						return fmt.Errorf("repro fig1: %v", err)
					}
					Phi, err := f.Transform(nil, X)
					if err != nil {
						return err
					}
					c, err := metrics.Spectral(K, Phi, 0)
					if err != nil {
						return err
					}
					conds = append(conds, c)
				}
				mean, se := meanSE(conds)
				long.add(file, nr, d, s, m, mean, se, *seeds, since(t0))
				cells = append(cells, fmtNum(mean))
			}
			pivot.add(cells...)
		}
	}
	fmt.Printf("condition number (1 is perfect), mean over %d seeds:\n", *seeds)
	pivot.print()
	return long.write(*out, "fig1")
}
