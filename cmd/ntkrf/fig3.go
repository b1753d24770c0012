package main

import (
	"flag"
	"fmt"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/active"
	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/metrics"
	"ntkrf/core/rf"
)

// reproFig3: the paper's Figure 3, active learning. From a pool of
// unlabelled training rows, a design of k rows to label is chosen either
// greedily (active.SelectActive: Shoham and Avron's criterion J(S) on NTK
// random features Φ of the pool, as in the paper's appendix) or uniformly
// at random; a classifier is fitted on the k labelled rows and scored on
// the held-out test file. Accuracy vs k is reported for both designs,
// mean ± sd over seeds: seed s draws the feature map of the greedy design
// and the random design (the pool and the test rows are the same for every
// seed).
//
// The classifier is exact-NTK kernel ridge regression (krr.FitKernel) at
// the same depth, with λ chosen by leave-one-out on the labelled rows only.
// The paper trains the network itself (a 4-layer ReLU net of width 1000) on
// each design; exact NTK regression is that network's infinite-width limit,
// so it stands in for the trained network, and random features are used
// only where the paper uses them: to choose the greedy design. With at most
// a few hundred labelled rows the exact kernel is cheap (k×k solve, one
// test×k cross kernel).
//
// Designs are nested: the greedy design of size k is the first k picks of
// one greedy run to the largest size (greedy selection is a sequence), and
// the random design of size k the first k of one seeded permutation, so
// each curve moves by adding rows rather than redrawing them.
//
// Differences from the paper: Fashion-MNIST stands in for MNIST; the pool
// is the first -pool training images rather than all 60000, and m is
// smaller. The paper's "4-layer" network is depth L = 3 here (the paper
// calls L = 1 a two-layer network). The default (pool 4000, m 2048, sizes
// up to 300, 3 seeds) takes 30–90 s on the 2-core machine, idle or shared
// (43 s of CPU), mostly for the greedy designs. The design costs
// O(pool·m²): at the paper's size ~60× pool 6000 with m 4096 (80 s), so
// about an hour per seed (extrapolated, not run), and Φ with
// SelectActive's copy takes 2·pool·m·8 bytes, ~10 GB:
//
//	ntkrf repro fig3 -pool 60000 -m 10000
func reproFig3(args []string) error {
	fs := flag.NewFlagSet("repro fig3", flag.ContinueOnError)
	dir := fs.String("fashion", fashionDir, "directory with the gzipped Fashion-MNIST IDX files (Debian dataset-fashion-mnist)")
	pool := fs.Int("pool", 4000, "unlabelled pool: the first rows of the training file (the paper: 60000). Greedy selection is O(pool·m²)")
	nTest := fs.Int("test", 10000, "test rows: the first rows of the t10k file")
	m := fs.Int("m", 2048, "feature dimension of the NTK random features of the greedy design (the paper: 10000)")
	depth := fs.Int("depth", 3, "network depth L of the features and of the exact NTK (the paper's 4-layer net is L = 3)")
	sizes := fs.String("sizes", "10,20,50,100,200,300", "design sizes k, ascending (each ≥ 2)")
	lambda := fs.Float64("lambda", active.DefaultLambda, "λ of the design criterion J(S)")
	sampler := fs.String("sampler", "exact", "a1 direction sampler of the random features")
	seeds := fs.Int("seeds", 3, "seeds averaged: feature map of the greedy design, draw of the random design")
	seed := fs.Uint64("seed", 1, "first seed")
	out := fs.String("out", "repro-results", "directory for the CSV")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ks, err := parseInts(*sizes)
	if err != nil {
		return fmt.Errorf("repro fig3: -sizes: %v", err)
	}
	if !slices.IsSorted(ks) || ks[0] < 2 || ks[len(ks)-1] > *pool {
		return fmt.Errorf("repro fig3: -sizes %s: use ascending sizes from 2 to -pool (%d)", *sizes, *pool)
	}
	if *seeds < 1 {
		return fmt.Errorf("repro fig3: -seeds %d; use at least 1", *seeds)
	}
	Xp, yp, Xte, yte, err := loadFashion(*dir, *pool, *nTest)
	if err != nil {
		return err
	}
	cfg := rf.Config{Method: rf.NTK, Depth: *depth, Dim: *m, Sampler: rf.Sampler(*sampler)}
	fmt.Printf("Fashion-MNIST unit rows: pool %d, test %d; greedy design on NTK RF (depth %d, m %d, sampler %s, λ %g); classifier exact-NTK KRR (depth %d, λ by LOO)\n",
		*pool, *nTest, *depth, *m, *sampler, *lambda, *depth)
	acc := map[string][][]float64{} // design → seed → size
	for s := range *seeds {
		cfg.Seed = *seed + uint64(s)
		t0 := time.Now()
		designs, err := fig3Designs(Xp, ks[len(ks)-1], cfg, *lambda)
		if err != nil {
			return fmt.Errorf("repro fig3: %v", err)
		}
		tDesign := since(t0)
		for _, name := range []string{"greedy", "random"} {
			a, err := fig3Curve(Xp, yp, Xte, yte, designs[name], ks, *depth)
			if err != nil {
				return fmt.Errorf("repro fig3: %s design, seed %d: %v", name, cfg.Seed, err)
			}
			acc[name] = append(acc[name], a)
		}
		fmt.Printf("  seed %d: designs %.1f s, fits %.1f s\n", cfg.Seed, tDesign, since(t0)-tDesign)
	}
	pivot := &table{header: []string{"size", "greedy acc", "random acc"}}
	long := &table{header: []string{"size", "greedy_mean", "greedy_sd", "random_mean", "random_sd", "seeds"}}
	for j, k := range ks {
		gm, gsd := meanSD(column(acc["greedy"], j))
		rm, rsd := meanSD(column(acc["random"], j))
		pivot.add(k, fmtNum(gm)+" ± "+fmtNum(gsd), fmtNum(rm)+" ± "+fmtNum(rsd))
		long.add(k, gm, gsd, rm, rsd, *seeds)
	}
	fmt.Printf("test accuracy, mean ± sd over %d seeds:\n", *seeds)
	pivot.print()
	return long.write(*out, "fig3")
}

