package krr

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/linalg"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// Featurizer maps rows of X to feature rows; *rf.Map satisfies it.
type Featurizer interface {
	// Dim is the number of features m.
	Dim() int
	// InputDim is the number of input columns d.
	InputDim() int
	// Transform writes the features of the rows of X into dst (len(X)×m),
	// allocating when dst is nil. Rows are independent, so X may be
	// featurized in row blocks.
	Transform(dst, X *mat.Dense) (*mat.Dense, error)
}

// MaxClasses bounds the number of classes: a model holds one column of
// coefficients per class. It is data.MaxClasses, the bound of a parsed
// target, so a table's classes always fit a model.
const MaxClasses = data.MaxClasses

// MinClasses is the fewest classes Options.Classes may give: a classifier
// separates at least two (a score counts one, see metrics.Confusion).
const MinClasses = 2

// MaxGrid bounds the λ values of Options.Grid: each costs a pass over the
// spectrum, and 10,000 already resolves λ far finer than it matters.
const MaxGrid = 10000

// checkFeaturizer refuses a nil featurizer, a typed nil (a nil *rf.Map in
// the interface) included, whose methods would panic.
func checkFeaturizer(f Featurizer) error {
	if f == nil {
		return check.New(check.Type, "", "krr: the featurizer is nil; pass the feature map the rows are featurized with")
	}
	if v := reflect.ValueOf(f); (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
		return check.New(check.Type, "", "krr: the featurizer is a nil %T; pass the feature map the rows are featurized with", f)
	}
	return nil
}

// Dual reports whether FitFeatures solves n rows of m features in the dual
// (on ΦΦᵀ, all rows at once): when there are no more rows than features.
// Hosts that split the rows over workers use the same rule.
func Dual(n, m int) bool { return n <= m }

// Options configures a fit. The zero value is a regression with λ chosen
// automatically.
type Options struct {
	// Lambda > 0 fixes the ridge; 0 chooses it from Grid by Criterion.
	Lambda float64
	// Criterion is how λ is scored: GCV, LOO or Holdout; empty chooses by
	// the solve and the task (see DefaultCriterion). Classification is scored by
	// validated accuracy (the curve's Accuracy), squared error breaking
	// ties; regression by squared error. GCV needs the eigenvalues and
	// VᵀY only, not the eigenvectors; it estimates squared error, which
	// on one-hot targets favours a λ larger than the most accurate one
	// (about 30× on Fashion-MNIST, 0.4 points of accuracy). LOO is exact
	// leave-one-out: cheap in the dual (FitKernel, and FitFeatures with no
	// more rows than features), where the eigenvectors are small; in the
	// primal it needs them at m×m and a second featurization pass.
	// Holdout (primal) keeps HoldoutRows of the rows out, fits the rest
	// at every half-decade from 10⁻⁴ to 10 times the rest's GCV choice
	// (one reduction of the rest's m×m matrix to tridiagonal form serves
	// GCV and every λ) and scores the held-out rows; the final model is
	// then fitted on all rows (one Cholesky).
	Criterion Criterion
	// Grid is the λ grid searched when Lambda is 0. Empty means 30 points
	// log-spaced over 1e-6…1e2 × s, both ends included, where s is the
	// mean eigenvalue of the matrix diagonalized: tr(Gc)/m in the primal
	// (Accumulator, and FitFeatures with more rows than features) and
	// tr(Kc)/n in the dual (FitKernel, and FitFeatures with n ≤ m rows),
	// Gc = ΦcᵀΦc and Kc = HKH being the centered Gram and kernel
	// matrices. When the
	// chosen λ is the first or last of the grid (see Model.Curve), the
	// optimum may lie outside it: pass a wider grid.
	Grid []float64
	// Task is Classification or Regression; empty means Classification
	// when Classes > 0, else Regression.
	Task Task
	// Classes is the number of classes k; y then holds class indices
	// 0…k−1. 0 lets FitFeatures and FitKernel use max(y)+1; an
	// Accumulator needs it set.
	Classes int
	// Gram is the arithmetic of the Gram step ΦᵀΦ, a primal fit's largest
	// stage: rf.Float32 (linalg.AddAtA32: each block of up to 256 rows
	// multiplied and summed in float32, then added in float64; 1.5× the
	// float64 speed with AVX-512, 1.85× with AVX2, 1.5× in WebAssembly
	// SIMD; entries move by about 1e-7 relative) or rf.Float64 (the
	// reference). Empty means DefaultGram for the task and the features'
	// precision (GramRule): FitFeatures reads the precision from the
	// featurizer, pipeline plans from their map; an Accumulator, which
	// never sees the featurizer, takes empty as float64 unless its host
	// settled it (GramFor). Without a float32 kernel (x86 without AVX2,
	// other CPUs, portable WebAssembly) float32 is float64. Dual fits have
	// no Gram step and ignore it.
	Gram rf.Precision
	// BlockRows is the number of rows featurized (or predicted) at a
	// time; 0 means 1024. Only one block of Φ is ever held.
	BlockRows int
	// Progress, when set, is called after each block or stage with the
	// work done so far, the total and the stage name ("features", "loo",
	// "eigen", "solve"; FitKernel: "kernel", "eigen", "solve").
	Progress func(done, total int, stage string) `json:"-"`
	// Helper, when set, is the other end of a factorization shared with
	// another instance (linalg.CholeskyShared): the Cholesky factorization
	// of a solve (K + λI in the dual, ΦᵀΦ + λI in the primal) at orders of
	// linalg.ShareMin or more, with the same bits. Its owner ends it
	// (linalg.EndShare).
	Helper linalg.Peer `json:"-"`
}

