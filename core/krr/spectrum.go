package krr

import (
	"context"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ntkrf/core/linalg"
	"ntkrf/internal/check"
)

// CurvePoint is one λ of the searched grid with its criterion score (an
// estimate of the mean squared error per output; lower is better) and, for
// classification by LOO or Holdout, the validated accuracy (the fraction
// of rows whose left-out prediction names their class; 0 otherwise).
type CurvePoint struct {
	Lambda   float64 `json:"lambda"`
	Score    float64 `json:"score"`
	Accuracy float64 `json:"accuracy,omitempty"`
}

// Spectrum is the eigendecomposition C = VΛVᵀ of an accumulator's centered
// Gram matrix, with B = VᵀD, or for GCV alone its tridiagonal form
// C = QTQᵀ with Z = QᵀD. Every λ of the grid is scored from it without
// refitting.
type Spectrum struct {
	acc    *Accumulator
	values []float64 // Λ, ascending, clamped at 0; nil in tridiagonal form
	vt     []float64 // Vᵀ, m×m; nil when only B was computed
	b      []float64 // B = VᵀD, m×k
	td, te []float64 // T's diagonal and off-diagonal, when values is nil
	tz     []float64 // Z = QᵀD, m×k, when values is nil
	grid   []float64
}

// Spectrum diagonalizes the centered Gram matrix of the rows added so far,
// with its eigenvectors, as LOOSums needs. It costs O(m³) once.
func (a *Accumulator) Spectrum() (*Spectrum, error) { return a.spectrum(context.Background(), true) }

// spectrum computes Λ and B, and V when vectors is set. GCV needs neither
// V nor Λ: without vectors it stops at the tridiagonal form, which saves
// most of the eigensolver's time, and the tridiagonal QL iteration too
// (each λ is then a tridiagonal solve, see GCV) unless T + λI is not
// positive definite in floating point for the smallest λ of the grid
// (rounding can leave eigenvalues of a PSD matrix slightly negative), in
// which case it diagonalizes T.
func (a *Accumulator) spectrum(ctx context.Context, vectors bool) (*Spectrum, error) {
	if err := cancelled(ctx); err != nil {
		return nil, err
	}
	if err := a.checkSolvable(); err != nil {
		return nil, err
	}
	m, k := a.m, a.k
	work := a.centered()
	progress := stageProgress(ctx, a.opt, "eigen")
	if !vectors {
		d, e, z := linalg.Tridiagonalize(work, m, a.d, k, progress)
		if err := cancelled(ctx); err != nil {
			return nil, err
		}
		return a.tridiagSpectrum(d, e, z)
	}
	vals, w, err := linalg.EigSym(work, m, nil, k, progress)
	if err := cancelled(ctx); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, eigenFailed(err)
	}
	s := &Spectrum{acc: a, values: vals, vt: w, b: make([]float64, m*k)}
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
		blas64.General{Rows: m, Cols: m, Stride: m, Data: w},
		blas64.General{Rows: m, Cols: k, Stride: k, Data: a.d},
		0, blas64.General{Rows: m, Cols: k, Stride: k, Data: s.b})
	return s.withGrid(clampValues(vals))
}

// tridiagSpectrum is the Spectrum of the tridiagonal form T = QᵀCQ
// (diagonal d, off-diagonal e) with z = QᵀD, which it takes over.
func (a *Accumulator) tridiagSpectrum(d, e, z []float64) (*Spectrum, error) {
	s := &Spectrum{acc: a, td: d, te: e, tz: z}
	tr := 0.0
	for _, v := range d {
		tr += v // tr T = tr C
	}
	return s.withGrid(tr)
}

// withGrid sets the grid (the options', or one scaled to the mean
// eigenvalue tr/m) and, in tridiagonal form, diagonalizes T if T + λI is
// not positive definite in floating point at the grid's smallest λ.
func (s *Spectrum) withGrid(tr float64) (*Spectrum, error) {
	a := s.acc
	m, k := a.m, a.k
	grid := a.opt.Grid
	if len(grid) == 0 {
		if !(tr > 0) {
			return nil, check.New(check.Data, "", "krr: every feature is constant over the %d rows; the features carry no information to fit", a.n)
		}
		grid = defaultGrid(tr / float64(m))
	}
	s.grid = append([]float64(nil), grid...)
	if s.td != nil {
		if _, _, ok := s.tridiagFit(slices.Min(s.grid), nil); !ok {
			d, e, w := s.td, s.te, s.tz
			s.td, s.te, s.tz = nil, nil, nil
			if err := linalg.TridiagEig(d, e, w, k); err != nil {
				return nil, eigenFailed(err)
			}
			clampValues(d)
			s.values, s.b = d, w
		}
	}
	return s, nil
}

