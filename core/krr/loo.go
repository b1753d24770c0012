package krr

import (
	"context"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/linalg"
)

// looCurve scores the grid by exact leave-one-out on Kc (its upper
// triangle in a, overwritten) with targets Yc (ycp: its present columns
// cols). The residuals at λ are e = λ(Kc+λI)⁻¹Yc and, with the intercept,
// 1 − Pᵢᵢ = [λ(Kc+λI)⁻¹ − 11ᵀ/n]ᵢᵢ; the shortcut is exact for any penalized
// least squares with an unpenalized intercept.
//
// Kc = QTQᵀ (T tridiagonal, Q formed explicitly) gives both without
// diagonalizing T. Kc1 = 0, so λ(Kc+λI)⁻¹ − 11ᵀ/n = Hλ(Kc+λI)⁻¹H with
// H = I − 11ᵀ/n, and with Q̃ = HQ (Q's columns centered):
//
//	1 − Pᵢᵢ = λ·q̃ᵢᵀ(T+λI)⁻¹q̃ᵢ,   e = λQ̃(T+λI)⁻¹Q̃ᵀYc   (HYc = Yc)
//
// the first a sum of positive terms over an LDLᵀ factorization of T+λI
// (no cancellation against the intercept's 1/n), O(n²) per λ; the second a
// tridiagonal solve per λ on Q̃ᵀYc and one product by Q̃ for all λ. The
// O(n³) QL rotations of the eigenvectors are gone; T's eigenvalues (O(n²),
// the bits EigSym gives) still set the default grid and tell whether
// T+λI is safely positive definite (looFast).
//
// Where it is not, the curve is computed from Kc = UΛUᵀ as before
// (looEigen), whose clamping of rounding-level negative eigenvalues at 0
// is then what keeps the denominators positive; without tridiagonal, it
// always is (the tests' and benchmarks' reference).
func looCurve(ctx context.Context, a []float64, yc *mat.Dense, ycp []float64, cols []int, y []float64, opt Options, losses *[][]float64, tridiagonal bool) ([]CurvePoint, error) {
	n, k := yc.Dims()
	kp := len(cols)
	r := linalg.ReduceQ(a, n, stageProgress(ctx, opt, "eigen"))
	if err := cancelled(ctx); err != nil {
		return nil, err
	}
	if tridiagonal {
		if grid, f := looFastGrid(r, n, opt); f != nil {
			res, den := looTridiag(r, f, ycp, n, kp, len(grid))
			return looScores(grid, res, den, k, cols, y, opt, losses), nil
		}
	}
	vals, err := r.Eigenvalues()
	if err != nil {
		return nil, kernelEigenFailed(err)
	}
	low := vals[0] // before curveGrid clamps it
	grid, err := curveGrid(vals, n, opt)
	if err != nil {
		return nil, err
	}
	var f *linalg.ShiftedLDL
	if tridiagonal && looFast(grid, low) {
		f, _ = r.Factor(grid)
	}
	var res, den []float64
	if f != nil {
		res, den = looTridiag(r, f, ycp, n, kp, len(grid))
	} else {
		vals, vt, err := r.Eig()
		if err != nil {
			return nil, kernelEigenFailed(err)
		}
		curveGrid(vals, n, opt) // the same clamping
		res, den = looEigen(vals, vt, ycp, n, kp, grid)
	}
	return looScores(grid, res, den, k, cols, y, opt, losses), nil
}

// looFastGrid returns the grid and T+λI factored for every λ of it when
// looFast holds, without T's eigenvalues (tql's O(n²) iteration, a tenth
// of a small search's time): every eigenvalue of Kc exceeds −λ/looMargin
// for the grid's least λ exactly when T + (λ/looMargin)·I has an LDLᵀ
// factorization with positive pivots (Sturm), and then the eigenvalues
// clamped at 0 sum to tr T but for rounding, so the default grid is set
// from tr T/n. Otherwise it returns nil: the caller diagonalizes T.
func looFastGrid(r *linalg.TridiagQ, n int, opt Options) ([]float64, *linalg.ShiftedLDL) {
	grid := opt.Grid
	if len(grid) == 0 {
		tr := r.Trace()
		if !(tr > 0) || math.IsInf(tr, 0) {
			return nil, nil
		}
		grid = defaultGrid(tr / float64(n))
	}
	lo := slices.Min(grid)
	if !(lo > 0) {
		return nil, nil
	}
	if _, ok := r.Factor([]float64{lo / looMargin}); !ok {
		return nil, nil
	}
	f, ok := r.Factor(grid)
	if !ok {
		return nil, nil
	}
	return grid, f
}

