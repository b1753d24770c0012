package pipeline

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/linalg"
	"ntkrf/internal/check"
)

// DefaultDepths are the depths searched when the depth is left to the
// pipeline: deeper ReLU kernels flatten towards a constant off the
// diagonal, and on the shared data sets no depth beyond 5 won.
var DefaultDepths = []int{1, 2, 3, 4, 5}

// DefaultPreprocess are the preprocessings searched when it is left to the
// pipeline: standardized columns, and standardized columns with every row
// then scaled to unit norm (the NTK of unit-norm rows depends on angles
// only; it wins on image-like data, loses where row norms carry signal).
var DefaultPreprocess = []data.Prep{{}, {UnitNorm: true}}

// DefaultSearchRows is the number of training rows (a seeded sample when
// there are more) on which the depth and preprocessing are chosen: each
// candidate costs one eigendecomposition of a kernel matrix of this size
// with its eigenvectors, about 0.7 s at 1,000 rows natively.
const DefaultSearchRows = 1000

// searchFlops bounds the leave-one-out work of one candidate by default:
// its predictions for every row, output and λ cost rows²·outputs·λs, which
// with many classes outweighs the eigendecomposition (1,000 classes at
// 1,000 rows: 3·10¹⁰ flops per candidate).
const searchFlops = 1e9

// defaultRows is DefaultSearchRows, fewer when there are so many classes
// that a candidate's leave-one-out would exceed searchFlops (1,000 classes:
// 182 rows), and never below 50.
func defaultRows(opt krr.Options) int {
	k, T := 1, len(opt.Grid)
	if opt.Task == krr.Classification {
		k = opt.Classes
	}
	if T == 0 {
		T = krr.GridPoints
	}
	return max(min(DefaultSearchRows, int(math.Sqrt(searchFlops/float64(k*T)))), 50)
}

// MaxSearchRows bounds Search.Rows: the candidates' kernel matrices and
// their eigenvectors are dense (rows² each).
const MaxSearchRows = 8000

// Search says which candidates model selection scores when a setting is
// left to the pipeline. Its zero value means the defaults.
type Search struct {
	// Depths are the candidate depths when the depth is 0 (nil:
	// DefaultDepths). Kernels without a depth ignore them.
	Depths []int `json:"depths,omitempty"`
	// Preprocess are the candidates when Config.Preprocess is nil (nil:
	// DefaultPreprocess).
	Preprocess []data.Prep `json:"preprocess,omitempty"`
	// Rows is the number of training rows the candidates are scored on,
	// a sample drawn with the features' seed when there are more (0:
	// DefaultSearchRows, fewer with hundreds of classes: see defaultRows).
	Rows int `json:"rows,omitempty"`
}

// Selection reports a model selection: every candidate with its best λ
// and validation scores on the rows searched, and the one chosen.
type Selection struct {
	// Rows is the number of training rows the candidates were scored on.
	Rows int `json:"rows"`
	// Criterion is how they were scored: "loo", exact leave-one-out of
	// ridge regression with the exact kernel on those rows.
	Criterion  string      `json:"criterion"`
	Candidates []Candidate `json:"candidates"`
	// Chosen is the index of the chosen candidate: the one-standard-error
	// rule (see Simplest) applied to the candidates.
	Chosen int `json:"chosen"`
}

// Candidate is one setting scored by model selection, at its best λ.
type Candidate struct {
	// Depth is the network depth, or 0 for kernels without one.
	Depth      int       `json:"depth"`
	Preprocess data.Prep `json:"preprocess"`
	// Lambda is the candidate's best λ on the rows searched.
	Lambda float64 `json:"lambda"`
	// Score is its validated mean squared error per output, Accuracy its
	// validated accuracy (classification).
	Score    float64 `json:"score"`
	Accuracy float64 `json:"accuracy,omitempty"`
	// StdErr is the standard error of the candidate's validated loss
	// minus the best candidate's, paired over the rows searched (0 for the
	// best; see Simplest).
	StdErr float64 `json:"stdErr,omitempty"`
}

// Select settles the settings cfg leaves open (a nil Preprocess, a depth
// of 0; see Config) on the rows of X and targets y: it returns cfg with
// them fixed to the chosen values, and the selection (nil when nothing was
// open). Fit calls it first; hosts that split a fit over workers call it
// once, then fit the returned Config. λ is left to the fit; the task and
// the number of classes are resolved from y.
func Select(ctx context.Context, X *mat.Dense, y []float64, cfg Config) (Config, *Selection, error) {
	if X == nil || X.IsEmpty() {
		return cfg, nil, check.New(check.Shape, "", "pipeline: X is empty; it needs at least one row and one column")
	}
	if err := checkTargets(X, y); err != nil {
		return cfg, nil, err
	}
	opt, err := cfg.Ridge.Resolve(y)
	if err != nil {
		return cfg, nil, err
	}
	ch, err := choose(ctx, X, y, cfg.Groups, cfg, opt)
	if err != nil {
		return cfg, nil, err
	}
	cfg.Ridge.Task, cfg.Ridge.Classes = opt.Task, opt.Classes
	if ch.depth > 0 {
		if cfg.Kernel != nil {
			k := *cfg.Kernel
			k.Depth = ch.depth
			cfg.Kernel = &k
		} else {
			cfg.Features.Depth = ch.depth
		}
	}
	prep := ch.prep
	cfg.Preprocess = &prep
	return cfg, ch.sel, nil
}

