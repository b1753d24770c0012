package jsbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"ntkrf/core/auto"
	"ntkrf/core/rf"
	"unsafe"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/linalg"
	"ntkrf/core/names"
	"ntkrf/core/pipeline"
	"ntkrf/core/protocol"
	"ntkrf/internal/check"
)

// The fit of fitRidge is the core's protocol (protocol.Plan), each step
// an op that converts around it: fitPlan settles the plan, fitStats
// computes a chunk's statistics, fitPart a chunk's part (the scaler of
// the merged statistics, then the rows), fitSolve merges the parts and
// solves. The package only schedules them (www/pkg/fit.js): which worker
// runs which chunk, in what order the wire forms come back.

// fitArgs are a fit's options as fitPlan receives them: the shape, the
// options ('auto' ones included), and where the rows come from (a
// Dataset's schema, or the names of text labels' classes). Every later
// step receives the plan fitPlan (or select) made, as bytes.
type fitArgs struct {
	ridgeArgs
	Rows int `json:"rows"`
	Cols int `json:"cols"`
	// Features and Kernel may say "auto" for their depth, Preprocess for
	// itself (auto.Value): config converts them to the core's open
	// settings.
	Features   json.RawMessage       `json:"features"`
	Kernel     json.RawMessage       `json:"kernel"`
	Preprocess auto.Value[data.Prep] `json:"preprocess"`
	Search     pipeline.Search       `json:"search"`
	Groups     []data.Group          `json:"groups"`
	// Input is the schema of the Dataset the rows come from (fitRidge of
	// a Dataset): the plan takes its task, classes and groups, and the
	// model keeps it for predictCSV.
	Input *data.Schema `json:"input"`
	// ClassNames are the classes' names of a fit on text labels (the
	// labels op).
	ClassNames []string `json:"classNames"`
}

// config converts the options into the core's Config: "auto" (or nothing)
// is the core's open setting, a depth of 0 and a nil Preprocess.
func (a fitArgs) config(c *call) (pipeline.Config, error) {
	cfg := pipeline.Config{Preprocess: a.Preprocess.Ptr(), Groups: a.Groups, Search: a.Search, Ridge: a.options(c), Input: a.Input, ClassNames: a.ClassNames}
	// Two option groups for one method: the primal's features or the
	// dual's kernel (Go's Config has no "given" for features to refuse).
	if given(a.Features) && given(a.Kernel) {
		return cfg, optErr("kernel", "%s: give features (primal) or kernel (dual), not both", c.op)
	}
	if given(a.Features) {
		var f struct {
			rf.Config
			Depth auto.Value[int] `json:"depth"`
		}
		if err := c.decode(a.Features, &f); err != nil {
			return cfg, err
		}
		cfg.Features, cfg.Features.Depth = f.Config, f.Depth.Or(0)
	}
	if given(a.Kernel) {
		var k struct {
			kernel.Spec
			Depth auto.Value[int] `json:"depth"`
		}
		if err := c.decode(a.Kernel, &k); err != nil {
			return cfg, err
		}
		k.Spec.Depth = k.Depth.Or(0)
		cfg.Kernel = &k.Spec
	}
	return cfg, nil
}

