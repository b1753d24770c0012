package metrics

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
)

// checkKPhi validates an n×n kernel matrix against n×m features.
func checkKPhi(K, Phi *mat.Dense) (n int, err error) {
	if err := check.Matrix("K", K); err != nil {
		return 0, wrap(err)
	}
	if err := check.Matrix("Phi", Phi); err != nil {
		return 0, wrap(err)
	}
	n, c := K.Dims()
	if n != c {
		return 0, check.New(check.Shape, "", "metrics: K is %d×%d; a kernel matrix must be square", n, c)
	}
	if r, _ := Phi.Dims(); r != n {
		return 0, check.New(check.Shape, "", "metrics: K is %d×%d but Phi has %d rows; use the features of the same rows", n, n, r)
	}
	return n, nil
}

// overflowErr is the error of a sum of squares beyond the float64 range:
// finite inputs whose result cannot be represented.
func overflowErr(what string) error {
	return check.New(check.Data, "", "metrics: %s overflow float64 (entries beyond about 1e154); rescale the values", what)
}

// kernelErrors returns ‖ΦΦᵀ−K‖²_F and ‖K‖²_F, computing ΦΦᵀ in blocks of
// rows (O(n²·m) time, a 128×n buffer).
func kernelErrors(K, Phi *mat.Dense, n int) (diff, norm float64) {
	const block = 128
	buf := mat.NewDense(min(block, n), n, nil)
	for lo := 0; lo < n; lo += block {
		hi := min(lo+block, n)
		rows := buf.Slice(0, hi-lo, 0, n).(*mat.Dense)
		rows.Mul(Phi.Slice(lo, hi, 0, Phi.RawMatrix().Cols), Phi.T())
		for i := lo; i < hi; i++ {
			approx := rows.RawRowView(i - lo)
			for j, k := range K.RawRowView(i) {
				d := approx[j] - k
				diff += d * d
				norm += k * k
			}
		}
	}
	return diff, norm
}

// RelFrobenius returns ‖ΦΦᵀ − K‖_F / ‖K‖_F, the relative error of the
// kernel approximation by the features Phi (the paper's Figure 2).
func RelFrobenius(K, Phi *mat.Dense) (float64, error) {
	n, err := checkKPhi(K, Phi)
	if err != nil {
		return 0, err
	}
	diff, norm := kernelErrors(K, Phi, n)
	if norm == 0 {
		return 0, check.New(check.Data, "", "metrics: K is zero; the relative error is undefined")
	}
	if math.IsInf(diff, 0) || math.IsInf(norm, 0) || math.IsNaN(diff) {
		return 0, overflowErr("the squared entries of K or ΦΦᵀ")
	}
	return math.Sqrt(diff / norm), nil
}

// EntryMSE returns the mean over all n² entries of (ΦΦᵀ − K)².
func EntryMSE(K, Phi *mat.Dense) (float64, error) {
	n, err := checkKPhi(K, Phi)
	if err != nil {
		return 0, err
	}
	diff, _ := kernelErrors(K, Phi, n)
	if math.IsInf(diff, 0) || math.IsNaN(diff) {
		return 0, overflowErr("the squared differences of K and ΦΦᵀ")
	}
	return diff / float64(n) / float64(n), nil
}

// SpectralLambdaPerRow is the λ per row of K that Spectral uses when
// given lambda 0: DefaultSpectralLambda(n) = 1e-4·n.
const SpectralLambdaPerRow = 1e-4

// DefaultSpectralLambda is the λ Spectral uses for n rows and lambda 0.
func DefaultSpectralLambda(n int) float64 { return SpectralLambdaPerRow * float64(n) }

