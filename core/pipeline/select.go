package pipeline

import (
	"context"
	"math"
	"slices"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/internal/seam"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/linalg"
	"ntkrf/core/names"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// defaultDepths are the depths searched when the depth is left to the
// pipeline (DefaultDepths): deeper ReLU kernels flatten towards a
// constant off the diagonal. Under the one-standard-error rule no depth
// beyond 3 was chosen in any fold of `ntkrf accuracy` (44 folds), and
// searching 1…3 instead of 1…5 left its mean difference from the tuned exact NTK at −0.0012
// (−0.0013) for 40 % less search (docs/PERFORMANCE.md, issue 39).
var defaultDepths = []int{1, 2, 3}

// DefaultDepths returns the depths searched when the depth is left to the
// pipeline, 1 to 3 (a new slice each call): deeper ReLU kernels flatten
// towards a constant off the diagonal, and under the one-standard-error
// rule no depth beyond 3 was chosen in any fold of `ntkrf accuracy`.
func DefaultDepths() []int { return slices.Clone(defaultDepths) }

// defaultPreps are the preprocessings searched when it is left to the
// pipeline (DefaultPreprocess): standardized columns; standardized
// columns with every row then scaled to unit norm (the NTK of unit-norm rows depends on angles
// only; it wins on image-like data, loses where row norms carry signal);
// standardized columns with a bias input (the NTK of a network with
// biases, not positively homogeneous: it wins on low-dimensional data
// whose classes are not wedges from the origin, such as a spiral); and
// the raw columns' rows scaled to unit norm (angles of the columns as
// measured, where their scales and signs carry the signal: spectra, pixel
// intensities, counts). The fourth was measured on ../shared/data
// (docs/PERFORMANCE.md, "Candidates and the λ search"): `ntkrf accuracy`'s
// mean difference from the tuned exact NTK −0.0012 → +0.0027 (iris +1.4,
// digits +0.5, Ionosphere +1.7 points; no table lower), and on the
// side-by-side split Glass +5.6, Ionosphere +2.3, digits +0.2 points.
var defaultPreps = []data.Prep{{}, {UnitNorm: true}, {Bias: data.DefaultBias}, {Raw: true, UnitNorm: true}}

// DefaultPreprocess returns the preprocessings searched when the
// preprocessing is left to the pipeline (a new slice each call):
// standardized columns; the same with every row then scaled to unit norm;
// standardized columns with a bias input (data.DefaultBias); and the raw
// columns' rows scaled to unit norm. Kernels other than the NTK and NNGP
// are searched without the bias input.
func DefaultPreprocess() []data.Prep { return slices.Clone(defaultPreps) }

// autoRBF are the RBF candidates 'auto' adds when nothing but the task
// was given (methodOpen; the exact kernel or, chosen, its random Fourier
// features: addRBF): γ = c/d for each
// c, d the columns of the standardized rows (1/d is scikit-learn's 'scale'
// on standardized columns). Where the NTK family cannot fit the data's
// scale, a wide RBF can: on the side-by-side split of Vehicle the exact NTK
// with a bias input scores at most 0.835 even with λ chosen on the test
// rows, the RBF at γ = 0.1/d … 0.25/d 0.887 (docs/PERFORMANCE.md,
// "Candidates and the λ search"). The one-standard-error rule (Simplest)
// prefers any NTK candidate within reach to an RBF one.
var autoRBF = []float64{0.1, 0.3, 1}

// DefaultSearchRows is the number of training rows (a seeded sample when
// there are more) on which the depth and preprocessing are chosen: each
// candidate costs one reduction of a kernel matrix of this size to
// tridiagonal form with Q (krr.KernelCurve's exact leave-one-out), about
// 0.46 CPU-s at 1,000 rows natively (was 0.87 with the eigenvectors) and
// 1.6 s in WebAssembly (was 7.4).
const DefaultSearchRows = 1000

// ScreenRows, MinScreenRows and ScreenKeep are the successive halving of
// the search (screenPlan): when there are more than ScreenKeep candidates
// and half the search rows are at least MinScreenRows, every candidate is
// first scored on a seeded sample of min(ScreenRows, rows/2) of them, and
// only the ScreenKeep best (krr.Better: validated accuracy, then squared
// error) are scored on all the search rows, where the one-standard-error
// rule chooses among them. A candidate's reduction costs rows³: at 1,000
// search rows and 15 candidates the search costs 15·250³ + 4·1000³
// instead of 15·1000³ (docs/PERFORMANCE.md, "Successive halving").
var (
	ScreenRows    = 250
	MinScreenRows = 120
	ScreenKeep    = 4
)

// screenPlan is the screening round of a search of cands candidates on
// rows rows: the rows of the first round and the candidates kept for the
// second, or 0, 0 when every candidate is scored on all rows.
func screenPlan(cands, rows int) (screen, keep int) {
	screen = min(ScreenRows, rows/2)
	if screen < max(MinScreenRows, MinSearchRows) || ScreenKeep < 1 || cands <= ScreenKeep {
		return 0, 0
	}
	return screen, ScreenKeep
}

// searchFlops bounds the leave-one-out work of one candidate by default:
// its predictions for every row, output and λ cost rows²·outputs·λs, which
// with many classes outweighs the eigendecomposition (1,000 classes at
// 1,000 rows: 3·10¹⁰ flops per candidate).
const searchFlops = 1e9

// minDefaultRows is the fewest rows defaultRows gives.
const minDefaultRows = 50

// defaultRows is DefaultSearchRows, fewer when there are so many classes
// that a candidate's leave-one-out would exceed searchFlops (1,000 classes:
// 182 rows), and never below minDefaultRows.
func defaultRows(opt krr.Options) int {
	k, T := 1, len(opt.Grid)
	if opt.Task == krr.Classification {
		k = opt.Classes
	}
	if T == 0 {
		T = krr.GridPoints
	}
	return max(min(DefaultSearchRows, int(math.Sqrt(searchFlops/float64(k*T)))), minDefaultRows)
}

// MaxSearchPreprocess bounds Search.Preprocess: each preprocessing is
// scored at every depth, one tridiagonal reduction per pair.
const MaxSearchPreprocess = 16

// MinSearchRows is the fewest rows a search scores: leave-one-out with a
// standard error needs three.
const MinSearchRows = 3

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
	// DefaultPreprocess, without the bias input for kernels other than ntk
	// and nngp).
	Preprocess []data.Prep `json:"preprocess,omitempty"`
	// Rows is the number of training rows the candidates are scored on,
	// a sample drawn with the features' seed when there are more (0:
	// DefaultSearchRows, fewer when so many classes would make a
	// candidate's leave-one-out, rows²·classes·λs, cost more than 10⁹
	// flops, and at least 50).
	Rows int `json:"rows,omitempty"`
}

