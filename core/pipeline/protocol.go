package pipeline

import (
	"slices"
	"sync"
	"sync/atomic"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/linalg"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
	"ntkrf/internal/rowtree"
)

// fitPlan implements ntkrf/core/protocol's Plan (see protocol_seam.go): a
// fit settled before any row is read: the task and classes, the
// preprocessing, the feature map or kernel, λ's criterion, whether the
// parts sum (the primal) or collect their rows (the dual, a kernel, exact
// leave-one-out in the primal), and which rows the held-out criterion keeps
// out. Every host runs the same protocol from it:
//
//	plan := NewPlan(cfg, rows, cols, y)          // once
//	stats := plan.NewStats(); stats.Add(X_i)      // per part, then Merge
//	if idx := plan.SearchRows(); idx != nil {     // 'auto': depth or preprocessing open
//		plan, sel = plan.Select(ctx, X[idx], y[idx], stats) // or Score per worker, then Choose
//	}
//	scaler := plan.Scaler(stats)                  // once
//	part := plan.NewPart(scaler); part.Add(X_i, y_i, first_i) // per part
//	part.Merge(other) (or MergeBinary)            // any order, any tree
//	model := plan.Solve(ctx, scaler, part)        // once
//
// A plan whose depth or preprocessing is left open ('auto') names the rows
// its selection scores (SearchRows, a function of the rows, the settled
// options and the seed): the host gathers only those, and Select settles
// the plan from them and the merged statistics of every row. Statistics
// and parts travel as versioned binary forms (AppendBinary,
// data.DecodeStats, DecodePart). Fit is this protocol with one part.
type fitPlan struct {
	cfg Config // settled: Preprocess and depth fixed (open: nil, 0), Ridge resolved
	// given is an open plan's cfg before 'auto' chose the method: its
	// form (digest, bytes) holds this one, so that DecodePlan makes the
	// same search (the method open, the same candidates) again.
	given      Config
	rows, cols int
	collect    bool // parts keep their scaled rows; solved in one place
	cut        krr.HoldoutCut
	fmap       *lazyMap     // primal: drawn at its first use
	dim        int          // primal: the feature dimension m (open: the first candidate's)
	kern       *kernel.Spec // kernel, filled
	// open is the selection of a plan that leaves settings open (nil once
	// settled).
	open *search
	// sel is the selection that settled the plan (Select, Choose), kept
	// with the model; nil when nothing was chosen.
	sel *Selection
	// digest identifies the plan (Digest), set once it is made.
	digest [32]byte
}

// lazyMap is a plan's feature map, drawn when a part or the solve first
// needs it: a host that only plans (the package's fitPlan, which sizes the
// chunks) draws nothing (the exact sampler's 784×2048 directions took
// 0.1–0.5 s of the standard job in WebAssembly). Shared by the plan's
// copies (WithProgress).
type lazyMap struct {
	cfg    rf.Config // resolved
	inputs int
	once   sync.Once
	m      *rf.Map
	err    error
	done   atomic.Bool // m and err are set
}

// featureMap draws the plan's feature map once; nil for a kernel plan.
func (p *fitPlan) featureMap() (*rf.Map, error) {
	l := p.fmap
	if l == nil {
		return nil, nil
	}
	l.once.Do(func() {
		l.m, l.err = rf.New(l.cfg, l.inputs)
		l.done.Store(true)
	})
	return l.m, l.err
}

// drawnMap returns the plan's feature map if a part or the solve has drawn
// it, nil otherwise (it draws nothing).
func (p *fitPlan) drawnMap() *rf.Map {
	if l := p.fmap; l != nil && l.done.Load() && l.err == nil {
		return l.m
	}
	return nil
}

