package krr

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
)

// MaxHoldoutRows bounds the rows Holdout keeps out: a fifth of the rows,
// at most this many. 2,000 rows resolve accuracy differences of a few
// tenths of a point between neighbouring λ (paired on the same rows) and
// cost one m-wide product each.
const MaxHoldoutRows = 2000

// The λ scored by Holdout, as powers of ten times the GCV choice: GCV
// estimates squared error, and the most accurate λ of a classifier lies at
// or below it (30× below on Fashion-MNIST with unit-norm rows). Each λ
// costs a Cholesky of m×m (0.5–1 s at m = 4096), so the search is coarse
// to fine: the decades holdoutCoarse first, then one more decade past an
// end that wins (within holdoutLo…holdoutHi), then the half-decades on
// either side of the best: 5–6 λ, against the 8–9 of a half-decade grid
// over the same range, with the same resolution around the winner.
var holdoutCoarse = []float64{-2, -1, 0}

const holdoutLo, holdoutHi = -4.0, 1.0

// HoldoutRows returns the rows (sorted) that criterion Holdout keeps out
// of a primal fit of n rows: min(n/5, MaxHoldoutRows) rows picked by a
// fixed hash of the row index, so every host picks the same rows without a
// seed, and rows sorted by class are still sampled evenly.
func HoldoutRows(n int) []int {
	v := min(n/5, MaxHoldoutRows)
	if v < 1 {
		return nil
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(mix(uint64(a)), mix(uint64(b))) })
	out := idx[:v]
	slices.Sort(out)
	return out
}

// mix is splitmix64's finalizer: a bijection that scatters row indices.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// SolveHoldout chooses λ with the rows Phi (features) and y that were
// added to the accumulator and are now held out: their sums are taken out
// (an exact downdate of the co-moments), the rest is solved at each λ of a
// bracket around the GCV choice of all rows, and the held-out rows are
// scored (accuracy for classification, squared error breaking ties;
// squared error for regression). The model is then solved on all rows at
// the chosen λ and keeps the held-out curve. Pass the rows of HoldoutRows
// to reproduce FitFeatures. A fixed Options.Lambda skips the search.
func (a *Accumulator) SolveHoldout(Phi *mat.Dense, y []float64) (*Model, error) {
	if err := a.checkSolvable(); err != nil {
		return nil, err
	}
	if a.opt.Lambda > 0 {
		return a.solve(a.opt.Lambda, nil)
	}
	b, err := NewAccumulator(a.m, a.opt)
	if err != nil {
		return nil, err
	}
	if err := b.Add(Phi, y); err != nil {
		return nil, err
	}
	if b.n < 1 || a.n-b.n < 2 {
		return nil, check.New(check.Shape, "", "krr: %d held-out rows of %d; keep at least one row out and two in", b.n, a.n)
	}
	s, err := a.spectrum(false)
	if err != nil {
		return nil, err
	}
	gcv := s.GCV()
	i, err := Best(gcv, false)
	if err != nil {
		return nil, err
	}
	center := gcv[i].Lambda
	rest := a.without(b)
	if err := rest.checkSolvable(); err != nil {
		return nil, fmt.Errorf("krr: without the held-out rows: %w", err)
	}
	byAcc := a.opt.Task == Classification
	var curve []CurvePoint
	var steps []float64 // the step of each point of curve
	score := func(step float64) error {
		if slices.Contains(steps, step) {
			return nil
		}
		if err := a.opt.cancelled(); err != nil {
			return err
		}
		lam := center * math.Pow(10, step)
		p, err := rest.scoreRows(lam, Phi, y)
		if err != nil {
			return err
		}
		curve, steps = append(curve, p), append(steps, step)
		return nil
	}
	// best is the step of the best λ scored so far, ok false while none
	// has a finite score.
	best := func() (float64, bool) {
		j, err := Best(curve, byAcc)
		if err != nil {
			return 0, false
		}
		return steps[j], true
	}
	for _, st := range holdoutCoarse {
		if err := score(st); err != nil {
			return nil, err
		}
	}
	// Extend past an end that wins, a decade at a time.
	for {
		b, ok := best()
		lo, hi := slices.Min(steps), slices.Max(steps)
		next := math.NaN()
		switch {
		case ok && b == lo && lo-1 >= holdoutLo:
			next = lo - 1
		case ok && b == hi && hi+1 <= holdoutHi:
			next = hi + 1
		}
		if math.IsNaN(next) {
			break
		}
		if err := score(next); err != nil {
			return nil, err
		}
	}
	// Refine: the half-decades beside the best.
	if b, ok := best(); ok {
		for _, st := range []float64{b - 0.5, b + 0.5} {
			if err := score(st); err != nil {
				return nil, err
			}
		}
	}
	slices.SortFunc(curve, func(p, q CurvePoint) int { return cmp.Compare(p.Lambda, q.Lambda) })
	j, err := Best(curve, byAcc)
	if err != nil {
		return nil, err
	}
	return a.solve(curve[j].Lambda, curve)
}

