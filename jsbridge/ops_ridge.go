package jsbridge

import (
	"fmt"
	"hash/fnv"
	"math"

	"encoding/json"
	"sync"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
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

// scaler decodes the scaler a fit op received from fitScaler.
func scalerOf(op string, raw json.RawMessage) (*data.Scaler, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, typeErr("%s: scaler is required (from fitScaler)", op)
	}
	var s data.Scaler
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, typeErr("%s: scaler: %v", op, err)
	}
	return &s, nil
}

type fitInput struct {
	X      *MatrixRef      `json:"X"`
	Y      *ArrayRef       `json:"y"`
	Scaler json.RawMessage `json:"scaler"`
	// Input is the schema of the Dataset the rows come from (fitRidge of
	// a Dataset), saved with the model for predictCSV.
	Input *data.Schema `json:"input"`
	// Selection is what the select op chose, saved with the model.
	Selection *pipeline.Selection `json:"selection"`
}

// xy reads the rows and targets of a fit and applies the scaler.
func (c *call) xy(in fitInput) (*mat.Dense, []float64, *data.Scaler, error) {
	X, err := c.matrix("X", in.X)
	if err != nil {
		return nil, nil, nil, err
	}
	y, err := c.array("y", in.Y)
	if err != nil {
		return nil, nil, nil, err
	}
	if n, _ := X.Dims(); n != len(y) {
		return nil, nil, nil, shapeErr("%s: X has %d rows but y has %d values", c.op, n, len(y))
	}
	if len(in.Scaler) == 0 {
		// No preprocessing: X as it is (its NaN refused, not imputed).
		if err := check.Matrix("X", X); err != nil {
			return nil, nil, nil, err
		}
		s, err := data.Fit(X, nil, data.Prep{Raw: true})
		return X, y, s, err
	}
	s, err := scalerOf(c.op, in.Scaler)
	if err != nil {
		return nil, nil, nil, err
	}
	if _, d := X.Dims(); d != s.Cols() {
		return nil, nil, nil, shapeErr("%s: X has %d columns but the scaler was fitted on %d", c.op, d, s.Cols())
	}
	X, err = s.Apply(nil, X)
	return X, y, s, err
}

// modelRefs is a model as it crosses the bridge: its JSON form without the
// coef and train matrices, which travel as arrays.
type modelRefs struct {
	Model json.RawMessage `json:"model"`
	Coef  *MatrixRef      `json:"coef"`
	Train *MatrixRef      `json:"train"`
}

// putPipeline returns a pipeline as it crosses the bridge.
func (c *call) putPipeline(p *pipeline.Pipeline) (any, error) {
	header, coef, train, err := p.Split()
	if err != nil {
		return nil, err
	}
	out := struct {
		Model json.RawMessage `json:"model"`
		Coef  MatrixRef       `json:"coef"`
		Train *MatrixRef      `json:"train,omitempty"`
	}{Model: header, Coef: c.putMatrix(coef)}
	if train != nil {
		r := c.putMatrix(train)
		out.Train = &r
	}
	return out, nil
}

// assemble makes a fitted model a pipeline and returns it as it crosses.
func (c *call) assemble(in fitInput, s *data.Scaler, f *rf.Map, k *kernel.Spec, m *krr.Model) (any, error) {
	parts := pipeline.Parts{Input: in.Input, Scaler: s, Map: f, Kernel: k, Model: m, Selection: in.Selection}
	if in.Input != nil {
		parts.Classes = in.Input.Classes
	}
	p, err := pipeline.Assemble(parts)
	if err != nil {
		return nil, err
	}
	return c.putPipeline(p)
}

// decoded caches the last pipelines a worker decoded: predicting in blocks
// must not redraw a feature map for every block. The key is the header
// and a hash of the matrices' bits.
var decoded struct {
	sync.Mutex
	keys []string
	vals []*pipeline.Pipeline
}

// bitsHash is FNV-1a over the little-endian IEEE bits of the values.
func bitsHash(v []float64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	for _, x := range v {
		u := math.Float64bits(x)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	}
	return h.Sum64()
}

