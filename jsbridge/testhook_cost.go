//go:build crashtest

package jsbridge

import "ntkrf/core/pipeline"

// costWork is the core's cost model for a Node test that holds the lab's
// copy of its formulas (www/lab/cost.js trainWork) to it: the modelled
// work of a feature fit, an exact fit with λ searched, and an 'auto'
// search, for the shapes the test gives.
func init() {
	ops["costWork"] = func(c *call, args []byte) (any, error) {
		var a struct {
			Rows, Cols, Dim, Depth, Outputs int
			Candidates, SearchRows          int
		}
		if err := c.decode(args, &a); err != nil {
			return nil, err
		}
		C := pipeline.DefaultCosts()
		return map[string]float64{
			"features": C.FeatureFit(a.Rows, a.Cols, a.Dim, a.Depth, a.Outputs).Total(),
			"exact":    C.ExactFit(a.Rows, a.Cols, a.Depth, a.Outputs, C.Lambdas).Total(),
			"search":   search(C, a.Candidates, min(a.Rows, a.SearchRows), a.Cols, a.Depth, a.Outputs).Total(),
		}, nil
	}
}

// search is the work of the selection's search of cands candidates on s
// rows as the core prices it (select.go screenPlan): with successive
// halving, every candidate on the screen's rows and ScreenKeep of them on
// all s.
func search(C pipeline.Costs, cands, s, cols, depth, outputs int) pipeline.Work {
	screen := min(pipeline.ScreenRows, s/2)
	if screen < max(pipeline.MinScreenRows, pipeline.MinSearchRows) || pipeline.ScreenKeep < 1 || cands <= pipeline.ScreenKeep {
		return C.SearchWork(cands, s, cols, depth, outputs, C.Lambdas)
	}
	return C.SearchWork(cands, screen, cols, depth, outputs, C.Lambdas).Plus(C.SearchWork(pipeline.ScreenKeep, s, cols, depth, outputs, C.Lambdas))
}