// newPlan settles cfg for a fit of rows rows of cols columns. y, all the
// targets, resolves the task and the number of classes
// (krr.Options.Labels, every target checked); it may be nil when cfg.Ridge
// names the task, and the classes of a classification. A depth or
// preprocessing left open ('auto': a nil Preprocess, a depth of 0) makes
// an open plan: it collects statistics and names the rows to search
// (SearchRows) until Select settles it; with a single candidate, or no
// exact kernel to score with, it is settled at once.
func newPlan(cfg Config, rows, cols int, y []float64) (*fitPlan, error) {
	if rows < 1 || cols < 1 {
		return nil, check.New(check.Shape, "", "pipeline: a plan of %d rows × %d columns; a fit needs at least one of each", rows, cols)
	}
	cfg, err := source(cfg, cols)
	if err != nil {
		return nil, err
	}
	opt := cfg.Ridge
	switch {
	case y != nil:
		if len(y) != rows {
			return nil, check.New(check.Shape, "", "pipeline: %d targets for a plan of %d rows; give one target per row", len(y), rows)
		}
		// The task and classes by krr's rule, every target checked
		// before any part is computed.
		task, classes, err := opt.Labels(y)
		if err != nil {
			return nil, err
		}
		opt.Task, opt.Classes = task, classes
	case opt.Task == "" && opt.Classes == 0, opt.Task == krr.Classification && opt.Classes < 1:
		return nil, check.New(check.Option, "task", "pipeline: without the targets a plan needs the task, and the number of classes of a classification")
	default:
		var err error
		if opt, err = opt.Resolve(nil); err != nil {
			return nil, err
		}
	}
	if cfg.Groups != nil {
		if _, err := data.NewStats(cols, cfg.Groups); err != nil {
			return nil, err
		}
	}
	if cfg.Kernel == nil {
		// The features' settings (the seed's range, the map's memory at
		// the depth given or the default) before any search.
		if _, err := cfg.Features.Resolve(cols); err != nil {
			return nil, err
		}
	}
	s, err := newSearch(cfg, opt, rows, cols)
	if err != nil {
		return nil, err
	}
	if opt.BlockRows == 0 {
		opt.BlockRows = krr.DefaultBlockRows
	}
	cfg.Ridge = opt
	given := cfg
	cfg = s.settleMethod(cfg) // 'auto''s method, exact kernel or features (select.go)
	if err := checkClassNames(cfg); err != nil {
		return nil, err
	}
	if s.cands == nil {
		// Nothing to choose: the first (only) candidate.
		return settle(apply(cfg, s.depths[0], s.preps[0]), rows, cols)
	}
	// Open: sized as its first candidate would be (Chunks), drawn only
	// once settled.
	first, err := settle(apply(cfg, s.depths[0], s.preps[0]), rows, cols)
	if err != nil {
		return nil, err
	}
	first.cfg, first.given, first.open, first.cut = cfg, given, s, krr.HoldoutCut{}
	first.digest = first.computeDigest()
	return first, nil
}

// settle makes the plan of cfg, whose depth and preprocessing are fixed
// and whose Ridge is resolved (the task and classes set); its feature map
// is drawn at first use.
func settle(cfg Config, rows, cols int) (*fitPlan, error) {
	if err := cfg.Preprocess.Check(); err != nil {
		return nil, err
	}
	opt := cfg.Ridge
	p := &fitPlan{rows: rows, cols: cols}
	// The map is drawn on the preprocessed columns: the scaler keeps the
	// columns it imputes and scales, and adds one for a bias input.
	scaled := cfg.Preprocess.Width(cols)
	dual := true
	switch {
	case cfg.Kernel != nil:
		k, err := cfg.Kernel.Filled(scaled)
		if err != nil {
			return nil, err
		}
		p.kern = &k
	default:
		// Resolve checks all New checks, the memory included, and
		// sizes the map without drawing it.
		fc, err := cfg.Features.Resolve(scaled)
		if err != nil {
			return nil, err
		}
		p.fmap, p.dim = &lazyMap{cfg: fc, inputs: scaled}, fc.Dim
		dual = krr.Dual(rows, p.dim)
		opt = opt.GramFor(fc.Float32(), rows, p.dim)
	}
	opt.Criterion = opt.CriterionFor(dual)
	auto := opt.Lambda == 0
	p.collect = dual || auto && opt.Criterion == krr.LOO
	if !p.collect && auto && opt.Criterion == krr.Holdout {
		p.cut = krr.NewHoldoutCut(rows)
	}
	cfg.Ridge = opt
	p.cfg = cfg
	p.digest = p.computeDigest()
	return p, nil
}

