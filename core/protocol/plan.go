package protocol

import (
	"context"
	"sync"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/internal/seam"
	"ntkrf/core/krr"
	"ntkrf/core/linalg"
	"ntkrf/core/pipeline"
)

// impl is the protocol as ntkrf/core/pipeline implements it.
type impl = seam.Plan[pipeline.Config, pipeline.Selection, pipeline.Candidate, pipeline.Pipeline]

func protocol() seam.Protocol[pipeline.Config, pipeline.Selection, pipeline.Candidate, pipeline.Pipeline] {
	return seam.Get[pipeline.Config, pipeline.Selection, pipeline.Candidate, pipeline.Pipeline]()
}

// Plan is a fit settled before any row is read: the task and classes, the
// preprocessing, the feature map or kernel, λ's criterion, whether the
// parts sum (the primal) or collect their rows (the dual, a kernel, exact
// leave-one-out in the primal), and which rows the held-out criterion
// keeps out. A Plan is immutable and safe for concurrent use; its feature
// map is drawn when a part or the solve first needs it, once.
//
// A plan whose depth or preprocessing is left open ('auto') is open: it
// names the rows its selection scores (SearchRows) and makes statistics,
// and Select (or Score and Choose) settles it; the other steps need a
// settled plan.
type Plan struct {
	p impl
}

func wrap(p impl, err error) (*Plan, error) {
	if err != nil {
		return nil, err
	}
	return &Plan{p}, nil
}

// NewPlan settles cfg for a fit of rows rows of cols columns. y, all the
// targets, resolves the task and the number of classes
// (krr.Options.Labels, every target checked); it may be nil when cfg.Ridge
// names the task, and the classes of a classification. A depth or
// preprocessing left open ('auto': a nil Preprocess, a depth of 0) makes
// an open plan: it collects statistics and names the rows to search
// (SearchRows) until Select settles it; with a single candidate, or no
// exact kernel to score with, it is settled at once.
func NewPlan(cfg pipeline.Config, rows, cols int, y []float64) (*Plan, error) {
	return wrap(protocol().NewPlan(cfg, rows, cols, y))
}

// decoded keeps the Plans DecodePlan returned last, so that decoding the
// same plan again returns the same *Plan.
var decoded struct {
	sync.Mutex
	plans []*Plan // most recent last
}

// decodedPlans bounds decoded: as many as the implementation keeps
// decoded (pipeline's planCacheSize). Both see the same decodes in the
// same order, so they hold the same plans: a plan the implementation
// returns again has its Plan here, and no Plan here keeps a plan (and its
// feature map) alive that the implementation has let go. (Concurrent
// first decodes may add in another order; at worst a plan gets a second
// Plan, which shares its feature map.)
const decodedPlans = 8

// DecodePlan reads a plan's wire form (MarshalBinary). A form that no
// plan could have written (its settings refused by NewPlan, or settings
// that do not make the plan they name: another version's) is refused with
// a coded error. Decoding the same plan again returns the plan decoded
// before (its feature map drawn once).
func DecodePlan(b []byte) (*Plan, error) {
	p, err := protocol().DecodePlan(b)
	if err != nil {
		return nil, err
	}
	decoded.Lock()
	defer decoded.Unlock()
	for _, q := range decoded.plans {
		if q.p == p {
			return q, nil
		}
	}
	q := &Plan{p}
	decoded.plans = append(decoded.plans, q)
	if len(decoded.plans) > decodedPlans {
		decoded.plans = decoded.plans[1:]
	}
	return q, nil
}

// Rows is the number of rows the plan was made for: the parts together
// must hold each of them once.
func (p *Plan) Rows() int { return p.p.Rows() }

// Cols is the number of columns of the rows.
func (p *Plan) Cols() int { return p.p.Cols() }

// Task is krr.Classification or krr.Regression.
func (p *Plan) Task() krr.Task { return p.p.Task() }

// Classes is the number of classes (0 for a regression).
func (p *Plan) Classes() int { return p.p.Classes() }

// Criterion is how λ is chosen when it is not fixed (an open plan's: as
// configured, "" to choose by the task once settled). Dim and Collects of
// an open plan are its first candidate's (they size Chunks), and may
// change when Select settles it.
func (p *Plan) Criterion() krr.Criterion { return p.p.Criterion() }

// Dim is the feature dimension m, or 0 for an exact kernel.
func (p *Plan) Dim() int { return p.p.Dim() }

// Collects reports whether the parts keep their scaled rows (to be solved
// in one place: the dual, a kernel, or exact leave-one-out in the primal)
// rather than sums.
func (p *Plan) Collects() bool { return p.p.Collects() }

// Holdout is the held-out rule: a row whose key (its index among all the
// rows) it Holds is kept out of the sums to score λ (none when λ is fixed
// or chosen otherwise).
func (p *Plan) Holdout() krr.HoldoutCut { return p.p.Holdout() }

// Config is the settled configuration (Ridge's Progress as given to
// NewPlan): the task, classes, criterion and block size filled in, so
// that a worker rebuilds the same plan with NewPlan(Config(), Rows(),
// Cols(), nil), without the targets.
func (p *Plan) Config() pipeline.Config { return p.p.Config() }

