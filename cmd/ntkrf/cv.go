package main

import (
	"context"
	"math"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
)

// cvPredict returns out-of-fold predictions for every row: in each training
// fold every candidate pipeline is fitted, the one whose λ criterion (LOO
// or GCV, the minimum of its curve) is lowest predicts the test fold. The
// test fold is never looked at to choose.
func cvPredict(ds *data.Dataset, folds [][]int, cands []pipeline.Config) ([]float64, error) {
	n, _ := ds.X.Dims()
	pred := make([]float64, n)
	for _, test := range folds {
		train := data.Complement(n, test)
		Xtr, ytr := data.Rows(ds.X, train), data.Take(ds.Y, train)
		var best *pipeline.Pipeline
		bestScore := math.Inf(1)
		for _, c := range cands {
			c.Groups = ds.Groups
			c.Ridge.Task, c.Ridge.Classes = ds.Task, len(ds.Classes)
			p, err := pipeline.Fit(context.Background(), Xtr, ytr, c)
			if err != nil {
				return nil, err
			}
			if sc := minScore(p.Curve()); sc < bestScore {
				best, bestScore = p, sc
			}
		}
		labels, err := best.Predict(data.Rows(ds.X, test))
		if err != nil {
			return nil, err
		}
		for i, r := range test {
			pred[r] = labels[i]
		}
	}
	return pred, nil
}

func minScore(c []krr.CurvePoint) float64 {
	best := math.Inf(1)
	for _, p := range c {
		best = math.Min(best, p.Score)
	}
	return best
}
