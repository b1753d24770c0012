package krr

import (
	"context"
	"math"
	"ntkrf/core/kernel"
	"ntkrf/core/linalg"
	"ntkrf/internal/check"
	"strings"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
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
	alpha, bias, lambda, curve, err := fitGram(K, y, opt)
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
func fitGram(K *mat.Dense, y []float64, opt Options) (alpha *mat.Dense, bias []float64, lambda float64, curve []CurvePoint, err error) {
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
		if curve, err = dualCurve(kc, yc, y, opt, criterion, nil); err != nil {
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
	var ok bool
	if alpha, ok = linalg.CholSolve(kd, n, yc.RawMatrix().Data, kout); !ok {
		return nil, nil, 0, nil, singular("K", lambda, opt.Lambda > 0)
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
func dualCriterion(opt Options) string {
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
		return nil, nil, check.New(check.Shape, "", "krr: %d rows; leave-one-out needs at least 3", n)
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
	curve, err = dualCurve(mat.NewSymDense(n, K.RawMatrix().Data), yc, y, opt, criterion, out)
	return curve, losses, err
}

// dualCurve scores the grid from Kc = UΛUᵀ and B = UᵀYc. The residuals at
// λ are Yc − HcYc = U·diag(λ/(λⱼ+λ))·B and Pᵢᵢ = 1/n + Σⱼ Uᵢⱼ²λⱼ/(λⱼ+λ):
//
//	GCV(λ) = ‖diag(λ/(λⱼ+λ))B‖²/(n·k) / (1 − (1 + Σⱼ λⱼ/(λⱼ+λ))/n)²
//	LOO(λ) = Σᵢ ‖eᵢ‖²/(1 − Pᵢᵢ)² / (n·k)
//
// LOO is exact (the shortcut holds for any penalized least squares with an
// unpenalized intercept) and costs O(n²·k) per λ.
//
// For classification LOO also counts the rows whose left-out scores
// yᵢ − eᵢ/(1 − Pᵢᵢ) are largest at their own class (Accuracy).
//
// When losses is not nil (LOO only), it receives each row's loss at each
// λ, indexed [λ][row]: the miss indicator for classification, the squared
// error per output for regression.
func dualCurve(kc *mat.SymDense, yc *mat.Dense, y []float64, opt Options, criterion string, losses *[][]float64) ([]CurvePoint, error) {
	n, k := yc.Dims()
	loo := criterion == LOO
	var rhs []float64
	if !loo {
		rhs = yc.RawMatrix().Data
	}
	// GCV needs only Λ and B = UᵀYc; LOO needs Uᵀ (w) as well.
	vals, w, err := linalg.EigSym(append([]float64(nil), kc.RawSymmetric().Data...), n, rhs, k, stageProgress(opt, "eigen"))
	if err != nil {
		return nil, check.New(check.Data, "", "krr: the eigendecomposition of K failed (%s); check the inputs for extreme values", strings.TrimPrefix(err.Error(), "linalg: "))
	}
	tr := 0.0
	for i, l := range vals {
		vals[i] = math.Max(l, 0)
		tr += vals[i]
	}
	grid := opt.Grid
	if len(grid) == 0 {
		if !(tr > 0) {
			return nil, check.New(check.Data, "", "krr: the centered kernel matrix is zero over the %d rows; the inputs carry no information to fit", n)
		}
		grid = defaultGrid(tr / float64(n))
	}
	T := len(grid)
	curve := make([]CurvePoint, T)
	nk := float64(n) * float64(k)
	if !loo {
		b := w
		for t, lam := range grid {
			rss, df := 0.0, 1.0
			for j, l := range vals {
				s := lam / (l + lam)
				for _, v := range b[j*k : (j+1)*k] {
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
	ut := blas64.General{Rows: n, Cols: n, Stride: n, Data: w}
	b := make([]float64, n*k)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, ut, yc.RawMatrix(),
		0, blas64.General{Rows: n, Cols: k, Stride: k, Data: b})
	// All λ at once: residuals U·[S₁B … S_TB] with Sₜ = diag(λₜ/(λⱼ+λₜ)),
	// and leverages (U∘U)·Q with Qⱼₜ = λⱼ/(λⱼ+λₜ).
	q := make([]float64, n*T)
	sb := make([]float64, n*T*k)
	for j, l := range vals {
		for t, lam := range grid {
			q[j*T+t] = l / (l + lam)
			s := lam / (l + lam)
			for o, v := range b[j*k : (j+1)*k] {
				sb[(j*T+t)*k+o] = s * v
			}
		}
	}
	res := make([]float64, n*T*k)
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, ut,
		blas64.General{Rows: n, Cols: T * k, Stride: T * k, Data: sb},
		0, blas64.General{Rows: n, Cols: T * k, Stride: T * k, Data: res})
	for i, v := range w {
		w[i] = v * v // Uᵀ is not needed any more
	}
	lev := make([]float64, n*T)
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, ut,
		blas64.General{Rows: n, Cols: T, Stride: T, Data: q},
		0, blas64.General{Rows: n, Cols: T, Stride: T, Data: lev})
	sums := make([]float64, T)
	hits := make([]int, T)
	invn := 1 / float64(n)
	class := opt.Task == Classification
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
			den := 1 - invn - lev[i*T+t]
			if !(den > 0) {
				sums[t] = math.Inf(1)
				if rows != nil {
					rows[t][i] = math.Inf(1)
				}
				continue
			}
			e := res[(i*T+t)*k : (i*T+t+1)*k]
			se := 0.0
			for _, v := range e {
				r := v / den
				se += r * r
			}
			sums[t] += se
			hit := class && looHit(e, den, int(y[i]))
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
	for t, lam := range grid {
		curve[t] = CurvePoint{Lambda: lam, Score: sums[t] / nk}
		if class {
			curve[t].Accuracy = float64(hits[t]) / float64(n)
		}
	}
	return curve, nil
}

// looHit reports whether the left-out scores of a row of class c, whose
// one-hot target is eᶜ and whose residuals at its own fit are e, are
// largest at c: score_o = [o = c] − e_o/den (ties count as misses).
func looHit(e []float64, den float64, c int) bool {
	own := 1 - e[c]/den
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
