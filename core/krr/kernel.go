package krr

import (
	"context"
	"errors"
	"math"
	"ntkrf/core/kernel"
	"ntkrf/core/linalg"
	"ntkrf/internal/check"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// FitKernel fits kernel ridge regression in the dual on the exact kernel
// k: (Kc + λI)α = Yc with Kc = HKH the centered kernel (H = I − 11ᵀ/n), so
// the intercept is unpenalized as in FitFeatures, and FitKernel on
// K = ΦΦᵀ gives the same predictions as FitFeatures on Φ. λ is chosen from
// one eigendecomposition Kc = UΛUᵀ unless Options.Lambda fixes it. The
// cost is O(n³) time and O(n²) memory.
func FitKernel(k kernel.Spec, X *mat.Dense, y []float64, opt Options) (*Model, error) {
	return FitKernelContext(context.Background(), k, X, y, opt)
}

// FitKernelContext is FitKernel stopping between stages once ctx is
// cancelled; it then returns ctx's error.
func FitKernelContext(ctx context.Context, k kernel.Spec, X *mat.Dense, y []float64, opt Options) (*Model, error) {
	opt, err := opt.checked(y, true)
	if err != nil {
		return nil, err
	}
	if err := k.Validate(); err != nil {
		return nil, wrap(err)
	}
	if err := checkXY(X, y, opt); err != nil {
		return nil, err
	}
	n, _ := X.Dims()
	if err := check.Alloc("kernel matrix", n, n); err != nil {
		return nil, wrap(err)
	}
	if k, err = k.Filled(X.RawMatrix().Cols); err != nil {
		return nil, wrap(err)
	}
	if err := cancelled(ctx); err != nil {
		return nil, err
	}
	K, err := k.Gram(X, nil)
	if err != nil {
		return nil, wrap(err)
	}
	if err := cancelled(ctx); err != nil {
		return nil, err
	}
	alpha, bias, lambda, curve, err := fitGram(ctx, K, y, opt)
	if err != nil {
		return nil, err
	}
	return &Model{
		task: opt.Task, classes: opt.Classes, blockRows: opt.BlockRows,
		lambda: lambda, curve: curve, bias: bias,
		kernel: k, x: mat.DenseCopyOf(X), alpha: alpha,
	}, nil
}

// fitGram solves the dual problem on the n×n kernel matrix K, which it
// overwrites: (Kc + λI)α = Yc with λ from opt or chosen on the grid. It
// returns α (n×outputs), the bias per output, λ and the curve searched.
func fitGram(ctx context.Context, K *mat.Dense, y []float64, opt Options) (alpha *mat.Dense, bias []float64, lambda float64, curve []CurvePoint, err error) {
	n, _ := K.Dims()
	const stages = 3
	progress(opt, 1, stages, "kernel")
	kd := K.RawMatrix().Data
	cm, ybar, yc := centerDual(K, y, opt)
	kout := len(ybar)
	kc := mat.NewSymDense(n, kd)
	lambda = opt.Lambda
	if lambda == 0 {
		criterion := dualCriterion(opt)
		if curve, err = dualCurve(ctx, kc, yc, y, opt, criterion, nil); err != nil {
			return nil, nil, 0, nil, err
		}
		i, err := Best(curve, opt.Task == Classification) // a GCV curve has no accuracy: ties, decided by score
		if err != nil {
			return nil, nil, 0, nil, err
		}
		lambda = curve[i].Lambda
	}
	progress(opt, 2, stages, "eigen")
	for i := 0; i < n; i++ {
		kd[i*n+i] += lambda
	}
	if alpha, err = linalg.CholSolveShared(kd, n, yc.RawMatrix().Data, kout, opt.Helper); err != nil {
		if errors.Is(err, linalg.ErrNotPositiveDefinite) {
			return nil, nil, 0, nil, singular("K", lambda, opt.Lambda > 0)
		}
		return nil, nil, 0, nil, err
	}
	// Since 1ᵀα = 0, k_c(x)ᵀα = k(x,X)α − cᵀα: fold cᵀα into the bias.
	bias = ybar
	for i := 0; i < n; i++ {
		for o, a := range alpha.RawRowView(i) {
			bias[o] -= cm[i] * a
		}
	}
	if err := checkFitted(alpha, bias, lambda); err != nil {
		return nil, nil, 0, nil, err
	}
	progress(opt, stages, stages, "solve")
	return alpha, bias, lambda, curve, nil
}

// dualCriterion is the criterion of a dual fit: Holdout, a primal device,
// is exact leave-one-out here, which is as cheap and uses every row.
func dualCriterion(opt Options) Criterion {
	if c := opt.CriterionFor(true); c != Holdout {
		return c
	}
	return LOO
}

// centerDual centers K in place (Kc = K − 1cᵀ − c1ᵀ + ḡ, c the column
// means) and encodes and centers the targets: it returns c, ȳ and Yc.
func centerDual(K *mat.Dense, y []float64, opt Options) (cm, ybar []float64, yc *mat.Dense) {
	n, _ := K.Dims()
	kd := K.RawMatrix().Data
	cm = make([]float64, n)
	for i := 0; i < n; i++ {
		for j, v := range kd[i*n : (i+1)*n] {
			cm[j] += v
		}
	}
	g := 0.0
	for j := range cm {
		cm[j] /= float64(n)
		g += cm[j]
	}
	g /= float64(n)
	for i := 0; i < n; i++ {
		row := kd[i*n : (i+1)*n]
		for j := range row {
			row[j] += g - cm[i] - cm[j]
		}
	}
	kout := opt.outputs()
	ybar = make([]float64, kout)
	yc = mat.NewDense(n, kout, nil)
	for i, v := range y {
		row := yc.RawRowView(i)
		encodeRow(row, v, opt.Task)
		for o, t := range row {
			ybar[o] += t
		}
	}
	for o := range ybar {
		ybar[o] /= float64(n)
	}
	for i := 0; i < n; i++ {
		row := yc.RawRowView(i)
		for o := range row {
			row[o] -= ybar[o]
		}
	}
	return cm, ybar, yc
}

// KernelCurve scores every λ of the grid for the dual problem on the n×n
// kernel matrix K of n rows with targets y, without solving it: the
// curve a FitKernel on these rows would choose from (exact LOO unless
// opt.Criterion is GCV; with accuracy for classification). K is
// overwritten. Model selection scores many kernels this way, one
// eigendecomposition each.
//
// Under LOO it also returns every row's left-out loss at every λ:
// losses[t][i] is 1 when row i's left-out prediction at the t-th λ misses
// its class and 0 when it hits (classification: the mean over i is
// 1 − Accuracy), or its squared error per output (regression: the mean is
// Score). Two kernels compared row by row on the same rows give a paired
// standard error of their difference. Under GCV losses is nil.
func KernelCurve(K *mat.Dense, y []float64, opt Options) (curve []CurvePoint, losses [][]float64, err error) {
	return KernelCurveContext(context.Background(), K, y, opt)
}

// KernelCurveContext is KernelCurve returning ctx's error (ERR_ABORTED)
// once ctx is cancelled: the reduction stops at its next panel.
func KernelCurveContext(ctx context.Context, K *mat.Dense, y []float64, opt Options) (curve []CurvePoint, losses [][]float64, err error) {
	opt, err = opt.checked(y, true)
	if err != nil {
		return nil, nil, err
	}
	if err := check.Matrix("K", K); err != nil {
		return nil, nil, wrap(err)
	}
	n, c := K.Dims()
	if n != c || n != len(y) {
		return nil, nil, check.New(check.Shape, "", "krr: K is %d×%d for %d targets; give the square kernel matrix of the rows of y", n, c, len(y))
	}
	if n < 3 {
		// Too few rows is the data's fault (ERR_DATA), and the remedy is the caller's.
		rows := "rows"
		if n == 1 {
			rows = "row"
		}
		return nil, nil, check.New(check.Data, "", "krr: %d %s; choosing λ by leave-one-out needs at least 3 rows; give more rows, or a fixed Options.Lambda", n, rows)
	}
	if err := checkTargets(y, opt, 0); err != nil {
		return nil, nil, err
	}
	_, _, yc := centerDual(K, y, opt)
	criterion := dualCriterion(opt)
	var out *[][]float64
	if criterion == LOO {
		out = &losses
	}
	curve, err = dualCurve(ctx, mat.NewSymDense(n, K.RawMatrix().Data), yc, y, opt, criterion, out)
	return curve, losses, err
}

// dualCurve scores the grid on the centered kernel Kc with targets Yc:
// GCV from Kc = UΛUᵀ and B = UᵀYc (gcvCurve), exact leave-one-out from
// Kc's tridiagonal form (looCurve).
//
// When losses is not nil (LOO only), it receives each row's loss at each
// λ, indexed [λ][row]: the miss indicator for classification, the squared
// error per output for regression.
func dualCurve(ctx context.Context, kc *mat.SymDense, yc *mat.Dense, y []float64, opt Options, criterion Criterion, losses *[][]float64) ([]CurvePoint, error) {
	n, k := yc.Dims()
	// A class no row has is a zero column of Yc: it adds nothing to B, to
	// any residual or to RSS, so only the present columns are carried (of
	// 1,000 classes, 182 rows hold at most 182); a missing class's left-out
	// score is 0, which looHit accounts for.
	cols, kp := presentColumns(yc)
	ycp := yc.RawMatrix().Data
	if kp < k {
		ycp = make([]float64, n*kp)
		for i := range n {
			for o, c := range cols {
				ycp[i*kp+o] = yc.At(i, c)
			}
		}
	}
	a := append([]float64(nil), kc.RawSymmetric().Data...)
	if criterion == LOO {
		return looCurve(ctx, a, yc, ycp, cols, y, opt, losses, true)
	}
	return gcvCurve(ctx, a, n, yc, ycp, kp, opt)
}

// gcvCurve scores the grid by GCV from Kc = UΛUᵀ (a, overwritten) and
// B = UᵀYc, which the reduction gives without U:
//
//	GCV(λ) = ‖diag(λ/(λⱼ+λ))B‖²/(n·k) / (1 − (1 + Σⱼ λⱼ/(λⱼ+λ))/n)²
func gcvCurve(ctx context.Context, a []float64, n int, yc *mat.Dense, ycp []float64, kp int, opt Options) ([]CurvePoint, error) {
	_, k := yc.Dims()
	vals, b, err := linalg.EigSym(a, n, ycp, kp, stageProgress(ctx, opt, "eigen"))
	if err := cancelled(ctx); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, kernelEigenFailed(err)
	}
	grid, err := curveGrid(vals, n, opt)
	if err != nil {
		return nil, err
	}
	curve := make([]CurvePoint, len(grid))
	nk := float64(n) * float64(k)
	for t, lam := range grid {
		rss, df := 0.0, 1.0
		for j, l := range vals {
			s := lam / (l + lam)
			for _, v := range b[j*kp : (j+1)*kp] {
				rss += s * s * v * v
			}
			df += l / (l + lam)
		}
		den := 1 - df/float64(n)
		score := math.Inf(1)
		if den > 0 {
			score = rss / nk / (den * den)
		}
		curve[t] = CurvePoint{Lambda: lam, Score: score}
	}
	return curve, nil
}

