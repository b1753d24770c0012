package krr

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/kernel"
	"ntkrf/internal/check"
)

// Parts is the state of an Accumulator as plain numbers, so that partial
// sums computed in separate processes (WebAssembly workers) can be moved
// and merged: Rows rows with feature and target means Mu (m) and Ybar (k),
// and centered co-moments C (m×m, upper triangle), D (m×k) and E (k).
type Parts struct {
	Rows     int
	Mu, Ybar []float64
	C, D, E  []float64
}

// Parts returns the accumulator's state. The slices are the accumulator's
// own: read them before the next Add.
func (a *Accumulator) Parts() Parts {
	return Parts{Rows: a.n, Mu: a.mu, Ybar: a.ybar, C: a.c, D: a.d, E: a.e}
}

// AddParts merges the state of another accumulator with the same feature
// dimension and options into a, as Merge does.
func (a *Accumulator) AddParts(p Parts) error {
	m, k := a.m, a.k
	if len(p.Mu) != m || len(p.Ybar) != k || len(p.C) != m*m || len(p.D) != m*k || len(p.E) != k {
		return check.New(check.Shape, "", "krr: parts have %d, %d, %d, %d, %d values; an accumulator of %d features and %d outputs needs %d, %d, %d, %d, %d",
			len(p.Mu), len(p.Ybar), len(p.C), len(p.D), len(p.E), m, k, m, k, m*m, m*k, k)
	}
	if p.Rows < 0 {
		return check.New(check.Value, "", "krr: parts have %d rows", p.Rows)
	}
	for _, v := range [][]float64{p.Mu, p.Ybar, p.C, p.D, p.E} {
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return check.New(check.NonFinite, "", "krr: parts hold a non-finite value")
			}
		}
	}
	if p.Rows == 0 {
		return nil
	}
	a.mergeMoments(p.Rows, p.Mu, p.Ybar, upper(p.C, m), p.D, p.E)
	return nil
}

// Coefficients returns what predictions are made of: the m×k feature
// weights W (primal) or the n×k dual coefficients α (kernel), and the bias
// per output, so that scores are ΦW + bias or K(X, X_train)α + bias.
func (m *Model) Coefficients() (*mat.Dense, []float64) {
	if m.w != nil {
		return m.w, m.bias
	}
	return m.alpha, m.bias
}

// TrainRows returns the training rows of a kernel model (the rows K is
// taken against when predicting), or nil for a feature model.
func (m *Model) TrainRows() *mat.Dense { return m.x }

// Task returns the model's task.
func (m *Model) Task() Task { return m.task }

// NewFeatureModel rebuilds a primal model from its coefficients (see
// Coefficients), e.g. in another process, with the featurizer it was fitted
// with. curve may be nil.
func NewFeatureModel(f Featurizer, W *mat.Dense, bias []float64, task Task, lambda float64, curve []CurvePoint) (*Model, error) {
	if err := checkFeaturizer(f); err != nil {
		return nil, err
	}
	if err := checkCoefficients(W, bias, task, lambda); err != nil {
		return nil, err
	}
	if r, _ := W.Dims(); f.Dim() != r {
		return nil, check.New(check.Shape, "", "krr: the featurizer has %d features but W has %d rows", f.Dim(), r)
	}
	return &Model{task: task, classes: classesOf(task, bias), blockRows: defaultBlockRows, lambda: lambda, curve: curve, f: f, w: W, bias: bias}, nil
}

// NewKernelModel rebuilds a dual model from the kernel, the training rows X
// and the coefficients α (see Coefficients).
func NewKernelModel(k kernel.Spec, X, alpha *mat.Dense, bias []float64, task Task, lambda float64, curve []CurvePoint) (*Model, error) {
	if err := checkCoefficients(alpha, bias, task, lambda); err != nil {
		return nil, err
	}
	if err := k.Validate(); err != nil {
		return nil, wrap(err)
	}
	if err := check.Matrix("X", X); err != nil {
		return nil, wrap(err)
	}
	if r, _ := alpha.Dims(); r != X.RawMatrix().Rows {
		return nil, check.New(check.Shape, "", "krr: α has %d rows but there are %d training rows", r, X.RawMatrix().Rows)
	}
	return &Model{task: task, classes: classesOf(task, bias), blockRows: defaultBlockRows, lambda: lambda, curve: curve, kernel: k, x: X, alpha: alpha, bias: bias}, nil
}

func classesOf(task Task, bias []float64) int {
	if task == Classification {
		return len(bias)
	}
	return 0
}

func checkCoefficients(W *mat.Dense, bias []float64, task Task, lambda float64) error {
	if task != Classification && task != Regression {
		return check.New(check.Option, "task", "krr: unknown task %s; use %q or %q", check.Quote(task), Classification, Regression)
	}
	if err := check.Matrix("coefficients", W); err != nil {
		return wrap(err)
	}
	if _, k := W.Dims(); k != len(bias) || (task == Regression && k != 1) {
		return check.New(check.Shape, "", "krr: coefficients have %d columns and %d biases for a %s", k, len(bias), task)
	}
	for _, b := range bias {
		if math.IsNaN(b) || math.IsInf(b, 0) {
			return check.New(check.NonFinite, "", "krr: bias %v is not finite", b)
		}
	}
	if err := check.Lambda("krr", "lambda", lambda); err != nil {
		return err
	}
	return nil
}
