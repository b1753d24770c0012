package krr

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/kernel"
	"ntkrf/core/linalg"
	"ntkrf/internal/check"
)

// Model is a fitted ridge regression: scores = bias + φ(x)ᵀW (primal) or
// bias + k(x, X)α (dual), one column per output.
type Model struct {
	task      Task
	classes   int
	blockRows int
	lambda    float64
	curve     []CurvePoint
	bias      []float64

	// Primal.
	f Featurizer
	w *mat.Dense // m×outputs

	// Dual.
	kernel kernel.Spec
	x      *mat.Dense // training rows (a copy)
	alpha  *mat.Dense // n×outputs
}

// Lambda returns the ridge λ used.
func (m *Model) Lambda() float64 { return m.lambda }

// Curve returns the λ curve that was searched (nil when λ was fixed).
func (m *Model) Curve() []CurvePoint { return append([]CurvePoint(nil), m.curve...) }

// Outputs returns the number of score columns: the classes, or 1.
func (m *Model) Outputs() int { return len(m.bias) }

// SetFeaturizer attaches the feature map to a model solved from an
// Accumulator, so that Predict takes inputs rather than features.
func (m *Model) SetFeaturizer(f Featurizer) error {
	if err := checkFeaturizer(f); err != nil {
		return err
	}
	if m.w == nil {
		return check.New(check.Type, "", "krr: this model was fitted on a kernel; it has no feature weights")
	}
	if r, _ := m.w.Dims(); f.Dim() != r {
		return check.New(check.Shape, "", "krr: the featurizer has %d features but the model has %d; use the map the model was fitted with", f.Dim(), r)
	}
	m.f = f
	return nil
}

// float32Features reports whether f says its features are computed in
// float32 (a Float32 method, as *rf.Map has).
func float32Features(f Featurizer) bool {
	p, ok := f.(interface{ Float32() bool })
	return ok && p.Float32()
}

// FitFeatures fits ridge regression on the features f(X) in the primal:
// it accumulates C = ΦcᵀΦc and ΦcᵀYc over blocks of Options.BlockRows rows
// (never holding all of Φ), chooses λ from one eigendecomposition of C
// unless Options.Lambda fixes it, and solves (C + λI)W = ΦcᵀYc by
// Cholesky. The cost is O(n·m² + m³) time and O(m² + BlockRows·m) memory;
// criterion LOO featurizes the rows a second time.
func FitFeatures(f Featurizer, X *mat.Dense, y []float64, opt Options) (*Model, error) {
	return FitFeaturesContext(context.Background(), f, X, y, opt)
}