// looMargin is how far above the magnitude of Kc's most negative
// eigenvalue (rounding: Kc is positive semidefinite) every λ must be for
// looTridiag. There λ/(μ+λ) differs from the clamped λ/(0+λ) of looEigen
// by at most 1/looMargin relative, about as much as rounding moves the
// eigenvalues near 0 that are not negative; nearer, the two part ways, and
// T+λI nears indefinite.
const looMargin = 1 << 10

// looFast reports whether every λ of the grid is at least looMargin
// times the magnitude of low, Kc's least eigenvalue, when it is negative.
func looFast(grid []float64, low float64) bool {
	for _, lam := range grid {
		if !(lam > 0) || low < 0 && !(lam >= -low*looMargin) {
			return false
		}
	}
	return true
}

// looTridiag returns the residuals (n×T×kp, row i at λₜ from (i·T+t)·kp)
// and 1 − Pᵢᵢ (n×T) of looScores from Kc = QTQᵀ and T+λI factored for
// every λ of the grid (T of them); r's Qᵀ is overwritten.
func looTridiag(r *linalg.TridiagQ, f *linalg.ShiftedLDL, ycp []float64, n, kp, T int) (res, den []float64) {
	// Q̃ᵀ: each row of Qᵀ (a column of Q) less its mean.
	qt := r.Qt
	for j := range n {
		row := qt[j*n : (j+1)*n]
		s := 0.0
		for _, v := range row {
			s += v
		}
		s /= float64(n)
		for i := range row {
			row[i] -= s
		}
	}
	den = make([]float64, n*T)
	f.Quad(den, qt, n)
	// λ(T+λI)⁻¹Q̃ᵀYc for all λ side by side: sb[(j·T+t)·kp + o].
	b := make([]float64, n*kp)
	linalg.Mul(b, qt, ycp, n, n, kp)
	sb := make([]float64, n*T*kp)
	x := make([]float64, n*kp)
	for t := range T {
		copy(x, b)
		f.Solve(t, x, kp)
		for j := range n {
			copy(sb[(j*T+t)*kp:(j*T+t+1)*kp], x[j*kp:(j+1)*kp])
		}
	}
	// Q̃ in place of Q̃ᵀ, then the residuals of all λ in one product on
	// linalg.Mul (the same bits on every host and for any number of cores).
	transposeSquare(qt, n)
	res = make([]float64, n*T*kp)
	linalg.Mul(res, qt, sb, n, n, T*kp)
	return res, den
}

// looEigen returns looTridiag's residuals and 1 − Pᵢᵢ from Kc = UΛUᵀ
// (vals clamped at 0, Uᵀ in vt, overwritten): the residuals at λ are
// U·diag(λ/(λⱼ+λ))·B with B = UᵀYc, and Pᵢᵢ = 1/n + Σⱼ Uᵢⱼ²λⱼ/(λⱼ+λ).
func looEigen(vals, vt, ycp []float64, n, kp int, grid []float64) (res, den []float64) {
	T := len(grid)
	// The products run on linalg.Mul (the same bits on every host and
	// for any number of cores), U in place of Uᵀ once B = UᵀYc is formed.
	b := make([]float64, n*kp)
	linalg.Mul(b, vt, ycp, n, n, kp)
	u := vt
	transposeSquare(u, n)
	// All λ at once: residuals U·[S₁B … S_TB] with Sₜ = diag(λₜ/(λⱼ+λₜ)),
	// and leverages (U∘U)·Q with Qⱼₜ = λⱼ/(λⱼ+λₜ).
	q := make([]float64, n*T)
	sb := make([]float64, n*T*kp)
	for j, l := range vals {
		for t, lam := range grid {
			q[j*T+t] = l / (l + lam)
			s := lam / (l + lam)
			for o, v := range b[j*kp : (j+1)*kp] {
				sb[(j*T+t)*kp+o] = s * v
			}
		}
	}
	res = make([]float64, n*T*kp)
	linalg.Mul(res, u, sb, n, n, T*kp)
	for i, v := range u {
		u[i] = v * v // U is not needed any more
	}
	den = make([]float64, n*T)
	linalg.Mul(den, u, q, n, n, T)
	invn := 1 / float64(n)
	for i, lev := range den {
		den[i] = 1 - invn - lev
	}
	return res, den
}

// transposeSquare transposes the n×n row-major a in place.
func transposeSquare(a []float64, n int) {
	for i := range n {
		for j := i + 1; j < n; j++ {
			a[i*n+j], a[j*n+i] = a[j*n+i], a[i*n+j]
		}
	}
}
