package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/linalg"
	"ntkrf/core/metrics"
	"ntkrf/core/names"
	"ntkrf/core/rf"
)

// anchor is the authors' PyTorch code on the same job, the one table every
// comparison of bench reads: ../shared/REFERENCE.md's re-measure on a
// machine of this kind (2 CPU threads, float64, Gibbs sampling), the only
// one that times both of their totals. Each figure is the lower end of its
// range there (the faster run), so a ratio of ours over theirs errs high.
type anchor struct {
	// fixed is their job with λ fixed (sampling, features, Gram, one solve
	// and the prediction), as their timed run did: compared with ours with
	// λ fixed.
	fixed float64
	// withGrid is their job with their search over 6 λ on the test set
	// (fixed plus the grid's extra time): compared with ours with its λ
	// search, the job a user runs.
	withGrid float64
	accuracy float64 // their test accuracy, λ picked on the test set
}

// anchorGrid is the extra time of the authors' search over 6 λ
// (REFERENCE.md: 6.3–8.5 s).
const anchorGrid = 6.3

var anchors = map[int]anchor{
	1: {fixed: 19.1, withGrid: 19.1 + anchorGrid, accuracy: 0.8637},
	2: {fixed: 48.9, withGrid: 48.9 + anchorGrid, accuracy: 0.8616},
}

// compare sets r's anchors and ratios, each total of ours against theirs
// timed the same way: with λ fixed against their λ fixed, with our λ
// search against their 6-λ grid.
func (r *benchResult) compare(a anchor) {
	r.AnchorFixed, r.AnchorWithGrid = a.fixed, a.withGrid
	r.RatioFixed = r.Total / a.fixed
	r.RatioWithSearch = r.TotalSearch / a.withGrid
}

// benchResult is one JSON line of the benchmark.
type benchResult struct {
	Job          string  `json:"job"`
	Depth        int     `json:"depth"`
	N            int     `json:"n"`
	NTest        int     `json:"nTest"`
	Dim          int     `json:"dim"`
	Sampler      string  `json:"sampler"`
	Precision    string  `json:"precision"` // of the projections (rf.Config.Precision)
	Procs        int     `json:"procs"`     // GOMAXPROCS of the run
	Float32Gram  bool    `json:"float32Gram"`
	Sampling     float64 `json:"samplingSeconds"`
	Features     float64 `json:"featuresSeconds"`
	Gram         float64 `json:"gramSeconds"`
	GramGFLOPS   float64 `json:"gramGFLOPS"`          // 2·n·m²/time, the convention of the anchors
	LambdaSearch float64 `json:"lambdaSearchSeconds"` // GCV over the grid: one eigendecomposition of ΦᵀΦ
	Solve        float64 `json:"solveSeconds"`        // one Cholesky solve at the chosen λ
	Predict      float64 `json:"predictSeconds"`
	Total        float64 `json:"totalSeconds"` // λ fixed
	TotalSearch  float64 `json:"totalWithSearchSeconds"`
	Lambda       float64 `json:"lambda"`
	Accuracy     float64 `json:"accuracy"`
	// OracleAccuracy is the best test accuracy over λ ∈ 1e-4…10 × tr(C)/m,
	// the anchors' protocol (an upper bound on what a validated λ gives).
	OracleAccuracy float64 `json:"oracleAccuracy,omitempty"`
	OracleLambda   float64 `json:"oracleLambda,omitempty"`
	ExactSeconds   float64 `json:"exactSeconds,omitempty"`
	ExactAccuracy  float64 `json:"exactAccuracy,omitempty"`
	PeakMB         float64 `json:"peakMB"`
	// Each stage's share of the machine's limit for its own arithmetic,
	// measured in the same run: its flops over the time it took, divided by
	// PeakGFLOPS (AddAtA on a warm buffer, float64) or, for float32
	// features and a float32 Gram step, PeakGFLOPS32 (AddAtA32 on the same
	// buffer); the prediction, a pass over the test features, in bytes
	// over CopyGBs (a streaming copy). See stageLimit.
	PeakGFLOPS   float64            `json:"peakGFLOPS"`
	PeakGFLOPS32 float64            `json:"peakGFLOPS32"`
	CopyGBs      float64            `json:"copyGBs"`
	Share        map[string]float64 `json:"shareOfPeak"`
	// The authors' job timed the same way as each of our totals (anchor):
	// RatioFixed is Total over AnchorFixed (λ fixed on both sides),
	// RatioWithSearch TotalSearch over AnchorWithGrid (our λ search, their
	// 6-λ grid).
	AnchorFixed     float64 `json:"anchorFixedSeconds"`
	AnchorWithGrid  float64 `json:"anchorWithGridSeconds"`
	RatioFixed      float64 `json:"ratioFixed"`
	RatioWithSearch float64 `json:"ratioWithSearch"`
}