// FitFeaturesContext is FitFeatures stopping between row blocks and
// stages once ctx is cancelled; it then returns ctx's error.
func FitFeaturesContext(ctx context.Context, f Featurizer, X *mat.Dense, y []float64, opt Options) (*Model, error) {
	if err := checkFeaturizer(f); err != nil {
		return nil, err
	}
	opt, err := opt.checked(y, true)
	if err != nil {
		return nil, err
	}
	if err := checkXY(X, y, opt); err != nil {
		return nil, err
	}
	n, d := X.Dims()
	if d != f.InputDim() {
		return nil, check.New(check.Shape, "", "krr: X has %d columns but the featurizer takes %d; use inputs of the dimension the map was built for", d, f.InputDim())
	}
	m := f.Dim()
	if Dual(n, m) {
		return fitFeaturesDual(ctx, f, X, y, opt)
	}
	opt = opt.GramFor(float32Features(f), n, m)
	criterion := opt.CriterionFor(false)
	acc, err := NewAccumulator(m, opt)
	if err != nil {
		return nil, err
	}
	if err := check.Alloc("feature block", min(opt.BlockRows, n), m); err != nil {
		return nil, wrap(err)
	}
	blocks := (n + opt.BlockRows - 1) / opt.BlockRows
	passes := 1
	if opt.Lambda == 0 && criterion == LOO {
		passes = 2
	}
	total := blocks*passes + 2
	var buf *mat.Dense
	// forBlocks featurizes X block by block into the reused buffer.
	forBlocks := func(stage string, done0 int, do func(phi *mat.Dense, yb []float64, owned bool) error) error {
		for b := 0; b < blocks; b++ {
			if err := cancelled(ctx); err != nil {
				return err
			}
			lo, hi := b*opt.BlockRows, min((b+1)*opt.BlockRows, n)
			var dst *mat.Dense
			if buf != nil {
				dst = buf.Slice(0, hi-lo, 0, m).(*mat.Dense)
			}
			phi, err := f.Transform(dst, X.Slice(lo, hi, 0, d).(*mat.Dense))
			if err != nil {
				return fmt.Errorf("krr: featurizing rows %d…%d: %w", lo, hi-1, err)
			}
			if r, c := phi.Dims(); r != hi-lo || c != m {
				return check.New(check.Shape, "", "krr: the featurizer returned %d×%d for %d rows; it must return rows×Dim()", r, c, hi-lo)
			}
			if i, j, v := firstNonFinite(phi); i >= 0 {
				return check.New(check.NonFinite, "", "krr: feature %d of row %d is %v; check X for extreme values", j, lo+i, v)
			}
			// A block the featurizer allocated, or wrote into our buffer,
			// may be overwritten.
			owned := dst == nil || phi == dst
			if buf == nil && owned {
				buf = phi
			}
			if err := do(phi, y[lo:hi], owned); err != nil {
				return err
			}
			progress(opt, done0+b+1, total, stage)
		}
		return nil
	}
	// The held-out rows are left out of the sums as the blocks pass, their
	// features kept for SolveHeldOut.
	var held []int
	var phiH *mat.Dense
	if opt.Lambda == 0 && criterion == Holdout {
		if held = HoldoutRows(n); len(held) > 0 {
			phiH = mat.NewDense(len(held), m, nil)
		}
	}
	at, k := 0, 0 // first row of the block, next held-out row
	var out []int
	err = forBlocks("features", 0, func(phi *mat.Dense, yb []float64, owned bool) error {
		out = out[:0]
		for j := k; j < len(held) && held[j] < at+len(yb); j++ {
			out = append(out, held[j]-at)
		}
		at += len(yb)
		if len(out) > 0 {
			k += len(out)
			return acc.AddExcept(phi, yb, out, phiH, k-len(out))
		}
		raw := phi.RawMatrix()
		if owned && raw.Stride == m {
			// Center in place rather than copy.
			acc.addOwned(raw.Data[:len(yb)*m], yb)
			return nil
		}
		return acc.Add(phi, yb)
	})
	if err != nil {
		return nil, err
	}
	var model *Model
	switch {
	case opt.Lambda > 0:
		model, err = acc.solve(opt.Lambda, nil)
	case criterion == Holdout:
		if phiH == nil {
			// No row to hold out: SolveHeldOut says so.
			phiH = &mat.Dense{}
		}
		progress(opt, blocks+1, total, "holdout")
		yb := make([]float64, len(held))
		for i, r := range held {
			yb[i] = y[r]
		}
		model, err = acc.SolveHeldOutContext(ctx, phiH, yb)
	default:
		var s *Spectrum
		if s, err = acc.spectrum(ctx, criterion == LOO); err != nil {
			return nil, err
		}
		progress(opt, blocks+1, total, "eigen")
		var curve []CurvePoint
		if criterion == GCV {
			curve = s.GCV()
		} else {
			var sums []CurvePoint
			err = forBlocks("loo", blocks+1, func(phi *mat.Dense, yb []float64, _ bool) error {
				part, err := s.LOOSums(phi, yb)
				if err == nil {
					sums, err = AddSums(sums, part)
				}
				return err
			})
			if err != nil {
				return nil, err
			}
			if curve, err = s.LOOCurve(sums); err != nil {
				return nil, err
			}
		}
		model, err = s.Solve(curve)
	}
	if err != nil {
		return nil, err
	}
	progress(opt, total, total, "solve")
	model.f = f
	return model, nil
}

// firstNonFinite returns the row, column and value of the first NaN or ±Inf
// in A, or row −1.
func firstNonFinite(A *mat.Dense) (int, int, float64) {
	r, _ := A.Dims()
	for i := 0; i < r; i++ {
		for j, v := range A.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return i, j, v
			}
		}
	}
	return -1, 0, 0
}