// kernelEigenFailed is the error of a failed reduction or QL iteration of Kc.
func kernelEigenFailed(err error) error {
	return check.New(check.Data, "", "krr: the eigendecomposition of K failed (%s); check the inputs for extreme values", strings.TrimPrefix(err.Error(), "linalg: "))
}

// curveGrid clamps Kc's eigenvalues vals (ascending) at 0, rounding
// having made some slightly negative, and returns the grid to score:
// opt.Grid, or the default one on the scale of their mean.
func curveGrid(vals []float64, n int, opt Options) ([]float64, error) {
	tr := clampValues(vals)
	if len(opt.Grid) > 0 {
		return opt.Grid, nil
	}
	if !(tr > 0) {
		return nil, check.New(check.Data, "", "krr: the centered kernel matrix is zero over the %d rows; the inputs carry no information to fit", n)
	}
	return defaultGrid(tr / float64(n)), nil
}

// looScores scores the grid by exact leave-one-out from every row's
// residuals at its own fit, res (n×T×kp: row i's at the t-th λ from
// (i·T+t)·kp), and 1 − Pᵢᵢ, den (n×T):
//
//	LOO(λ) = Σᵢ ‖eᵢ‖²/(1 − Pᵢᵢ)² / (n·k)
//
// A den that is not positive makes the score +Inf. For classification it
// also counts the rows whose left-out scores yᵢ − eᵢ/(1 − Pᵢᵢ) are largest
// at their own class (Accuracy). losses as for dualCurve.
func looScores(grid, res, den []float64, k int, cols []int, y []float64, opt Options, losses *[][]float64) []CurvePoint {
	n, T, kp := len(y), len(grid), len(cols)
	sums := make([]float64, T)
	hits := make([]int, T)
	class := opt.Task == Classification
	pos := make([]int, k) // class → its column among the present, −1 when absent
	for c := range pos {
		pos[c] = -1
	}
	for o, c := range cols {
		pos[c] = o
	}
	var rows [][]float64
	if losses != nil {
		rows = make([][]float64, T)
		flat := make([]float64, T*n)
		for t := range rows {
			rows[t] = flat[t*n : (t+1)*n]
		}
		*losses = rows
	}
	for i := 0; i < n; i++ {
		for t := 0; t < T; t++ {
			den := den[i*T+t]
			if !(den > 0) {
				sums[t] = math.Inf(1)
				if rows != nil {
					rows[t][i] = math.Inf(1)
				}
				continue
			}
			e := res[(i*T+t)*kp : (i*T+t+1)*kp]
			se := 0.0
			for _, v := range e {
				r := v / den
				se += r * r
			}
			sums[t] += se
			hit := class && looHit(e, den, pos[int(y[i])], kp < k)
			if hit {
				hits[t]++
			}
			if rows != nil {
				switch {
				case !class:
					rows[t][i] = se / float64(k)
				case !hit:
					rows[t][i] = 1
				}
			}
		}
	}
	nk := float64(n) * float64(k)
	curve := make([]CurvePoint, T)
	for t, lam := range grid {
		curve[t] = CurvePoint{Lambda: lam, Score: sums[t] / nk}
		if class {
			curve[t].Accuracy = float64(hits[t]) / float64(n)
		}
	}
	return curve
}