// pipelineOf decodes (and checks) the model of a call.
func (c *call) pipelineOf(r modelRefs) (*pipeline.Pipeline, error) {
	if len(r.Model) == 0 || string(r.Model) == "null" {
		return nil, typeErr("%s: model is required: a model from fitRidge or loadModel", c.op)
	}
	coef, err := c.matrix("model.coef", r.Coef)
	if err != nil {
		return nil, err
	}
	var train *mat.Dense
	if r.Train != nil {
		if train, err = c.matrix("model.train", r.Train); err != nil {
			return nil, err
		}
	}
	key := fmt.Sprintf("%s|%d×%d:%x", r.Model, r.Coef.Rows, r.Coef.Cols, bitsHash(coef.RawMatrix().Data))
	if train != nil {
		key += fmt.Sprintf("|%d×%d:%x", r.Train.Rows, r.Train.Cols, bitsHash(train.RawMatrix().Data))
	}
	decoded.Lock()
	defer decoded.Unlock()
	for i, k := range decoded.keys {
		if k == key {
			return decoded.vals[i], nil
		}
	}
	p, err := pipeline.Decode(r.Model, coef, train)
	if err != nil {
		return nil, err
	}
	const keep = 2
	decoded.keys = append([]string{key}, decoded.keys[:min(len(decoded.keys), keep-1)]...)
	decoded.vals = append([]*pipeline.Pipeline{p}, decoded.vals[:min(len(decoded.vals), keep-1)]...)
	return p, nil
}

// predicted returns the labels of X (and its scores when asked).
func (c *call) predicted(p *pipeline.Pipeline, X *mat.Dense, scores bool) (any, error) {
	n, _ := X.Dims()
	c.progress(0, n, "predict")
	S, err := p.Scores(X)
	if err != nil {
		return nil, err
	}
	c.progress(n, n, "predict")
	out := struct {
		Labels  ArrayRef   `json:"labels"`
		Scores  *MatrixRef `json:"scores,omitempty"`
		Classes []string   `json:"classes"`
	}{Labels: c.putArray(p.Labels(S)), Classes: p.Classes()}
	if scores {
		r := c.putMatrix(S)
		out.Scores = &r
	}
	return out, nil
}

// opFitScaler is the operation "fitScaler".
func opFitScaler(c *call, args []byte) (any, error) {
	var a prepArgs
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	X, err := c.matrix("X", a.X)
	if err != nil {
		return nil, err
	}
	c.progress(0, 1, "preprocess")
	s, err := data.Fit(X, a.Groups, a.prep())
	if err != nil {
		return nil, err
	}
	c.progress(1, 1, "preprocess")
	return s, nil
}

// opPreprocess is the operation "preprocess".
func opPreprocess(c *call, args []byte) (any, error) {
	var a prepArgs
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	X, err := c.matrix("X", a.X)
	if err != nil {
		return nil, err
	}
	if X, err = data.Prepare(X, a.Groups, a.prep()); err != nil {
		return nil, err
	}
	return c.putMatrix(X), nil
}

