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
			"search":   C.ScreenedWork(a.Candidates, min(a.Rows, a.SearchRows), a.Cols, a.Depth, a.Outputs, C.Lambdas).Total(),
		}, nil
	}
}