func eigenFailed(err error) error {
	return check.New(check.Data, "", "krr: the eigendecomposition of ΦᵀΦ failed (%s); check the features for extreme values", strings.TrimPrefix(err.Error(), "linalg: "))
}

// clampValues sets the eigenvalues below 0, which rounding leaves in a PSD
// matrix, to 0 and returns their sum.
func clampValues(vals []float64) float64 {
	tr := 0.0
	for i, l := range vals {
		vals[i] = math.Max(l, 0)
		tr += vals[i]
	}
	return tr
}

// tridiagFit returns, for the tridiagonal form, Σ_c z_cᵀ(T+λI)⁻¹z_c +
// λ‖(T+λI)⁻¹z_c‖² over the columns of Z (= Σⱼ ‖Bⱼ‖²·(λⱼ+2λ)/(λⱼ+λ)², with
// B = SᵀZ for T = SΛSᵀ) and tr (T+λI)⁻¹ (= Σⱼ 1/(λⱼ+λ)), from the
// factorizations T+λI = LDLᵀ (pivots p, top down) and UD'Uᵀ (pivots q,
// bottom up): the solves cost O(m·k), and the i-th diagonal entry of the
// inverse is 1/γᵢ with γᵢ = pᵢ + qᵢ − (tᵢᵢ+λ). ok is false when a pivot is
// not positive, that is when T+λI is not positive definite in floating
// point. work is scratch (allocated when nil).
func (s *Spectrum) tridiagFit(lam float64, work []float64) (fit, trInv float64, ok bool) {
	d, e, z := s.td, s.te, s.tz
	m, k := len(d), s.acc.k
	if len(work) < 2*m+m*k {
		work = make([]float64, 2*m+m*k)
	}
	p, q, x := work[:m], work[m:2*m], work[2*m:2*m+m*k]
	if !ldlSolve(d, e, lam, z, k, p, x) {
		return 0, 0, false
	}
	for i := m - 1; i >= 0; i-- {
		q[i] = d[i] + lam
		if i < m-1 {
			q[i] -= e[i] * e[i] / q[i+1]
		}
		if !(q[i] > 0) {
			return 0, 0, false
		}
	}
	for i := range m {
		g := p[i] + q[i] - (d[i] + lam)
		if !(g > 0) {
			return 0, 0, false
		}
		trInv += 1 / g
	}
	for i, v := range x[:m*k] {
		fit += z[i]*v + lam*v*v
	}
	return fit, trInv, true
}

// ldlSolve sets the m×k x to (T+λI)⁻¹z for the tridiagonal T (diagonal d,
// off-diagonal e) through T+λI = LDLᵀ, the pivots going to p; it returns
// false, in O(m), when a pivot is not positive (T+λI not positive definite
// in floating point). The solve costs O(m·k).
func ldlSolve(d, e []float64, lam float64, z []float64, k int, p, x []float64) bool {
	m := len(d)
	for i := range m {
		p[i] = d[i] + lam
		if i > 0 {
			p[i] -= e[i-1] * e[i-1] / p[i-1]
		}
		if !(p[i] > 0) {
			return false
		}
	}
	// L y = z, then D Lᵀ x = y, row by row over the k columns.
	copy(x, z[:m*k])
	for i := 1; i < m; i++ {
		f := e[i-1] / p[i-1]
		xi, xp := x[i*k:(i+1)*k], x[(i-1)*k:i*k]
		for c := range xi {
			xi[c] -= f * xp[c]
		}
	}
	for i := m - 1; i >= 0; i-- {
		xi := x[i*k : (i+1)*k]
		inv := 1 / p[i]
		if i == m-1 {
			for c := range xi {
				xi[c] *= inv
			}
			continue
		}
		f := e[i] / p[i]
		xn := x[(i+1)*k : (i+2)*k]
		for c := range xi {
			xi[c] = xi[c]*inv - f*xn[c]
		}
	}
	return true
}

// Grid returns the λ values scored (a copy).
func (s *Spectrum) Grid() []float64 { return append([]float64(nil), s.grid...) }