// runBench is the standard job of the performance issue: Fashion-MNIST,
// unit-norm rows, NTK random features (m_cs = m/2), primal KRR with λ by
// GCV on the training rows, stages timed separately; then exact-NTK KRR on
// the same rows at the same λ for the speed-up.
func runBench(args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	n := fs.Int("n", 20000, "training rows")
	nTest := fs.Int("test", 10000, "test rows")
	m := fs.Int("m", 4096, "feature dimension")
	depths := fs.String("depths", "1,2", "comma-separated depths")
	sampler := fs.String("sampler", "exact", "direction sampler: exact, gibbs, orthogonal, gaussian")
	sketch := fs.String("sketch", "auto", "how the ntk features are built: auto (rf's default), split, tensorsketch (the paper's, the anchors'), tensorsrht")
	seed := fs.Uint64("seed", 1, "seed")
	exact := fs.Bool("exact", true, "also run exact-NTK KRR on the same rows (needs n²·8 bytes)")
	block := fs.Int("block", 2048, "rows featurized at a time")
	gram := fs.String("gram", "", "arithmetic of the Gram step ΦᵀΦ: float32 (blocks summed in float32, added in float64) or float64; empty for the core's default, "+krr.GramRule+" (krr.Options.Gram)")
	criterion := fs.String("criterion", "", "how λ is chosen: empty for the task's default (classification: holdout accuracy), or gcv")
	precision := fs.String("precision", names.Float64, "arithmetic of the feature projections: float64 (the reference the package is compared with) or float32 (rf.Config.Precision)")
	procsFlag := fs.String("procs", "", "comma-separated core counts (GOMAXPROCS) to run each depth on, for the worker scaling; default all cores")
	oracle := fs.Bool("oracle", true, "also report the best test accuracy over the anchors' λ grid (their protocol; ~11 extra solves)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if !slices.Contains(rf.Precisions(), rf.Precision(*precision)) {
		return fmt.Errorf("bench: -precision %q; use one of %q", *precision, rf.Precisions())
	}
	procs := []int{runtime.GOMAXPROCS(0)}
	if *procsFlag != "" {
		var err error
		if procs, err = parseInts(*procsFlag); err != nil || slices.ContainsFunc(procs, func(p int) bool { return p < 1 }) {
			return fmt.Errorf("bench: -procs %q; give core counts ≥ 1, e.g. 1,2", *procsFlag)
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	X, y, Xt, yt, err := readFashion(fashionDir, *n, *nTest)
	if err != nil {
		return err
	}
	unit, _ := data.Fit(X, nil, data.Prep{Raw: true, UnitNorm: true})
	X, _ = unit.Apply(X, X)
	Xt, _ = unit.Apply(Xt, Xt)
	_, d := X.Dims()
	ds, err := parseInts(*depths)
	if err != nil {
		return err
	}
	fmt.Printf("Fashion-MNIST: %d train, %d test rows, d = %d, m = %d, sketch %s, sampler %s, precision %s, Gram %s (float32 kernel %v)\n", *n, *nTest, d, *m, *sketch, *sampler, *precision, cmp.Or(*gram, "default: "+krr.GramRule), linalg.Float32())
	var lines []benchResult
	peaks := map[int]limits{}
	for _, L := range ds {
		for _, np := range procs {
			runtime.GOMAXPROCS(np)
			if _, ok := peaks[np]; !ok {
				l := measurePeaks()
				peaks[np] = l
				fmt.Printf("GOMAXPROCS %d: measured limits on a warm buffer (n·m·(m+1) flops): float64 AddAtA %.1f GFLOP/s, float32 AddAtA32 %.1f GFLOP/s; streaming copy %.1f GB/s\n", np, l.gflops64, l.gflops32, l.copyGBs)
				fmt.Printf("%-6s %9s %9s %9s %9s %9s %9s %9s %8s %9s %9s %10s\n", "depth", "sampling", "features", "gram", "GFLOP/s", "solve", "predict", "total", "acc", "anchor", "ratio", "λ search")
				fmt.Println("       (total, anchor and ratio with λ fixed on both sides; the anchor is the authors' job, ../shared/REFERENCE.md)")
			}
			lim := peaks[np]
			r := benchResult{Job: "native", Depth: L, N: *n, NTest: *nTest, Dim: *m, Sampler: *sampler, Precision: *precision, Procs: np}
			t0 := time.Now()
			f, err := rf.New(rf.Config{Method: rf.NTK, Depth: L, Dim: *m, Sketch: rf.Sketch(*sketch), Sampler: rf.Sampler(*sampler), Seed: *seed, Precision: rf.Precision(*precision)}, d)
			if err != nil {
				return err
			}
			r.Sampling = since(t0)
			ridge := krr.Options{Task: krr.Classification, Classes: 10, Gram: rf.Precision(*gram), Criterion: krr.Criterion(*criterion)}.GramFor(f.Float32(), *n, f.Dim())
			r.Float32Gram = ridge.Gram == rf.Float32 && linalg.Float32()
			acc, err := krr.NewAccumulator(f.Dim(), ridge)
			if err != nil {
				return err
			}
			buf := mat.NewDense(min(*block, *n), f.Dim(), nil)
			// Fault the block buffer in before any stage is timed: the first
			// Transform would otherwise pay for it.
			clear(buf.RawMatrix().Data)
			// The held-out rows of criterion holdout are left out of the sums
			// as the blocks pass, their features kept (as krr.FitFeatures and
			// the package do); the search adds them after.
			holdout := (krr.Options{Task: krr.Classification, Criterion: krr.Criterion(*criterion)}).CriterionFor(false) == krr.Holdout
			var held []int
			var phiH *mat.Dense
			if held = krr.HoldoutRows(*n); holdout && len(held) == 0 {
				return fmt.Errorf("bench: %d training rows leave none to hold out; use -n 5 or more", *n)
			} else if holdout {
				phiH = mat.NewDense(len(held), f.Dim(), nil)
			} else {
				held = nil
			}
			k := 0
			var out []int
			for lo := 0; lo < *n; lo += *block {
				hi := min(lo+*block, *n)
				phi := buf.Slice(0, hi-lo, 0, f.Dim()).(*mat.Dense)
				t := time.Now()
				if _, err := f.Transform(phi, X.Slice(lo, hi, 0, d).(*mat.Dense)); err != nil {
					return err
				}
				r.Features += since(t)
				t = time.Now()
				out = out[:0]
				for j := k; j < len(held) && held[j] < hi; j++ {
					out = append(out, held[j]-lo)
				}
				if err := acc.AddExcept(phi, y[lo:hi], out, phiH, k); err != nil {
					return err
				}
				k += len(out)
				r.Gram += since(t)
			}
			r.GramGFLOPS = 2 * float64(*n) * float64(f.Dim()) * float64(f.Dim()) / r.Gram / 1e9
			// λ by the task's criterion (held-out accuracy: the kept rows'
			// tridiagonal form with Q, then the final Cholesky) or by GCV, then the solve at the
			// chosen λ timed on its own: the anchors' timed run picked λ outside
			// it, so the total with λ fixed leaves the search out (and the one
			// with the search is compared with theirs with their grid).
			t := time.Now()
			var model *krr.Model
			if holdout {
				if model, err = acc.SolveHeldOut(phiH, data.Take(y, held)); err != nil {
					return err
				}
			} else if model, err = acc.Solve(); err != nil {
				return err
			}
			search := since(t)
			r.Lambda = model.Lambda()
			t = time.Now()
			if model, err = acc.SolveAt(r.Lambda); err != nil {
				return err
			}
			r.Solve = since(t)
			r.LambdaSearch = search - r.Solve
			// Test rows go through the training block buffer: memory stays
			// O(block·m), and no fresh n×m matrix is faulted in page by page.
			var labels []float64
			for lo := 0; lo < *nTest; lo += *block {
				hi := min(lo+*block, *nTest)
				phi := buf.Slice(0, hi-lo, 0, f.Dim()).(*mat.Dense)
				t := time.Now()
				if _, err := f.Transform(phi, Xt.Slice(lo, hi, 0, d).(*mat.Dense)); err != nil {
					return err
				}
				r.Features += since(t)
				t = time.Now()
				l, err := model.PredictLabels(phi)
				if err != nil {
					return err
				}
				r.Predict += since(t)
				labels = append(labels, l...)
			}
			r.Total = r.Sampling + r.Features + r.Gram + r.Solve + r.Predict
			r.TotalSearch = r.Total + r.LambdaSearch
			if r.Accuracy, err = metrics.Accuracy(yt, labels); err != nil {
				return err
			}
			if *oracle { // untimed
				phiT, err := f.Transform(nil, Xt)
				if err != nil {
					return err
				}
				if r.OracleLambda, r.OracleAccuracy, err = oracleAccuracy(acc, f.Dim(), phiT, yt); err != nil {
					return err
				}
			}
			if *exact {
				t = time.Now()
				em, err := krr.FitKernel(kernel.Spec{Name: kernel.NameNTK, Depth: L}, X, y, krr.Options{Task: krr.Classification, Classes: 10, Lambda: r.Lambda})
				if err != nil {
					return fmt.Errorf("exact NTK: %v", err)
				}
				el, err := em.PredictLabels(Xt)
				if err != nil {
					return err
				}
				r.ExactSeconds = since(t)
				if r.ExactAccuracy, err = metrics.Accuracy(yt, el); err != nil {
					return fmt.Errorf("exact NTK: %v", err)
				}
			}
			r.PeakMB = peakMB()
			r.PeakGFLOPS, r.PeakGFLOPS32, r.CopyGBs = lim.gflops64, lim.gflops32, lim.copyGBs
			r.Share = stageShares(r, float64(f.ProjectionMACs()), f.Float32(), lim)
			a := anchors[L]
			r.compare(a)
			fmt.Printf("%-6d %9.2f %9.2f %9.2f %9.1f %9.2f %9.2f %9.2f %8.4f %9.1f %9.2f %10.2f\n", L, r.Sampling, r.Features, r.Gram, r.GramGFLOPS, r.Solve, r.Predict, r.Total, r.Accuracy, r.AnchorFixed, r.RatioFixed, r.LambdaSearch)
			fmt.Printf("       with the λ search: %.2f s, %.2f of the authors' job with their 6-λ grid (%.1f s)\n", r.TotalSearch, r.RatioWithSearch, r.AnchorWithGrid)
			if *oracle {
				fmt.Printf("       λ picked on the test set as the anchors did: accuracy %.4f (λ = %.3g; anchor %.4f)\n", r.OracleAccuracy, r.OracleLambda, a.accuracy)
			}
			if *exact {
				fmt.Printf("       exact-NTK KRR on the same rows: %.1f s, accuracy %.4f; random features are %.1f× faster\n", r.ExactSeconds, r.ExactAccuracy, r.ExactSeconds/r.Total)
			}
			fmt.Printf("       share of the measured limit of its arithmetic: features %.0f %% (%s), gram %.0f %% (%s), λ search %.0f %%, solve %.0f %% (float64), predict %.0f %% (of the copy bandwidth)\n",
				100*r.Share["features"], arithmetic(f.Float32()), 100*r.Share["gram"], arithmetic(r.Float32Gram), 100*r.Share["lambdaSearch"], 100*r.Share["solve"], 100*r.Share["predict"])
			lines = append(lines, r)
		}
	}
	printScaling(lines)
	fmt.Printf("peak memory %.0f MB (VmHWM)\n", peakMB())
	b, _ := json.Marshal(lines)
	fmt.Println(string(b))
	return nil
}

// printScaling prints, for each depth run on several core counts, every
// stage's speed-up over the run on the fewest cores.
func printScaling(lines []benchResult) {
	for i, base := range lines {
		if i > 0 && lines[i-1].Depth == base.Depth {
			continue
		}
		for _, r := range lines[i+1:] {
			if r.Depth != base.Depth {
				break
			}
			fmt.Printf("depth %d, %d → %d cores: speed-up features %.2f×, gram %.2f×, λ search %.2f×, solve %.2f×, predict %.2f×, total with the λ search %.2f×\n",
				r.Depth, base.Procs, r.Procs, base.Features/r.Features, base.Gram/r.Gram, base.LambdaSearch/r.LambdaSearch, base.Solve/r.Solve, base.Predict/r.Predict, base.TotalSearch/r.TotalSearch)
		}
	}
}

// oracleAccuracy solves at each λ of the anchors' grid, 11 log-spaced
// values over 1e-4…10 × tr(C)/m, and returns the λ of best test accuracy.
func oracleAccuracy(acc *krr.Accumulator, m int, phiT *mat.Dense, yt []float64) (lam, best float64, err error) {
	parts := acc.Parts()
	tr := 0.0
	for i := range m {
		tr += parts.C[i*m+i]
	}
	best = -1
	for e := -8; e <= 2; e++ {
		l := tr / float64(m) * math.Pow(10, float64(e)/2)
		model, err := acc.SolveAt(l)
		if err != nil {
			return 0, 0, err
		}
		labels, err := model.PredictLabels(phiT)
		if err != nil {
			return 0, 0, err
		}
		a, err := metrics.Accuracy(yt, labels)
		if err != nil {
			return 0, 0, err
		}
		if a > best {
			lam, best = l, a
		}
	}
	return lam, best, nil
}

// limits are the machine's rates each stage's share is measured against:
// AddAtA's (float64) and AddAtA32's (float32 blocks where linalg has the
// kernel) in GFLOP/s, and a streaming copy's bandwidth in GB/s.
type limits struct{ gflops64, gflops32, copyGBs float64 }

// measurePeaks measures the limits, each the best of a few repetitions on
// warm buffers: AddAtA and AddAtA32 on the same rows (counting the
// n·m·(m+1) flops of the upper triangle), and a streaming copy (bytes read
// plus written).
func measurePeaks() limits {
	const n, m = 2048, 1024
	a := make([]float64, n*m)
	for i := range a {
		a[i] = float64(i%7) - 3
	}
	g := make([]float64, m*m)
	rate := func(addAtA func(g, a []float64, n, m int)) float64 {
		addAtA(g, a, n, m) // warm
		best := math.Inf(1)
		for range 3 {
			t := time.Now()
			addAtA(g, a, n, m)
			best = min(best, since(t))
		}
		return float64(n) * float64(m) * float64(m+1) / best / 1e9
	}
	l := limits{gflops64: rate(linalg.AddAtA), gflops32: rate(linalg.AddAtA32)}
	const words = 32 << 20 // 256 MiB each way
	src, dst := make([]float64, words), make([]float64, words)
	copy(dst, src) // fault both in
	best := math.Inf(1)
	for range 3 {
		t := time.Now()
		copyParallel(dst, src)
		best = min(best, since(t))
	}
	l.copyGBs = 2 * 8 * words / best / 1e9
	return l
}

// copyParallel copies src to dst in one chunk per core.
func copyParallel(dst, src []float64) {
	w := runtimeProcs()
	done := make(chan struct{}, w)
	for k := range w {
		go func() {
			lo, hi := len(src)*k/w, len(src)*(k+1)/w
			copy(dst[lo:hi], src[lo:hi])
			done <- struct{}{}
		}()
	}
	for range w {
		<-done
	}
}

// stageShares returns each timed stage's flops per second over the limit
// of its own arithmetic (stageLimit), the prediction's bytes per second
// over the copy bandwidth. Flops: features 2·rows·projMACs for the
// projections (the sketches are left out); Gram n·m·(m+1); λ search
// 4/3·m³ (the reduction to tridiagonal form); solve m³/3 (Cholesky).
func stageShares(r benchResult, projMACs float64, float32Features bool, l limits) map[string]float64 {
	rows := float64(r.N + r.NTest)
	m := float64(r.Dim)
	rate := func(stage string, flops, secs float64) float64 {
		if secs <= 0 {
			return 0
		}
		return flops / secs / 1e9 / stageLimit(stage, float32Features, r.Float32Gram, l)
	}
	return map[string]float64{
		"features":     rate("features", rows*2*projMACs, r.Features),
		"gram":         rate("gram", float64(r.N)*m*(m+1), r.Gram),
		"lambdaSearch": rate("lambdaSearch", 4.0/3*m*m*m, r.LambdaSearch),
		"solve":        rate("solve", m*m*m/3, r.Solve),
		"predict":      float64(r.NTest) * m * 8 / max(r.Predict, 1e-9) / 1e9 / l.copyGBs,
	}
}

// stageLimit is the GFLOP/s a stage is measured against: the float32 rate
// (AddAtA32) for float32 projections and for a Gram step summed in float32
// blocks, the float64 rate (AddAtA) for every other stage: a float32 stage
// over the float64 rate would show above 100 %.
func stageLimit(stage string, float32Features, float32Gram bool, l limits) float64 {
	if (stage == "features" && float32Features) || (stage == "gram" && float32Gram) {
		return l.gflops32
	}
	return l.gflops64
}

// arithmetic names the precision of a stage as the report prints it.
func arithmetic(f32 bool) string {
	if f32 {
		return names.Float32
	}
	return names.Float64
}
