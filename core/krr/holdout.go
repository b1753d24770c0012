package krr

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/linalg"
	"ntkrf/internal/check"
)

// HoldoutShare is the share of the rows Holdout keeps out: 1/HoldoutShare
// of them, at most MaxHoldoutRows.
const HoldoutShare = 5

// MaxHoldoutRows bounds the rows Holdout keeps out: a fifth of the rows,
// at most this many. 2,000 rows resolve accuracy differences of a few
// tenths of a point between neighbouring λ (paired on the same rows) and
// cost one m-wide product each.
const MaxHoldoutRows = 2000

// The λ scored by Holdout are the GCV choice times 10^x for x from
// holdoutLo to holdoutHi in steps of holdoutStep: GCV estimates squared
// error, and the most accurate λ of a classifier lies at or below it (30×
// below on Fashion-MNIST with unit-norm rows). Every λ costs O(m²·k) on the
// tridiagonal form and all are scored in one batch (see SolveHeldOut).
const holdoutLo, holdoutHi, holdoutStep = -4.0, 1.0, 0.5

// HoldoutRows returns the rows (sorted) that criterion Holdout keeps out
// of a primal fit of n rows: min(n/HoldoutShare, MaxHoldoutRows) rows picked by a
// fixed hash of the row index, so every host picks the same rows without a
// seed, and rows sorted by class are still sampled evenly. It lists the
// rows NewHoldoutCut(n) holds out.
func HoldoutRows(n int) []int {
	cut := NewHoldoutCut(n)
	if cut.Rows == 0 {
		return nil
	}
	out := make([]int, 0, cut.Rows)
	for i := range n {
		if cut.Holds(uint64(i)) {
			out = append(out, i)
		}
	}
	return out
}

// mix is splitmix64's finalizer: a bijection that scatters row indices.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// SolveHeldOut chooses λ with the held-out rows Phi (features) and y,
// which were left out of the accumulator (AddExcept): the rows added are
// solved at each λ of a bracket around their GCV choice (11 λ, every
// half-decade from 10⁻⁴ to 10 times it), and the held-out rows are scored
// (accuracy for classification, squared error breaking ties; squared
// error for regression). The held-out rows are then added and the model
// solved on all rows at the chosen λ; it keeps the held-out curve. On
// return the accumulator holds all rows. Pass the rows of HoldoutRows to
// reproduce FitFeatures. A fixed Options.Lambda skips the search.
//
// The kept rows' centered Gram matrix C is reduced once to tridiagonal
// form C = QTQᵀ with Q kept (linalg.Reduce): GCV comes from T, and every λ
// scored is (C+λI)⁻¹D = Q(T+λI)⁻¹QᵀD, a tridiagonal solve and one
// application of Q, O(m²·k), where a Cholesky factorization of C+λI costs
// m³/3 per λ. The search thus costs one reduction, one application of Q to
// the k columns of every λ together, and the final Cholesky. The held-out
// rows are summed apart (an accumulator of their own, merged after the
// search): by Options.Helper while this instance searches, when it is
// set, else here, with the same bits.
func (a *Accumulator) SolveHeldOut(Phi *mat.Dense, y []float64) (*Model, error) {
	return a.SolveHeldOutContext(context.Background(), Phi, y)
}

// SolveHeldOutContext is SolveHeldOut returning ctx's error once ctx is
// cancelled between its stages.
func (a *Accumulator) SolveHeldOutContext(ctx context.Context, Phi *mat.Dense, y []float64) (*Model, error) {
	if err := check.Matrix("Phi", Phi); err != nil {
		return nil, wrap(err)
	}
	r, c := Phi.Dims()
	if c != a.m || r != len(y) {
		return nil, check.New(check.Shape, "", "krr: the held-out rows are %d×%d with %d targets; give one row of the %d features per target", r, c, len(y), a.m)
	}
	if err := checkTargets(y, a.opt, a.n); err != nil {
		return nil, err
	}
	if err := solvable(a.n+r, a.opt.Task, a.ybar, classFractions(y, a.k, a.opt.Task)); err != nil {
		return nil, err
	}
	if a.opt.Lambda > 0 {
		if err := a.mergeHeld(Phi, y); err != nil {
			return nil, err
		}
		return a.solve(a.opt.Lambda, nil)
	}
	if r < 1 || a.n < 2 {
		return nil, check.New(check.Shape, "", "krr: %d held-out rows and %d kept; keep at least one row out and two in", r, a.n)
	}
	if err := a.checkSolvable(); err != nil {
		return nil, fmt.Errorf("krr: without the held-out rows: %w", err)
	}
	if err := cancelled(ctx); err != nil {
		return nil, err
	}
	held, err := a.sendHeld(Phi, y)
	if err != nil {
		return nil, err
	}
	h, err := a.newHoldout(ctx, Phi, y)
	if err != nil {
		return nil, err
	}
	if err := cancelled(ctx); err != nil {
		return nil, err
	}
	var lams []float64
	for x := holdoutLo; x <= holdoutHi+1e-9; x += holdoutStep {
		lams = append(lams, h.center*math.Pow(10, x))
	}
	curve := h.score(lams)
	byAcc := a.opt.Task == Classification
	j, err := Best(curve, byAcc)
	if err != nil {
		return nil, err
	}
	if err := held.merge(); err != nil {
		return nil, err
	}
	return a.solve(curve[j].Lambda, curve)
}