// Rows is the number of rows the plan was made for: the parts together
// must hold each of them once.
func (p *fitPlan) Rows() int { return p.rows }

// Cols is the number of columns of the rows.
func (p *fitPlan) Cols() int { return p.cols }

// Task is krr.Classification or krr.Regression.
func (p *fitPlan) Task() krr.Task { return p.cfg.Ridge.Task }

// Classes is the number of classes (0 for a regression).
func (p *fitPlan) Classes() int { return p.cfg.Ridge.Classes }

// Criterion is how λ is chosen when it is not fixed (an open plan's: as
// configured, "" to choose by the task once settled). Dim and Collects of
// an open plan are its first candidate's (they size Chunks), and may
// change when Select settles it.
func (p *fitPlan) Criterion() krr.Criterion { return p.cfg.Ridge.Criterion }

// Dim is the feature dimension m, or 0 for an exact kernel.
func (p *fitPlan) Dim() int { return p.dim }

// Collects reports whether the parts keep their scaled rows (to be solved
// in one place: the dual, a kernel, or exact leave-one-out in the primal)
// rather than sums.
func (p *fitPlan) Collects() bool { return p.collect }

// Holdout is the held-out rule: a row whose key (its index among all the
// rows) it Holds is kept out of the sums to score λ (none when λ is fixed
// or chosen otherwise).
func (p *fitPlan) Holdout() krr.HoldoutCut { return p.cut }

// Config is the settled configuration (Ridge's Progress as
// given to NewPlan): the task, classes, criterion and block size filled
// in, so that a worker rebuilds the same plan with NewPlan(Config(), Rows(),
// Cols(), nil), without the targets.
func (p *fitPlan) Config() Config {
	c := p.cfg
	if p.open != nil {
		// Open: the settings as given, 'auto''s method still open, so
		// that the rebuilt plan makes the same search (see given).
		c = p.given
	}
	c.Groups = slices.Clone(c.Groups)
	return c
}

// WithProgress returns the plan reporting to progress instead (the
// settled plan, its feature map shared, not redrawn): a host that keeps
// a plan across calls gives each call its own report.
func (p *fitPlan) WithProgress(progress func(done, total int, stage string)) *fitPlan {
	q := *p
	q.cfg.Ridge.Progress = progress
	q.given.Ridge.Progress = progress
	return &q
}

// WithHelper returns the plan with its solve's factorization shared with
// the helper at peer's end (krr.Options.Helper; see Shares): the same
// bits. The caller ends the peer (linalg.EndShare) after the solve.
func (p *fitPlan) WithHelper(peer linalg.Peer) *fitPlan {
	q := *p
	q.cfg.Ridge.Helper = peer
	q.given.Ridge.Helper = peer
	return &q
}

// Shares reports whether a settled plan's solve would share work with a
// helper given one (WithHelper): its Cholesky factorization, when its
// order (the rows of an exact kernel or the width of the features) is
// linalg.ShareMin or more, or the held-out rows' sums, summed beside the
// λ search when they are worth it (krr.HelpsHeld). Hosts with a second
// instance idle give it one then.
func (p *fitPlan) Shares() bool {
	if p.open != nil {
		return false
	}
	if p.kern != nil {
		return linalg.Shares(p.rows)
	}
	searches := !p.collect && p.cfg.Ridge.Lambda == 0 && p.cfg.Ridge.Criterion == krr.Holdout
	return linalg.Shares(p.dim) || searches && krr.HelpsHeld(p.cut.Rows, p.dim)
}

// NewStats returns empty statistics for the plan's columns: each part adds
// its rows, the parts are merged, and Scaler fits the preprocessing.
func (p *fitPlan) NewStats() *data.Stats {
	s, _ := data.NewStats(p.cols, p.cfg.Groups) // checked by NewPlan
	return s
}

