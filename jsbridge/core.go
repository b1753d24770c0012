package jsbridge

import (
	"encoding/json"

	"ntkrf/core/names"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// Limits are the sizes the package cuts a call's rows by and waits for an
// instance by (pipeline's host sizes), and how much of a value, a list and
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
	FeatureBytes map[string]map[string]int `json:"featureBytes"`
}

// Core is what the package and the lab read of the core besides the option
// table (Schema): every name of core/names by its Go name (names.Auto is
// Names["Auto"]), and the sizes a host schedules with. A worker sends it
// with the schema when it starts; the package shows it as Engine.names and
// Engine.limits. A test keeps Names in step with core/names. Costs is the
// core's cost model (pipeline.DefaultCosts, Engine.costs), which the lab's
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
	Costs: pipeline.DefaultCosts,
	Limits: Limits{
		ChunkBytes:         pipeline.ChunkBytes,
		SplitSelectBytes:   pipeline.SplitSelectBytes,
		MinBlockRows:       pipeline.MinBlockRows,
		StartTimeoutMillis: pipeline.StartTimeoutMillis,
		MaxRestarts:        pipeline.MaxRestarts,
		MaxArrayValues:     pipeline.MaxArrayValues,
		QuoteChars:         check.MaxQuoted,
		ListChars:          check.MaxListed,
		MessageChars:       check.MaxMessage,
		FeatureBytes:       rf.DefaultValueBytes(),
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
