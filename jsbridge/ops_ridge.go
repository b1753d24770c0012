package jsbridge

import (
	"fmt"

	"encoding/json"
	"sync"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// ridgeArgs are the options shared by the fitting operations.
type ridgeArgs struct {
	Lambda    any       `json:"lambda"` // a number > 0, or "auto" (default)
	Criterion string    `json:"criterion"`
	Grid      []float64 `json:"grid"`
	Task      string    `json:"task"`
	Classes   int       `json:"classes"`
}

// options converts the ridge options; Dispatch has checked their values
// against the schema (lambda a number > 0 or "auto", task and criterion
// among the names).
func (a ridgeArgs) options(c *call) krr.Options {
	o := krr.Options{Criterion: a.Criterion, Grid: a.Grid, Task: a.Task, Classes: a.Classes,
		Progress: func(done, total int, stage string) { c.progress(done, total, stage) }}
	if l, ok := a.Lambda.(float64); ok {
		o.Lambda = l
	}
	return o
}

// scaled applies the scaler (JSON from fitScaler) to X; no scaler, no change.
func scaled(op string, raw json.RawMessage, X *mat.Dense) (*mat.Dense, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return X, nil
	}
	var s data.Scaler
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, typeErr("%s: scaler: %v", op, err)
	}
	if _, d := X.Dims(); d != s.Cols() {
		return nil, shapeErr("%s: X has %d columns but the model was fitted on %d", op, d, s.Cols())
	}
	return s.Apply(nil, X)
}

// maps caches the last feature maps a worker drew: predicting in blocks
// must not redraw the directions every time. The key is the options JSON
// and the input dimension; a map is deterministic in them.
var maps struct {
	sync.Mutex
	keys []string
	vals []*rf.Map
}

func cachedMap(op string, a featureArgs, d int) (*rf.Map, error) {
	b, _ := json.Marshal(struct {
		featureArgs
		D int
	}{a, d})
	key := string(b)
	maps.Lock()
	defer maps.Unlock()
	for i, k := range maps.keys {
		if k == key {
			return maps.vals[i], nil
		}
	}
	f, err := newMap(op, a, d)
	if err != nil {
		return nil, err
	}
	const keep = 2
	maps.keys = append([]string{key}, maps.keys[:min(len(maps.keys), keep-1)]...)
	maps.vals = append([]*rf.Map{f}, maps.vals[:min(len(maps.vals), keep-1)]...)
	return f, nil
}

// modelJSON is a fitted model as it crosses the bridge: everything needed
// to predict in any worker.
type modelJSON struct {
	Kind     string          `json:"kind"` // "features" or "kernel"
	Task     string          `json:"task"`
	Lambda   float64         `json:"lambda"`
	Curve    []curveJSON     `json:"curve"`
	Coef     MatrixRef       `json:"coef"` // W (m×k) or α (n×k)
	Bias     []float64       `json:"bias"`
	Features *featureArgs    `json:"features,omitempty"`
	Kernel   *kernelArgs     `json:"kernel,omitempty"`
	Train    *MatrixRef      `json:"train,omitempty"` // scaled training rows of a kernel model
	Scaler   json.RawMessage `json:"scaler,omitempty"`
}

type curveJSON struct {
	Lambda float64 `json:"lambda"`
	Score  float64 `json:"score"`
}

func (c *call) putModel(kind string, m *krr.Model, f *featureArgs, k *kernelArgs, train *mat.Dense, scaler json.RawMessage) modelJSON {
	coef, bias := m.Coefficients()
	out := modelJSON{Kind: kind, Task: m.Task(), Lambda: m.Lambda(), Coef: c.putMatrix(coef), Bias: bias,
		Features: f, Kernel: k, Scaler: scaler, Curve: []curveJSON{}}
	for _, p := range m.Curve() {
		out.Curve = append(out.Curve, curveJSON{p.Lambda, p.Score})
	}
	if train != nil {
		r := c.putMatrix(train)
		out.Train = &r
	}
	return out
}

type fitInput struct {
	X      *MatrixRef      `json:"X"`
	Y      *ArrayRef       `json:"y"`
	Scaler json.RawMessage `json:"scaler"`
}

