package jsbridge

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/pipeline"
)

// select settles the "auto" depth and preprocessing of a fit whose plan
// (fitPlan) left them open (pipeline.Plan.Select): on the rows the plan
// named (its search rows, gathered by the caller, X and y here) and the
// statistics of every chunk (fitStats, merged in row order), so that the
// rest of the fit runs with them fixed, as Fit does natively. Its
// candidates can be scored by several workers (part), then chosen from in
// one (scored).
func opSelect(c *call, args []byte) (any, error) {
	var a struct {
		fitArgs
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
		Scored []pipeline.Scored `json:"scored"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	if a.Part != nil && a.Scored != nil {
		return nil, optErr("scored", "%s: give part (score some candidates) or scored (choose from all of them), not both", c.op)
	}
	p, err := c.plan(a.fitArgs, nil)
	if err != nil {
		return nil, err
	}
	var (
		plan = p
		sel  *pipeline.Selection
	)
	if a.Scored != nil {
		plan, sel, err = p.Choose(a.Scored)
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
			scored, err := p.Score(context.Background(), X, y, stats, a.Part.Index, a.Part.Count)
			if err != nil {
				return nil, err
			}
			if scored == nil {
				scored = []pipeline.Scored{} // [], not null: nothing to add
			}
			return struct {
				Scored []pipeline.Scored `json:"scored"`
			}{scored}, nil
		}
		plan, sel, err = p.Select(context.Background(), X, y, stats)
	}
	if err != nil {
		return nil, err
	}
	// What was settled, whole (the features or kernel with its depth, and
	// the preprocessing): the caller puts it in place of its options and
	// writes nothing into them itself.
	settings, err := plan.Settings()
	if err != nil {
		return nil, err
	}
	return struct {
		Settings  pipeline.Settings   `json:"settings"`
		Selection *pipeline.Selection `json:"selection"`
	}{settings, sel}, nil
}
