package jsbridge

import (
	"errors"
	"strings"

	"ntkrf/internal/check"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/rf"
)

// featureArgs are the feature options of the JS API (index.d.ts FeatureOptions).
type featureArgs struct {
	Method      string  `json:"method"`
	Depth       *int    `json:"depth"`
	Dim         *int    `json:"dim"`
	SketchDim   int     `json:"sketchDim"`
	M0          int     `json:"m0"`
	M1          int     `json:"m1"`
	Sketch      string  `json:"sketch"`
	Sampler     string  `json:"sampler"`
	GibbsSweeps int     `json:"gibbsSweeps"`
	Normalize   bool    `json:"normalize"`
	Gamma       float64 `json:"gamma"`
	Seed        uint64  `json:"seed"`
}

func (a featureArgs) config() rf.Config {
	cfg := rf.Config{
		Method: a.Method, Depth: defaultDepth, Dim: defaultDim,
		M0: a.M0, M1: a.M1, SketchDim: a.SketchDim,
		Sketch: a.Sketch, Sampler: a.Sampler, GibbsSweeps: a.GibbsSweeps,
		Normalize: a.Normalize, Gamma: a.Gamma, Seed: a.Seed,
	}
	if a.Depth != nil {
		cfg.Depth = *a.Depth
	}
	if a.Dim != nil {
		cfg.Dim = *a.Dim
	} else if a.M1 > 0 && (a.SketchDim > 0 || a.Method == "nngp") {
		cfg.Dim = 0 // the widths given make the dimension
	}
	return cfg
}

// newMap draws the feature map; its errors become TypeError for unknown
// names and RangeError for values out of range.
func newMap(op string, a featureArgs, inputDim int) (*rf.Map, error) {
	f, err := rf.New(a.config(), inputDim)
	if err != nil {
		return nil, optionErr(op, err)
	}
	return f, nil
}

// optionErr marks an error of rf.New as a fault of the feature options:
// the schema has checked each one, so what remains is how they combine.
func optionErr(op string, err error) error {
	var e *check.Error
	if !errors.As(err, &e) {
		e = &check.Error{Code: check.Option, Msg: err.Error()}
	}
	// Outside features(), the feature options sit under "features".
	option := e.Option
	if opSchema[op] != "features" {
		option = strings.TrimSuffix("features."+option, ".")
	}
	return &check.Error{Code: e.Code, Option: option, Msg: e.Msg}
}

// progressRows is how many rows are featurized between progress reports.
const progressRows = 512

// transform featurizes X in row blocks, reporting progress. Rows are
// independent, so blocking does not change a bit of the result.
func transform(c *call, f *rf.Map, X *mat.Dense, stage string) (*mat.Dense, error) {
	n, _ := X.Dims()
	out := mat.NewDense(n, f.Dim(), nil)
	c.progress(0, n, stage)
	for lo := 0; lo < n; lo += progressRows {
		hi := min(lo+progressRows, n)
		dst := out.Slice(lo, hi, 0, f.Dim()).(*mat.Dense)
		if _, err := f.Transform(dst, X.Slice(lo, hi, 0, X.RawMatrix().Cols).(*mat.Dense)); err != nil {
			return nil, err
		}
		c.progress(hi, n, stage)
	}
	return out, nil
}

func init() {
	ops["features"] = func(c *call, args []byte) (any, error) {
		var a struct {
			X *MatrixRef `json:"X"`
			featureArgs
		}
		if err := c.decode(args, &a); err != nil {
			return nil, err
		}
		X, err := c.matrix("X", a.X)
		if err != nil {
			return nil, err
		}
		_, d := X.Dims()
		f, err := newMap(c.op, a.featureArgs, d)
		if err != nil {
			return nil, err
		}
		n, _ := X.Dims()
		if err := check.Alloc("feature matrix", n, f.Dim()); err != nil {
			return nil, err
		}
		Phi, err := transform(c, f, X, "features")
		if err != nil {
			return nil, err
		}
		return c.putMatrix(Phi), nil
	}
}