// choice is what a selection settles: the depth (0: as configured) and
// the preprocessing.
type choice struct {
	depth int
	prep  data.Prep
	sel   *Selection
}

// sampleStream separates the search's sample from the other draws of a
// seed.
const sampleStream = 0x5e1ec7

// choose scores the candidates of cfg.Search that cfg leaves open (a nil
// Preprocess, a depth of 0) with the exact kernel on a sample of the rows,
// by exact leave-one-out over the λ grid: one eigendecomposition per
// candidate. It returns the fixed settings unchanged when nothing is open.
func choose(ctx context.Context, X *mat.Dense, y []float64, groups []data.Group, cfg Config, opt krr.Options) (choice, error) {
	spec, hasKernel := cfg.kernelSpec()
	depths := []int{0}
	if hasKernel && depthOpen(spec) {
		depths = cfg.Search.Depths
		if depths == nil {
			depths = DefaultDepths
		}
	}
	preps := cfg.Search.Preprocess
	if cfg.Preprocess != nil {
		preps = []data.Prep{*cfg.Preprocess}
	} else if preps == nil {
		preps = DefaultPreprocess
	}
	if err := cfg.Search.check(); err != nil {
		return choice{}, err
	}
	if !hasKernel || len(depths)*len(preps) == 1 {
		// Nothing to choose, or no exact kernel to choose with (arccos0):
		// the first candidate.
		return choice{depth: depths[0], prep: preps[0]}, nil
	}
	n, _ := X.Dims()
	rows := cfg.Search.Rows
	if rows == 0 {
		rows = defaultRows(opt)
	}
	idx := sample(n, rows, cfg.Features.Seed)
	ys := make([]float64, len(idx))
	for i, r := range idx {
		ys[i] = y[r]
	}
	Xsub := data.Rows(X, idx)
	sel := &Selection{Rows: len(idx), Criterion: krr.LOO}
	o := opt
	o.Criterion, o.Progress, o.Lambda = krr.LOO, nil, 0
	if opt.Lambda > 0 {
		o.Grid = []float64{opt.Lambda} // a fixed λ is not searched
	}
	byAcc := opt.Task == krr.Classification
	// The scalers are fitted on every training row, as the final fit's is.
	scaled := make([]*mat.Dense, len(preps))
	for i, p := range preps {
		scaler, err := data.Fit(X, groups, p)
		if err != nil {
			return choice{}, err
		}
		if scaled[i], err = scaler.Apply(nil, Xsub); err != nil {
			return choice{}, err
		}
	}
	type candidate struct {
		prep, depth int
		c           Candidate
		losses      []float64 // the per-row loss at its λ
		err         error
	}
	cands := make([]candidate, 0, len(depths)*len(preps))
	for i := range preps {
		for _, depth := range depths {
			cands = append(cands, candidate{prep: i, depth: depth})
		}
	}
	// Candidates are independent: they are scored side by side on the
	// cores (an n-row eigendecomposition barely uses a second one), each
	// into its own slot, so the selection does not depend on the order.
	score := func(c *candidate) {
		k := spec
		if c.depth > 0 {
			k.Depth = c.depth
		}
		K, err := k.Gram(scaled[c.prep], nil)
		if err != nil {
			c.err = err
			return
		}
		curve, rowLosses, err := krr.KernelCurve(K, ys, o)
		if err != nil {
			c.err = err
			return
		}
		best, err := krr.Best(curve, byAcc)
		if err != nil {
			c.err = err
			return
		}
		b := curve[best]
		c.c = Candidate{Depth: c.depth, Preprocess: preps[c.prep], Lambda: b.Lambda, Score: b.Score, Accuracy: b.Accuracy}
		c.losses = rowLosses[best]
	}
	total := len(cands)
	var failed atomic.Bool
	done := make(chan struct{}, total)
	go linalg.ParallelFor(total, func(i int) {
		if !failed.Load() && ctx.Err() == nil {
			if score(&cands[i]); cands[i].err != nil {
				failed.Store(true)
			}
		}
		done <- struct{}{}
	})
	for k := range total {
		progress(opt, k, total, "select")
		<-done
	}
	progress(opt, total, total, "select")
	if err := ctx.Err(); err != nil {
		return choice{}, err
	}
	var losses [][]float64
	for _, c := range cands {
		if c.err != nil {
			return choice{}, c.err
		}
		sel.Candidates = append(sel.Candidates, c.c)
		losses = append(losses, c.losses)
	}
	chosen, err := Simplest(sel.Candidates, losses, byAcc)
	if err != nil {
		return choice{}, err
	}
	sel.Chosen = chosen
	c := sel.Candidates[chosen]
	return choice{depth: c.Depth, prep: c.Preprocess, sel: sel}, nil
}

