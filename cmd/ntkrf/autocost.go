package main

import (
	"context"
	"flag"
	"fmt"
	"sort"
	"strings"
	"time"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/metrics"
	"ntkrf/core/names"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
)

// runAutoCost measures what 'auto' costs against a fixed-depth fit on
// Fashion-MNIST (issue #15: at most 2× a fixed-depth fit with λ by GCV).
// Each round fits, one after the other in this process, (a) depth -depth,
// standardize + unit-norm rows, λ by GCV; (b) the same with λ 'auto'
// (held-out accuracy); (c) everything 'auto'; and prints each one's
// seconds, its ratio to (a) of the same round, where the time went (by
// the pipeline's progress stages) and its test accuracy (prediction
// untimed). Wall-clock times on a shared machine drift with the other
// load: compare within a round, and prefer the CPU seconds (user + system
// of this process, all threads), which the other load disturbs less.
func runAutoCost(args []string) error {
	fs := flag.NewFlagSet("autocost", flag.ContinueOnError)
	n := fs.Int("n", 20000, "training rows")
	nTest := fs.Int("test", 10000, "test rows")
	m := fs.Int("m", 4096, "feature dimension")
	depth := fs.Int("depth", 1, "depth of the fixed-depth fits")
	seed := fs.Uint64("seed", 1, "seed of the features and the search's sample")
	rounds := fs.Int("rounds", 1, "rounds of the three fits")
	only := fs.String("only", "gcv,holdout,auto", "which fits to run, comma-separated")
	if err := fs.Parse(args); err != nil {
		return err
	}
	X, y, Xt, yt, err := readFashion(fashionDir, *n, *nTest)
	if err != nil {
		return err
	}
	unit := data.Prep{UnitNorm: true}
	ridge := krr.Options{Task: krr.Classification, Classes: 10}
	gcv := ridge
	gcv.Criterion = krr.GCV
	jobs := []struct {
		name string
		cfg  pipeline.Config
	}{
		{"gcv", pipeline.Config{Preprocess: &unit, Features: rf.Config{Depth: *depth, Dim: *m, Seed: *seed}, Ridge: gcv}},
		{"holdout", pipeline.Config{Preprocess: &unit, Features: rf.Config{Depth: *depth, Dim: *m, Seed: *seed}, Ridge: ridge}},
		{"auto", pipeline.Config{Features: rf.Config{Dim: *m, Seed: *seed}, Ridge: ridge}},
	}
	fmt.Printf("Fashion-MNIST: %d train, %d test rows, m = %d, seed %d, GOMAXPROCS %d; fixed fits at depth %d, standardize + unit-norm rows\n", *n, *nTest, *m, *seed, runtimeProcs(), *depth)
	fmt.Printf("%-6s %-8s %9s %7s %9s %7s %8s  %-22s %s\n", "round", "fit", "seconds", "ratio", "CPU s", "ratio", "acc", "chose", "stages (s)")
	for r := 1; r <= *rounds; r++ {
		base, baseCPU := 0.0, 0.0
		for _, j := range jobs {
			if !strings.Contains(","+*only+",", ","+j.name+",") {
				continue
			}
			stages := map[string]float64{}
			last := time.Now()
			cfg := j.cfg
			cfg.Ridge.Progress = func(_, _ int, stage string) {
				now := time.Now()
				stages[stage] += now.Sub(last).Seconds()
				last = now
			}
			t0, c0 := time.Now(), cpuSeconds()
			p, err := pipeline.Fit(context.Background(), X, y, cfg)
			if err != nil {
				return fmt.Errorf("%s: %v", j.name, err)
			}
			secs, cpu := since(t0), cpuSeconds()-c0
			if j.name == names.GCV {
				base, baseCPU = secs, cpu
			}
			labels, err := p.Predict(Xt)
			if err != nil {
				return err
			}
			acc, err := metrics.Accuracy(yt, labels)
			if err != nil {
				return err
			}
			ratio, ratioCPU := "—", "—"
			if base > 0 {
				ratio = fmt.Sprintf("%.2f×", secs/base)
			}
			if baseCPU > 0 {
				ratioCPU = fmt.Sprintf("%.2f×", cpu/baseCPU)
			}
			chose := describe([]*pipeline.Pipeline{p})
			var names []string
			for k := range stages {
				names = append(names, k)
			}
			sort.Strings(names)
			var parts []string
			for _, k := range names {
				parts = append(parts, fmt.Sprintf("%s %.1f", k, stages[k]))
			}
			fmt.Printf("%-6d %-8s %9.1f %7s %9.1f %7s %8.4f  %-22s %s\n", r, j.name, secs, ratio, cpu, ratioCPU, acc, chose, strings.Join(parts, ", "))
		}
	}
	return nil
}
