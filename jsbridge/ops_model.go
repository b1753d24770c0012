package jsbridge

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"math"
	"ntkrf/core/auto"

	"encoding/json"
	"sync"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
)

// ridgeArgs are the options shared by the fitting operations.
type ridgeArgs struct {
	Lambda    auto.Value[float64] `json:"lambda"` // a number > 0, or "auto" (default)
	Criterion krr.Criterion       `json:"criterion"`
	Gram      rf.Precision        `json:"gram"`
	Grid      []float64           `json:"grid"`
	Task      krr.Task            `json:"task"`
	Classes   int                 `json:"classes"`
}

// options converts the ridge options; Dispatch has checked their values
// against the schema (lambda a number > 0 or "auto", task and criterion
// among the names).
func (a ridgeArgs) options(c *call) krr.Options {
	return krr.Options{Lambda: a.Lambda.Or(0), Criterion: a.Criterion, Gram: a.Gram, Grid: a.Grid, Task: a.Task, Classes: a.Classes,
		Progress: func(done, total int, stage string) { c.progress(done, total, stage) }}
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

func opLoadModel(c *call, args []byte) (any, error) {
	var a modelRefs
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	if c.bytes != nil {
		// The file's text, read whole and strictly as native ntkrf
		// reads it; the matrices go back as arrays.
		if a.Model != nil || a.Coef != nil || a.Train != nil {
			return nil, typeErr("%s: give the file's bytes or its parts (model, coef, train), not both", c.op)
		}
		p, err := pipeline.Load(bytes.NewReader(c.bytes))
		if err != nil {
			return nil, err
		}
		return c.putPipeline(p)
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

func opPredictCSV(c *call, args []byte) (any, error) {
	p, X, err := c.modelCSV(args)
	if err != nil {
		return nil, err
	}
	return c.predicted(p, X, false)
}

// readCSV reads a CSV file's rows through a model's input schema
// (Pipeline.ReadCSV), without predicting them: the package's predictCSV
// reads the file in one worker and predicts its rows as Model.predict
// does, in blocks over every worker. The same reader and options
// (maxBytes) as predictCSV, whose errors it gives.
func opReadCSV(c *call, args []byte) (any, error) {
	_, X, err := c.modelCSV(args)
	if err != nil {
		return nil, err
	}
	return c.putMatrix(X), nil
}

// modelCSV is the model of a predictCSV or readCSV call and the rows of
// its file, read through the model's schema.
func (c *call) modelCSV(args []byte) (*pipeline.Pipeline, *mat.Dense, error) {
	var a struct {
		modelRefs
		MaxBytes int `json:"maxBytes"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, nil, err
	}
	p, err := c.pipelineOf(a.modelRefs)
	if err != nil {
		return nil, nil, err
	}
	c.progress(0, 1, "parse")
	X, err := p.ReadCSV(c.bytes, a.MaxBytes)
	if err != nil {
		return nil, nil, err
	}
	c.progress(1, 1, "parse")
	return p, X, nil
}