func progress(opt Options, done, total int, stage string) {
	if opt.Progress != nil {
		opt.Progress(done, total, stage)
	}
}

// checkXY validates X and y together.
func checkXY(X *mat.Dense, y []float64, opt Options) error {
	if err := check.Matrix("X", X); err != nil {
		return wrap(err)
	}
	n, _ := X.Dims()
	if n != len(y) {
		return check.New(check.Shape, "", "krr: X has %d rows but y has %d values; give one target per row", n, len(y))
	}
	if n < 2 {
		return check.New(check.Shape, "", "krr: %d rows given; ridge regression needs at least 2", n)
	}
	if err := checkTargets(y, opt, 0); err != nil {
		return err
	}
	if opt.Task == Classification {
		first := y[0]
		for _, v := range y {
			if v != first {
				return nil
			}
		}
		return check.New(check.Data, "", "krr: every row is of class %v; classification needs at least two classes", first)
	}
	return nil
}

// Predict returns the n×Outputs() scores for the rows of X: class scores
// (near one-hot) for classification, the predicted value for regression.
// A model solved from an Accumulator without SetFeaturizer takes feature
// rows Φ instead of inputs. A score that overflows float64 (a row far
// larger than the training rows) is an error naming the row, never a NaN
// or ±Inf handed on.
func (m *Model) Predict(X *mat.Dense) (*mat.Dense, error) {
	if err := check.Matrix("X", X); err != nil {
		return nil, wrap(err)
	}
	n, d := X.Dims()
	k := len(m.bias)
	want := 0
	switch {
	case m.w != nil && m.f != nil:
		want = m.f.InputDim()
	case m.w != nil:
		want, _ = m.w.Dims()
	default:
		_, want = m.x.Dims()
	}
	if d != want {
		return nil, check.New(check.Shape, "", "krr: X has %d columns but the model takes %d; use rows like the training rows", d, want)
	}
	if err := check.Alloc("prediction matrix", n, k); err != nil {
		return nil, wrap(err)
	}
	out := mat.NewDense(n, k, nil)
	var buf *mat.Dense
	for lo := 0; lo < n; lo += m.blockRows {
		hi := min(lo+m.blockRows, n)
		xb := X.Slice(lo, hi, 0, d).(*mat.Dense)
		ob := out.Slice(lo, hi, 0, k).(*mat.Dense)
		switch {
		case m.w != nil && m.f != nil:
			var dst *mat.Dense
			if buf != nil {
				dst = buf.Slice(0, hi-lo, 0, m.f.Dim()).(*mat.Dense)
			}
			phi, err := m.f.Transform(dst, xb)
			if err != nil {
				return nil, fmt.Errorf("krr: featurizing rows %d…%d: %w", lo, hi-1, err)
			}
			if buf == nil {
				buf = phi
			}
			mulRows(ob, phi, m.w)
		case m.w != nil:
			mulRows(ob, xb, m.w)
		default:
			kb, err := m.kernel.Gram(xb, m.x)
			if err != nil {
				return nil, wrap(err)
			}
			mulRows(ob, kb, m.alpha)
		}
	}
	for i := 0; i < n; i++ {
		row := out.RawRowView(i)
		for o := range row {
			row[o] += m.bias[o]
			if v := row[o]; math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, check.New(check.NonFinite, "", "krr: the score of row %d (output %d) is %v: the row is too large for the model's coefficients in float64; scale the rows as the training rows were", i, o, v)
			}
		}
	}
	return out, nil
}

// PredictLabels returns the predicted class index (the argmax of the
// scores) for classification, or the predicted value for regression.
func (m *Model) PredictLabels(X *mat.Dense) ([]float64, error) {
	s, err := m.Predict(X)
	if err != nil {
		return nil, err
	}
	return m.Labels(s), nil
}

// Labels turns scores from Predict into labels as PredictLabels does. A
// row holding a NaN or ±Inf score (which Predict never returns) gets the
// label NaN rather than an arbitrary class, so that the metrics refuse it.
func (m *Model) Labels(scores *mat.Dense) []float64 {
	n, _ := scores.Dims()
	labels := make([]float64, n)
	for i := range labels {
		row := scores.RawRowView(i)
		if m.task != Classification {
			labels[i] = row[0]
			continue
		}
		labels[i] = classOf(row)
	}
	return labels
}