// Spectral returns the condition number of
// (K+λI)^{-1/2}(ΦΦᵀ+λI)(K+λI)^{-1/2}: 1 when ΦΦᵀ = K, and (1+ε)/(1−ε) when
// ΦΦᵀ is an ε-spectral approximation (the paper's Figure 1). lambda 0
// means DefaultSpectralLambda(n). It is computed without square roots of matrices: with the
// Cholesky factor K + λI = UᵀU, the matrix U⁻ᵀ(ΦΦᵀ+λI)U⁻¹ has the same
// eigenvalues (the generalized problem), found by a symmetric eigensolver.
// The cost is O(n³) time and three n×n buffers.
func Spectral(K, Phi *mat.Dense, lambda float64) (float64, error) {
	n, err := checkKPhi(K, Phi)
	if err != nil {
		return 0, err
	}
	if lambda == 0 {
		lambda = DefaultSpectralLambda(n)
	}
	if err := check.Lambda("metrics", "lambda", lambda); err != nil {
		return 0, err
	}
	if err := check.Alloc("kernel matrix", n, n); err != nil {
		return 0, wrap(err)
	}
	if err := checkSymmetric(K); err != nil {
		return 0, err
	}
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s.SetSym(i, j, 0.5*K.At(i, j)+0.5*K.At(j, i))
		}
		s.SetSym(i, i, s.At(i, i)+lambda)
	}
	var ch mat.Cholesky
	if !ch.Factorize(s) {
		return 0, check.New(check.Data, "", "metrics: K + λI is not positive definite at λ = %g; K must be positive semidefinite", lambda)
	}
	var u mat.TriDense
	ch.UTo(&u)
	// A = ΦΦᵀ + λI, then M = U⁻ᵀ A U⁻¹ by two triangular solves.
	a := mat.NewDense(n, n, nil)
	a.Mul(Phi, Phi.T())
	for i := 0; i < n; i++ {
		a.Set(i, i, a.At(i, i)+lambda)
	}
	ur := u.RawTriangular()
	blas64.Trsm(blas.Left, blas.Trans, 1, ur, a.RawMatrix())
	blas64.Trsm(blas.Right, blas.NoTrans, 1, ur, a.RawMatrix())
	m := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			m.SetSym(i, j, 0.5*(a.At(i, j)+a.At(j, i)))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(m, false) {
		return 0, check.New(check.Data, "", "metrics: the eigendecomposition did not converge; check K and Phi for extreme values")
	}
	v := es.Values(nil)
	// The eigenvalues are positive in exact arithmetic; a ratio that is not
	// at least 1 and finite means rounding or overflow swamped them.
	if r := v[n-1] / v[0]; r >= 1 && !math.IsInf(r, 0) {
		return r, nil
	}
	return 0, check.New(check.Data, "", "metrics: the spectral ratio is not computable at λ = %g (eigenvalues %g…%g): K + λI is too ill-conditioned or the entries too large; use a larger λ or rescale K and Phi", lambda, v[0], v[n-1])
}

// checkSymmetric refuses a K that is not symmetric beyond rounding: the
// spectral measure is defined for kernel matrices, and averaging K with
// its transpose would measure another matrix without a word.
func checkSymmetric(K *mat.Dense) error {
	n, _ := K.Dims()
	top := 0.0
	for i := range n {
		for _, v := range K.RawRowView(i)[:n] {
			top = max(top, math.Abs(v))
		}
	}
	const tol = 1e-10 // relative to the largest entry: far above rounding
	for i := range n {
		for j := i + 1; j < n; j++ {
			if a, b := K.At(i, j), K.At(j, i); math.Abs(a-b) > tol*top {
				return check.New(check.Value, "", "metrics: K is not symmetric: K[%d][%d] = %g but K[%d][%d] = %g; a kernel matrix is symmetric", i, j, a, j, i, b)
			}
		}
	}
	return nil
}

// checkLabels validates a pair of label vectors.
func checkLabels(yTrue, yPred []float64) error {
	if len(yTrue) != len(yPred) {
		return check.New(check.Shape, "", "metrics: %d true labels but %d predictions; give one prediction per row", len(yTrue), len(yPred))
	}
	if len(yTrue) == 0 {
		return check.New(check.Shape, "", "metrics: no labels given")
	}
	for i := range yTrue {
		for _, v := range [2]float64{yTrue[i], yPred[i]} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return check.New(check.NonFinite, "", "metrics: label %v at row %d is not finite", v, i)
			}
		}
	}
	return nil
}

// Accuracy returns the share of rows where yPred equals yTrue. Both hold
// class labels: a value that is not an integer (a regression prediction,
// a score) is an error naming it, rather than a miss.
func Accuracy(yTrue, yPred []float64) (float64, error) {
	if err := checkLabels(yTrue, yPred); err != nil {
		return 0, err
	}
	for i := range yTrue {
		for _, a := range [2]struct {
			name string
			v    float64
		}{{"yTrue", yTrue[i]}, {"yPred", yPred[i]}} {
			if a.v != math.Trunc(a.v) {
				return 0, check.New(check.Value, "", "metrics: %s[%d] = %v is not a class label (an integer); accuracy compares labels, so score regression values with MSE or R2", a.name, i, a.v)
			}
		}
	}
	hit := 0
	for i, v := range yTrue {
		if v == yPred[i] {
			hit++
		}
	}
	return float64(hit) / float64(len(yTrue)), nil
}