// Selection reports a model selection: every candidate with its best λ
// and validation scores on the rows searched, and the one chosen.
type Selection struct {
	// Rows is the number of training rows the candidates were scored on
	// (the kept ones, when Screen is set).
	Rows int `json:"rows"`
	// Screen, when not 0, is the successive halving's first round (see
	// ScreenRows): every candidate was scored on a seeded sample of Screen
	// of the Rows, and only those of Candidate.Rows = Rows, the best of
	// that round, on all Rows; the choice is among those.
	Screen int `json:"screen,omitempty"`
	// Criterion is how they were scored: "loo", exact leave-one-out of
	// ridge regression with the exact kernel on those rows.
	Criterion  krr.Criterion `json:"criterion"`
	Candidates []Candidate   `json:"candidates"`
	// Chosen is the index of the chosen candidate: the one-standard-error
	// rule (see Simplest) applied to the candidates.
	Chosen int `json:"chosen"`
	// Best is the index of the best candidate (krr.Best's rule: the highest
	// accuracy, the lowest score breaking ties; the lowest score for
	// regression), the one each StdErr is measured against. Hosts name it
	// by index: several candidates may have a standard error of 0. It
	// follows from the candidates, so a file is read with it computed
	// again; 0 is not written.
	Best int `json:"best,omitempty"`
	// Method is what 'auto' chose to fit with when the configuration left
	// it open (no kernel, features of no fixed width): "kernel", the exact
	// kernel, or "features" with Dim of them; empty when it was given.
	// Reason says why in words, with the modelled costs (Costs), and
	// Seconds is the chosen fit's modelled CPU seconds natively (the
	// search apart), SearchSeconds the search's.
	Method        Method  `json:"method,omitempty"`
	Dim           int     `json:"dim,omitempty"`
	Reason        string  `json:"reason,omitempty"`
	Seconds       float64 `json:"seconds,omitempty"`
	SearchSeconds float64 `json:"searchSeconds,omitempty"`
	// Carry: the exact kernel was fitted at the chosen candidate's λ
	// (scored on Rows rows) instead of searching λ on all the rows again
	// (methodChoice.Carry); Curve is then that candidate's λ curve on
	// those rows, the model's curve.
	Carry bool  `json:"carry,omitempty"`
	Curve curve `json:"curve,omitempty"`
}

// Candidate is one setting scored by model selection, at its best λ.
type Candidate struct {
	// Kernel is empty for a candidate of the configured kernel or
	// features (the NTK by default), or "rbf" for one of 'auto''s RBF
	// candidates (γ = c/d for c = 0.1, 0.3 and 1, d the columns), of scale
	// Gamma, fitted with the exact kernel.
	Kernel kernel.Name `json:"kernel,omitempty"`
	Gamma  float64     `json:"gamma,omitempty"`
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
	// best, and for a candidate screened out; see Simplest).
	StdErr float64 `json:"stdErr,omitempty"`
	// Rows is the number of rows Lambda, Score and Accuracy were measured
	// on when the selection screened (Selection.Screen: that many for a
	// candidate screened out, Selection.Rows for one kept); 0 otherwise,
	// every candidate then scored on Selection.Rows.
	Rows int `json:"rows,omitempty"`
}

// candScore is one candidate of a selection scored (protocol.Scored):
// its index in the order the selection enumerates them (preprocessings,
// then depths), its score at its best λ, and its validated loss on each
// row searched.
//
// When the selection screens (Selection.Screen), a candidate screened out
// holds its score and losses on the screen's rows, and a kept one those
// on all the rows searched with its screen score in Screen (no losses),
// from which Choose checks that the kept ones are the screen's best. Curve
// is the candidate's λ curve on all the rows searched when 'auto' fits the
// exact kernel at the chosen candidate's λ (Selection.Carry).
type candScore = seam.Scored[Candidate]

