package main

import (
	"context"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
)

// cvPredict returns out-of-fold predictions for every row, and the
// pipeline that predicted each fold: in each training fold every candidate
// pipeline is fitted (each making its own 'auto' choices on those rows),
// and the one whose validated λ curve has the best point predicts the test
// fold. The test fold is never looked at to choose.
func cvPredict(ds *data.Dataset, folds [][]int, cands []pipeline.Config) ([]float64, []*pipeline.Pipeline, error) {
	n, _ := ds.X.Dims()
	pred := make([]float64, n)
	var chosen []*pipeline.Pipeline
	byAcc := ds.Task == krr.Classification
	for _, test := range folds {
		train, err := data.Complement(n, test)
		if err != nil {
			return nil, nil, err
		}
		Xtr, ytr := data.Rows(ds.X, train), data.Take(ds.Y, train)
		var best *pipeline.Pipeline
		var bestPoint krr.CurvePoint
		for _, c := range cands {
			c.Groups = ds.Groups
			c.Ridge.Task, c.Ridge.Classes = ds.Task, len(ds.Classes)
			p, err := pipeline.Fit(context.Background(), Xtr, ytr, c)
			if err != nil {
				return nil, nil, err
			}
			curve := p.Curve()
			i, err := krr.Best(curve, byAcc)
			if err != nil {
				return nil, nil, err
			}
			if best == nil || krr.Better(curve[i], bestPoint, byAcc) {
				best, bestPoint = p, curve[i]
			}
		}
		labels, err := best.Predict(data.Rows(ds.X, test))
		if err != nil {
			return nil, nil, err
		}
		for i, r := range test {
			pred[r] = labels[i]
		}
		chosen = append(chosen, best)
	}
	return pred, chosen, nil
}
