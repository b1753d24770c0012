package jsbridge

import (
	"errors"
	"strings"

	"ntkrf/internal/check"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/rf"
)

// featureArgs are the feature options of the JS API (index.d.ts
// FeatureOptions): rf.Config decodes them itself, and its zero fields mean
// the same defaults as an option not given.
type featureArgs = rf.Config

// newMap draws the feature map; its errors become TypeError for unknown
// names and RangeError for values out of range.
func newMap(op string, a featureArgs, inputDim int) (*rf.Map, error) {
	f, err := rf.New(a, inputDim)
	if err != nil {
		return nil, optionErr(op, err, "features")
	}
	return f, nil
}

// optionErr marks an error of rf.New or kernel.Spec.Filled as a fault of
// the options under group ("features" or "kernel"): the schema has checked
// each one, so what remains is how they combine.
func optionErr(op string, err error, group string) error {
	var e *check.Error
	if !errors.As(err, &e) {
		e = &check.Error{Code: check.Option, Msg: err.Error()}
	}
	// Outside features() and kernel(), the options sit under their group.
	option := e.Option
	if opSchema[op] != group {
		option = strings.TrimSuffix(group+"."+option, ".")
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

func opFeatures(c *call, args []byte) (any, error) {
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