// presentColumns returns the columns of yc that are not all zero, in
// order, and their count.
func presentColumns(yc *mat.Dense) (cols []int, kp int) {
	n, k := yc.Dims()
	for c := range k {
		for i := range n {
			if yc.At(i, c) != 0 {
				cols = append(cols, c)
				break
			}
		}
	}
	return cols, len(cols)
}

// looHit reports whether the left-out scores of a row of class c, whose
// one-hot target is eᶜ and whose residuals at its own fit are e, are
// largest at c: score_o = [o = c] − e_o/den (ties count as misses). e
// holds the present classes' columns (c among them, or −1: a row's own
// class is present unless every row has it); when absent is set, the
// classes left out score 0.
func looHit(e []float64, den float64, c int, absent bool) bool {
	own := 1.0
	if c >= 0 {
		own -= e[c] / den
	}
	if absent && own <= 0 {
		return false
	}
	for o, v := range e {
		if o != c && -v/den >= own {
			return false
		}
	}
	return true
}

// singular is the error of a Cholesky factorization of G + λI (G = K or
// ΦᵀΦ) that failed: an option to change when the caller fixed λ, the
// data's fault when λ was chosen.
func singular(g string, lambda float64, fixed bool) error {
	if fixed {
		return check.New(check.Option, "lambda", "krr: %s + λI is not numerically positive definite at the fixed λ = %g: λ is too small for these rows; use a larger λ, or choose it automatically", g, lambda)
	}
	return check.New(check.Data, "", "krr: %s + λI is not numerically positive definite at the chosen λ = %g; give a grid of larger λ", g, lambda)
}
