package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/rf"
)

// defaultsCfg is one NTK feature map under comparison: a sampler, a sketch
// and the sketch's share m_cs/m of the m columns (0: rf's default split,
// m1 = ⌊m/2⌋, m_cs = m − m1).
type defaultsCfg struct {
	Sampler rf.Sampler `json:"sampler"`
	Sketch  rf.Sketch  `json:"sketch"`
	Share   float64    `json:"mcsShare"`
}

func (c defaultsCfg) String() string {
	if c.Share == 0 {
		return fmt.Sprintf("%s/%s", c.Sampler, c.Sketch)
	}
	return fmt.Sprintf("%s/%s m_cs=%gm", c.Sampler, c.Sketch, c.Share)
}

// rfConfig is the rf.Config of c at depth L with m columns. A share sets
// M1 and SketchDim with M1 + SketchDim = m (and M0 = M1, rf's default), so
// every configuration has the same m.
func (c defaultsCfg) rfConfig(L, m int, seed uint64) rf.Config {
	cfg := rf.Config{Method: rf.NTK, Depth: L, Dim: m, Sampler: c.Sampler, Sketch: c.Sketch, Seed: seed}
	if c.Share > 0 {
		cfg.SketchDim = int(math.Round(c.Share * float64(m)))
		cfg.M1 = m - cfg.SketchDim
	}
	return cfg
}

// defaultsShares are the splits tried besides the default 1/2. Of m =
// 1024, 3/8, 5/8 and 3/4 are not powers of two, so their TensorSketch
// FFTs take the slower Bluestein path: the times include that, the errors
// do not depend on it.
var defaultsShares = []float64{1. / 4, 3. / 8, 5. / 8, 3. / 4}

// defaultsConfigs lists every sampler × sketch at the default split, rf's
// defaults (the first of each list) first, then the default sampler with
// the paper's TensorSketch at the other splits (the split form divides m
// by its own rule, rf/split.go).
func defaultsConfigs() []defaultsCfg {
	var cs []defaultsCfg
	for _, sa := range rf.Samplers() {
		for _, sk := range rf.Sketches() {
			cs = append(cs, defaultsCfg{Sampler: sa, Sketch: sk})
		}
	}
	for _, s := range defaultsShares {
		cs = append(cs, defaultsCfg{rf.Exact, rf.SketchTensorSketch, s})
	}
	return cs
}

// defaultsCell holds, for one data set, preprocessing and depth, every
// configuration's relative Frobenius error and the seconds of rf.New plus
// Transform, indexed [configuration][seed].
type defaultsCell struct {
	Set   string      `json:"set"`
	Prep  string      `json:"prep"`
	Depth int         `json:"depth"`
	Rows  int         `json:"rows"`
	Cols  int         `json:"cols"`
	Err   [][]float64 `json:"err"`
	Sec   [][]float64 `json:"seconds"`
}

// measureDefaults draws every configuration with seeds 1…seeds on the rows
// of X at depth L and m columns and compares ΦΦᵀ with the exact NTK.
func measureDefaults(X *mat.Dense, L, m, seeds int, cfgs []defaultsCfg) (defaultsCell, error) {
	n, d := X.Dims()
	c := defaultsCell{Depth: L, Rows: n, Cols: d}
	K, err := kernel.NTK(X, L)
	if err != nil {
		return c, err
	}
	for range cfgs {
		c.Err = append(c.Err, make([]float64, seeds))
		c.Sec = append(c.Sec, make([]float64, seeds))
	}
	Phi := mat.NewDense(n, m, nil) // reused, so no configuration pays for fresh pages
	for s := range seeds {
		// Interleaved, and each seed starts at another configuration: a
		// slow spell of the shared machine spreads over all of them
		// instead of landing on one.
		for k := range cfgs {
			i := (k + s) % len(cfgs)
			t0 := time.Now()
			f, err := rf.New(cfgs[i].rfConfig(L, m, uint64(s+1)), d)
			if err != nil {
				return c, err
			}
			if _, err := f.Transform(Phi, X); err != nil {
				return c, err
			}
			c.Sec[i][s] = since(t0)
			c.Err[i][s] = relErr(K, Phi)
		}
	}
	return c, nil
}