// given reports whether an option was given (not absent, not null).
func given(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// newPlan settles a's fit (protocol.NewPlan; y, when given, resolves the
// task and the classes).
func (c *call) newPlan(a fitArgs, y []float64) (*protocol.Plan, error) {
	cfg, err := a.config(c)
	if err != nil {
		return nil, err
	}
	// The features' or kernel's own faults name their option under its
	// group (features.dim), as the features and kernel ops do.
	w := a.Cols
	if cfg.Preprocess != nil {
		w = cfg.Preprocess.Width(a.Cols)
	}
	if a.Cols > 0 {
		if cfg.Kernel != nil {
			_, err = kernelSpec(c.op, *cfg.Kernel, w)
		} else if _, err = cfg.Features.Resolve(w); err != nil {
			err = optionErr(c.op, err, "features")
		}
		if err != nil {
			return nil, err
		}
	}
	return protocol.NewPlan(cfg, a.Rows, a.Cols, y)
}

// plan decodes the plan a step was handed (fitPlan's or select's bytes;
// the core keeps the plans decoded last, their feature maps drawn once),
// reporting progress within the call.
func (c *call) plan(r *WireRef) (*protocol.Plan, error) {
	if r == nil {
		return nil, typeErr("%s: plan is required: the plan fitPlan or select returned", c.op)
	}
	b, err := c.wire("plan", *r)
	if err != nil {
		return nil, err
	}
	p, err := protocol.DecodePlan(b)
	if err != nil {
		return nil, err
	}
	return p.WithProgress(func(done, total int, stage string) { c.progress(done, total, stage) }), nil
}

// planOut is what the scheduler reads of a plan: its bytes, which every
// later step receives, and the chunks it schedules (at most chunkBytes
// of X each; 0: the core's protocol.ChunkBytes).
type planOut struct {
	Plan   WireRef  `json:"plan"`
	Chunks [][2]int `json:"chunks"`
	// Shares: the settled plan's solve shares its factorization with a
	// second instance when the host gives it one (fitHelp; Plan.Shares).
	Shares bool `json:"shares,omitempty"`
}

func (c *call) planOut(p *protocol.Plan, chunkBytes int) planOut {
	if chunkBytes <= 0 {
		chunkBytes = protocol.ChunkBytes
	}
	return planOut{Plan: c.putWire(p.AppendBinary(nil)), Chunks: p.Chunks(chunkBytes), Shares: p.Shares()}
}

// WireRef is a wire form (pipeline and data's binary forms) as it
// crosses: its bytes packed into a Float64Array, which moves between
// workers bit for bit.
type WireRef struct {
	Wire  ArrayRef `json:"wire"`
	Bytes int      `json:"bytes"`
}

func (c *call) putWire(b []byte) WireRef {
	return WireRef{Wire: c.putArray(floatsOf(b)), Bytes: len(b)}
}

func (c *call) wire(name string, r WireRef) ([]byte, error) {
	a, err := c.array(name, &r.Wire)
	if err != nil {
		return nil, err
	}
	if r.Bytes < 0 || r.Bytes > 8*len(a) {
		return nil, shapeErr("%s: %s holds %d bytes, not %d", c.op, name, 8*len(a), r.Bytes)
	}
	return bytesOf(a)[:r.Bytes], nil
}

// scaler fits the plan's preprocessing from the statistics of every
// chunk, merged in the order given (row order: the same bits whatever
// the workers).
func (c *call) scaler(p *protocol.Plan, refs []WireRef) (*data.Scaler, error) {
	all, err := c.stats(refs)
	if err != nil {
		return nil, err
	}
	return p.Scaler(all)
}

// stats merges the statistics of every chunk in the order given.
func (c *call) stats(refs []WireRef) (*data.Stats, error) {
	if len(refs) == 0 {
		return nil, typeErr("%s: stats is required: the statistics of every chunk (fitStats), in row order", c.op)
	}
	var all *data.Stats
	for _, r := range refs {
		b, err := c.wire("stats", r)
		if err != nil {
			return nil, err
		}
		s, err := data.DecodeStats(b)
		if err != nil {
			return nil, err
		}
		if all == nil {
			all = s
		} else if err := all.Merge(s); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// opFitPlan settles a fit (protocol.NewPlan; the targets, when given,
// settle the task and the classes): λ's criterion, the feature dimension,
// whether the parts collect their rows, and the chunks of at most
// chunkBytes of X each (0: the core's). It returns the plan's bytes, which
// every later step receives. A fit whose depth or preprocessing is "auto"
// is settled by select: its plan names the rows to gather for it
// (search), and its chunks are those the statistics are collected over.
func opFitPlan(c *call, args []byte) (any, error) {
	var a struct {
		fitArgs
		Y          *ArrayRef `json:"y"`
		ChunkBytes int       `json:"chunkBytes"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	var y []float64
	if a.Y != nil {
		var err error
		if y, err = c.array("y", a.Y); err != nil {
			return nil, err
		}
	}
	p, err := c.newPlan(a.fitArgs, y)
	if err != nil {
		// Whole-number targets without a task: krr's refusal, with the
		// calls that settle it in this API.
		if _, terr := krr.TaskOf(a.Task, a.Classes, y); y != nil && terr != nil && sameFault(err, terr) {
			return nil, fmt.Errorf("%w: fitRidge(X, y, { task: %q }) for class labels, as a classifier reads them, or fitRidge(X, y, { task: %q }) for values", err, names.Classification, names.Regression)
		}
		return nil, err
	}
	type search struct {
		Rows       []int `json:"rows"`
		Candidates int   `json:"candidates"`
		// Screen is the rows of the screen and Kept the candidates it
		// keeps (Plan.Screen), absent for none: a host with several
		// workers splits it (select's screen, then screened).
		Screen int `json:"screen,omitempty"`
		Kept   int `json:"kept,omitempty"`
	}
	out := struct {
		planOut
		Task      krr.Task      `json:"task"`
		Classes   int           `json:"classes,omitempty"`
		Criterion krr.Criterion `json:"criterion,omitempty"`
		Dim       int           `json:"dim,omitempty"`
		Collects  bool          `json:"collects"`
		Search    *search       `json:"search,omitempty"`
		// Advice is what the fit should hear before it runs, but that
		// does not stop it (Plan.Advice): the package gives it with the
		// model (model.warnings).
		Advice []string `json:"advice,omitempty"`
	}{planOut: c.planOut(p, a.ChunkBytes), Advice: advice(p.Advice()), Task: p.Task(), Classes: p.Classes(), Criterion: p.Criterion(), Dim: p.Dim(), Collects: p.Collects()}
	if rows := p.SearchRows(); rows != nil {
		screen, kept := p.Screen()
		out.Search = &search{rows, p.Candidates(), screen, kept}
	}
	return out, nil
}

// opFitStats returns the statistics of a chunk's rows, whose first row is
// row first of the fit (Plan.NewStats, AddAt).
func opFitStats(c *call, args []byte) (any, error) {
	var a struct {
		Plan  *WireRef   `json:"plan"`
		X     *MatrixRef `json:"X"`
		First int        `json:"first"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	X, err := c.matrix("X", a.X)
	if err != nil {
		return nil, err
	}
	p, err := c.plan(a.Plan)
	if err != nil {
		return nil, err
	}
	c.progress(0, 1, "preprocess")
	s := p.NewStats()
	if err := s.AddAt(X, a.First); err != nil {
		return nil, err
	}
	c.progress(1, 1, "preprocess")
	return struct {
		Stats WireRef `json:"stats"`
	}{c.putWire(s.AppendBinary(nil))}, nil
}

// opFitPart returns the part of a chunk's rows, whose first row is row
// first of the fit (Plan.NewPart, Part.Add), through the scaler of every
// chunk's statistics.
func opFitPart(c *call, args []byte) (any, error) {
	var a struct {
		Plan  *WireRef   `json:"plan"`
		Stats []WireRef  `json:"stats"`
		X     *MatrixRef `json:"X"`
		Y     *ArrayRef  `json:"y"`
		First int        `json:"first"`
		// Keep: the fit's number; the part stays in this instance,
		// merged with the fit's others made here (ops_fit_kept.go).
		Keep int `json:"keep"`
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
	// Progress within the call: the part's rows of the chunk's.
	n := len(y)
	report := c.progress
	c.progress = func(done, _ int, stage string) { report(min(done, n), n, stage) }
	p, err := c.plan(a.Plan)
	if err != nil {
		return nil, err
	}
	s, err := c.scaler(p, a.Stats)
	if err != nil {
		return nil, err
	}
	pt, err := p.NewPart(s)
	if err != nil {
		return nil, err
	}
	if err := pt.Add(context.Background(), X, y, a.First); err != nil {
		return nil, err
	}
	if a.Keep != 0 {
		rows, err := keepPart(c.op, a.Keep, pt)
		if err != nil {
			return nil, err
		}
		return struct {
			Kept int `json:"kept"`
		}{rows}, nil
	}
	return struct {
		Part WireRef `json:"part"`
	}{c.putWire(pt.AppendBinary(nil))}, nil
}

// opFitSolve merges the parts of every chunk in the order given (after
// the part this instance keeps for the fit, given keep) and solves
// (Plan.Solve), returning the model (which keeps what the plan holds: the
// data set's schema or the class names, the selection).
func opFitSolve(c *call, args []byte) (any, error) {
	if c.peer != nil {
		// The helper serves until told the solve is over, whatever it returned.
		defer func() { _ = linalg.EndShare(c.peer) }()
	}
	var a struct {
		Plan  *WireRef  `json:"plan"`
		Stats []WireRef `json:"stats"`
		Parts []WireRef `json:"parts"`
		Keep  int       `json:"keep"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	p, err := c.plan(a.Plan)
	if err != nil {
		return nil, err
	}
	s, err := c.scaler(p, a.Stats)
	if err != nil {
		return nil, err
	}
	if len(a.Parts) == 0 && a.Keep == 0 {
		return nil, typeErr("%s: parts is required: the part of every chunk (fitPart), in row order", c.op)
	}
	var all *protocol.Part
	if a.Keep != 0 {
		if all, err = takePart(c.op, a.Keep); err != nil {
			return nil, err
		}
	}
	for _, r := range a.Parts {
		b, err := c.wire("parts", r)
		if err != nil {
			return nil, err
		}
		if all == nil {
			all, err = p.DecodePart(b)
		} else {
			err = all.MergeBinary(b)
		}
		if err != nil {
			return nil, err
		}
	}
	if c.peer != nil {
		p = p.WithHelper(c.peer)
	}
	pl, err := p.Solve(context.Background(), s, all)
	if err != nil {
		return nil, err
	}
	return c.putPipeline(pl)
}

// opFitHelp is the other instance of a fit whose plan Shares: given the
// link to the instance solving it (the host's, as fitSolve's), it sums the
// held-out rows while the solver searches λ and updates its half of the
// factorization's trailing matrix at each step (protocol.ServeHelper)
// until that solve ends, and returns {}.
func opFitHelp(c *call, args []byte) (any, error) {
	var a struct{}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	if c.peer == nil {
		return nil, typeErr("%s: needs the link to the instance that solves (the host's)", c.op)
	}
	if err := protocol.ServeHelper(c.peer); err != nil {
		return nil, err
	}
	return struct{}{}, nil
}

// bytesOf is the memory of f as bytes (little-endian on WebAssembly and
// the machines the tests run on), without a copy.
func bytesOf(f []float64) []byte {
	if len(f) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&f[0])), len(f)*8)
}

// opLabels turns text labels into class indices and the classes' names
// (data.TextLabels: the rule of a CSV file's text class column), for
// fitRidge and score given names where class indices go.
func opLabels(c *call, args []byte) (any, error) {
	var a struct {
		Labels []string `json:"labels"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	if len(a.Labels) == 0 {
		return nil, shapeErr("%s: no labels given", c.op)
	}
	classes, y, err := data.TextLabels(a.Labels)
	if err != nil {
		return nil, err
	}
	return struct {
		Y       ArrayRef `json:"y"`
		Classes []string `json:"classes"`
	}{c.putArray(y), classes}, nil
}

// sameFault reports whether two errors have the same code and option.
func sameFault(a, b error) bool {
	_, ca, oa, _ := JSError(a)
	_, cb, ob, _ := JSError(b)
	return ca == cb && oa == ob
}

// advice words the core's advice as the package's messages are worded
// (toJS): the method the user called, then the message without the Go
// package's prefix and with the options' JavaScript names.
func advice(lines []string) []string {
	out := make([]string, len(lines))
	for i, a := range lines {
		out[i] = toJS("fitRidge", check.New(check.Data, "", "%s", a), check.Data).Msg
	}
	return out
}