// GridPoints is the size of the default λ grid.
const GridPoints = gridPoints

// GridRule and CriterionRule say in words, for the hosts' documentation
// (the JavaScript schema), what an empty Grid and an empty Criterion mean:
// written beside defaultGrid and DefaultCriterion, from their constants.
var (
	GridRule      = fmt.Sprintf("%d values log-spaced over [%g, %g]·trace/m", gridPoints, gridLo, gridHi)
	CriterionRule = fmt.Sprintf("by the task: classification by validated accuracy — %s when the fit is in the dual (rows ≤ features, or an exact kernel), else %s on 1/%d of the rows up to %d; regression by squared error — %s in the dual, else %s",
		LOO, Holdout, HoldoutShare, MaxHoldoutRows, LOO, GCV)
)

// GramRule says in words, for the hosts' documentation, what an empty
// Options.Gram means (DefaultGram).
var GramRule = fmt.Sprintf("%s blocks for a classification on %s features with at least %d rows per feature, %s otherwise (regression, whose λ may sit far below the spectrum's scale; fewer rows, whose Gram matrix is near singular; float64 features)",
	rf.Float32, rf.Float32, Float32GramRows, rf.Float64)

// Float32GramRows is the fewest rows per feature for which DefaultGram
// takes float32 blocks: with rows close to m, ΦᵀΦ (and the held-out
// criterion's fit of the other rows, a fifth fewer) is near singular,
// and the blocks' rounding, about 1e-7 of its scale, then moves λ (on
// Pima Indians Diabetes at m = 512, 576 rows a fold, one fold's λ went
// from 16 to 1.2e-4 and accuracy from 0.772 to 0.742).
const Float32GramRows = 2

// DefaultGram is what an empty Options.Gram means for a fit of task on
// rows rows of dim features computed in float32 or not. Float32 blocks
// where they were measured to hold: a classification on float32 features
// with at least Float32GramRows rows per feature, whose own
// rounding (about 1e-7 relative) is already of the Gram blocks' size, and
// whose λ, chosen by accuracy, sits where an error of 1e-7 of the
// spectrum changes no prediction (docs/PERFORMANCE.md, "The float32 Gram
// on AVX2"). Float64 for regression, where GCV may choose λ down to 1e-6
// of the spectrum's scale and the solve then amplifies the blocks'
// rounding; for fewer rows (Float32GramRows); for float64 features, whose
// bits the reference path keeps.
func DefaultGram(task Task, float32Features bool, rows, dim int) rf.Precision {
	if task == Classification && float32Features && rows >= Float32GramRows*dim {
		return rf.Float32
	}
	return rf.Float64
}

// GramFor is opt with an empty Gram settled by DefaultGram for its task
// (resolved: Resolve or Labels) on rows rows of dim features computed in
// float32 or not; an explicit Gram is kept.
func (opt Options) GramFor(float32Features bool, rows, dim int) Options {
	if opt.Gram == "" {
		opt.Gram = DefaultGram(opt.Task, float32Features, rows, dim)
	}
	return opt
}

