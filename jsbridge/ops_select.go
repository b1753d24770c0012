package jsbridge

import (
	"context"
	"encoding/json"
	"runtime/debug"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
)

// autoDepth decodes features or kernel options whose depth may be "auto"
// (pipeline.Select's depth 0) into dst.
func autoDepth(c *call, raw json.RawMessage, dst any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var m map[string]json.RawMessage
	if err := c.decode(raw, &m); err != nil {
		return err
	}
	if string(m["depth"]) == `"auto"` {
		delete(m, "depth")
	}
	b, _ := json.Marshal(m)
	return c.decode(b, dst)
}

// select settles the "auto" depth and preprocessing of a fit
// (pipeline.Select), so that the rest of the fit, split over workers or
// not, runs with them fixed, as Fit does natively. Its candidates can
// be scored by several workers (part), then chosen from in one
// (scored).
func opSelect(c *call, args []byte) (any, error) {
	var a struct {
		X *MatrixRef `json:"X"`
		Y *ArrayRef  `json:"y"`
		ridgeArgs
		Features   json.RawMessage `json:"features"`
		Kernel     json.RawMessage `json:"kernel"`
		Preprocess json.RawMessage `json:"preprocess"`
		Search     pipeline.Search `json:"search"`
		Groups     []data.Group    `json:"groups"`
		// Part, when given, scores only the candidates of that part
		// (pipeline.SelectPart) and returns them; Scored finishes a
		// selection from every part's candidates (SelectScored).
		Part *struct {
			Index int `json:"index"`
			Count int `json:"count"`
		} `json:"part"`
		Scored []pipeline.Scored `json:"scored"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	cfg := pipeline.Config{Groups: a.Groups, Search: a.Search, Ridge: a.options(c)}
	if err := autoDepth(c, a.Features, &cfg.Features); err != nil {
		return nil, err
	}
	if len(a.Kernel) > 0 && string(a.Kernel) != "null" {
		cfg.Kernel = &kernel.Spec{}
		if err := autoDepth(c, a.Kernel, cfg.Kernel); err != nil {
			return nil, err
		}
	}
	switch string(a.Preprocess) {
	case "", "null", `"auto"`:
	default:
		cfg.Preprocess = &data.Prep{}
		if err := c.decode(a.Preprocess, cfg.Preprocess); err != nil {
			return nil, err
		}
	}
	X, err := c.matrix("X", a.X)
	if err != nil {
		return nil, err
	}
	y, err := c.array("y", a.Y)
	if err != nil {
		return nil, err
	}
	// The search's kernel matrices are garbage within milliseconds, but
	// with X live the collector (GOGC 100) lets them pile up to X's size,
	// and a worker's memory never shrinks: keep the heap near X instead.
	r, cols := X.Dims()
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(8*(r*cols+len(y))) + 8<<20))
	if cfg.Kernel == nil {
		if _, err := rf.New(cfg.Features, max(X.RawMatrix().Cols, 1)); err != nil {
			return nil, optionErr(c.op, err, "features")
		}
	}
	if a.Part != nil {
		if a.Scored != nil {
			return nil, optErr("scored", "%s: give part (score some candidates) or scored (choose from all of them), not both", c.op)
		}
		scored, total, err := pipeline.SelectPart(context.Background(), X, y, cfg, a.Part.Index, a.Part.Count)
		if err != nil {
			return nil, err
		}
		if scored == nil {
			scored = []pipeline.Scored{} // [], not null: nothing to add
		}
		return struct {
			Candidates int               `json:"candidates"`
			Scored     []pipeline.Scored `json:"scored"`
		}{total, scored}, nil
	}
	var sel *pipeline.Selection
	if a.Scored != nil {
		cfg, sel, err = pipeline.SelectScored(X, y, cfg, a.Scored)
	} else {
		cfg, sel, err = pipeline.Select(context.Background(), X, y, cfg)
	}
	if err != nil {
		return nil, err
	}
	// What was settled, for the caller to write into its options: the
	// depth (absent for kernels without one) and the preprocessing.
	out := struct {
		Depth      int                 `json:"depth,omitempty"`
		Preprocess data.Prep           `json:"preprocess"`
		Selection  *pipeline.Selection `json:"selection"`
	}{Depth: cfg.Features.Depth, Preprocess: *cfg.Preprocess, Selection: sel}
	if cfg.Kernel != nil {
		out.Depth = cfg.Kernel.Depth
	}
	return out, nil
}
