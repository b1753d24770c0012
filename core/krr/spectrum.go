package krr

import (
	"fmt"
	"math"

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
// Gram matrix, with B = VᵀD. Every λ of the grid is scored from it without
// refitting.
type Spectrum struct {
	acc    *Accumulator
	values []float64 // Λ, ascending, clamped at 0
	vt     []float64 // Vᵀ, m×m; nil when only B was computed
	b      []float64 // B = VᵀD, m×k
	grid   []float64
}

// Spectrum diagonalizes the centered Gram matrix of the rows added so far,
// with its eigenvectors, as LOOSums needs. It costs O(m³) once.
func (a *Accumulator) Spectrum() (*Spectrum, error) { return a.spectrum(true) }

// spectrum computes Λ and B, and V when vectors is set; GCV needs no V,
// which saves most of the eigensolver's time.
func (a *Accumulator) spectrum(vectors bool) (*Spectrum, error) {
	if err := a.opt.cancelled(); err != nil {
		return nil, err
	}
	if err := a.checkSolvable(); err != nil {
		return nil, err
	}
	m, k := a.m, a.k
	work := a.centered()
	var rhs []float64
	if !vectors {
		rhs = a.d
	}
	vals, w, err := linalg.EigSym(work, m, rhs, k, stageProgress(a.opt, "eigen"))
	if err != nil {
		return nil, fmt.Errorf("krr: the eigendecomposition of ΦᵀΦ did not converge; check the features for extreme values")
	}
	tr := 0.0
	for i, l := range vals {
		// Rounding leaves eigenvalues of a PSD matrix slightly negative.
		vals[i] = math.Max(l, 0)
		tr += vals[i]
	}
	grid := a.opt.Grid
	if len(grid) == 0 {
		if !(tr > 0) {
			return nil, fmt.Errorf("krr: every feature is constant over the %d rows; the features carry no information to fit", a.n)
		}
		grid = defaultGrid(tr / float64(m))
	}
	s := &Spectrum{acc: a, values: vals, grid: append([]float64(nil), grid...)}
	if vectors {
		s.vt = w
		s.b = make([]float64, m*k)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
			blas64.General{Rows: m, Cols: m, Stride: m, Data: w},
			blas64.General{Rows: m, Cols: k, Stride: k, Data: a.d},
			0, blas64.General{Rows: m, Cols: k, Stride: k, Data: s.b})
	} else {
		s.b = w
	}
	return s, nil
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
// so each λ costs O(m·k) given Λ, B and E = ‖Yc‖².
func (s *Spectrum) GCV() []CurvePoint {
	a := s.acc
	n, m, k := float64(a.n), a.m, a.k
	bn := make([]float64, m) // ‖Bⱼ‖²
	for j := range bn {
		for _, v := range s.b[j*k : (j+1)*k] {
			bn[j] += v * v
		}
	}
	e := 0.0
	for _, v := range a.e {
		e += v
	}
	curve := make([]CurvePoint, len(s.grid))
	for t, lam := range s.grid {
		rss, df := e, 1.0
		for j, l := range s.values {
			d := l + lam
			rss -= bn[j] * (l + 2*lam) / (d * d)
			df += l / d
		}
		den := 1 - df/n
		score := math.Inf(1)
		if den > 0 {
			score = math.Max(rss, 0) / (n * float64(k)) / (den * den)
		}
		curve[t] = CurvePoint{Lambda: lam, Score: score}
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
		panic("krr: LOOSums on a spectrum without eigenvectors")
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
	lev := make([]float64, r*T)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
		blas64.General{Rows: r, Cols: m, Stride: m, Data: pc},
		blas64.General{Rows: m, Cols: T, Stride: T, Data: q},
		0, blas64.General{Rows: r, Cols: T, Stride: T, Data: lev})
	pred := make([]float64, r*T*k)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
		blas64.General{Rows: r, Cols: m, Stride: m, Data: z},
		blas64.General{Rows: m, Cols: T * k, Stride: T * k, Data: qb},
		0, blas64.General{Rows: r, Cols: T * k, Stride: T * k, Data: pred})
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
			if class && looHit(e, den, int(v)) {
				sums[t].Accuracy++
			}
		}
	}
	return sums, nil
}

// AddSums adds the LOO sums of another row block to total (allocated when
// nil) and returns it.
func AddSums(total, part []CurvePoint) []CurvePoint {
	if total == nil {
		return append([]CurvePoint(nil), part...)
	}
	for t := range total {
		total[t].Score += part[t].Score
		total[t].Accuracy += part[t].Accuracy
	}
	return total
}

// LOOCurve turns LOO sums over all rows into mean squared errors per
// output and accuracies.
func (s *Spectrum) LOOCurve(sums []CurvePoint) ([]CurvePoint, error) {
	if len(sums) != len(s.grid) {
		return nil, fmt.Errorf("krr: %d LOO sums for a grid of %d λ; pass the sums from LOOSums", len(sums), len(s.grid))
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
		return 0, fmt.Errorf("krr: no λ in the grid gave a finite score; use a grid of larger λ or set Lambda")
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