// Scaler fits the plan's preprocessing from the statistics of all the
// rows, merged.
func (p *fitPlan) Scaler(s *data.Stats) (*data.Scaler, error) {
	if err := p.settled(); err != nil {
		return nil, err
	}
	if err := p.checkStats(s); err != nil {
		return nil, err
	}
	return s.Scaler(*p.cfg.Preprocess)
}

// settled refuses a plan that leaves settings open for a step that needs
// them fixed.
func (p *fitPlan) settled() error {
	if p.open != nil {
		return check.New(check.Option, "preprocess", "pipeline: the plan leaves the depth or preprocessing open ('auto'); settle it with Select (on the rows of SearchRows and the merged statistics) first")
	}
	return nil
}

// checkStats checks that s are the merged statistics of the plan's rows.
func (p *fitPlan) checkStats(s *data.Stats) error {
	if s == nil || s.Rows() != p.rows || s.Cols() != p.cols {
		rows, cols := 0, 0
		if s != nil {
			rows, cols = s.Rows(), s.Cols()
		}
		return check.New(check.Shape, "", "pipeline: statistics of %d rows × %d columns for a plan of %d × %d; merge the statistics of every part", rows, cols, p.rows, p.cols)
	}
	if !slices.Equal(s.Groups(), p.NewStats().Groups()) {
		return check.New(check.Shape, "", "pipeline: the statistics have other column groups than the plan")
	}
	return nil
}

// checkScaler checks that s is a scaler of the plan's preprocessing and
// columns.
func (p *fitPlan) checkScaler(s *data.Scaler) error {
	if err := p.settled(); err != nil {
		return err
	}
	if s == nil || s.Cols() != p.cols || s.Prep() != *p.cfg.Preprocess {
		return check.New(check.Type, "", "pipeline: the scaler is not the plan's: fit it from the merged statistics of the plan's rows")
	}
	return nil
}

// minSplitRows is the fewest rows a primal plan cuts into two chunks
// where X is too small for the sums' rule (Chunks): two blocks of
// krr.DefaultBlockRows.
const minSplitRows = 2 * rowtree.LeafRows

// Chunks cuts the plan's rows into contiguous chunks for a host that
// bounds what one worker holds: at most maxBytes of X (float64) each, but
// at least 4m² numbers of X in the primal, so that the parts' sums (m×m
// each) add up to at most a quarter of X, and at least one row; yet two
// chunks where that rule leaves one and the rows fill two of krr's blocks
// (minSplitRows): two parts' sums are within a constant of the m×m
// matrices the solve holds anyway, and two workers featurize and sum at
// once (one chunk left every worker but one idle through the package's
// standard job, 5,000 rows at m = 2048). The chunks depend on the plan and
// maxBytes only, never on the number of workers: a host that computes one
// part per chunk and merges them in row order gets the same bits on any
// number of workers. Where the parts sum, the chunks are whole leaves of
// rows (rowtree.LeafRows): a part of a leaf's rows keeps them unsummed
// until the leaf is whole, and the worker that merges would featurize
// them. maxBytes < 1 means one chunk.
func (p *fitPlan) Chunks(maxBytes int) [][2]int {
	size := p.rows
	if maxBytes > 0 {
		size = max(1, maxBytes/(8*p.cols))
		if m := p.Dim(); m > 0 && !p.collect {
			size = max(size, (4*m*m+p.cols-1)/p.cols)
			if size >= p.rows && p.rows >= minSplitRows {
				size = (p.rows + 1) / 2
			}
		}
	}
	k := (p.rows + size - 1) / size
	if p.collect {
		out := make([][2]int, k)
		for i := range out {
			// Even chunks: the last is not a remainder of a few rows.
			out[i] = [2]int{i * p.rows / k, (i + 1) * p.rows / k}
		}
		return out
	}
	// Even runs of whole leaves.
	leaves := rowtree.Leaf(p.rows-1) + 1
	k = min(k, leaves)
	out := make([][2]int, k)
	for i := range out {
		lo, _ := rowtree.LeafSpan(i*leaves/k, p.rows)
		_, hi := rowtree.LeafSpan((i+1)*leaves/k-1, p.rows)
		out[i] = [2]int{lo, hi}
	}
	return out
}
