package jsbridge

import (
	"context"
	"encoding/json"
	"ntkrf/core/auto"
	"ntkrf/core/data"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/playground"
)

// surfaces keeps, per instance, the playground's fitted models and their
// scores (core/playground): the lab sends its redraws to the worker that
// answered the last one, which then computes only what a control changed.
var surfaces playground.Cache

// playgroundModel is one model of a playground call: features (primal) or
// kernel (dual), in fitRidge's spelling.
type playgroundModel struct {
	Features json.RawMessage `json:"features"`
	Kernel   json.RawMessage `json:"kernel"`
}

func init() {
	// playground: the lab's decision surfaces in one call
	// (playground.Cache.Run): every model fitted on X and y with the
	// shared options (λ, task, classes, preprocessing), and every set of
	// points scored with each.
	ops["playground"] = func(c *call, args []byte) (any, error) {
		var a struct {
			ridgeArgs
			Preprocess auto.Value[data.Prep] `json:"preprocess"`
			Models     []playgroundModel     `json:"models"`
			X          *MatrixRef            `json:"X"`
			Y          *ArrayRef             `json:"y"`
			Points     []MatrixRef           `json:"points"`
		}
		if err := c.decode(args, &a); err != nil {
			return nil, err
		}
		X, err := c.matrix("X", a.X)
		if err != nil {
			return nil, err
		}
		y, err := c.array("y", a.Y)
		if err != nil {
			return nil, err
		}
		req := playground.Request{X: X, Y: y, Progress: func(done, total int, stage string) { c.progress(done, total, stage) }}
		for i := range a.Points {
			P, err := c.matrix("points", &a.Points[i])
			if err != nil {
				return nil, err
			}
			req.Points = append(req.Points, P)
		}
		rows, cols := X.Dims()
		// The options every model shares, as given.
		var shared map[string]json.RawMessage
		if err := json.Unmarshal(args, &shared); err != nil {
			return nil, typeErr("%s: options are not valid JSON: %v", c.op, err)
		}
		for _, k := range []string{"models", "X", "y", "points"} {
			delete(shared, k)
		}
		for _, m := range a.Models {
			fa := fitArgs{ridgeArgs: a.ridgeArgs, Rows: rows, Cols: cols, Features: m.Features, Kernel: m.Kernel, Preprocess: a.Preprocess}
			// Each model's options as fitRidge's schema checks them.
			one := map[string]json.RawMessage{}
			for k, v := range shared {
				one[k] = v
			}
			if len(m.Features) > 0 {
				one["features"] = m.Features
			}
			if len(m.Kernel) > 0 {
				one["kernel"] = m.Kernel
			}
			b, _ := json.Marshal(one)
			if err := checkOptions("fitPlan", b); err != nil {
				return nil, err
			}
			if (len(m.Features) == 0) == (len(m.Kernel) == 0) {
				return nil, optErr("models", "%s: each model gives features (primal) or kernel (dual), not both and not neither", c.op)
			}
			cfg, err := fa.config(c)
			if err != nil {
				return nil, err
			}
			cfg.Ridge.Progress = nil // the call reports per model
			req.Models = append(req.Models, cfg)
		}
		got, err := surfaces.Run(context.Background(), req)
		if err != nil {
			return nil, err
		}
		type surface struct {
			Lambda   float64     `json:"lambda"`
			Reused   bool        `json:"reused"`
			Computed int         `json:"computed"`
			Scores   []MatrixRef `json:"scores"`
		}
		out := struct {
			Surfaces []surface `json:"surfaces"`
			Fits     int       `json:"fits"`
			Bases    int       `json:"bases"`
		}{Fits: surfaces.Fits, Bases: surfaces.Bases}
		for _, s := range got {
			o := surface{Lambda: s.Lambda, Reused: s.Reused, Computed: s.Computed}
			for _, S := range s.Scores {
				// A copy: the cache keeps its own.
				o.Scores = append(o.Scores, c.putMatrix(mat.DenseCopyOf(S)))
			}
			out.Surfaces = append(out.Surfaces, o)
		}
		return out, nil
	}
}