// apply returns cfg with the open settings fixed to the candidate's depth
// (0: as configured) and preprocessing.
func apply(cfg Config, depth int, prep data.Prep) Config {
	if depth > 0 {
		if cfg.Kernel != nil {
			k := *cfg.Kernel
			k.Depth = depth
			cfg.Kernel = &k
		} else {
			cfg.Features.Depth = depth
		}
	}
	cfg.Preprocess = &prep
	return cfg
}

// applyCandidate is apply for a scored candidate: an RBF candidate
// (Candidate.Kernel) replaces the method with its exact kernel, or the
// features with its random Fourier features where 'auto' chose features; where
// 'auto' chose the exact kernel at the search's λ (methodChoice.Carry)
// the candidate's λ is fixed, so that the fit on all rows is one solve
// (the settled plan carries it to every host).
func applyCandidate(cfg Config, c Candidate) Config {
	if cfg.carryLambda {
		cfg.Ridge.Lambda, cfg.carryLambda = c.Lambda, false
	}
	if c.Kernel == names.RBF && cfg.Kernel == nil {
		// 'auto' chose features: the RBF kernel's (random Fourier
		// features) at the m chosen, the seed and precision kept.
		cfg.Features.Method, cfg.Features.Gamma, cfg.Features.Depth = names.RFF, c.Gamma, 0
		return apply(cfg, 0, c.Preprocess)
	}
	if c.Kernel == names.RBF {
		cfg.Kernel = &kernel.Spec{Name: names.RBF, Gamma: c.Gamma}
		cfg.Features = rf.Config{}
		return apply(cfg, 0, c.Preprocess)
	}
	return apply(cfg, c.Depth, c.Preprocess)
}

// search is a selection's candidates (nil when nothing is open) and what
// scoring them takes.
type search struct {
	spec   kernel.Spec
	depths []int
	preps  []data.Prep
	cands  []Candidate // depth and preprocessing, in enumeration order
	prepOf []int       // each candidate's index in preps
	groups []data.Group
	opt    krr.Options   // task and classes resolved from all the targets
	o      krr.Options   // the candidates' leave-one-out
	idx    []int         // the rows searched, global indices, sorted
	screen []int         // successive halving's first round: positions in idx, sorted (nil: none)
	keep   int           // the candidates the first round keeps
	method *methodChoice // nil: the method was given
	// searchWork is the modelled work of scoring the candidates.
	searchWork Work
}

// settleMethod is cfg with the method 'auto' chose (s.method), or cfg
// when it was given.
func (s *search) settleMethod(cfg Config) Config {
	if s.method == nil {
		return cfg
	}
	return s.method.applyTo(cfg)
}

// chooseMethod sets s.method when cfg leaves the method open, from the
// cost of a fit of rows rows of cols columns (before preprocessing; the
// bias input adds one) and of the search.
func (s *search) chooseMethod(cfg Config, rows, cols int) {
	if !methodOpen(cfg) {
		return
	}
	var sw, full Work
	if len(s.cands) > 0 {
		depth := 0
		for _, d := range s.depths {
			depth += max(d, 1)
		}
		outputs := 1
		if s.opt.Task == krr.Classification {
			outputs = s.opt.Classes
		}
		depth /= len(s.depths)
		lambdas := max(lambdasOf(s.o), 1)
		full = defaultCosts.SearchWork(len(s.cands), len(s.idx), cols, depth, outputs, lambdas)
		sw = defaultCosts.ScreenedWork(len(s.cands), len(s.idx), cols, depth, outputs, lambdas)
	}
	// The method's budget is every candidate on all the search rows (what
	// the rule was calibrated on): screening makes the search cheaper, it
	// does not make the fit it buys smaller.
	// The chosen candidate's λ is carried to an exact fit on more rows
	// than the search's (methodChoice.Carry, applyCandidate).
	// Where the search scored every row and the fit's criterion is its
	// leave-one-out, the fit's λ search is the candidate's curve again.
	c := s.opt.CriterionFor(true)
	carry := len(s.cands) > 0 && s.opt.Lambda == 0 && (rows > len(s.idx) || c == krr.LOO || c == krr.Holdout)
	mc := defaultCosts.chooseMethod(cfg, s.opt, rows, cols, full, carry)
	s.method, s.searchWork = &mc, sw
}

// newSearch enumerates the candidates of cfg.Search that cfg leaves open
// (a nil Preprocess, a depth of 0), checked, and draws the rows they are
// scored on among rows rows: a function of rows, opt (cfg.Ridge with the
// task and classes of all the targets), the search and the seed only.
func newSearch(cfg Config, opt krr.Options, rows, cols int) (*search, error) {
	s := &search{groups: cfg.Groups, opt: opt, depths: []int{0}}
	spec, hasKernel := cfg.kernelSpec()
	s.spec = spec
	if hasKernel && depthOpen(spec) {
		s.depths = cfg.Search.Depths
		if s.depths == nil {
			s.depths = defaultDepths
		}
	}
	s.preps = cfg.Search.Preprocess
	if cfg.Preprocess != nil {
		s.preps = []data.Prep{*cfg.Preprocess}
	} else if s.preps == nil {
		s.preps = defaultPreprocess(spec)
	}
	if err := cfg.Search.check(); err != nil {
		return nil, err
	}
	if !hasKernel || len(s.depths)*len(s.preps) == 1 {
		// Nothing to choose, or no exact kernel to choose with (arccos0):
		// the first candidate; the method may still be open.
		s.chooseMethod(cfg, rows, cols)
		return s, nil
	}
	for i, p := range s.preps {
		for _, depth := range s.depths {
			s.cands = append(s.cands, Candidate{Depth: depth, Preprocess: p})
			s.prepOf = append(s.prepOf, i)
		}
	}
	n := cfg.Search.Rows
	if n == 0 {
		n = defaultRows(opt)
	}
	idx, err := data.Sample(rows, n, cfg.Features.Seed)
	if err != nil {
		return nil, err
	}
	s.idx = idx
	s.o = opt
	s.o.Criterion, s.o.Progress, s.o.Lambda = krr.LOO, nil, 0
	if opt.Lambda > 0 {
		s.o.Grid = []float64{opt.Lambda} // a fixed λ is not searched
	}
	s.chooseMethod(cfg, rows, cols)
	s.addRBF(cfg, rows, cols)
	if screen, keep := screenPlan(len(s.cands), len(s.idx)); screen > 0 {
		if s.screen, err = data.Sample(len(s.idx), screen, cfg.Features.Seed); err != nil {
			return nil, err
		}
		s.keep = keep
	}
	return s, nil
}