// loadFashion reads the first pool training rows and nTest test rows of
// Fashion-MNIST from dir, scaled to unit norm (as fig2 and bench do).
func loadFashion(dir string, pool, nTest int) (Xp *mat.Dense, yp []float64, Xte *mat.Dense, yte []float64, err error) {
	if Xp, yp, Xte, yte, err = readFashion(dir, pool, nTest); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("repro fig3: %v, or pass -fashion DIR", err)
	}
	unit := data.Prep{Raw: true, UnitNorm: true}
	if Xp, err = data.Prepare(Xp, nil, unit); err != nil {
		return
	}
	Xte, err = data.Prepare(Xte, nil, unit)
	return
}

// fig3Designs returns the greedy and the random design of k rows of the
// pool X, both determined by cfg.Seed: the greedy one through the feature
// map it draws, the random one through a permutation.
func fig3Designs(X *mat.Dense, k int, cfg rf.Config, lambda float64) (map[string][]int, error) {
	n, d := X.Dims()
	f, err := rf.New(cfg, d)
	if err != nil {
		return nil, err
	}
	Phi, err := f.Transform(nil, X)
	if err != nil {
		return nil, err
	}
	greedy, err := active.SelectActive(Phi, k, lambda)
	if err != nil {
		return nil, err
	}
	// The core's draw of rows (data.Draw: the sample's stream, so it does
	// not depend on how many draws the feature map made), in the order
	// drawn: each size's design is the first rows of the largest.
	random, err := data.Draw(n, k, cfg.Seed)
	if err != nil {
		return nil, err
	}
	return map[string][]int{"greedy": greedy, "random": random}, nil
}

// fig3Curve fits exact-NTK KRR on the first k rows of design (indices into
// the pool Xp, yp) for each k in sizes and returns its accuracy on the
// held-out rows Xte, yte.
func fig3Curve(Xp *mat.Dense, yp []float64, Xte *mat.Dense, yte []float64, design, sizes []int, depth int) ([]float64, error) {
	classes := int(max(slices.Max(yp), slices.Max(yte))) + 1
	// LOO: λ is chosen from the labelled rows alone, as an active learner
	// must; in the dual it is exact and cheap.
	opt := krr.Options{Task: krr.Classification, Classes: classes, Criterion: krr.LOO}
	acc := make([]float64, len(sizes))
	for j, k := range sizes {
		y := data.Take(yp, design[:k])
		// krr needs two classes; a learner that has seen one predicts it
		// everywhere. (Small random designs on a skewed pool do this.)
		pred := slices.Repeat(y[:1], len(yte))
		if slices.Min(y) < slices.Max(y) {
			model, err := krr.FitKernel(kernel.Spec{Name: kernel.NameNTK, Depth: depth}, data.Rows(Xp, design[:k]), y, opt)
			if err != nil {
				return nil, fmt.Errorf("size %d: %v", k, err)
			}
			if pred, err = model.PredictLabels(Xte); err != nil {
				return nil, fmt.Errorf("size %d: %v", k, err)
			}
		}
		var err error
		if acc[j], err = metrics.Accuracy(yte, pred); err != nil {
			return nil, err
		}
	}
	return acc, nil
}
