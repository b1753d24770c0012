package main

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/krr"
)

// cvCandidate is one model choice scored inside a training fold: a
// preprocessing and a fit.
type cvCandidate struct {
	prep data.Prep
	fit  func(X *mat.Dense, y []float64, opt krr.Options) (*krr.Model, error)
}

// cvPredict returns out-of-fold predictions for every row: in each training
// fold every candidate is fitted, the one whose λ criterion (LOO or GCV, the
// minimum of its curve) is lowest predicts the test fold. The test fold is
// never looked at to choose.
func cvPredict(ds *data.Dataset, folds [][]int, cands []cvCandidate) ([]float64, error) {
	n, _ := ds.X.Dims()
	pred := make([]float64, n)
	for _, test := range folds {
		train := data.Complement(n, test)
		Xtr, ytr := data.Rows(ds.X, train), data.Take(ds.Y, train)
		var best *krr.Model
		var bestScaler *data.Scaler
		bestScore := math.Inf(1)
		for _, c := range cands {
			s, err := data.Fit(Xtr, ds.Groups, c.prep)
			if err != nil {
				return nil, err
			}
			Xs, err := s.Apply(nil, Xtr)
			if err != nil {
				return nil, err
			}
			m, err := c.fit(Xs, ytr, krr.Options{Task: ds.Task, Classes: len(ds.Classes)})
			if err != nil {
				return nil, err
			}
			if sc := minScore(m.Curve()); sc < bestScore {
				best, bestScore, bestScaler = m, sc, s
			}
		}
		Xte, err := bestScaler.Apply(nil, data.Rows(ds.X, test))
		if err != nil {
			return nil, err
		}
		labels, err := best.PredictLabels(Xte)
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