// GCV scores every λ of the grid by generalized cross-validation.
//
// The fit is ŷ = P y with P = 11ᵀ/n + Hc, Hc = Φc(C + λI)⁻¹Φcᵀ (Φc the
// centered features: the intercept is not penalized). With Φc = USVᵀ,
// Λ = S² and B = VᵀΦcᵀYc:
//
//	tr P            = 1 + Σⱼ λⱼ/(λⱼ+λ)
//	‖Yc − HcYc‖²    = ‖Yc‖² − 2·tr(YcᵀHcYc) + ‖HcYc‖²
//	                = E − Σⱼ ‖Bⱼ‖²·(2/(λⱼ+λ) − λⱼ/(λⱼ+λ)²)
//	                = E − Σⱼ ‖Bⱼ‖²·(λⱼ+2λ)/(λⱼ+λ)²
//	GCV(λ)          = RSS/(n·k) / (1 − tr P/n)²
//
// so each λ costs O(m·k) given Λ, B and E = ‖Yc‖²; or, in tridiagonal
// form, O(m·k) for the solves with T + λI (tridiagFit).
func (s *Spectrum) GCV() []CurvePoint {
	a := s.acc
	n, m, k := float64(a.n), a.m, a.k
	e := 0.0
	for _, v := range a.e {
		e += v
	}
	curve := make([]CurvePoint, len(s.grid))
	score := func(rss, df float64) float64 {
		den := 1 - df/n
		if !(den > 0) {
			return math.Inf(1)
		}
		return math.Max(rss, 0) / (n * float64(k)) / (den * den)
	}
	if s.values == nil {
		// Σⱼ λⱼ/(λⱼ+λ) = m − λ·tr (T+λI)⁻¹.
		work := make([]float64, 2*m+m*k)
		for t, lam := range s.grid {
			curve[t] = CurvePoint{Lambda: lam, Score: math.Inf(1)}
			if fit, trInv, ok := s.tridiagFit(lam, work); ok {
				curve[t].Score = score(e-fit, 1+float64(m)-lam*trInv)
			}
		}
		return curve
	}
	bn := make([]float64, m) // ‖Bⱼ‖²
	for j := range bn {
		for _, v := range s.b[j*k : (j+1)*k] {
			bn[j] += v * v
		}
	}
	for t, lam := range s.grid {
		rss, df := e, 1.0
		for j, l := range s.values {
			d := l + lam
			rss -= bn[j] * (l + 2*lam) / (d * d)
			df += l / d
		}
		curve[t] = CurvePoint{Lambda: lam, Score: score(rss, df)}
	}
	return curve
}

// LOOSums returns, for each λ of the grid, the sum over the given rows of
// the squared exact leave-one-out residuals (Score) and, for
// classification, the number of rows whose left-out prediction names their
// class (Accuracy). Call it on every row block (the features Phi and
// targets y of the rows that were added) and add the parts with AddSums;
// LOOCurve turns the total into scores.
//
// For a ridge with unpenalized intercept the leave-one-out residual is
// eᵢ/(1 − Pᵢᵢ) exactly, with Pᵢᵢ = 1/n + Σⱼ zᵢⱼ²/(λⱼ+λ), z = Vᵀ(φᵢ − μ), and
// eᵢ = yᵢ − ȳ − Σⱼ zᵢⱼBⱼ/(λⱼ+λ). A block costs O(rows·m²), a second pass as
// expensive as the accumulation.
func (s *Spectrum) LOOSums(Phi *mat.Dense, y []float64) ([]CurvePoint, error) {
	a := s.acc
	if s.vt == nil {
		return nil, check.New(check.Option, "criterion", "krr: LOOSums needs the eigenvectors, and this spectrum was reduced for GCV only; take the spectrum from the accumulator's Spectrum method")
	}
	if err := check.Matrix("Phi", Phi); err != nil {
		return nil, wrap(err)
	}
	r, c := Phi.Dims()
	if c != a.m {
		return nil, check.New(check.Shape, "", "krr: Phi has %d columns but the spectrum has %d features; use the same feature map", c, a.m)
	}
	if r != len(y) {
		return nil, check.New(check.Shape, "", "krr: Phi has %d rows but y has %d values; give one target per row", r, len(y))
	}
	if err := checkTargets(y, a.opt, 0); err != nil {
		return nil, err
	}
	m, k, T := a.m, a.k, len(s.grid)
	// Z = (Φ − 1μᵀ)V.
	pc := make([]float64, r*m)
	for i := 0; i < r; i++ {
		row := pc[i*m : (i+1)*m]
		for j, v := range Phi.RawRowView(i) {
			row[j] = v - a.mu[j]
		}
	}
	z := make([]float64, r*m)
	blas64.Gemm(blas.NoTrans, blas.Trans, 1,
		blas64.General{Rows: r, Cols: m, Stride: m, Data: pc},
		blas64.General{Rows: m, Cols: m, Stride: m, Data: s.vt},
		0, blas64.General{Rows: r, Cols: m, Stride: m, Data: z})
	// Leverages for every λ at once: (Z∘Z)·Q with Qⱼₜ = 1/(λⱼ+λₜ); and
	// predictions Z·[Q₁B … Q_TB].
	q := make([]float64, m*T)
	qb := make([]float64, m*T*k)
	for j, l := range s.values {
		for t, lam := range s.grid {
			inv := 1 / (l + lam)
			q[j*T+t] = inv
			for o := 0; o < k; o++ {
				qb[j*T*k+t*k+o] = inv * s.b[j*k+o]
			}
		}
	}
	for i := range pc {
		pc[i] = z[i] * z[i]
	}
	// These two grow with the outputs and λs (r·m·T·k: most of the work
	// with many classes): linalg.Mul, the same bits on every host.
	lev := make([]float64, r*T)
	linalg.Mul(lev, pc, q, r, m, T)
	pred := make([]float64, r*T*k)
	linalg.Mul(pred, z, qb, r, m, T*k)
	sums := make([]CurvePoint, T)
	for t, lam := range s.grid {
		sums[t].Lambda = lam
	}
	yr := make([]float64, k)
	e := make([]float64, k)
	invn := 1 / float64(a.n)
	class := a.opt.Task == Classification
	for i, v := range y {
		encodeRow(yr, v, a.opt.Task)
		for t := 0; t < T; t++ {
			den := 1 - invn - lev[i*T+t]
			if !(den > 0) {
				sums[t].Score = math.Inf(1)
				continue
			}
			p := pred[(i*T+t)*k : (i*T+t+1)*k]
			for o := 0; o < k; o++ {
				e[o] = yr[o] - a.ybar[o] - p[o]
				res := e[o] / den
				sums[t].Score += res * res
			}
			if class && looHit(e, den, int(v), false) {
				sums[t].Accuracy++
			}
		}
	}
	return sums, nil
}

