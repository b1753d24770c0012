package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/metrics"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
)

// reproTable2: the paper's Table 2 on the shared classification sets.
func reproTable2(args []string) error {
	fs := flag.NewFlagSet("repro table2", flag.ContinueOnError)
	dir := fs.String("data", "../shared/data", "directory with the shared CSV files")
	dim := fs.Int("dim", 4096, "feature dimension m of NTK RF and RFF")
	fast := fs.Bool("fast", false, "quick check: m = 1024")
	sampler := fs.String("sampler", "exact", "a1 sampler of NTK RF (the paper's \"with GS\" is gibbs)")
	seed := fs.Uint64("seed", 1, "seed of the folds and the features")
	only := fs.String("only", "", "comma-separated files (default: all classification sets with a baseline)")
	out := fs.String("out", "repro-results", "directory for the CSV")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *fast {
		*dim = 1024
	}
	std := &data.Prep{}
	gammas := []float64{0.25, 1, 4}
	type method struct {
		name  string
		cands func(d int) []pipeline.Config
	}
	methods := []method{
		// Depth 1–3 and the preprocessing are the pipeline's own search.
		{"exact NTK", func(d int) []pipeline.Config {
			return []pipeline.Config{{Kernel: &kernel.Spec{Name: kernel.NameNTK}}}
		}},
		{"NTK RF", func(d int) []pipeline.Config {
			return []pipeline.Config{{Features: rf.Config{Method: rf.NTK, Dim: *dim, Sampler: rf.Sampler(*sampler), Seed: *seed}}}
		}},
		{"RFF", func(d int) []pipeline.Config {
			var c []pipeline.Config
			for _, g := range gammas {
				c = append(c, pipeline.Config{Preprocess: std, Features: rf.Config{Method: rf.RFF, Dim: *dim, Gamma: g / float64(d), Seed: *seed}})
			}
			return c
		}},
		{"exact RBF", func(d int) []pipeline.Config {
			var c []pipeline.Config
			for _, g := range gammas {
				c = append(c, pipeline.Config{Preprocess: std, Kernel: &kernel.Spec{Name: kernel.NameRBF, Gamma: g / float64(d)}})
			}
			return c
		}},
	}
	fmt.Printf("4-fold CV accuracy; NTK RF and RFF with m=%d (sampler %s); depth 1–3 (NTK) or γ ∈ {0.25,1,4}/d (RBF) and λ chosen by LOO/GCV inside each training fold\n", *dim, *sampler)
	long := &table{header: []string{"set", "n", "d"}}
	for _, m := range methods {
		long.header = append(long.header, m.name)
	}
	long.header = append(long.header, "README exact NTK", "seconds")
	var accs [][]float64 // per set, per method
	for _, b := range baselines {
		if *only != "" && !strings.Contains(","+*only+",", ","+b.file+",") {
			continue
		}
		ds, err := loadShared(*dir, b.file)
		if err != nil {
			return err
		}
		if ds.Task != data.Classification {
			continue
		}
		t0 := time.Now()
		n, d := ds.X.Dims()
		folds, err := data.KFold(n, 4, *seed)
		if err != nil {
			return err
		}
		row := []any{b.file, n, d}
		var acc []float64
		for _, m := range methods {
			cands := m.cands(d)
			pred, _, err := cvPredict(ds, folds, cands)
			if err != nil {
				return fmt.Errorf("repro table2: %s %s: %v", b.file, m.name, err)
			}
			a, err := metrics.Accuracy(ds.Y, pred)
			if err != nil {
				return fmt.Errorf("repro table2: %s %s: %v", b.file, m.name, err)
			}
			acc = append(acc, a)
			row = append(row, a)
		}
		row = append(row, b.exactNTK, since(t0))
		long.add(row...)
		accs = append(accs, acc)
		fmt.Printf("  %s done in %.1f s\n", b.file, since(t0))
	}
	if len(accs) == 0 {
		return fmt.Errorf("repro table2: no classification set selected by -only %q", *only)
	}
	sum := &table{header: append([]string{"summary"}, long.header[3:3+len(methods)]...)}
	mean, p90, p95, pma := summarize(accs)
	rowOf := func(name string, v []float64) []any {
		r := []any{name}
		for _, x := range v {
			r = append(r, x)
		}
		return r
	}
	sum.add(rowOf("accuracy %", mean)...)
	sum.add(rowOf("P90", p90)...)
	sum.add(rowOf("P95", p95)...)
	sum.add(rowOf("PMA", pma)...)
	long.print()
	fmt.Println()
	sum.print()
	if err := long.write(*out, "table2"); err != nil {
		return err
	}
	return sum.write(*out, "table2-summary")
}

// summarize returns the paper's summary of per-set accuracies acc[set][method]:
// the mean accuracy (%), P90 and P95 (% of sets where the method reaches
// 90 % or 95 % of the best method's accuracy on that set) and PMA (the mean
// of accuracy / best, in %).
func summarize(acc [][]float64) (mean, p90, p95, pma []float64) {
	k := len(acc[0])
	mean, p90, p95, pma = make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k)
	w := 100 / float64(len(acc))
	for _, a := range acc {
		best := slices.Max(a)
		for j, x := range a {
			mean[j] += w * x
			pma[j] += w * x / best
			if x >= 0.9*best {
				p90[j] += w
			}
			if x >= 0.95*best {
				p95[j] += w
			}
		}
	}
	return mean, p90, p95, pma
}