// opPlan is the operation "plan".
func opPlan(c *call, args []byte) (any, error) {
	var a struct {
		Rows      int         `json:"rows"`
		Cols      int         `json:"cols"`
		Features  featureArgs `json:"features"`
		Criterion string      `json:"criterion"`
		Lambda    any         `json:"lambda"`
		Task      string      `json:"task"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	if a.Rows < 1 || a.Cols < 1 {
		return nil, shapeErr("%s: %d rows × %d columns; a fit needs at least one of each", c.op, a.Rows, a.Cols)
	}
	f, err := cachedMap(c.op, a.Features, a.Cols)
	if err != nil {
		return nil, err
	}
	_, fixed := a.Lambda.(float64)
	dual := krr.Dual(a.Rows, f.Dim())
	criterion := krr.Options{Criterion: a.Criterion, Task: a.Task}.CriterionFor(dual)
	out := struct {
		Dim       int   `json:"dim"`
		OneWorker bool  `json:"oneWorker"`
		Holdout   []int `json:"holdout,omitempty"` // rows solve needs back (criterion holdout)
	}{Dim: f.Dim(), OneWorker: dual || (criterion == krr.LOO && !fixed)}
	if !out.OneWorker && !fixed && criterion == krr.Holdout {
		out.Holdout = krr.HoldoutRows(a.Rows)
	}
	return out, nil
}

// opAccumulate is the operation "accumulate".
func opAccumulate(c *call, args []byte) (any, error) {
	var a struct {
		fitInput
		Features featureArgs `json:"features"`
		Task     string      `json:"task"`
		Classes  int         `json:"classes"`
		// Keep lists rows of the chunk (ascending) left out of the sums,
		// their features coming back in phi: the held-out rows of
		// criterion holdout, which solve scores and then adds.
		Keep []int `json:"keep"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	X, y, _, err := c.xy(a.fitInput)
	if err != nil {
		return nil, err
	}
	n, d := X.Dims()
	for i, r := range a.Keep {
		if r < 0 || r >= n || (i > 0 && r <= a.Keep[i-1]) {
			return nil, optErr("keep", "%s: keep must list rows of the chunk (0 … %d) in increasing order; entry %d is %d", c.op, n-1, i, r)
		}
	}
	f, err := cachedMap(c.op, a.Features, d)
	if err != nil {
		return nil, err
	}
	opt := ridgeArgs{Task: a.Task, Classes: a.Classes}.options(c)
	acc, err := krr.NewAccumulator(f.Dim(), opt)
	if err != nil {
		return nil, err
	}
	c.progress(0, n, "features")
	var buf *mat.Dense
	var kept *mat.Dense
	if len(a.Keep) > 0 {
		kept = mat.NewDense(len(a.Keep), f.Dim(), nil)
	}
	k := 0 // next entry of Keep
	var out []int
	for lo := 0; lo < n; lo += progressRows {
		hi := min(lo+progressRows, n)
		if buf == nil || hi-lo != buf.RawMatrix().Rows {
			buf = mat.NewDense(hi-lo, f.Dim(), nil)
		}
		if _, err := f.Transform(buf, X.Slice(lo, hi, 0, d).(*mat.Dense)); err != nil {
			return nil, err
		}
		out = out[:0]
		for j := k; j < len(a.Keep) && a.Keep[j] < hi; j++ {
			out = append(out, a.Keep[j]-lo)
		}
		if err := acc.AddExcept(buf, y[lo:hi], out, kept, k); err != nil {
			return nil, err
		}
		k += len(out)
		c.progress(hi, n, "features")
	}
	p := acc.Parts()
	res := struct {
		partsJSON
		Phi *ArrayRef `json:"phi,omitempty"`
	}{partsJSON: partsJSON{Rows: p.Rows, Mu: c.putArray(p.Mu), Ybar: c.putArray(p.Ybar), C: c.putArray(p.C), D: c.putArray(p.D), E: c.putArray(p.E)}}
	if kept != nil {
		ref := c.putArray(kept.RawMatrix().Data)
		res.Phi = &ref
	}
	return res, nil
}

// opSolve is the operation "solve".
func opSolve(c *call, args []byte) (any, error) {
	var a struct {
		ridgeArgs
		Parts    []partsJSON     `json:"parts"`
		Features featureArgs     `json:"features"`
		Dim      int             `json:"dim"`
		Scaler   json.RawMessage `json:"scaler"`
		Input    *data.Schema    `json:"input"`
		// Holdout holds the targets of the rows plan named (criterion
		// holdout), and HoldoutPhi their features: accumulate's phi, in
		// the order of plan's holdout, the rows that keep left out of
		// the parts.
		Holdout    *fitInput           `json:"holdout"`
		HoldoutPhi *MatrixRef          `json:"holdoutPhi"`
		Selection  *pipeline.Selection `json:"selection"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	opt := a.options(c)
	if opt.Criterion == krr.LOO && opt.Lambda == 0 {
		return nil, optErr("criterion", "%s: criterion \"loo\" needs a second pass over the rows; use fitFeatures", c.op)
	}
	holdout := opt.Lambda == 0 && opt.CriterionFor(false) == krr.Holdout
	if holdout && (a.Holdout == nil || a.HoldoutPhi == nil) {
		return nil, optErr("criterion", "%s: criterion \"holdout\" needs the held-out rows (plan's holdout, left out of the parts by accumulate's keep): their targets in holdout {y} and accumulate's phi in holdoutPhi", c.op)
	}
	s, err := scalerOf(c.op, a.Scaler)
	if err != nil {
		return nil, err
	}
	f, err := cachedMap(c.op, a.Features, s.Cols())
	if err != nil {
		return nil, err
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
	var m *krr.Model
	if holdout {
		phi, yh, err := c.holdoutRows(*a.Holdout, a.HoldoutPhi, f)
		if err != nil {
			return nil, err
		}
		m, err = acc.SolveHeldOut(phi, yh)
	} else {
		m, err = acc.Solve()
	}
	if err != nil {
		return nil, err
	}
	if err := m.SetFeaturizer(f); err != nil {
		return nil, err
	}
	c.progress(1, 1, "solve")
	return c.assemble(fitInput{Input: a.Input, Selection: a.Selection}, s, f, nil, m)
}

// opFitFeatures is the operation "fitFeatures".
func opFitFeatures(c *call, args []byte) (any, error) {
	var a struct {
		fitInput
		ridgeArgs
		Features featureArgs `json:"features"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	X, y, s, err := c.xy(a.fitInput)
	if err != nil {
		return nil, err
	}
	_, d := X.Dims()
	f, err := cachedMap(c.op, a.Features, d)
	if err != nil {
		return nil, err
	}
	m, err := krr.FitFeatures(f, X, y, a.options(c))
	if err != nil {
		return nil, err
	}
	return c.assemble(a.fitInput, s, f, nil, m)
}

// opFitKernel is the operation "fitKernel".
func opFitKernel(c *call, args []byte) (any, error) {
	var a struct {
		fitInput
		ridgeArgs
		Kernel kernel.Spec `json:"kernel"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	X, y, s, err := c.xy(a.fitInput)
	if err != nil {
		return nil, err
	}
	n, d := X.Dims()
	k, err := kernelSpec(c.op, a.Kernel, d)
	if err != nil {
		return nil, err
	}
	if err := check.Alloc("kernel matrix", n, n); err != nil {
		return nil, err
	}
	m, err := krr.FitKernel(k, X, y, a.options(c))
	if err != nil {
		return nil, err
	}
	return c.assemble(a.fitInput, s, nil, &k, m)
}

// opLoadModel is the operation "loadModel".
func opLoadModel(c *call, args []byte) (any, error) {
	var a modelRefs
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	p, err := c.pipelineOf(a)
	if err != nil {
		return nil, err
	}
	header, _, _, err := p.Split()
	return struct {
		Model json.RawMessage `json:"model"`
	}{header}, err
}

// opPredict is the operation "predict".
func opPredict(c *call, args []byte) (any, error) {
	var a struct {
		modelRefs
		X      *MatrixRef `json:"X"`
		Scores bool       `json:"scores"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	X, err := c.matrix("X", a.X)
	if err != nil {
		return nil, err
	}
	p, err := c.pipelineOf(a.modelRefs)
	if err != nil {
		return nil, err
	}
	return c.predicted(p, X, a.Scores)
}

// opPredictCSV is the operation "predictCSV".
func opPredictCSV(c *call, args []byte) (any, error) {
	var a struct {
		modelRefs
		MaxBytes int `json:"maxBytes"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	p, err := c.pipelineOf(a.modelRefs)
	if err != nil {
		return nil, err
	}
	c.progress(0, 1, "parse")
	X, err := p.ReadCSV(c.bytes, a.MaxBytes)
	if err != nil {
		return nil, err
	}
	c.progress(1, 1, "parse")
	return c.predicted(p, X, false)
}

type partsJSON struct {
	Rows int      `json:"rows"`
	Mu   ArrayRef `json:"mu"`
	Ybar ArrayRef `json:"ybar"`
	C    ArrayRef `json:"C"`
	D    ArrayRef `json:"D"`
	E    ArrayRef `json:"E"`
}

// holdoutRows returns the features and targets of solve's held-out rows:
// accumulate's phi and in's targets.
func (c *call) holdoutRows(in fitInput, phi *MatrixRef, f *rf.Map) (*mat.Dense, []float64, error) {
	P, err := c.matrix("holdoutPhi", phi)
	if err != nil {
		return nil, nil, err
	}
	yh, err := c.array("holdout.y", in.Y)
	if err != nil {
		return nil, nil, err
	}
	if r, k := P.Dims(); r != len(yh) || k != f.Dim() {
		return nil, nil, shapeErr("%s: holdoutPhi is %d×%d; it needs one row of the %d features per held-out target (%d)", c.op, r, k, f.Dim(), len(yh))
	}
	return P, yh, nil
}