// addRBF adds the autoRBF candidates when 'auto' chose the method (no
// kernel, no feature width given) and the standardized columns are
// searched, and prices the search again with them. With the exact kernel
// the larger cost can only keep it chosen; with features the method and
// m stay as the NTK's candidates priced them, and an RBF candidate chosen
// is fitted as random Fourier features of its γ (applyCandidate): on
// LetterRecognition's side-by-side split, m = 4,096 RFF of γ = 1/d score
// 0.969 where the NTK features score 0.959 (docs/PERFORMANCE.md).
func (s *search) addRBF(cfg Config, rows, cols int) {
	if s.method == nil || len(s.cands) == 0 {
		return
	}
	std := slices.Index(s.preps, data.Prep{})
	if std < 0 {
		return
	}
	d := float64(data.Prep{}.Width(cols))
	for _, c := range autoRBF {
		s.cands = append(s.cands, Candidate{Kernel: names.RBF, Gamma: c / d})
		s.prepOf = append(s.prepOf, std)
	}
	chosen := *s.method
	s.chooseMethod(cfg, rows, cols)
	if chosen.Method == names.MethodFeatures {
		*s.method = chosen
	}
}

// score scores part (of parts) of the candidates with the exact kernel on
// the rows searched (Xs, ys: the rows of s.idx, in that order), by exact
// leave-one-out over the λ grid: one tridiagonal reduction per candidate
// (krr.KernelCurve). Each candidate's scaler is the one the fit would use,
// fitted from the merged statistics of every training row. Progress goes
// to report's (the plan's own: a plan kept across calls reports to each
// call). Without a screen, a part is its block of the candidates
// (share).
//
// When the search screens (s.screen), first holds every candidate's screen
// score (screenShare's, from every part), or nil: then every part scores
// the whole screen itself (the same work and the same bits in every part,
// so that each knows which are kept whatever the split). A part then
// scores on all the rows the kept candidates whose rank among the kept is
// part modulo parts (so the parts share them evenly), and returns those
// with their full score and their screen score in candScore.Screen, and
// the candidates screened out of its block (share) with their screen
// score.
func (s *search) score(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats, part, parts int, first []candScore, report krr.Options) ([]candScore, error) {
	if s.screen == nil {
		which := share(len(s.cands), part, parts)
		scaled, err := s.scaled(Xs, stats, which)
		if err != nil {
			return nil, err
		}
		return s.round(ctx, scaled, ys, which, report, 0, len(which))
	}
	done, total := 0, 0
	if first == nil {
		all := share(len(s.cands), 0, 1)
		total = len(all) + (s.keep+parts-1-part)/parts
		var err error
		if first, err = s.screenRound(ctx, Xs, ys, stats, all, report, total); err != nil {
			return nil, err
		}
		done = len(all)
	}
	points := make([]Candidate, len(first))
	for i := range first {
		points[i] = first[i].Candidate
	}
	kept := s.kept(points)
	var full []int // the kept candidates this part scores on all the rows
	rank := 0
	for i, k := range kept {
		if k {
			if rank%parts == part {
				full = append(full, i)
			}
			rank++
		}
	}
	if total == 0 {
		total = len(full)
	}
	scaled, err := s.scaled(Xs, stats, full)
	if err != nil {
		return nil, err
	}
	second, err := s.round(ctx, scaled, ys, full, report, done, done+len(full))
	if err != nil {
		return nil, err
	}
	var out []candScore
	for i := range s.cands {
		switch j := slices.Index(full, i); {
		case j >= 0:
			sc := second[j]
			sc.Candidate.Rows = len(s.idx)
			screen := first[i].Candidate
			sc.Screen = &screen
			out = append(out, sc)
		case !kept[i] && inShare(i, len(s.cands), part, parts):
			out = append(out, first[i])
		}
	}
	return out, nil
}

// screenShare scores on the screen's rows part's block of the candidates
// (share): the first round of a screened search split among
// hosts (Plan.ScoreScreen), whose scores of every candidate score then
// hands back (first).
func (s *search) screenShare(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats, part, parts int, report krr.Options) ([]candScore, error) {
	which := share(len(s.cands), part, parts)
	return s.screenRound(ctx, Xs, ys, stats, which, report, len(which))
}