// Digest identifies the plan: the SHA-256 of its settings (the task,
// classes, preprocessing, feature map or kernel with its seed, λ's rule,
// the held-out cut, the rows and columns). Parts carry it, and a part of
// another plan is refused (ERR_PROTOCOL).
func (p *Plan) Digest() [32]byte { return p.p.Digest() }

// MarshalBinary returns the plan's wire form: what a host hands its
// workers instead of the user's options. DecodePlan makes the same plan
// (the same Digest) on any host.
func (p *Plan) MarshalBinary() ([]byte, error) { return p.p.AppendBinary(nil), nil }

// AppendBinary appends the plan's wire form to b.
func (p *Plan) AppendBinary(b []byte) []byte { return p.p.AppendBinary(b) }

// Advice returns sentences about a settled plan that a host shows its
// user without stopping the fit: random features far beyond what the rows
// need (more than 8 a row), with the memory of Φ at the map's precision
// and the modelled time of the fit (pipeline.DefaultCosts) against those
// of the exact kernel. Empty when there is nothing to say.
func (p *Plan) Advice() []string { return p.p.Advice() }

// Chunks cuts the plan's rows into contiguous chunks for a host that
// bounds what one worker holds: at most maxBytes of X (float64) each, but
// at least 4m² numbers of X in the primal, so that the parts' sums (m×m
// each) add up to at most a quarter of X, and at least one row; yet two
// chunks where that rule leaves one and the rows fill two of krr's
// blocks: two parts' sums are within a constant of the m×m matrices the
// solve holds anyway, and two workers featurize and sum at once. The
// chunks depend on the plan and maxBytes only, never on the number of
// workers: a host that computes one part per chunk gets the same bits on
// any number of workers. Where the parts sum, the chunks are whole leaves
// of rows (a part of a leaf's rows keeps them unsummed until the leaf is
// whole, and the worker that merges would featurize them). maxBytes < 1
// means one chunk.
func (p *Plan) Chunks(maxBytes int) [][2]int { return p.p.Chunks(maxBytes) }

// WithProgress returns the plan reporting to progress instead (the
// settled plan, its feature map shared, not redrawn): a host that keeps
// a plan across calls gives each call its own report.
func (p *Plan) WithProgress(progress func(done, total int, stage string)) *Plan {
	return &Plan{p.p.WithProgress(progress)}
}

// WithHelper returns the plan with its solve sharing work with the
// helper at peer's end, another instance running ServeHelper (see
// Shares): the same bits as alone. The caller ends the peer with
// linalg.EndShare once the solve returns, whatever it returned.
func (p *Plan) WithHelper(peer linalg.Peer) *Plan { return &Plan{p.p.WithHelper(peer)} }

// Shares reports whether the settled plan's solve would share work with a
// helper given one (WithHelper): the Cholesky factorization of an exact
// kernel on linalg.ShareMin rows or more, or of features that wide; the
// held-out rows' sums of a λ search, where they are worth a helper
// (krr.HelpsHeld). A host gives it one when a second instance is idle.
func (p *Plan) Shares() bool { return p.p.Shares() }

// ServeHelper is the helper's end of a solve given WithHelper: it sums
// the held-out rows the solver sends while it searches (krr.ServeHelper)
// and shares its factorization (linalg.ServeCholesky), until the solver
// ends it (linalg.EndShare). It needs no plan: what it does is in the
// messages.
func ServeHelper(peer linalg.Peer) error { return krr.ServeHelper(peer) }

// NewStats returns empty statistics for the plan's columns: each part adds
// its rows, the parts are merged, and Scaler fits the preprocessing.
func (p *Plan) NewStats() *data.Stats { return p.p.NewStats() }

// Scaler fits the plan's preprocessing from the statistics of all the
// rows, merged. An open plan has none until Select settles it.
func (p *Plan) Scaler(s *data.Stats) (*data.Scaler, error) { return p.p.Scaler(s) }

// SearchRows returns the indices, sorted, among all the plan's rows of the
// rows an open plan's selection scores its candidates on (a seeded sample
// of at most Search.Rows; see pipeline.DefaultSearchRows), or nil when the
// plan is settled. They depend on the number of rows, the settled options
// (the classes and the λ grid size the sample) and the seed, never on the
// rows' values or how they are split.
func (p *Plan) SearchRows() []int { return p.p.SearchRows() }

// Candidates is the number of candidates an open plan scores (0 when
// settled).
func (p *Plan) Candidates() int { return p.p.Candidates() }

// Screen is the number of the rows searched on which an open plan's
// selection first scores every candidate (successive halving: see
// pipeline.Selection.Screen), and how many of them it keeps to score on
// all the rows; 0, 0 when it scores every candidate on all of them, or the
// plan is settled. Such a selection can be split in two rounds
// (ScoreScreen, then ScoreKept) so that no part scores the whole screen.
func (p *Plan) Screen() (rows, keep int) { return p.p.Screen() }

