// Package seam joins the fit's protocol to the package that exports it.
//
// ntkrf/core/pipeline implements the protocol (its Fit is the protocol
// with one part, and the solve assembles a pipeline from its unexported
// parts); ntkrf/core/protocol exports it to hosts. protocol imports
// pipeline for the user's types (Config, Selection, Candidate, Pipeline),
// so pipeline cannot import protocol: pipeline registers its
// implementation here when it is initialised, and protocol's types wrap
// it. The implementation stays unexported in pipeline, and pipeline's
// exported API stays the user's.
//
// The type parameters are pipeline's types, which this package cannot
// import: C its Config, S its Selection, K its Candidate, M its Pipeline.
package seam

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/linalg"
)

// Scored is one candidate of a selection scored (protocol.Scored's
// fields): its index, its candidate at its best λ, and its validated loss
// on each row searched; with a screen (successive halving) a kept
// candidate's screen score, and the λ curve the fit carries.
type Scored[K any] struct {
	Index     int       `json:"index"`
	Candidate K         `json:"candidate"`
	Losses    []float64 `json:"losses"`
	Screen    *K        `json:"screen,omitempty"`
	Curve     krr.Curve `json:"curve,omitempty"`
}

// Plan is a settled or open plan (protocol.Plan's methods).
type Plan[C, S, K, M any] interface {
	Rows() int
	Cols() int
	Task() krr.Task
	Classes() int
	Criterion() krr.Criterion
	Dim() int
	Collects() bool
	Holdout() krr.HoldoutCut
	Config() C
	Digest() [32]byte
	AppendBinary(b []byte) []byte
	Advice() []string
	Chunks(maxBytes int) [][2]int
	WithProgress(progress func(done, total int, stage string)) Plan[C, S, K, M]
	WithHelper(peer linalg.Peer) Plan[C, S, K, M]
	Shares() bool
	NewStats() *data.Stats
	Scaler(s *data.Stats) (*data.Scaler, error)
	SearchRows() []int
	Candidates() int
	Select(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats) (Plan[C, S, K, M], *S, error)
	Score(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats, part, parts int) ([]Scored[K], error)
	Screen() (rows, keep int)
	ScoreScreen(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats, part, parts int) ([]Scored[K], error)
	ScoreKept(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats, screened []Scored[K], part, parts int) ([]Scored[K], error)
	Choose(scored []Scored[K]) (Plan[C, S, K, M], *S, error)
	NewPart(s *data.Scaler) (Part, error)
	DecodePart(b []byte) (Part, error)
	// Solve solves the merged part (nil: none).
	Solve(ctx context.Context, s *data.Scaler, part Part) (*M, error)
}

// Part is a part of a plan's rows (protocol.Part's methods).
type Part interface {
	Rows() int
	Spans() [][2]int
	Add(ctx context.Context, X *mat.Dense, y []float64, first int) error
	// Merge merges o (nil: none) into the part.
	Merge(o Part) error
	MergeBinary(b []byte) error
	AppendBinary(b []byte) []byte
	// Compact lets the part's scratch memory go.
	Compact()
}

// Protocol is what the implementation registers: the protocol's
// constructors.
type Protocol[C, S, K, M any] struct {
	NewPlan    func(cfg C, rows, cols int, y []float64) (Plan[C, S, K, M], error)
	DecodePlan func(b []byte) (Plan[C, S, K, M], error)
}

var registered any

// Register makes p the protocol's implementation; pipeline calls it once,
// in init.
func Register[C, S, K, M any](p Protocol[C, S, K, M]) { registered = p }

// Get returns the implementation registered with these type arguments.
// It panics when none is: the exporting package imports the implementing
// one, so its init has run.
func Get[C, S, K, M any]() Protocol[C, S, K, M] {
	return registered.(Protocol[C, S, K, M])
}
