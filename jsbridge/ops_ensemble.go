package jsbridge

import (
	"ntkrf/core/data"
	"ntkrf/core/krr"
)

func init() {
	// ensembleVariance: the preprocessing fitted on X and applied to X and
	// Z, then krr.EnsembleVariance on the preprocessed rows.
	ops["ensembleVariance"] = func(c *call, args []byte) (any, error) {
		var a struct {
			prepArgs
			Z      *MatrixRef `json:"Z"`
			Depth  int        `json:"depth"`
			Lambda float64    `json:"lambda"`
		}
		if err := c.decode(args, &a); err != nil {
			return nil, err
		}
		X, err := c.matrix("X", a.X)
		if err != nil {
			return nil, err
		}
		Z, err := c.matrix("Z", a.Z)
		if err != nil {
			return nil, err
		}
		s, err := data.Fit(X, a.Groups, a.prep())
		if err != nil {
			return nil, err
		}
		if X, err = s.Apply(nil, X); err != nil {
			return nil, err
		}
		if Z, err = s.Apply(nil, Z); err != nil {
			return nil, err
		}
		v, err := krr.EnsembleVariance(a.Depth, X, Z, a.Lambda)
		if err != nil {
			return nil, err
		}
		return c.putArray(v), nil
	}
}