// Select settles an open plan: it scores every candidate on the rows of
// SearchRows (Xs and ys: those rows and their targets, in that order) with
// each candidate's scaler fitted from stats, the merged statistics of
// every row (as the fit's scaler is), and chooses by the
// one-standard-error rule (pipeline.Simplest). It returns the settled plan
// and the selection. It is Score of one part followed by Choose.
func (p *Plan) Select(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats) (*Plan, *pipeline.Selection, error) {
	q, sel, err := p.p.Select(ctx, Xs, ys, stats)
	if err != nil {
		return nil, nil, err
	}
	return &Plan{q}, sel, nil
}

// Score scores part's block of an open plan's candidates (the part-th of
// parts contiguous blocks, in the order they are enumerated; see Select
// for Xs, ys and stats), so that hosts without shared memory (WebAssembly
// workers, a cluster) can split a selection: each scores a part, and
// Choose chooses from all of them. It returns within
// 100 ms of a cancel of ctx.
func (p *Plan) Score(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats, part, parts int) ([]Scored, error) {
	s, err := p.p.Score(ctx, Xs, ys, stats, part, parts)
	if err != nil {
		return nil, err
	}
	return scoredOut(s), nil
}

// ScoreScreen scores on the screen's rows (Screen) part's block of the
// candidates (as Score splits them): the first round of a screened
// selection split among hosts (see Select for Xs, ys and stats: all the rows
// searched). ScoreKept takes every part's results. It refuses a plan that
// does not screen.
func (p *Plan) ScoreScreen(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats, part, parts int) ([]Scored, error) {
	s, err := p.p.ScoreScreen(ctx, Xs, ys, stats, part, parts)
	if err != nil {
		return nil, err
	}
	return scoredOut(s), nil
}

// ScoreKept is Score after a split screen: screened holds every
// candidate's screen score (all the parts' ScoreScreen, in any order); it
// scores the part's share of the candidates the screen keeps on all the
// rows searched and returns what Score would, for Choose. Score and the
// two rounds give the same scores, bit for bit, and the same choice.
func (p *Plan) ScoreKept(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats, screened []Scored, part, parts int) ([]Scored, error) {
	s, err := p.p.ScoreKept(ctx, Xs, ys, stats, scoredIn(screened), part, parts)
	if err != nil {
		return nil, err
	}
	return scoredOut(s), nil
}

// scoredOut is never nil, so that a part with nothing to score returns
// an empty list (JSON's [], not null).
func scoredOut(s []seam.Scored[pipeline.Candidate]) []Scored {
	out := make([]Scored, len(s))
	for i, c := range s {
		out[i] = Scored(c)
	}
	return out
}

func scoredIn(s []Scored) []seam.Scored[pipeline.Candidate] {
	if s == nil {
		return nil
	}
	in := make([]seam.Scored[pipeline.Candidate], len(s))
	for i, c := range s {
		in[i] = seam.Scored[pipeline.Candidate](c)
	}
	return in
}

// Choose finishes an open plan's selection from every candidate's Scored
// (the Score calls of all parts, in any order) with the
// one-standard-error rule (pipeline.Simplest); it checks that they are the
// plan's candidates, each once. It returns the settled plan and the
// selection.
func (p *Plan) Choose(scored []Scored) (*Plan, *pipeline.Selection, error) {
	q, sel, err := p.p.Choose(scoredIn(scored))
	if err != nil {
		return nil, nil, err
	}
	return &Plan{q}, sel, nil
}

// Solve chooses λ by the plan's criterion on the merged part of every row
// (GCV or held-out accuracy on the sums; LOO, GCV or a fixed λ on the
// collected rows) and assembles the model. It returns within 100 ms of a
// cancel of ctx. part is consumed: its sums become the model's. The model
// keeps what the plan holds beside the fit: the data set's schema or the
// class names (Config), and the selection that settled it.
func (p *Plan) Solve(ctx context.Context, s *data.Scaler, part *Part) (*pipeline.Pipeline, error) {
	return p.p.Solve(ctx, s, part.impl())
}

// Scored is one candidate of a selection scored: its index in the order
// the selection enumerates them (preprocessings, then depths), its score
// at its best λ, and its validated loss on each row searched. Hosts that
// split a selection (Score) carry it to the one that chooses (Choose), as
// JSON.
//
// When the selection screens (pipeline.Selection.Screen), a candidate
// screened out holds its score and losses on the screen's rows, and a kept
// one those on all the rows searched with its screen score in Screen, from
// which Choose checks that the kept ones are the screen's best. Curve is a
// candidate's λ curve on all the rows searched when 'auto' fits the exact
// kernel at the chosen candidate's λ (pipeline.Selection.Carry).
type Scored struct {
	Index     int                 `json:"index"`
	Candidate pipeline.Candidate  `json:"candidate"`
	Losses    []float64           `json:"losses"`
	Screen    *pipeline.Candidate `json:"screen,omitempty"`
	Curve     krr.Curve           `json:"curve,omitempty"`
}