// classOf is the class of a row of scores: the index of the largest (the
// first on ties), or NaN when a score is NaN or ±Inf.
func classOf(row []float64) float64 {
	best := 0
	for o, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return math.NaN()
		}
		if v > row[best] {
			best = o
		}
	}
	return float64(best)
}

// checkFitted returns an error unless the fitted coefficients and biases
// are finite: extreme inputs can overflow a solve that succeeded.
func checkFitted(coef *mat.Dense, bias []float64, lambda float64) error {
	bad := func(v float64) error {
		return check.New(check.NonFinite, "", "krr: the model fitted at λ = %g has a coefficient %v; the inputs are too large or too small for float64: standardize them, or use a larger λ", lambda, v)
	}
	if i, _, v := firstNonFinite(coef); i >= 0 {
		return bad(v)
	}
	for _, b := range bias {
		if math.IsNaN(b) || math.IsInf(b, 0) {
			return bad(b)
		}
	}
	return nil
}

// fitFeaturesDual fits on the features in the dual when there are no more
// rows than features: the n×n matrix ΦΦᵀ is smaller than the m×m ΦᵀΦ and
// gives the same model, with W = Φᵀα. Exact LOO is then as cheap as GCV.
func fitFeaturesDual(ctx context.Context, f Featurizer, X *mat.Dense, y []float64, opt Options) (*Model, error) {
	n, _ := X.Dims()
	m := f.Dim()
	if err := check.Alloc("feature matrix", n, m); err != nil {
		return nil, wrap(err)
	}
	progress(opt, 0, 1, "features")
	phi, err := f.Transform(nil, X)
	if err != nil {
		return nil, fmt.Errorf("krr: featurizing the rows: %w", err)
	}
	if r, c := phi.Dims(); r != n || c != m {
		return nil, check.New(check.Shape, "", "krr: the featurizer returned %d×%d for %d rows; it must return rows×Dim()", r, c, n)
	}
	if err := check.Matrix("Phi", phi); err != nil {
		return nil, wrap(err)
	}
	if err := cancelled(ctx); err != nil {
		return nil, err
	}
	K := outer(phi)
	alpha, bias, lambda, curve, err := fitGram(ctx, K, y, opt)
	if err != nil {
		return nil, err
	}
	W := mat.NewDense(m, len(bias), nil)
	W.Mul(phi.T(), alpha)
	if err := checkFitted(W, bias, lambda); err != nil {
		return nil, err
	}
	return &Model{
		task: opt.Task, classes: opt.Classes, blockRows: opt.BlockRows,
		lambda: lambda, curve: curve, bias: bias, f: f, w: W,
	}, nil
}

// outer returns ΦΦᵀ, computed as (Φᵀ)ᵀ(Φᵀ) on the Gram kernel.
func outer(phi *mat.Dense) *mat.Dense {
	n, m := phi.Dims()
	raw := phi.RawMatrix()
	data := raw.Data
	if raw.Stride != m {
		data = mat.DenseCopyOf(phi).RawMatrix().Data
	}
	k := make([]float64, n*n)
	linalg.AddAtA(k, linalg.Transpose(data[:n*m], n, m), m, n)
	for i := 1; i < n; i++ {
		for j := 0; j < i; j++ {
			k[i*n+j] = k[j*n+i]
		}
	}
	return mat.NewDense(n, n, k)
}

// mulRows sets c to ab with mat.Dense.Mul's bits (linalg.MulRows), without
// gonum's call per entry of a (and, in WebAssembly, its goroutines): the
// scores of a block of rows from their features, columns or kernel.
func mulRows(c, a, b *mat.Dense) {
	rc, ra, rb := c.RawMatrix(), a.RawMatrix(), b.RawMatrix()
	linalg.MulRows(rc.Data, rc.Stride, ra.Data, ra.Stride, rb.Data, rb.Stride, ra.Rows, ra.Cols, rb.Cols)
}
