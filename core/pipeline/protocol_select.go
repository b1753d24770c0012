package pipeline

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/internal/check"
)

// The 'auto' step of the protocol: an open plan names the rows its
// selection scores, and settles from those rows and the merged statistics
// of every row, so that no host gathers more than the sample in one place.

// SearchRows returns the indices, sorted, among all the plan's rows of the
// rows an open plan's selection scores its candidates on (a seeded sample
// of at most Search.Rows; see DefaultSearchRows), or nil when the plan is
// settled. They depend on the number of rows, the settled options (the
// classes and the λ grid size the sample) and the seed, never on the
// rows' values or how they are split.
func (p *fitPlan) SearchRows() []int {
	if p.open == nil {
		return nil
	}
	return append([]int(nil), p.open.idx...)
}

// Candidates is the number of candidates an open plan scores (0 when
// settled).
func (p *fitPlan) Candidates() int {
	if p.open == nil {
		return 0
	}
	return len(p.open.cands)
}

// Screen is the number of the rows searched on which an open plan's
// selection screens its candidates (successive halving's first round),
// and how many of them the screen keeps for all the rows; 0, 0 when it
// scores every candidate on all of them (or the plan is settled).
func (p *fitPlan) Screen() (rows, keep int) {
	if p.open == nil || p.open.screen == nil {
		return 0, 0
	}
	return len(p.open.screen), p.open.keep
}

// Select settles an open plan: it scores every candidate on the rows of
// SearchRows (Xs and ys: those rows and their targets, in that order) with
// each candidate's scaler fitted from stats, the merged statistics of
// every row (as the fit's scaler is), and chooses by the
// one-standard-error rule (Simplest). It returns the settled plan and the
// selection. It is Score of one part followed by Choose.
func (p *fitPlan) Select(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats) (*fitPlan, *Selection, error) {
	scored, err := p.Score(ctx, Xs, ys, stats, 0, 1)
	if err != nil {
		return nil, nil, err
	}
	return p.Choose(scored)
}

// Score scores part's block of an open plan's candidates (the part-th of
// parts contiguous blocks, in the order they are enumerated; see Select
// for Xs, ys and stats), so that hosts without shared memory (WebAssembly
// workers, a cluster) can split a selection: each scores a part, and
// Choose chooses from all of them.
func (p *fitPlan) Score(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats, part, parts int) ([]candScore, error) {
	return promptly(ctx, "pipeline: selection", p.cfg.Ridge.Progress, func(report func(done, total int, stage string)) ([]candScore, error) {
		return p.WithProgress(report).score(ctx, Xs, ys, stats, part, parts)
	})
}

// ScoreScreen scores on the screen's rows (Screen) part's block of the
// candidates (as Score splits them): the first round of a selection that
// screens, split among hosts (see Select for Xs, ys and stats: all the rows
// searched). ScoreKept takes every part's scores.
func (p *fitPlan) ScoreScreen(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats, part, parts int) ([]candScore, error) {
	return promptly(ctx, "pipeline: selection", p.cfg.Ridge.Progress, func(report func(done, total int, stage string)) ([]candScore, error) {
		q := p.WithProgress(report)
		if err := q.checkScore(Xs, ys, stats, part, parts); err != nil {
			return nil, err
		}
		if q.open.screen == nil {
			return nil, check.New(check.Option, "screen", "pipeline: the selection scores every candidate on all %d rows searched, without a screen; use Score", len(q.open.idx))
		}
		return q.open.screenShare(ctx, Xs, ys, stats, part, parts, q.cfg.Ridge)
	})
}

// ScoreKept is Score after a split screen: screened holds every
// candidate's screen score (every part's ScoreScreen, in any order), from
// which it scores the part's share of the kept candidates on all the rows
// searched, as Score does after scoring the screen itself; Choose takes
// every part's result.
func (p *fitPlan) ScoreKept(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats, screened []candScore, part, parts int) ([]candScore, error) {
	return promptly(ctx, "pipeline: selection", p.cfg.Ridge.Progress, func(report func(done, total int, stage string)) ([]candScore, error) {
		q := p.WithProgress(report)
		if err := q.checkScore(Xs, ys, stats, part, parts); err != nil {
			return nil, err
		}
		first, err := q.open.screenScores(screened)
		if err != nil {
			return nil, err
		}
		return q.open.score(ctx, Xs, ys, stats, part, parts, first, q.cfg.Ridge)
	})
}