// screenRound scores the candidates list on the screen's rows of Xs and
// ys (the rows searched), each with its Rows the screen's, reporting
// progress from 0 of total.
func (s *search) screenRound(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats, list []int, report krr.Options, total int) ([]candScore, error) {
	scaled, err := s.scaled(Xs, stats, list)
	if err != nil {
		return nil, err
	}
	small := make([]*mat.Dense, len(scaled))
	for i, x := range scaled {
		if x != nil {
			small[i] = data.Rows(x, s.screen)
		}
	}
	out, err := s.round(ctx, small, data.Take(ys, s.screen), list, report, 0, total)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Candidate.Rows = len(s.screen)
	}
	return out, nil
}

// scaled returns Xs through each preprocessing's scaler (fitted from
// stats), nil for those that no candidate of list uses.
func (s *search) scaled(Xs *mat.Dense, stats *data.Stats, list []int) ([]*mat.Dense, error) {
	out := make([]*mat.Dense, len(s.preps))
	for i, p := range s.preps {
		if !slices.ContainsFunc(list, func(c int) bool { return s.prepOf[c] == i }) {
			continue
		}
		scaler, err := stats.Scaler(p)
		if err != nil {
			return nil, err
		}
		if out[i], err = scaler.Apply(nil, Xs); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// share is part's block of n candidates split into parts contiguous
// blocks in enumeration order: a preprocessing's depths stay together as
// far as the split allows, so that they share one pass of the kernel
// (sharedKernels).
func share(n, part, parts int) []int {
	var out []int
	for i := part * n / parts; i < (part+1)*n/parts; i++ {
		out = append(out, i)
	}
	return out
}

// inShare reports whether candidate i of n is in part's block (share).
func inShare(i, n, part, parts int) bool {
	return i >= part*n/parts && i < (part+1)*n/parts
}

// kept reports which candidates the screen keeps for the full round from
// their screen scores: the s.keep best by krr.Better (validated accuracy,
// then squared error), ties kept in the order of enumeration.
func (s *search) kept(screen []Candidate) []bool {
	byAcc := s.opt.Task == krr.Classification
	points := candidatePoints(screen)
	order := make([]int, len(screen))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case krr.Better(points[a], points[b], byAcc):
			return -1
		case krr.Better(points[b], points[a], byAcc):
			return 1
		}
		return 0
	})
	kept := make([]bool, len(screen))
	for _, i := range order[:min(s.keep, len(order))] {
		kept[i] = true
	}
	return kept
}