// Simplest is the one-standard-error rule by which a selection chooses
// among candidates scored on the same rows, losses[c] holding candidate
// c's validated loss on each row (krr.KernelCurve's losses at its λ):
//
//   - the best candidate b is the one krr.Best picks (the highest
//     accuracy, the lowest score breaking ties; the lowest score for
//     regression);
//   - candidate c is within reach when its mean loss exceeds b's by at
//     most one standard error of the paired differences (ties included)
//     dᵢ = loss_c,i − loss_b,i, SE = sd(d)/√rows;
//   - Simplest returns the candidate of lowest depth within reach, the
//     better of them (krr.Better) when several share that depth.
//
// A sample of rows cannot rank candidates closer than its noise: the rule
// takes the least complex (and cheapest to featurize) kernel the sample
// cannot tell from the best. It sets each candidate's StdErr. When no
// depth is searched (every depth equal), it returns b. It panics when the
// losses are not one vector of at least two rows per candidate, all of the
// same length.
func Simplest(cands []Candidate, losses [][]float64, byAccuracy bool) (int, error) {
	if len(cands) == 0 || len(losses) != len(cands) {
		panic("pipeline: Simplest needs one loss vector per candidate")
	}
	points := make([]krr.CurvePoint, len(cands))
	for i, c := range cands {
		points[i] = krr.CurvePoint{Lambda: c.Lambda, Score: c.Score, Accuracy: c.Accuracy}
	}
	b, err := krr.Best(points, byAccuracy)
	if err != nil {
		return 0, err
	}
	chosen := b
	for c := range cands {
		cands[c].StdErr = 0
		if c == b {
			continue
		}
		mean, se := pairedDiff(losses[c], losses[b])
		cands[c].StdErr = se
		if !(mean <= se*(1+reachTol)) {
			continue // out of reach
		}
		if cands[c].Depth < cands[chosen].Depth ||
			cands[c].Depth == cands[chosen].Depth && krr.Better(points[c], points[chosen], byAccuracy) {
			chosen = c
		}
	}
	return chosen, nil
}

// reachTol lets a mean difference equal to its standard error count as
// within reach whatever the rounding: a candidate one row apart from the
// best differs by exactly one standard error (1/rows) in exact arithmetic.
const reachTol = 1e-9

// pairedDiff returns the mean of a − b over the rows and its standard
// error, sd/√n with the sample standard deviation (n − 1); a mean that is
// not finite comes back as +Inf with a standard error of 0.
func pairedDiff(a, b []float64) (mean, se float64) {
	n := len(a)
	if n != len(b) || n < 2 {
		panic("pipeline: paired losses of different or too few rows")
	}
	for i := range a {
		mean += a[i] - b[i]
	}
	mean /= float64(n)
	if math.IsNaN(mean) || math.IsInf(mean, 0) {
		return math.Inf(1), 0
	}
	ss := 0.0
	for i := range a {
		d := a[i] - b[i] - mean
		ss += d * d
	}
	return mean, math.Sqrt(ss / float64(n-1) / float64(n))
}

// kernelSpec is the exact kernel the pipeline fits or its features
// approximate, if there is one.
func (cfg Config) kernelSpec() (kernel.Spec, bool) {
	if cfg.Kernel != nil {
		return *cfg.Kernel, true
	}
	return cfg.Features.Kernel()
}

// depthOpen reports whether the kernel has a depth and leaves it open.
func depthOpen(k kernel.Spec) bool {
	return (k.Name == "" || k.Name == "ntk" || k.Name == "nngp") && k.Depth == 0
}

// check validates the candidates, whether or not they are used.
func (s Search) check() error {
	if s.Depths != nil && len(s.Depths) == 0 {
		return check.New(check.Option, "depths", "pipeline: the search has no depth to try; give at least one, or leave it unset for %v", DefaultDepths)
	}
	if s.Preprocess != nil && len(s.Preprocess) == 0 {
		return check.New(check.Option, "preprocess", "pipeline: the search has no preprocessing to try; give at least one, or leave it unset")
	}
	for _, d := range s.Depths {
		if d < 1 || d > kernel.MaxDepth {
			return check.New(check.Option, "depths", "pipeline: search depth %d is out of range; use 1 … %d", d, kernel.MaxDepth)
		}
	}
	if s.Rows < 0 || s.Rows == 1 || s.Rows == 2 || s.Rows > MaxSearchRows {
		return check.New(check.Option, "rows", "pipeline: search rows %d is out of range; use 3 … %d, or 0 for %d", s.Rows, MaxSearchRows, DefaultSearchRows)
	}
	return nil
}

// sample returns min(n, k) of the rows 0…n−1, sorted: all of them, or a
// sample drawn with the seed.
func sample(n, k int, seed uint64) []int {
	if k >= n {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	idx := rand.New(rand.NewPCG(seed, sampleStream)).Perm(n)[:k]
	slices.Sort(idx)
	return idx
}