// defaultsRow is one configuration's figures over a group of cells (the
// data sets at one depth, or at all depths).
type defaultsRow struct {
	Config string `json:"config"`
	// Err is the mean over data sets of the mean over seeds (and over the
	// group's depths) of the relative Frobenius error; ErrSE its standard
	// error from the seed-to-seed variation.
	Err   float64 `json:"err"`
	ErrSE float64 `json:"errSE"`
	// Delta is Err minus that of rf's default configuration, paired seed
	// by seed on the same rows (and the same Step directions and sketches
	// where the configurations share them), so set-to-set differences
	// cancel; DeltaSE is its standard error.
	Delta   float64 `json:"delta"`
	DeltaSE float64 `json:"deltaSE"`
	// Seconds is the mean over cells of the median over seeds of rf.New +
	// Transform; ErrSec the mean over cells of error × seconds, the figure
	// asked for (lower is better). Err2Sec, the mean of error² × seconds,
	// is the one independent of m when the error falls like 1/√m and the
	// time grows like m: it is proportional to the time needed to reach a
	// given error.
	Seconds float64 `json:"seconds"`
	ErrSec  float64 `json:"errSec"`
	Err2Sec float64 `json:"err2Sec"`
}

// summarizeDefaults computes a row per configuration over cells. Cells of
// one data set (its depths) share seeds and so are correlated: each set's
// seeds are averaged over its cells first, and the sets are independent.
func summarizeDefaults(cells []defaultsCell, cfgs []defaultsCfg) []defaultsRow {
	var sets []string
	for _, c := range cells {
		if !slices.Contains(sets, c.Set) {
			sets = append(sets, c.Set)
		}
	}
	ns := float64(len(sets))
	// over returns the mean over sets and its standard error of v(cell,
	// seed), averaged within each set over its cells.
	over := func(v func(c defaultsCell, s int) float64) (mean, se float64) {
		var v2 float64
		for _, set := range sets {
			var perSeed []float64
			nc := 0.0
			for _, c := range cells {
				if c.Set != set {
					continue
				}
				nc++
				if perSeed == nil {
					perSeed = make([]float64, len(c.Err[0]))
				}
				for s := range perSeed {
					perSeed[s] += v(c, s)
				}
			}
			for s := range perSeed {
				perSeed[s] /= nc
			}
			m, e := meanSE(perSeed)
			mean += m / ns
			v2 += e * e
		}
		return mean, math.Sqrt(v2) / ns
	}
	rows := make([]defaultsRow, len(cfgs))
	for i, cfg := range cfgs {
		r := defaultsRow{Config: cfg.String()}
		r.Err, r.ErrSE = over(func(c defaultsCell, s int) float64 { return c.Err[i][s] })
		r.Delta, r.DeltaSE = over(func(c defaultsCell, s int) float64 { return c.Err[i][s] - c.Err[0][s] })
		for _, c := range cells {
			e, _ := meanSE(c.Err[i])
			t := median(c.Sec[i])
			r.Seconds += t / float64(len(cells))
			r.ErrSec += e * t / float64(len(cells))
			r.Err2Sec += e * e * t / float64(len(cells))
		}
		rows[i] = r
	}
	return rows
}

// defaultsPreps are the preprocessings: "std", the pipeline's default
// (standardized columns), and "unit", standardized then unit-norm rows, the
// one measured by default. The paper's analysis assumes inputs on the
// sphere (Section 3: "a common assumption used in the NTK analysis"),
// where the NTK is a function of angles. The features are positively
// homogeneous like the kernel (Φ(ax) = aΦ(x), a > 0), so the error on
// standardized rows is the same comparison reweighted towards the rows of
// largest norm: noisier, and not worth twice the run time by default.
var defaultsPreps = map[string]data.Prep{"std": {}, "unit": {UnitNorm: true}}