// without returns the accumulator of a's rows less b's: the co-moments of
// the union are those of the parts plus f·δδᵀ (f = n_A·n_B/n, δ the
// difference of means), so they are subtracted back out. b is reused for
// the result.
func (a *Accumulator) without(b *Accumulator) *Accumulator {
	m, k := a.m, a.k
	n, nb := a.n, b.n
	na := n - nb
	f := float64(na) * float64(nb) / float64(n)
	// μ_A = (n·μ − n_B·μ_B)/n_A; δ = μ_B − μ_A.
	mu := make([]float64, m)
	dmu := make([]float64, m)
	for j := range mu {
		mu[j] = (float64(n)*a.mu[j] - float64(nb)*b.mu[j]) / float64(na)
		dmu[j] = b.mu[j] - mu[j]
	}
	ybar := make([]float64, k)
	dy := make([]float64, k)
	for j := range ybar {
		ybar[j] = (float64(n)*a.ybar[j] - float64(nb)*b.ybar[j]) / float64(na)
		dy[j] = b.ybar[j] - ybar[j]
	}
	for i := 0; i < m; i++ {
		row, brow := a.c[i*m:(i+1)*m], b.c[i*m:(i+1)*m]
		fi := f * dmu[i]
		for j := i; j < m; j++ {
			brow[j] = row[j] - brow[j] - fi*dmu[j]
		}
		for o := 0; o < k; o++ {
			b.d[i*k+o] = a.d[i*k+o] - b.d[i*k+o] - fi*dy[o]
		}
	}
	for o := range b.e {
		b.e[o] = a.e[o] - b.e[o] - f*dy[o]*dy[o]
	}
	b.n, b.mu, b.ybar = na, mu, ybar
	b.work = a.work // one scratch m×m for both: a's is free until its final solve
	return b
}

// scoreRows solves at λ and scores the rows Phi, y: the mean squared
// error per output and, for classification, the accuracy.
func (a *Accumulator) scoreRows(lam float64, Phi *mat.Dense, y []float64) (CurvePoint, error) {
	p := CurvePoint{Lambda: lam, Score: math.Inf(1)}
	W, bias, ok := a.coefficients(lam)
	if !ok {
		return p, nil // not positive definite at this λ: it cannot win
	}
	r, _ := Phi.Dims()
	k := a.k
	pred := make([]float64, r*k)
	raw := Phi.RawMatrix()
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, raw, W.RawMatrix(),
		0, blas64.General{Rows: r, Cols: k, Stride: k, Data: pred})
	yr := make([]float64, k)
	sse, hits := 0.0, 0
	for i, v := range y {
		row := pred[i*k : (i+1)*k]
		for o := range row {
			row[o] += bias[o]
		}
		encodeRow(yr, v, a.opt.Task)
		for o, t := range yr {
			sse += (t - row[o]) * (t - row[o])
		}
		if a.opt.Task == Classification && classOf(row) == v {
			hits++
		}
	}
	p.Score = sse / float64(r*k)
	if a.opt.Task == Classification {
		p.Accuracy = float64(hits) / float64(r)
	}
	return p, nil
}
