package pipeline

import (
	"context"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// Config selects a pipeline. The zero value is the documented default of
// every host: the NTK, whose method, depth, preprocessing and λ are chosen
// for the data ("auto"): the method by the cost model (cost.go: the exact
// kernel where its fit is cheaper than rf.DefaultDim features or the
// search, else NTK features, seed 0, with m grown where the rows are many;
// Selection.Method), the depth and preprocessing among Search's
// candidates by exact leave-one-out with the exact NTK on a sample of the
// rows, then λ by the task's criterion on all rows (krr.Criterion).
// Fixing a setting skips its search; giving a kernel or any feature width
// fixes the method.
type Config struct {
	// Preprocess, when set, is fitted on the training rows after
	// imputation (&data.Prep{}: standardize); nil chooses among
	// Search.Preprocess.
	Preprocess *data.Prep
	// Groups are the one-hot blocks of X (Dataset.Groups), imputed as a
	// whole; nil treats every column as numeric. FitDataset sets them.
	Groups []data.Group
	// Features are the random features (ignored when Kernel is set). A
	// Depth of 0 is chosen among Search.Depths for the methods that have
	// one (ntk, nngp, naive, grad).
	Features rf.Config
	// Kernel, when not nil, fits an exact kernel in the dual instead:
	// O(n²) memory, O(n³) time. A Depth of 0 (ntk, nngp) is chosen.
	Kernel *kernel.Spec
	// Ridge sets λ (0: chosen), its criterion and grid, the task and the
	// classes; Fit's ctx stops the fit, Ridge.Progress reports it.
	Ridge krr.Options
	// Search holds the candidates of the settings left open.
	Search Search
	// Input is the schema of the Dataset the rows come from (FitDataset
	// sets it): the task, the classes and the one-hot groups are its (a
	// task, classes or groups given besides must agree), and the model
	// keeps it to read CSV rows (PredictCSV). nil: rows of a matrix.
	Input *data.Schema `json:",omitempty"`
	// ClassNames name the classes of a classification fitted from a
	// matrix, one per class (nil: "0"…"k−1"); with Input, its classes.
	ClassNames []string `json:",omitempty"`

	// carryLambda: 'auto' chose the exact kernel at the chosen
	// candidate's λ (methodChoice.Carry); set on an open plan's
	// configuration from its search, so it is not written anywhere.
	carryLambda bool
}

// Pipeline is a fitted model: the preprocessing, the feature map (by its
// configuration and seed) or the exact kernel, and the ridge solution; with
// the input schema and class names when it was fitted from a Dataset.
type Pipeline struct {
	input     *data.Schema // nil when fitted from a matrix
	classes   []string     // class names, one per output (classification)
	scaler    *data.Scaler
	fmap      *rf.Map      // primal
	kern      *kernel.Spec // dual, filled
	model     *krr.Model
	selection *Selection // nil when nothing was chosen
}

// Fit fits a pipeline on the rows of X and targets y (class indices 0…k−1
// for classification, values for regression). Class names are "0"…"k−1"
// unless cfg.ClassNames names them.
// It stops between row blocks and stages once ctx is cancelled.
func Fit(ctx context.Context, X *mat.Dense, y []float64, cfg Config) (*Pipeline, error) {
	return fit(ctx, X, y, cfg)
}

// FitDataset fits a pipeline on a parsed data set: its task, classes and
// one-hot groups are used (cfg.Ridge.Task and Classes must be unset or
// agree), and its schema travels with the model so that PredictCSV reads
// new files the same way.
func FitDataset(ctx context.Context, ds *data.Dataset, cfg Config) (*Pipeline, error) {
	if ds == nil || ds.X == nil {
		return nil, check.New(check.Type, "", "pipeline: the data set is nil")
	}
	s := ds.Schema()
	cfg.Input = &s
	return fit(ctx, ds.X, ds.Y, cfg)
}

func fit(ctx context.Context, X *mat.Dense, y []float64, cfg Config) (*Pipeline, error) {
	return promptly(ctx, "pipeline: fit", cfg.Ridge.Progress, func(report func(done, total int, stage string)) (*Pipeline, error) {
		cfg.Ridge.Progress = report
		return fitSteps(ctx, X, y, cfg)
	})
}

func fitSteps(ctx context.Context, X *mat.Dense, y []float64, cfg Config) (*Pipeline, error) {
	// The protocol of every host (see Plan), with one part: the 'auto'
	// selection on the rows it names, then the fit.
	plan, stats, _, err := selectOn(ctx, X, y, cfg)
	if err != nil {
		return nil, err
	}
	scaler, err := plan.Scaler(stats)
	if err != nil {
		return nil, err
	}
	part, err := plan.NewPart(scaler)
	if err != nil {
		return nil, err
	}
	if err := part.Add(ctx, X, y, 0); err != nil {
		return nil, err
	}
	return plan.Solve(ctx, scaler, part)
}

// checkTargets checks what the search reads before krr would: one target
// per row.
func checkTargets(X *mat.Dense, y []float64) error {
	if n, _ := X.Dims(); n != len(y) {
		return check.New(check.Shape, "", "pipeline: X has %d rows but y has %d values; give one target per row", n, len(y))
	}
	return nil
}

// progress reports a stage of the pipeline through the ridge options.
func progress(opt krr.Options, done, total int, stage string) {
	if opt.Progress != nil {
		opt.Progress(done, total, stage)
	}
}

// indexNames names classes by their index.
func indexNames(k int) []string {
	names := make([]string, k)
	for i := range names {
		names[i] = strconv.Itoa(i)
	}
	return names
}

// components are the pieces of a pipeline the solve puts together.
type components struct {
	Input     *data.Schema // nil: fitted from a matrix
	Classes   []string     // nil: "0"…"k−1"
	Scaler    *data.Scaler
	Map       *rf.Map      // primal
	Kernel    *kernel.Spec // dual
	Model     *krr.Model
	Selection *Selection // nil: nothing was chosen (from Select)
}

// assemble checks that parts fit together and makes them a pipeline.
func assemble(parts components) (*Pipeline, error) {
	f := file{
		Format: Format, Version: Version, Input: parts.Input, Classes: parts.Classes, Preprocess: parts.Scaler,
		Selection: parts.Selection,
	}
	if parts.Model == nil || parts.Scaler == nil || (parts.Map == nil) == (parts.Kernel == nil) {
		return nil, check.New(check.Type, "", "pipeline: parts need a model, a scaler, and a feature map or a kernel")
	}
	m := parts.Model
	f.Task, f.Lambda, f.Curve = m.Task(), m.Lambda(), curve(m.Curve())
	if s := parts.Selection; s != nil && s.Carry && len(f.Curve) == 0 {
		// Fitted at the chosen candidate's λ: its curve is the model's.
		f.Curve = slices.Clone(s.Curve)
	}
	coef, bias := m.Coefficients()
	f.Coef, f.Bias = matrixOf(coef), numbers(bias)
	if parts.Map != nil {
		cfg := parts.Map.Config()
		f.Features = &cfg
	} else {
		f.Kernel = parts.Kernel
		f.Train = matrixOf(m.TrainRows())
	}
	if f.Classes == nil && f.Task == krr.Classification {
		f.Classes = indexNames(m.Outputs())
	}
	return f.pipeline(parts.Map)
}

// Task is krr.Classification or krr.Regression.
func (p *Pipeline) Task() krr.Task { return p.model.Task() }

// Classes returns the class names (classification): label i is Classes()[i].
func (p *Pipeline) Classes() []string { return slices.Clone(p.classes) }

// Input returns the schema of the data set the pipeline was fitted on, or
// nil when it was fitted from a matrix.
func (p *Pipeline) Input() *data.Schema { return p.input }

// Lambda is the ridge λ of the solution.
func (p *Pipeline) Lambda() float64 { return p.model.Lambda() }

// Curve is the score of every λ tried (empty when λ was fixed; for an
// exact fit at the search's λ, Selection.Carry, the chosen candidate's
// curve on the rows searched).
func (p *Pipeline) Curve() []krr.CurvePoint { return p.model.Curve() }

// Preprocess is the preprocessing fitted (fixed or chosen).
func (p *Pipeline) Preprocess() data.Prep { return p.scaler.Prep() }

// Selection reports the depth and preprocessing search, or nil when both
// were fixed. The λ search on all rows is Curve.
func (p *Pipeline) Selection() *Selection { return p.selection }

// Features returns the feature map's configuration with its defaults filled
// in, or nil for an exact-kernel pipeline.
func (p *Pipeline) Features() *rf.Config {
	if p.fmap == nil {
		return nil
	}
	c := p.fmap.Config()
	return &c
}

// Kernel returns the exact kernel, or nil for a random-feature pipeline.
func (p *Pipeline) Kernel() *kernel.Spec { return p.kern }

// Cols is the number of columns of the X that Predict and Scores take.
func (p *Pipeline) Cols() int { return p.scaler.Cols() }

// Scores returns the model's outputs for the rows of X (columns as the
// training X): one column per class, or one value per row.
func (p *Pipeline) Scores(X *mat.Dense) (*mat.Dense, error) {
	if X == nil || X.IsEmpty() {
		return nil, check.New(check.Shape, "", "pipeline: X is empty; it needs at least one row")
	}
	if _, d := X.Dims(); d != p.Cols() {
		return nil, check.New(check.Shape, "", "pipeline: X has %d columns but the model was fitted on %d", d, p.Cols())
	}
	Xs, err := p.scaler.Apply(nil, X)
	if err != nil {
		return nil, err
	}
	return p.model.Predict(Xs)
}

// Predict returns one prediction per row of X: the class index (see
// Classes) or the value.
func (p *Pipeline) Predict(X *mat.Dense) ([]float64, error) {
	S, err := p.Scores(X)
	if err != nil {
		return nil, err
	}
	return p.model.Labels(S), nil
}

// Labels turns scores (from Scores) into predictions: the class index of
// the largest score, or the value.
func (p *Pipeline) Labels(S *mat.Dense) []float64 { return p.model.Labels(S) }

// ReadCSV reads the rows of a delimited file (plain or gzip) through the
// model's input schema; see data.Schema.Read. maxBytes 0 means
// data.DefaultMaxBytes. A pipeline fitted from a matrix has no schema and
// returns an error.
func (p *Pipeline) ReadCSV(b []byte, maxBytes int) (*mat.Dense, error) {
	if p.input == nil {
		return nil, check.New(check.Value, "", "pipeline: this model was fitted from a matrix, so it has no input schema to read a CSV file with; fit it from a parsed data set, or predict from a matrix")
	}
	return p.input.Read(b, maxBytes)
}

// PredictCSV predicts every data row of a delimited file read with
// ReadCSV: class indices (see Classes) or values.
func (p *Pipeline) PredictCSV(b []byte, maxBytes int) ([]float64, error) {
	X, err := p.ReadCSV(b, maxBytes)
	if err != nil {
		return nil, err
	}
	return p.Predict(X)
}