func (p *fitPlan) score(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats, part, parts int) ([]candScore, error) {
	if err := p.checkScore(Xs, ys, stats, part, parts); err != nil {
		return nil, err
	}
	return p.open.score(ctx, Xs, ys, stats, part, parts, nil, p.cfg.Ridge)
}

// checkScore checks a scoring call's arguments against an open plan.
func (p *fitPlan) checkScore(Xs *mat.Dense, ys []float64, stats *data.Stats, part, parts int) error {
	s := p.open
	if s == nil {
		return check.New(check.Option, "", "pipeline: the plan leaves nothing to select; fit it")
	}
	if parts < 1 || part < 0 || part >= parts {
		return check.New(check.Option, "part", "pipeline: part %d of %d; give 0 ≤ part < parts", part, parts)
	}
	if err := p.checkStats(stats); err != nil {
		return err
	}
	if Xs == nil || Xs.IsEmpty() {
		return check.New(check.Shape, "", "pipeline: no rows to search; give the rows of SearchRows")
	}
	if r, c := Xs.Dims(); r != len(s.idx) || c != p.cols || len(ys) != r {
		return check.New(check.Shape, "", "pipeline: %d × %d search rows with %d targets; the plan searches %d rows of %d columns (SearchRows), one target each", r, c, len(ys), len(s.idx), p.cols)
	}
	return nil
}

// Choose finishes an open plan's selection from every candidate's Scored
// (the Score calls of all parts, in any order) with the
// one-standard-error rule (Simplest); it checks that they are the plan's
// candidates, each once. It returns the settled plan and the selection.
func (p *fitPlan) Choose(scored []candScore) (*fitPlan, *Selection, error) {
	if p.open == nil {
		return nil, nil, check.New(check.Shape, "scored", "pipeline: %d candidates scored, but the plan leaves nothing to select", len(scored))
	}
	sel, err := p.open.pick(scored)
	if err != nil {
		return nil, nil, err
	}
	c := sel.Candidates[sel.Chosen]
	plan, err := settle(applyCandidate(p.cfg, c), p.rows, p.cols)
	if err != nil {
		return nil, nil, err
	}
	return plan.chosenBy(sel), sel, nil
}

// Select settles the settings cfg leaves open (a nil Preprocess, a depth
// of 0; see Config) on the rows of X and targets y, as Fit does: it
// returns cfg with them fixed to the chosen values and the task and
// classes resolved, and the selection (nil when nothing was open). It is
// the first steps of ntkrf/core/protocol (NewPlan, the statistics of X,
// Plan.Select on the rows of Plan.SearchRows) in one call.
func Select(ctx context.Context, X *mat.Dense, y []float64, cfg Config) (Config, *Selection, error) {
	plan, _, sel, err := selectOn(ctx, X, y, cfg)
	if err != nil {
		return cfg, nil, err
	}
	out := plan.Config()
	out.Ridge.Progress = cfg.Ridge.Progress
	return out, sel, nil
}

// selectOn runs the protocol's first steps on all the rows at hand: the
// plan, the statistics of X, and the plan settled by its selection on the
// rows of SearchRows.
func selectOn(ctx context.Context, X *mat.Dense, y []float64, cfg Config) (*fitPlan, *data.Stats, *Selection, error) {
	if X == nil || X.IsEmpty() {
		return nil, nil, nil, check.New(check.Shape, "", "pipeline: X is empty; it needs at least one row and one column")
	}
	if err := checkTargets(X, y); err != nil {
		return nil, nil, nil, err
	}
	n, d := X.Dims()
	plan, err := newPlan(cfg, n, d, y)
	if err != nil {
		return nil, nil, nil, err
	}
	progress(plan.cfg.Ridge, 0, 1, "preprocess")
	stats := plan.NewStats()
	if err := stats.Add(X); err != nil {
		return nil, nil, nil, err
	}
	progress(plan.cfg.Ridge, 1, 1, "preprocess")
	var sel *Selection
	if idx := plan.SearchRows(); idx != nil {
		if plan, sel, err = plan.Select(ctx, data.Rows(X, idx), data.Take(y, idx), stats); err != nil {
			return nil, nil, nil, err
		}
	}
	return plan, stats, sel, nil
}