// MSE returns the mean of (yTrue − yPred)².
func MSE(yTrue, yPred []float64) (float64, error) {
	if err := checkLabels(yTrue, yPred); err != nil {
		return 0, err
	}
	s := 0.0
	for i, v := range yTrue {
		d := v - yPred[i]
		s += d * d
	}
	if math.IsInf(s, 0) {
		return 0, overflowErr("the squared errors")
	}
	return s / float64(len(yTrue)), nil
}

// R2 returns the coefficient of determination 1 − SSres/SStot.
func R2(yTrue, yPred []float64) (float64, error) {
	if err := checkLabels(yTrue, yPred); err != nil {
		return 0, err
	}
	if !slices.ContainsFunc(yTrue, func(v float64) bool { return v != yTrue[0] }) {
		// Tested before the sums: a rounded mean of equal values differs
		// from them, and 1 − res/(a rounding error) is no score.
		return 0, check.New(check.Data, "", "metrics: the true values are all equal; R² is undefined (use MSE)")
	}
	// R² does not change with the scale of the values, so they are divided
	// by the largest magnitude first: sums of squares of values near 1e308
	// would overflow to Inf/Inf = NaN.
	scale := 0.0
	for i, v := range yTrue {
		scale = max(scale, math.Abs(v), math.Abs(yPred[i]))
	}
	if scale == 0 {
		scale = 1
	}
	mean := 0.0
	for _, v := range yTrue {
		mean += v / scale
	}
	mean /= float64(len(yTrue))
	var res, tot float64
	for i, v := range yTrue {
		d, c := v/scale-yPred[i]/scale, v/scale-mean
		res += d * d
		tot += c * c
	}
	if tot == 0 {
		return 0, check.New(check.Data, "", "metrics: the true values are all equal; R² is undefined (use MSE)")
	}
	return 1 - res/tot, nil
}

// MinClasses is the fewest classes Confusion counts: one (every label 0)
// is a valid, if trivial, score; a fit needs krr.MinClasses.
const MinClasses = 1

// Confusion returns the k×k confusion matrix: entry [t][p] counts the rows
// of true class t predicted as class p.
func Confusion(yTrue, yPred []float64, k int) ([][]int, error) {
	if err := checkLabels(yTrue, yPred); err != nil {
		return nil, err
	}
	if k < MinClasses {
		return nil, check.New(check.Option, "classes", "metrics: %d classes; give at least %d", k, MinClasses)
	}
	// Labels first, then the k×k counts: a stray label must not allocate.
	for i, t := range yTrue {
		for _, v := range [2]float64{t, yPred[i]} {
			if v != math.Trunc(v) || v < 0 || v >= float64(k) {
				return nil, check.New(check.Value, "", "metrics: label %v at row %d is not a class index in 0…%d", v, i, k-1)
			}
		}
	}
	if err := check.Alloc("confusion matrix", k, k); err != nil {
		return nil, err
	}
	c := make([][]int, k)
	for i := range c {
		c[i] = make([]int, k)
	}
	for i, t := range yTrue {
		c[int(t)][int(yPred[i])]++
	}
	return c, nil
}

// ClassScore is one class's figures from a confusion matrix: of the rows
// predicted as the class, the share that are (Precision); of the rows of
// the class, the share predicted as it (Recall); their harmonic mean (F1);
// and the rows of the class (Support). A share of no rows is 0, as
// scikit-learn's classification_report writes it (zero_division=0).
type ClassScore struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	Support   int     `json:"support"`
}

// PerClass returns each class's ClassScore from a k×k confusion matrix
// (Confusion's: entry [t][p] counts rows of class t predicted as p).
func PerClass(confusion [][]int) ([]ClassScore, error) {
	k := len(confusion)
	for t, row := range confusion {
		if len(row) != k {
			return nil, check.New(check.Shape, "", "metrics: confusion row %d has %d entries, not %d; give a square matrix", t, len(row), k)
		}
	}
	out := make([]ClassScore, k)
	for c := range k {
		predicted, support := 0, 0
		for t := range k {
			predicted += confusion[t][c]
			support += confusion[c][t]
		}
		hit := confusion[c][c]
		s := ClassScore{Support: support}
		if predicted > 0 {
			s.Precision = float64(hit) / float64(predicted)
		}
		if support > 0 {
			s.Recall = float64(hit) / float64(support)
		}
		if s.Precision+s.Recall > 0 {
			s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
		}
		out[c] = s
	}
	return out, nil
}

func wrap(err error) error { return check.Wrap("metrics", err) }