// DefaultBlockRows is the block of rows featurized at a time when
// Options.BlockRows is 0.
const DefaultBlockRows = defaultBlockRows

const (
	defaultBlockRows = 1024
	gridPoints       = 30
	gridLo, gridHi   = 1e-6, 1e2
)

// Resolve validates opt and fills in what the targets decide: the task,
// and the number of classes (max(y)+1 when 0). A host that works on a
// part of the rows (a sample, a fold) resolves on all of them first.
func (opt Options) Resolve(y []float64) (Options, error) {
	o, err := opt.checked(y, true)
	if err != nil {
		return opt, err
	}
	opt.Task, opt.Classes = o.Task, o.Classes
	return opt, nil
}

// TaskOf is the task of labels or targets y when task is not given (""):
// classification when classes is set, regression when y holds a value that
// is not a whole number, and an error otherwise: whole numbers are class
// labels as often as counts, so they are never guessed. Every host (a fit,
// a score) decides by this rule.
func TaskOf(task Task, classes int, y []float64) (Task, error) {
	switch task {
	case "":
		if classes > 0 {
			return Classification, nil
		}
		if len(y) > 0 && !slices.ContainsFunc(y, func(v float64) bool { return v != math.Trunc(v) }) {
			return "", check.New(check.Option, "task", "krr: y holds only whole numbers, which may be class labels or values; give the task, %q or %q", Classification, Regression)
		}
		return Regression, nil
	case Classification, Regression:
		return task, nil
	}
	return "", check.New(check.Option, "task", "krr: unknown task %s; use %q or %q", check.Quote(task), Classification, Regression)
}

// Labels settles what a fit of opt on targets y is, as Fit settles it: the
// task (TaskOf) and, for classification, the class count (Options.Classes,
// or the largest label + 1), every target checked. Hosts that split a fit
// over workers settle it first, so that every part fits the same task.
func (opt Options) Labels(y []float64) (task Task, classes int, err error) {
	o, err := opt.checked(y, true)
	if err == nil {
		err = checkTargets(y, o, 0)
	}
	if err != nil {
		return "", 0, err
	}
	return o.Task, o.Classes, nil
}

// checked validates opt and fills the defaults that do not depend on the
// data (criterion, task, block size). y is used to infer Classes when
// infer is set.
func (opt Options) checked(y []float64, infer bool) (Options, error) {
	if opt.Lambda != 0 {
		if err := check.Lambda("krr", "lambda", opt.Lambda); err != nil {
			return opt, err
		}
	}
	switch opt.Gram {
	case "", rf.Float32, rf.Float64:
	default:
		return opt, check.New(check.Option, "gram", "krr: unknown Gram arithmetic %s; use %q or %q, or leave it empty for the default (%s)", check.Quote(opt.Gram), rf.Float32, rf.Float64, GramRule)
	}
	switch opt.Criterion {
	case "", GCV, LOO, Holdout:
	default:
		return opt, check.New(check.Option, "criterion", "krr: unknown criterion %s; use one of %q, or leave it empty to choose by the task", check.Quote(opt.Criterion), Criteria())
	}
	if len(opt.Grid) > MaxGrid {
		return opt, check.New(check.Option, "grid", "krr: the grid has %d values, more than %d; give fewer λ", len(opt.Grid), MaxGrid)
	}
	for i, l := range opt.Grid {
		if err := check.Lambda("krr", fmt.Sprintf("grid[%d]", i), l); err != nil {
			return opt, err
		}
	}
	if opt.Classes < 0 || opt.Classes == 1 || opt.Classes > MaxClasses {
		return opt, check.New(check.Option, "classes", "krr: classes %d is out of range; use %d … %d, or 0 to infer it", opt.Classes, MinClasses, MaxClasses)
	}
	if opt.Task == "" && !infer {
		opt.Task = Regression
		if opt.Classes > 0 {
			opt.Task = Classification
		}
	}
	var err error
	if opt.Task, err = TaskOf(opt.Task, opt.Classes, y); err != nil {
		return opt, err
	}
	if opt.BlockRows < 0 {
		return opt, check.New(check.Option, "blockRows", "krr: block rows %d is negative; use a positive size or 0 for the default", opt.BlockRows)
	}
	if opt.BlockRows == 0 {
		opt.BlockRows = defaultBlockRows
	}
	if opt.Task == Classification && opt.Classes == 0 {
		if !infer {
			return opt, check.New(check.Option, "classes", "krr: classes is 0; set Options.Classes to the number of classes for an Accumulator")
		}
		top := 0.0
		for _, v := range y {
			if v > top && !math.IsInf(v, 1) {
				top = v
			}
		}
		if top >= MaxClasses {
			return opt, check.New(check.Value, "y", "krr: class index %v is too large; y must hold class indices 0…%d", top, MaxClasses-1)
		}
		opt.Classes = int(top) + 1
		if opt.Classes < MinClasses && len(y) > 0 {
			// The data's fault, not an option's: the caller gave no classes.
			return opt, check.New(check.Data, "", "krr: %s class 0 only; classification needs rows of at least %d classes", rowsAre(len(y)), MinClasses)
		}
	}
	if opt.Task == Regression {
		opt.Classes = 0
	}
	return opt, nil
}

