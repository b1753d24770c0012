package jsbridge

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/protocol"
)

// select settles the "auto" depth and preprocessing of a fit whose plan
// (fitPlan) left them open (protocol.Plan.Select): on the rows the plan
// named (its search rows, gathered by the caller, X and y here) and the
// statistics of every chunk (fitStats, merged in row order), so that the
// rest of the fit runs with them fixed, as Fit does natively. Its
// candidates can be scored by several workers (part), then chosen from in
// one (scored); a selection that screens (the plan's search.screen) can be
// split in two rounds: every worker's share of the screen (part with
// screen), then its share of the kept candidates (part with screened, all
// the screen's results), so that no worker scores the whole screen.
func opSelect(c *call, args []byte) (any, error) {
	var a struct {
		Plan  *WireRef   `json:"plan"`
		Stats []WireRef  `json:"stats"`
		X     *MatrixRef `json:"X"`
		Y     *ArrayRef  `json:"y"`
		// Part, when given, scores only the candidates of that part
		// (Plan.Score) and returns them; Scored finishes a selection from
		// every part's candidates (Plan.Choose).
		Part *struct {
			Index int `json:"index"`
			Count int `json:"count"`
		} `json:"part"`
		Scored []protocol.Scored `json:"scored"`
		// Screen (with part) scores the part's share of the screen
		// (Plan.ScoreScreen); Screened (with part) holds every part's, and
		// scores the part's share of the kept candidates (Plan.ScoreKept).
		Screen   bool              `json:"screen"`
		Screened []protocol.Scored `json:"screened"`
		// ChunkBytes cuts the settled plan's chunks (0: the core's).
		ChunkBytes int `json:"chunkBytes"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	if a.Part != nil && a.Scored != nil {
		return nil, optErr("scored", "%s: give part (score some candidates) or scored (choose from all of them), not both", c.op)
	}
	if a.Part == nil && (a.Screen || a.Screened != nil) {
		return nil, optErr("part", "%s: screen and screened score a part's share; give part too", c.op)
	}
	if a.Screen && a.Screened != nil {
		return nil, optErr("screened", "%s: give screen (the first round) or screened (the second), not both", c.op)
	}
	p, err := c.plan(a.Plan)
	if err != nil {
		return nil, err
	}
	var plan *protocol.Plan
	if a.Scored != nil {
		plan, _, err = p.Choose(a.Scored)
	} else {
		// Declared apart, not with :=, so that Select's error below is
		// the function's err (a shadowed one was lost: a nil plan panicked).
		var (
			X     *mat.Dense
			y     []float64
			stats *data.Stats
		)
		if X, err = c.matrix("X", a.X); err != nil {
			return nil, err
		}
		if y, err = c.array("y", a.Y); err != nil {
			return nil, err
		}
		if stats, err = c.stats(a.Stats); err != nil {
			return nil, err
		}
		if a.Part != nil {
			var scored []protocol.Scored
			switch {
			case a.Screen:
				scored, err = p.ScoreScreen(context.Background(), X, y, stats, a.Part.Index, a.Part.Count)
			case a.Screened != nil:
				scored, err = p.ScoreKept(context.Background(), X, y, stats, a.Screened, a.Part.Index, a.Part.Count)
			default:
				scored, err = p.Score(context.Background(), X, y, stats, a.Part.Index, a.Part.Count)
			}
			if err != nil {
				return nil, err
			}
			return struct {
				Scored []protocol.Scored `json:"scored"`
			}{scored}, nil
		}
		plan, _, err = p.Select(context.Background(), X, y, stats)
	}
	if err != nil {
		return nil, err
	}
	// The settled plan, which holds what was chosen and why (the model
	// keeps the selection), with the chunks its parts are cut in.
	return c.planOut(plan, a.ChunkBytes), nil
}