// AddSums adds the LOO sums of another row block to total (allocated when
// nil) and returns it. Both are sums over the same grid.
func AddSums(total, part []CurvePoint) ([]CurvePoint, error) {
	if total == nil {
		return append([]CurvePoint(nil), part...), nil
	}
	if len(part) != len(total) {
		return nil, check.New(check.Shape, "", "krr: LOO sums of %d λ added to sums of %d; add the sums of one spectrum's grid", len(part), len(total))
	}
	for t := range total {
		total[t].Score += part[t].Score
		total[t].Accuracy += part[t].Accuracy
	}
	return total, nil
}

// LOOCurve turns LOO sums over all rows into mean squared errors per
// output and accuracies.
func (s *Spectrum) LOOCurve(sums []CurvePoint) ([]CurvePoint, error) {
	if len(sums) != len(s.grid) {
		return nil, check.New(check.Shape, "", "krr: %d LOO sums for a grid of %d λ; pass the sums from LOOSums", len(sums), len(s.grid))
	}
	curve := make([]CurvePoint, len(sums))
	n := float64(s.acc.n)
	for t, v := range sums {
		curve[t] = CurvePoint{Lambda: s.grid[t], Score: v.Score / (n * float64(s.acc.k)), Accuracy: v.Accuracy / n}
	}
	return curve, nil
}

// Solve picks the λ of lowest score on curve (of highest accuracy first,
// for classification; a GCV curve has none) and solves the ridge problem
// at that λ by Cholesky. The model keeps the curve.
func (s *Spectrum) Solve(curve []CurvePoint) (*Model, error) {
	i, err := Best(curve, s.acc.opt.Task == Classification)
	if err != nil {
		return nil, err
	}
	if err := check.Lambda("krr", "curve λ", curve[i].Lambda); err != nil {
		return nil, err
	}
	return s.acc.solve(curve[i].Lambda, append([]CurvePoint(nil), curve...))
}

// Best returns the index of the best point of a curve: the lowest finite
// score, or with byAccuracy the highest accuracy among finite scores, the
// lowest score breaking ties; the smaller λ on full ties.
func Best(curve []CurvePoint, byAccuracy bool) (int, error) {
	best := -1
	for i, p := range curve {
		if math.IsInf(p.Score, 0) || math.IsNaN(p.Score) {
			continue
		}
		if best < 0 || Better(p, curve[best], byAccuracy) {
			best = i
		}
	}
	if best < 0 {
		return 0, check.New(check.Data, "", "krr: no λ in the grid gave a finite score; use a grid of larger λ or set Options.Lambda")
	}
	return best, nil
}

// Better reports whether p beats q: a higher accuracy (byAccuracy), else
// a lower score; a tie keeps q.
func Better(p, q CurvePoint, byAccuracy bool) bool {
	if byAccuracy && p.Accuracy != q.Accuracy {
		return p.Accuracy > q.Accuracy
	}
	return p.Score < q.Score
}