// addRows adds Phi, y in blocks of the rows Add already made room for (at
// least 256): one 2000×m block would fault fresh memory in, slowly.
func (a *Accumulator) addRows(Phi *mat.Dense, y []float64) error {
	r, _ := Phi.Dims()
	step := max(256, cap(a.buf)/a.m)
	for lo := 0; lo < r; lo += step {
		hi := min(lo+step, r)
		if err := a.Add(Phi.Slice(lo, hi, 0, a.m).(*mat.Dense), y[lo:hi]); err != nil {
			return err
		}
	}
	return nil
}

// classFractions returns, for classification, the fraction of y in each of the
// k classes (nil otherwise): what solvable needs of rows not added.
func classFractions(y []float64, k int, task Task) []float64 {
	if task != Classification {
		return nil
	}
	f := make([]float64, k)
	for _, v := range y {
		f[int(v)] += 1 / float64(len(y))
	}
	return f
}

// holdout is the held-out search's state: the tridiagonal form of the
// rest's C with Q, and the held-out rows.
type holdout struct {
	acc    *Accumulator // the rest
	red    *linalg.Reduction
	z      []float64 // QᵀD
	center float64   // the rest's GCV choice
	phi    *mat.Dense
	y      []float64
}

// newHoldout reduces a's centered C (in a's scratch matrix, which the
// holdout keeps until its last score) and finds the GCV choice of λ.
func (a *Accumulator) newHoldout(ctx context.Context, Phi *mat.Dense, y []float64) (*holdout, error) {
	red, z := linalg.Reduce(a.centered(), a.m, a.d, a.k, stageProgress(ctx, a.opt, "eigen"))
	if err := cancelled(ctx); err != nil {
		return nil, err
	}
	// GCV may diagonalize T in place: give it copies.
	s, err := a.tridiagSpectrum(slices.Clone(red.D), slices.Clone(red.E), slices.Clone(z))
	if err != nil {
		return nil, err
	}
	gcv := s.GCV()
	i, err := Best(gcv, false)
	if err != nil {
		return nil, err
	}
	return &holdout{acc: a, red: red, z: z, center: gcv[i].Lambda, phi: Phi, y: y}, nil
}

// score returns the held-out curve points of lams: for each λ the
// coefficients W = Q(T+λI)⁻¹QᵀD side by side in one m×(k·len(lams))
// matrix, so that Q and the held-out rows' product run once for all
// (reflectors are read once per call, not per λ). The matrix is padded
// with zero columns to a multiple of scoreCols: columns are independent
// in ApplyQ and Mul, so the padding changes no bit of the others, and the
// SIMD kernels then cover every column (110 columns left 6 to the scalar
// tail of every product).
func (h *holdout) score(lams []float64) []CurvePoint {
	a := h.acc
	m, k, nl := a.m, a.k, len(lams)
	cols := (k*nl + scoreCols - 1) / scoreCols * scoreCols
	ws := make([]float64, m*cols)
	x := make([]float64, m*k)
	p := make([]float64, m)
	ok := make([]bool, nl)
	for t, lam := range lams {
		if ok[t] = ldlSolve(h.red.D, h.red.E, lam, h.z, k, p, x); ok[t] {
			for i := range m {
				copy(ws[i*cols+t*k:i*cols+(t+1)*k], x[i*k:(i+1)*k])
			}
		}
	}
	h.red.ApplyQ(ws, cols)
	raw := h.phi.RawMatrix()
	phi := raw.Data
	if raw.Stride != m {
		phi = make([]float64, raw.Rows*m)
		for i := range raw.Rows {
			copy(phi[i*m:(i+1)*m], raw.Data[i*raw.Stride:])
		}
	}
	pred := make([]float64, raw.Rows*cols)
	linalg.Mul(pred, phi, ws, raw.Rows, m, cols)
	out := make([]CurvePoint, nl)
	bias := make([]float64, k)
	for t, lam := range lams {
		out[t] = CurvePoint{Lambda: lam, Score: math.Inf(1)}
		if !ok[t] {
			continue // not positive definite at this λ: it cannot win
		}
		// The intercept ȳ − μᵀW, as coefficients has it.
		copy(bias, a.ybar)
		for j := range m {
			for o, w := range ws[j*cols+t*k : j*cols+(t+1)*k] {
				bias[o] -= a.mu[j] * w
			}
		}
		out[t] = a.scorePredictions(lam, pred[t*k:], cols, bias, h.y)
	}
	return out
}

// scoreCols is the multiple score pads its columns to: the width of the
// product kernels' column strips (linalg's mulStrips).
const scoreCols = 8

// scorePredictions scores the predictions pred (row i at pred[i·stride:],
// k values, the intercept bias not yet added) of the rows with targets y:
// the mean squared error per output and, for classification, the accuracy.
func (a *Accumulator) scorePredictions(lam float64, pred []float64, stride int, bias, y []float64) CurvePoint {
	k := a.k
	p := CurvePoint{Lambda: lam}
	yr := make([]float64, k)
	row := make([]float64, k)
	sse, hits := 0.0, 0
	for i, v := range y {
		for o := range row {
			row[o] = pred[i*stride+o] + bias[o]
		}
		encodeRow(yr, v, a.opt.Task)
		for o, t := range yr {
			sse += (t - row[o]) * (t - row[o])
		}
		if a.opt.Task == Classification && classOf(row) == v {
			hits++
		}
	}
	p.Score = sse / float64(len(y)*k)
	if a.opt.Task == Classification {
		p.Accuracy = float64(hits) / float64(len(y))
	}
	return p
}