// xy reads the rows and targets of a fit and applies the scaler.
func (c *call) xy(in fitInput) (*mat.Dense, []float64, error) {
	X, err := c.matrix("X", in.X)
	if err != nil {
		return nil, nil, err
	}
	y, err := c.array("y", in.Y)
	if err != nil {
		return nil, nil, err
	}
	if n, _ := X.Dims(); n != len(y) {
		return nil, nil, shapeErr("%s: X has %d rows but y has %d values", c.op, n, len(y))
	}
	X, err = scaled(c.op, in.Scaler, X)
	return X, y, err
}

func init() {
	ops["fitScaler"] = func(c *call, args []byte) (any, error) {
		var a struct {
			X          *MatrixRef  `json:"X"`
			Preprocess *prepArgs   `json:"preprocess"`
			Groups     []groupJSON `json:"groups"`
		}
		if err := c.decode(args, &a); err != nil {
			return nil, err
		}
		X, err := c.matrix("X", a.X)
		if err != nil {
			return nil, err
		}
		c.progress(0, 1, "preprocess")
		s, err := fitScaler(c.op, X, a.Groups, a.Preprocess)
		if err != nil {
			return nil, err
		}
		c.progress(1, 1, "preprocess")
		return s, nil
	}

	ops["accumulate"] = func(c *call, args []byte) (any, error) {
		var a struct {
			fitInput
			Features featureArgs `json:"features"`
			Task     string      `json:"task"`
			Classes  int         `json:"classes"`
		}
		if err := c.decode(args, &a); err != nil {
			return nil, err
		}
		X, y, err := c.xy(a.fitInput)
		if err != nil {
			return nil, err
		}
		_, d := X.Dims()
		f, err := cachedMap(c.op, a.Features, d)
		if err != nil {
			return nil, err
		}
		opt := ridgeArgs{Task: a.Task, Classes: a.Classes}.options(c)
		acc, err := krr.NewAccumulator(f.Dim(), opt)
		if err != nil {
			return nil, err
		}
		n, _ := X.Dims()
		c.progress(0, n, "features")
		var buf *mat.Dense
		for lo := 0; lo < n; lo += progressRows {
			hi := min(lo+progressRows, n)
			if buf == nil || hi-lo != buf.RawMatrix().Rows {
				buf = mat.NewDense(hi-lo, f.Dim(), nil)
			}
			if _, err := f.Transform(buf, X.Slice(lo, hi, 0, d).(*mat.Dense)); err != nil {
				return nil, err
			}
			if err := acc.Add(buf, y[lo:hi]); err != nil {
				return nil, err
			}
			c.progress(hi, n, "features")
		}
		p := acc.Parts()
		return partsJSON{Rows: p.Rows, Mu: c.putArray(p.Mu), Ybar: c.putArray(p.Ybar), C: c.putArray(p.C), D: c.putArray(p.D), E: c.putArray(p.E)}, nil
	}

	ops["solve"] = func(c *call, args []byte) (any, error) {
		var a struct {
			ridgeArgs
			Parts    []partsJSON     `json:"parts"`
			Features featureArgs     `json:"features"`
			Dim      int             `json:"dim"`
			Scaler   json.RawMessage `json:"scaler"`
		}
		if err := c.decode(args, &a); err != nil {
			return nil, err
		}
		opt := a.options(c)
		if opt.Criterion == krr.LOO && opt.Lambda == 0 {
			return nil, optErr("criterion", "%s: criterion \"loo\" needs a second pass over the rows; use fitFeatures", c.op)
		}
		acc, err := krr.NewAccumulator(a.Dim, opt)
		if err != nil {
			return nil, err
		}
		for i, p := range a.Parts {
			var parts krr.Parts
			parts.Rows = p.Rows
			for _, f := range []struct {
				dst *[]float64
				ref ArrayRef
			}{{&parts.Mu, p.Mu}, {&parts.Ybar, p.Ybar}, {&parts.C, p.C}, {&parts.D, p.D}, {&parts.E, p.E}} {
				if *f.dst, err = c.array("parts", &f.ref); err != nil {
					return nil, err
				}
			}
			if err := acc.AddParts(parts); err != nil {
				return nil, fmt.Errorf("%s: part %d: %w", c.op, i, err)
			}
		}
		c.progress(0, 1, "solve")
		m, err := acc.Solve()
		if err != nil {
			return nil, err
		}
		c.progress(1, 1, "solve")
		return c.putModel("features", m, &a.Features, nil, nil, a.Scaler), nil
	}

	ops["fitFeatures"] = func(c *call, args []byte) (any, error) {
		var a struct {
			fitInput
			ridgeArgs
			Features featureArgs `json:"features"`
		}
		if err := c.decode(args, &a); err != nil {
			return nil, err
		}
		X, y, err := c.xy(a.fitInput)
		if err != nil {
			return nil, err
		}
		opt := a.options(c)
		_, d := X.Dims()
		f, err := cachedMap(c.op, a.Features, d)
		if err != nil {
			return nil, err
		}
		m, err := krr.FitFeatures(f, X, y, opt)
		if err != nil {
			return nil, err
		}
		return c.putModel("features", m, &a.Features, nil, nil, a.Scaler), nil
	}

	ops["fitKernel"] = func(c *call, args []byte) (any, error) {
		var a struct {
			fitInput
			ridgeArgs
			Kernel kernelArgs `json:"kernel"`
		}
		if err := c.decode(args, &a); err != nil {
			return nil, err
		}
		X, y, err := c.xy(a.fitInput)
		if err != nil {
			return nil, err
		}
		n, d := X.Dims()
		k, err := kernelSpec(c.op, a.Kernel.Kernel, a.Kernel.Depth, a.Kernel.Gamma, d)
		if err != nil {
			return nil, err
		}
		if err := check.Alloc("kernel matrix", n, n); err != nil {
			return nil, err
		}
		opt := a.options(c)
		m, err := krr.FitKernel(k, X, y, opt)
		if err != nil {
			return nil, err
		}
		spec := kernelArgs{Kernel: k.Name, Depth: &k.Depth, Gamma: &k.Gamma}
		return c.putModel("kernel", m, nil, &spec, X, a.Scaler), nil
	}

	ops["predict"] = func(c *call, args []byte) (any, error) {
		var a struct {
			X      *MatrixRef `json:"X"`
			Model  modelJSON  `json:"model"`
			Scores bool       `json:"scores"`
		}
		if err := c.decode(args, &a); err != nil {
			return nil, err
		}
		X, err := c.matrix("X", a.X)
		if err != nil {
			return nil, err
		}
		if X, err = scaled(c.op, a.Model.Scaler, X); err != nil {
			return nil, err
		}
		coef, err := c.matrix("model.coef", &a.Model.Coef)
		if err != nil {
			return nil, err
		}
		_, d := X.Dims()
		var m *krr.Model
		switch {
		case a.Model.Kind == "features" && a.Model.Features != nil:
			f, err := cachedMap(c.op, *a.Model.Features, d)
			if err != nil {
				return nil, err
			}
			m, err = krr.NewFeatureModel(f, coef, a.Model.Bias, a.Model.Task, a.Model.Lambda, nil)
			if err != nil {
				return nil, err
			}
		case a.Model.Kind == "kernel" && a.Model.Kernel != nil && a.Model.Train != nil:
			train, err := c.matrix("model.train", a.Model.Train)
			if err != nil {
				return nil, err
			}
			k, err := kernelSpec(c.op, a.Model.Kernel.Kernel, a.Model.Kernel.Depth, a.Model.Kernel.Gamma, d)
			if err != nil {
				return nil, err
			}
			if m, err = krr.NewKernelModel(k, train, coef, a.Model.Bias, a.Model.Task, a.Model.Lambda, nil); err != nil {
				return nil, err
			}
		default:
			return nil, typeErr("%s: model is not a fitted model (kind %q)", c.op, a.Model.Kind)
		}
		n, _ := X.Dims()
		c.progress(0, n, "predict")
		S, err := m.Predict(X)
		if err != nil {
			return nil, err
		}
		labels := m.Labels(S)
		c.progress(n, n, "predict")
		out := struct {
			Labels ArrayRef   `json:"labels"`
			Scores *MatrixRef `json:"scores,omitempty"`
		}{Labels: c.putArray(labels)}
		if a.Scores {
			r := c.putMatrix(S)
			out.Scores = &r
		}
		return out, nil
	}
}

type partsJSON struct {
	Rows int      `json:"rows"`
	Mu   ArrayRef `json:"mu"`
	Ybar ArrayRef `json:"ybar"`
	C    ArrayRef `json:"C"`
	D    ArrayRef `json:"D"`
	E    ArrayRef `json:"E"`
}