// round scores the candidates list on the rows of X (one matrix per
// preprocessing, nil where none of list uses it) with targets ys, each
// into its own slot, reporting progress from done of total.
func (s *search) round(ctx context.Context, X []*mat.Dense, ys []float64, list []int, report krr.Options, done, total int) ([]candScore, error) {
	full := len(ys) == len(s.idx) // all the rows searched, not the screen's
	byAcc := s.opt.Task == krr.Classification
	out := make([]candScore, len(list))
	errs := make([]error, len(list))
	Ks, err := s.sharedKernels(ctx, X, list)
	if err != nil {
		return nil, err
	}
	one := func(j int) {
		i := list[j]
		c := s.cands[i]
		k := s.spec
		if c.Depth > 0 {
			k.Depth = c.Depth
		}
		if c.Kernel == names.RBF {
			k = kernel.Spec{Name: names.RBF, Gamma: c.Gamma}
		}
		K := Ks[j]
		Ks[j] = nil // the candidate's own from here on
		if K == nil {
			var err error
			if K, err = k.GramContext(ctx, X[s.prepOf[i]], nil); err != nil {
				errs[j] = err
				return
			}
		}
		curve, rowLosses, err := krr.KernelCurveContext(ctx, K, ys, s.o)
		if err != nil {
			errs[j] = err
			return
		}
		best, err := krr.Best(curve, byAcc)
		if err != nil && s.opt.Lambda > 0 {
			err = check.New(check.Option, "lambda", "pipeline: at the fixed λ = %g no candidate's leave-one-out score is finite: λ is too small for these rows; use a larger λ, or choose it automatically", s.opt.Lambda)
		}
		if err != nil {
			errs[j] = err
			return
		}
		b := curve[best]
		c.Lambda, c.Score, c.Accuracy = b.Lambda, b.Score, b.Accuracy
		out[j] = candScore{Index: i, Candidate: c, Losses: rowLosses[best]}
		if full && s.method != nil && s.method.Carry {
			out[j].Curve = curve
		}
	}
	// Candidates are independent: they are scored side by side on the
	// cores (an n-row eigendecomposition barely uses a second one), each
	// into its own slot, so the selection does not depend on the order.
	n := len(list)
	var failed atomic.Bool
	ch := make(chan struct{}, n)
	go linalg.ParallelFor(n, func(j int) {
		if !failed.Load() && ctx.Err() == nil {
			if one(j); errs[j] != nil {
				failed.Store(true)
			}
		}
		ch <- struct{}{}
	})
	for k := range n {
		progress(report, done+k, total, "select")
		<-ch
	}
	progress(report, done+n, total, "select")
	if err := ctx.Err(); err != nil {
		return nil, check.Stopped("pipeline: selection", err)
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// screenScores checks that screened holds every candidate's screen score
// once (ScoreScreen's, from every part: on the screen's rows, no screen
// score of its own, no curve) and returns them by candidate.
func (s *search) screenScores(screened []candScore) ([]candScore, error) {
	if len(screened) != len(s.cands) {
		return nil, check.New(check.Shape, "screened", "pipeline: %d candidates screened; the selection screens %d", len(screened), len(s.cands))
	}
	first := make([]candScore, len(s.cands))
	seen := make([]bool, len(s.cands))
	for _, sc := range screened {
		i := sc.Index
		if err := s.checkScored("screened", sc, i >= 0 && i < len(seen) && seen[i]); err != nil {
			return nil, err
		}
		if sc.Candidate.Rows != len(s.screen) || sc.Screen != nil || len(sc.Curve) > 0 {
			return nil, check.New(check.Value, "screened", "pipeline: screened candidate %d was scored on %d rows (with a screen score: %t, a curve of %d points); the screen scores every candidate on %d rows, with neither", i, sc.Candidate.Rows, sc.Screen != nil, len(sc.Curve), len(s.screen))
		}
		if err := checkLosses("screened", i, sc.Losses, len(s.screen)); err != nil {
			return nil, err
		}
		seen[i], first[i] = true, sc
	}
	return first, nil
}

// checkScored checks that sc is one of the search's candidates, not seen
// before (repeated), with a valid score; field names the argument.
func (s *search) checkScored(field string, sc candScore, repeated bool) error {
	i, c := sc.Index, sc.Candidate
	if i < 0 || i >= len(s.cands) || repeated {
		return check.New(check.Shape, field, "pipeline: %s candidate index %d is out of range or repeated; give each of 0 … %d once", field, i, len(s.cands)-1)
	}
	if want := s.cands[i]; c.Depth != want.Depth || c.Preprocess != want.Preprocess || c.Kernel != want.Kernel || c.Gamma != want.Gamma {
		return check.New(check.Value, field, "pipeline: %s candidate %d has depth %d and preprocessing %+v (kernel %q, γ %v); the selection's has depth %d and %+v (kernel %q, γ %v)", field, i, c.Depth, c.Preprocess, c.Kernel, c.Gamma, want.Depth, want.Preprocess, want.Kernel, want.Gamma)
	}
	return validScore(field, i, c)
}

// validScore checks a scored candidate's λ, score and accuracy.
func validScore(field string, i int, c Candidate) error {
	if !(c.Lambda > 0) || math.IsInf(c.Lambda, 0) || !(c.Score >= 0) || math.IsInf(c.Score, 0) || !(c.Accuracy >= 0 && c.Accuracy <= 1) {
		return check.New(check.Value, field, "pipeline: %s candidate %d has λ %v, score %v, accuracy %v; a scored candidate has λ > 0 and a finite score", field, i, c.Lambda, c.Score, c.Accuracy)
	}
	return nil
}

// checkLosses checks a scored candidate's row losses: one per row scored,
// each finite and ≥ 0.
func checkLosses(field string, i int, losses []float64, rows int) error {
	if len(losses) != rows {
		return check.New(check.Shape, field, "pipeline: %s candidate %d has %d row losses; it was scored on %d rows", field, i, len(losses), rows)
	}
	for r, l := range losses {
		if !(l >= 0) || math.IsInf(l, 0) {
			return check.New(check.Value, field, "pipeline: %s candidate %d has loss %v at row %d; losses are finite and ≥ 0", field, i, l, r)
		}
	}
	return nil
}

// sharedKernels returns, for the candidates of list (positions in list)
// that share a preprocessing with another of a different depth, their
// kernel matrices on X from one pass of the recursion per preprocessing
// (kernel.Spec.Depths: the bits of GramContext at each depth, for the
// work of the deepest: depths 1–3 cost what depth 3 alone does); nil for
// the others, which compute their own.
func (s *search) sharedKernels(ctx context.Context, X []*mat.Dense, list []int) ([]*mat.Dense, error) {
	Ks := make([]*mat.Dense, len(list))
	if n := s.spec.Name; n != "" && n != names.NTK && n != names.NNGP {
		return Ks, nil
	}
	byPrep := map[int][]int{}
	var preps []int
	for j, i := range list {
		if c := s.cands[i]; c.Depth > 0 && c.Kernel != names.RBF {
			p := s.prepOf[i]
			if byPrep[p] == nil {
				preps = append(preps, p)
			}
			byPrep[p] = append(byPrep[p], j)
		}
	}
	preps = slices.DeleteFunc(preps, func(p int) bool { return len(byPrep[p]) < 2 })
	errs := make([]error, len(preps))
	linalg.ParallelFor(len(preps), func(g int) {
		js := byPrep[preps[g]]
		depths := make([]int, len(js))
		for t, j := range js {
			depths[t] = s.cands[list[j]].Depth
		}
		mats, err := s.spec.Depths(ctx, X[preps[g]], depths)
		if err != nil {
			errs[g] = err
			return
		}
		for t, j := range js {
			Ks[j] = mats[t]
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return Ks, nil
}

// pick checks that scored holds every candidate once, as score returns
// them (with a screen, the kept ones those the screen's scores keep), and
// applies Simplest to those scored on all the rows searched: the
// selection, its Chosen the choice.
func (s *search) pick(scored []candScore) (*Selection, error) {
	if len(scored) != len(s.cands) {
		return nil, check.New(check.Shape, "scored", "pipeline: %d candidates scored; the selection has %d", len(scored), len(s.cands))
	}
	sel := &Selection{Rows: len(s.idx), Screen: len(s.screen), Criterion: krr.LOO, Candidates: make([]Candidate, len(s.cands))}
	losses := make([][]float64, len(s.cands))
	screened := make([]Candidate, len(s.cands)) // each candidate's screen score
	curves := make([]curve, len(s.cands))
	for _, sc := range scored {
		i, c := sc.Index, sc.Candidate
		if err := s.checkScored("scored", sc, i >= 0 && i < len(losses) && losses[i] != nil); err != nil {
			return nil, err
		}
		rows := len(s.idx)
		switch {
		case s.screen == nil && (c.Rows != 0 || sc.Screen != nil):
			return nil, check.New(check.Value, "scored", "pipeline: scored candidate %d has a screen score (rows %d); the selection screens none", i, c.Rows)
		case s.screen == nil:
		case c.Rows == len(s.idx) && sc.Screen != nil && sc.Screen.Rows == len(s.screen):
			if err := validScore("scored", i, *sc.Screen); err != nil {
				return nil, err
			}
			screened[i] = *sc.Screen
		case c.Rows == len(s.screen) && sc.Screen == nil:
			screened[i], rows = c, len(s.screen)
		default:
			return nil, check.New(check.Value, "scored", "pipeline: scored candidate %d was scored on %d rows; the selection screens on %d and keeps the best on %d (with their screen score)", i, c.Rows, len(s.screen), len(s.idx))
		}
		if err := checkLosses("scored", i, sc.Losses, rows); err != nil {
			return nil, err
		}
		if carry := s.method != nil && s.method.Carry && rows == len(s.idx); carry != (len(sc.Curve) > 0) {
			return nil, check.New(check.Value, "scored", "pipeline: scored candidate %d has a λ curve of %d points; the selection carries one for each candidate scored on all %d rows when the fit takes its λ, none otherwise", i, len(sc.Curve), len(s.idx))
		}
		for _, p := range sc.Curve {
			if !(p.Lambda > 0) || math.IsInf(p.Lambda, 0) || !(p.Score >= 0) || !(p.Accuracy >= 0 && p.Accuracy <= 1) {
				return nil, check.New(check.Value, "scored", "pipeline: scored candidate %d's curve holds λ %v, score %v, accuracy %v", i, p.Lambda, p.Score, p.Accuracy)
			}
		}
		if len(sc.Curve) > 0 && !slices.Contains(sc.Curve, krr.CurvePoint{Lambda: c.Lambda, Score: c.Score, Accuracy: c.Accuracy}) {
			return nil, check.New(check.Value, "scored", "pipeline: scored candidate %d's curve does not hold its λ %v", i, c.Lambda)
		}
		curves[i] = sc.Curve
		c.StdErr = 0
		sel.Candidates[i], losses[i] = c, sc.Losses
	}
	// Simplest among the candidates scored on all the rows searched.
	full := make([]int, 0, len(s.cands))
	if s.screen == nil {
		for i := range s.cands {
			full = append(full, i)
		}
	} else {
		kept := s.kept(screened)
		for i, k := range kept {
			if k != (sel.Candidates[i].Rows == len(s.idx)) {
				return nil, check.New(check.Value, "scored", "pipeline: scored candidate %d was scored on %d rows, but by the screen's scores it is %s", i, sel.Candidates[i].Rows, map[bool]string{true: "kept", false: "screened out"}[k])
			}
			if k {
				full = append(full, i)
			}
		}
	}
	cands, fl := make([]Candidate, len(full)), make([][]float64, len(full))
	for j, i := range full {
		cands[j], fl[j] = sel.Candidates[i], losses[i]
	}
	rbf := rbfRank
	if s.method != nil && s.method.Method == names.MethodFeatures {
		rbf = featuresRBFRank
	}
	chosen, err := simplest(cands, fl, s.opt.Task == krr.Classification, rbf)
	if err != nil {
		return nil, err
	}
	for j, i := range full {
		sel.Candidates[i].StdErr = cands[j].StdErr
	}
	sel.Chosen = full[chosen]
	if sel.Best, err = bestCandidate(sel.Candidates, s.opt.Task == krr.Classification); err != nil {
		return nil, err
	}
	if m := s.method; m != nil {
		sel.Method, sel.Dim, sel.Reason, sel.Carry = m.Method, m.Dim, m.Reason, m.Carry
		if m.Carry {
			sel.Curve = curves[sel.Chosen]
		}
		sel.Seconds = m.Work.Total() / defaultCosts.NativeRate
		sel.SearchSeconds = s.searchWork.Total() / defaultCosts.NativeRate
	}
	return sel, nil
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
//     better of them (krr.Better) when several share that depth; an RBF
//     candidate (Candidate.Kernel) counts as deeper than any depth.
//
// A sample of rows cannot rank candidates closer than its noise: the rule
// takes the least complex (and cheapest to featurize) kernel the sample
// cannot tell from the best. It sets each candidate's StdErr. When no
// depth is searched (every depth equal), it returns b. The losses must be
// one vector of at least two rows per candidate, all of the same length.
func Simplest(cands []Candidate, losses [][]float64, byAccuracy bool) (int, error) {
	return simplest(cands, losses, byAccuracy, rbfRank)
}

// rbfRank is an RBF candidate's rank for Simplest (more than any depth);
// featuresRBFRank is its rank where 'auto' fits random features: the fit
// is then random features of either kernel, and random Fourier features
// of a few columns approximate their kernel closer at the same m than the
// NTK's do (LetterRecognition's side-by-side split: the exact kernels'
// leave-one-out on the search rows 0.822 RBF, 0.819 NTK; m = 4,096
// features 0.969 RFF, 0.959 NTK), so an RBF candidate ranks with depth 1.
const (
	rbfRank         = kernel.MaxDepth + 1
	featuresRBFRank = 1
)

// simplest is Simplest with an RBF candidate of rank rbf.
func simplest(cands []Candidate, losses [][]float64, byAccuracy bool, rbf int) (int, error) {
	if len(cands) == 0 || len(losses) != len(cands) {
		return 0, check.New(check.Shape, "", "pipeline: %d candidates and %d loss vectors; give one loss vector per candidate, at least one", len(cands), len(losses))
	}
	for i, l := range losses {
		if len(l) < 2 || len(l) != len(losses[0]) {
			return 0, check.New(check.Shape, "", "pipeline: loss vector %d has %d rows and vector 0 has %d; every candidate needs the losses of the same rows, at least two", i, len(l), len(losses[0]))
		}
	}
	points := candidatePoints(cands)
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
		if rank(cands[c], rbf) < rank(cands[chosen], rbf) ||
			rank(cands[c], rbf) == rank(cands[chosen], rbf) && krr.Better(points[c], points[chosen], byAccuracy) {
			chosen = c
		}
	}
	return chosen, nil
}

// rank is a candidate's complexity for Simplest: its depth, and rbf for
// an RBF candidate (Candidate.Kernel): with rbfRank, more than any depth,
// so that any NTK candidate within reach of the best is preferred to an
// RBF one.
func rank(c Candidate, rbf int) int {
	if c.Kernel == names.RBF {
		return rbf
	}
	return c.Depth
}

// bestCandidate returns the index of the best of cands by their scores,
// as Simplest measures the others against it: krr.Best's rule (the
// highest accuracy, the lowest score breaking ties; the lowest score for
// regression).
//
// When the selection screened (Candidate.Rows), only the candidates
// scored on the most rows (the kept ones) are compared.
func bestCandidate(cands []Candidate, byAccuracy bool) (int, error) {
	most := 0
	for _, c := range cands {
		most = max(most, c.Rows)
	}
	points := candidatePoints(cands)
	for i, c := range cands {
		if c.Rows < most {
			points[i].Score = math.Inf(1) // krr.Best passes it over
		}
	}
	return krr.Best(points, byAccuracy)
}

func candidatePoints(cands []Candidate) []krr.CurvePoint {
	points := make([]krr.CurvePoint, len(cands))
	for i, c := range cands {
		points[i] = krr.CurvePoint{Lambda: c.Lambda, Score: c.Score, Accuracy: c.Accuracy}
	}
	return points
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

// defaultPreprocess is DefaultPreprocess for the kernel k: without the
// bias input for kernels other than the ReLU ones (ntk, nngp), on which a
// constant column changes nothing (rbf: distances) or repeats the ridge
// intercept (linear).
func defaultPreprocess(k kernel.Spec) []data.Prep {
	if reluKernel(k) {
		return defaultPreps
	}
	var out []data.Prep
	for _, p := range defaultPreps {
		if p.Bias == 0 {
			out = append(out, p)
		}
	}
	return out
}

// reluKernel reports whether k is the NTK or NNGP kernel of a ReLU network.
func reluKernel(k kernel.Spec) bool {
	return k.Name == "" || k.Name == names.NTK || k.Name == names.NNGP
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
	return reluKernel(k) && k.Depth == 0
}

// check validates the candidates, whether or not they are used.
func (s Search) check() error {
	if s.Depths != nil && len(s.Depths) == 0 {
		return check.New(check.Option, "depths", "pipeline: the search has no depth to try; give at least one, or leave it unset for %v", defaultDepths)
	}
	if s.Preprocess != nil && len(s.Preprocess) == 0 {
		return check.New(check.Option, "preprocess", "pipeline: the search has no preprocessing to try; give at least one, or leave it unset")
	}
	if len(s.Preprocess) > MaxSearchPreprocess {
		return check.New(check.Option, "preprocess", "pipeline: the search has %d preprocessings to try, more than %d; give fewer", len(s.Preprocess), MaxSearchPreprocess)
	}
	if len(s.Depths) > kernel.MaxDepth {
		return check.New(check.Option, "depths", "pipeline: the search has %d depths to try, more than the %d there are; give each once", len(s.Depths), kernel.MaxDepth)
	}
	for _, p := range s.Preprocess {
		if err := p.Check(); err != nil {
			return err
		}
	}
	for _, d := range s.Depths {
		if d < 1 || d > kernel.MaxDepth {
			return check.New(check.Option, "depths", "pipeline: search depth %d is out of range; use 1 … %d", d, kernel.MaxDepth)
		}
	}
	if s.Rows < 0 || s.Rows > 0 && s.Rows < MinSearchRows || s.Rows > MaxSearchRows {
		return check.New(check.Option, "rows", "pipeline: search rows %d is out of range; use %d … %d, or 0 for %d", s.Rows, MinSearchRows, MaxSearchRows, DefaultSearchRows)
	}
	return nil
}