// runDefaults measures the choices behind rf's defaults (issue #15): the
// sampler, the sketch and the split of m between the ReLU features (m1)
// and the sketch (m_cs), by the relative Frobenius error of ΦΦᵀ against
// the exact NTK and the time to draw the map and transform the rows.
func runDefaults(args []string) error {
	fs := flag.NewFlagSet("defaults", flag.ContinueOnError)
	dir := fs.String("data", "../shared/data", "directory with the shared CSV files")
	rows := fs.Int("rows", 1000, "at most this many rows of each set (a seeded subsample)")
	dim := fs.Int("dim", rf.DefaultDim, "feature dimension m")
	depthList := fs.String("depths", "1,2,3", "comma-separated network depths")
	seeds := fs.Int("seeds", 3, "seeds per configuration (1 … seeds); the default run takes about 80 s per seed on 2 cores; use 8 to settle differences of a few SE")
	only := fs.String("only", "", "comma-separated file names to run (default: all with a baseline)")
	preps := fs.String("prep", "unit", "comma-separated preprocessings: std (standardized columns), unit (then unit-norm rows)")
	jsonOut := fs.String("json", "", "also write the cells and summaries as JSON to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	depths, err := parseInts(*depthList)
	if err != nil {
		return fmt.Errorf("defaults: -depths: %v", err)
	}
	if *seeds < 2 {
		return fmt.Errorf("defaults: -seeds %d is too few; standard errors need at least 2", *seeds)
	}
	var prepNames []string
	for _, p := range strings.Split(*preps, ",") {
		if _, ok := defaultsPreps[p]; !ok {
			return fmt.Errorf("defaults: -prep %q is unknown; use std, unit or std,unit", p)
		}
		prepNames = append(prepNames, p)
	}
	cfgs := defaultsConfigs()
	t0 := time.Now()
	fmt.Printf("# ntkrf defaults: m=%d, ≤%d rows, depths %v, %d seeds, GOMAXPROCS %d\n", *dim, *rows, depths, *seeds, runtimeProcs())
	var cells []defaultsCell
	for _, b := range baselines {
		if *only != "" && !strings.Contains(","+*only+",", ","+b.file+",") {
			continue
		}
		ds, err := loadShared(*dir, b.file)
		if err != nil {
			return err
		}
		Xs, _, err := subset(ds.X, nil, *rows, 1)
		if err != nil {
			return fmt.Errorf("defaults: %s: -rows: %v", b.file, err)
		}
		for _, p := range prepNames {
			X, err := data.Prepare(Xs, ds.Groups, defaultsPreps[p])
			if err != nil {
				return fmt.Errorf("defaults: %s: %v", b.file, err)
			}
			for _, L := range depths {
				c, err := measureDefaults(X, L, *dim, *seeds, cfgs)
				if err != nil {
					return fmt.Errorf("defaults: %s: %v", b.file, err)
				}
				c.Set, c.Prep = b.file, p
				cells = append(cells, c)
			}
		}
		fmt.Printf("# %s: %d×%d done at %.0f s\n", b.file, cells[len(cells)-1].Rows, cells[len(cells)-1].Cols, since(t0))
	}
	if len(cells) == 0 {
		return fmt.Errorf("defaults: -only %q names no data set with a baseline", *only)
	}
	type group struct {
		Prep  string        `json:"prep"`
		Depth int           `json:"depth"` // 0: all depths
		Rows  []defaultsRow `json:"rows"`
	}
	var groups []group
	for _, p := range prepNames {
		for _, L := range append(slices.Clone(depths), 0) {
			var sel []defaultsCell
			for _, c := range cells {
				if c.Prep == p && (L == 0 || c.Depth == L) {
					sel = append(sel, c)
				}
			}
			g := group{p, L, summarizeDefaults(sel, cfgs)}
			groups = append(groups, g)
			printDefaults(g.Prep, g.Depth, g.Rows, len(sel))
		}
	}
	fmt.Printf("# wall time %.1f s\n", since(t0))
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(map[string]any{"m": *dim, "maxRows": *rows, "seeds": *seeds, "configs": cfgs, "cells": cells, "summaries": groups}, "", "  ")
		return os.WriteFile(*jsonOut, b, 0o644)
	}
	return nil
}

// printDefaults prints one group's table and its best configurations.
func printDefaults(prep string, depth int, rows []defaultsRow, ncells int) {
	what := fmt.Sprintf("depth %d", depth)
	if depth == 0 {
		what = "all depths"
	}
	fmt.Printf("\n%s rows, %s (%d cells); Δ = error − %s's, paired by seed\n", prep, what, ncells, rows[0].Config)
	t := &table{header: []string{"config", "error", "±SE", "Δ", "±SE", "Δ/SE", "ms", "error·s", "error²·s"}}
	for _, r := range rows {
		t.add(r.Config, r.Err, r.ErrSE, r.Delta, r.DeltaSE, r.Delta/r.DeltaSE, 1e3*r.Seconds, r.ErrSec, r.Err2Sec)
	}
	t.print()
	best := func(name string, key func(r defaultsRow) float64) {
		b := slices.MinFunc(rows, func(a, b defaultsRow) int { return cmp.Compare(key(a), key(b)) })
		fmt.Printf("lowest %s: %s (error %.4g, Δ %+.3g ± %.2g)\n", name, b.Config, b.Err, b.Delta, b.DeltaSE)
	}
	best("error", func(r defaultsRow) float64 { return r.Err })
	best("error·s", func(r defaultsRow) float64 { return r.ErrSec })
	best("error²·s", func(r defaultsRow) float64 { return r.Err2Sec })
}
