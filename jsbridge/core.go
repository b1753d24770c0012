package jsbridge

import (
	"encoding/json"

	"ntkrf/core/errs"
	"ntkrf/core/names"
	"ntkrf/core/pipeline"
	"ntkrf/core/protocol"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// The package's own policy as a host whose memory is bounded (a browser
// tab: WebAssembly memory never shrinks, and a tab has a few GB in all):
// how it spreads a call over its workers, how long it waits for an
// instance and how often it restarts one. Stated here once; the package
// reads them through Core and writes none of its own.
const (
	// SplitSelectBytes is the largest sample of rows (the Search.Rows rows
	// of X, as float64) whose selection the package splits over its
	// workers: each worker scoring a share of the candidates holds a copy
	// of the sample; a larger one is scored in one worker.
	SplitSelectBytes = 64 << 20

	// MinBlockRows is the fewest rows the package sends one worker in a
	// block of a call it spreads over its workers (kernel, features,
	// predict): fewer rows cost more in messages than they save in time.
	MinBlockRows = 64

	// StartTimeoutMillis is how long the package waits for one WebAssembly
	// instance to start (instantiate the module, register its operations)
	// before it gives up on it and stops its worker: a start that never
	// ends must not leave the host waiting for ever. Generous, for a slow
	// or busy machine starting several instances at once (a start takes
	// well under a second on an idle one).
	StartTimeoutMillis = 60_000

	// MaxRestarts is how many times in a row the package restarts a
	// worker's instance that failed on its own (crashed while starting or
	// idle, or did not start within StartTimeoutMillis) before it gives
	// that worker up: an instance that cannot live must not be restarted
	// for ever. The calls waiting for the worker, and later calls that need
	// it, then fail with ERR_INSTANCE. A restart after a call's own crash
	// or abort is that call's and is not counted; a call answered starts
	// the count again.
	MaxRestarts = 3

	// MaxArrayValues is the most values the package puts in one array of
	// rows: a matrix it builds from an array of rows, the rows it picks by
	// index (take). 2³¹ − 1 float64 values are 16 GB, beyond any tab, and
	// the largest length every JavaScript engine gives a typed array.
	MaxArrayValues = 1<<31 - 1
)

// Limits are the sizes the package cuts a call's rows by (the core's
// chunk, and its own policy above) and waits for an instance by, and how much of a value, a list and
// a message its errors show (check's), as it receives them. The package
// keeps its own copy of those it needs before any instance has started
// (errors.js, pool.js); tests tie each copy to these.
type Limits struct {
	ChunkBytes         int `json:"chunkBytes"`
	SplitSelectBytes   int `json:"splitSelectBytes"`
	MinBlockRows       int `json:"minBlockRows"`
	StartTimeoutMillis int `json:"startTimeoutMs"`
	MaxRestarts        int `json:"maxRestarts"`
	MaxArrayValues     int `json:"maxArrayValues"`
	QuoteChars         int `json:"quoteChars"`
	ListChars          int `json:"listChars"`
	MessageChars       int `json:"messageChars"`
	// FeatureBytes is the memory of one feature value at the default
	// precision, by method, then sampler (rf.DefaultValueBytes): 4 where
	// the features are float32, 8 where float64.
	FeatureBytes map[rf.Method]map[rf.Sampler]int `json:"featureBytes"`
	// AdviceVerbs start the advice clause of a message (errs.AdviceVerbs):
	// the package splits the messages it makes itself by them, as Go's
	// errors are split (Fault, Advice).
	AdviceVerbs []string `json:"adviceVerbs"`
}

// Core is what the package and the lab read of the core besides the option
// table (Schema): every name of core/names by its Go name (names.Auto is
// Names["Auto"]), and the sizes a host schedules with. A worker sends it
// with the schema when it starts; the package shows it as Engine.names and
// Engine.limits. A test keeps Names in step with core/names. Costs is the
// core's cost model (pipeline.DefaultCosts(), Engine.costs), which the lab's
// time estimate reads as 'auto' does.
var Core = struct {
	Names  map[string]string `json:"names"`
	Limits Limits            `json:"limits"`
	Costs  pipeline.Costs    `json:"costs"`
}{
	Names: map[string]string{
		"NTK": names.NTK, "NNGP": names.NNGP, "ArcCos0": names.ArcCos0, "ArcCos1": names.ArcCos1,
		"Naive": names.Naive, "Grad": names.Grad, "RFF": names.RFF,
		"RBF": names.RBF, "Linear": names.Linear,
		"Auto":  names.Auto,
		"Split": names.Split, "TensorSketch": names.TensorSketch, "TensorSRHT": names.TensorSRHT,
		"Exact": names.Exact, "Gibbs": names.Gibbs, "Orthogonal": names.Orthogonal, "Gaussian": names.Gaussian, "Hadamard": names.Hadamard,
		"Float64": names.Float64, "Float32": names.Float32,
		"Classification": names.Classification, "Regression": names.Regression,
		"GCV": names.GCV, "LOO": names.LOO, "Holdout": names.Holdout,
		"MethodKernel": names.MethodKernel, "MethodFeatures": names.MethodFeatures,
	},
	Costs: pipeline.DefaultCosts(),
	Limits: Limits{
		ChunkBytes:         protocol.ChunkBytes,
		SplitSelectBytes:   SplitSelectBytes,
		MinBlockRows:       MinBlockRows,
		StartTimeoutMillis: StartTimeoutMillis,
		MaxRestarts:        MaxRestarts,
		MaxArrayValues:     MaxArrayValues,
		QuoteChars:         check.MaxQuoted,
		ListChars:          check.MaxListed,
		MessageChars:       check.MaxMessage,
		FeatureBytes:       rf.DefaultValueBytes(),
		AdviceVerbs:        errs.AdviceVerbs(),
	},
}

// CoreJSON is Core as the package receives it.
func CoreJSON() []byte {
	b, err := json.Marshal(Core)
	if err != nil {
		panic(err) // a static value: a test covers it
	}
	return b
}