// rowsAre says how many rows the targets hold, as the start of a sentence
// about them: "the one row is", "all 7 rows are".
func rowsAre(n int) string {
	if n == 1 {
		return "the one row is of"
	}
	return fmt.Sprintf("all %d rows are of", n)
}

// DefaultCriterion returns the criterion a fit of the task uses to choose λ when
// Options.Criterion is empty: exact leave-one-out in the dual (n rows of
// a kernel, or n ≤ m features); in the primal, Holdout for classification
// (its accuracy needs predictions, which GCV does not give) and GCV for
// regression. Hosts that split a fit use the same rule.
func DefaultCriterion(task Task, dual bool) Criterion {
	switch {
	case dual:
		return LOO
	case task == Classification:
		return Holdout
	}
	return GCV
}

// CriterionFor is the criterion a fit solved in the dual (or the primal)
// uses: Options.Criterion, or DefaultCriterion for the task when it is
// empty.
func (opt Options) CriterionFor(dual bool) Criterion {
	if opt.Criterion != "" {
		return opt.Criterion
	}
	return DefaultCriterion(opt.Task, dual)
}

// outputs is the number of target columns: one per class, or one.
func (opt Options) outputs() int {
	if opt.Task == Classification {
		return opt.Classes
	}
	return 1
}

// checkTargets reports the first bad target: non-finite, or not a class
// index in range.
func checkTargets(y []float64, opt Options, offset int) error {
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return check.New(check.NonFinite, "", "krr: y[%d] is %v; remove or impute non-finite targets", offset+i, v)
		}
		if opt.Task == Classification && (v != math.Trunc(v) || v < 0 || v >= float64(opt.Classes)) {
			return check.New(check.Value, "", "krr: y[%d] = %v is not a class index in 0…%d; encode classes as 0…k−1 or raise Options.Classes", offset+i, v, opt.Classes-1)
		}
	}
	return nil
}

// encodeRow writes the target row of y into dst (length outputs): one-hot
// for classes, the value for regression.
func encodeRow(dst []float64, y float64, task Task) {
	if task == Classification {
		clear(dst)
		dst[int(y)] = 1
		return
	}
	dst[0] = y
}

// defaultGrid is gridPoints log-spaced values over [gridLo, gridHi]·scale.
func defaultGrid(scale float64) []float64 {
	g := make([]float64, gridPoints)
	a, b := math.Log(gridLo*scale), math.Log(gridHi*scale)
	for i := range g {
		g[i] = math.Exp(a + (b-a)*float64(i)/float64(gridPoints-1))
	}
	return g
}

func wrap(err error) error { return check.Wrap("krr", err) }

// stageProgress reports the steps of one long stage (the λ search's
// reduction) through Options.Progress, or is nil.
func stageProgress(ctx context.Context, opt Options, stage string) linalg.Progress {
	if opt.Progress == nil && ctx == nil {
		return nil
	}
	return func(done, total int) bool {
		if opt.Progress != nil {
			opt.Progress(done, total, stage)
		}
		// A reduction stops at its next panel once the call is cancelled.
		return ctx != nil && ctx.Err() != nil
	}
}

// cancelled returns ctx's error once it is cancelled (a nil ctx never is).
// The fits take ctx as an argument (FitFeaturesContext, …), not in
// Options: options are a fit's settings, copied and compared; a context
// is the call's.
func cancelled(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return check.Stopped("krr: fit", err)
	}
	return nil
}
