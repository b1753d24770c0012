package krr

import (
	"context"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/linalg"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// Accumulator sums, over row blocks, what the primal solve needs: the row
// count n, the feature and target means μ and ȳ, and the centered
// co-moments C = Σ(φ−μ)(φ−μ)ᵀ (m×m, upper triangle), D = Σ(φ−μ)(y−ȳ)ᵀ
// (m×outputs) and E = Σ‖y−ȳ‖² per output.
//
// Blocks are merged with the pairwise update of Chan, Golub and LeVeque
// (each block centered on its own mean, then shifted by the difference of
// means), so no cancellation between large raw sums occurs. Accumulators
// filled from different row splits and merged agree to rounding, not
// bitwise: the tests hold predictions to 1e-10 relative.
//
// An Accumulator is not safe for concurrent use: Add and Solve reuse its
// scratch memory.
type Accumulator struct {
	opt  Options
	m, k int
	n    int
	mu   []float64 // m
	ybar []float64 // k
	c    []float64 // m×m, upper triangle
	d    []float64 // m×k
	e    []float64 // k

	// Scratch reused across Add calls.
	buf   []float64 // rows×m centered block
	ykept []float64 // its targets
	ybuf  []float64 // rows×k centered targets
	bmu   []float64
	bybr  []float64
	// work is the m×m copy of C that Solve factors or diagonalizes, kept
	// because first touches of fresh memory are slow (a fresh 134 MB copy
	// measured 0.3–1.5 s against 10 ms for a reused one on this machine).
	work []float64
}

// NewAccumulator returns an empty accumulator for m features. opt must name
// the task, and the number of classes for classification.
func NewAccumulator(m int, opt Options) (*Accumulator, error) {
	opt, err := opt.checked(nil, false)
	if err != nil {
		return nil, err
	}
	if m <= 0 {
		return nil, check.New(check.Shape, "", "krr: feature dimension %d is invalid; it must be positive", m)
	}
	if err := check.Alloc("Gram matrix ΦᵀΦ", m, m); err != nil {
		return nil, wrap(err)
	}
	k := opt.outputs()
	return &Accumulator{
		opt: opt, m: m, k: k,
		mu: make([]float64, m), ybar: make([]float64, k),
		c: make([]float64, m*m), d: make([]float64, m*k), e: make([]float64, k),
		bmu: make([]float64, m), bybr: make([]float64, k),
	}, nil
}

// Rows returns the number of rows added so far.
func (a *Accumulator) Rows() int { return a.n }

// Dim returns the feature dimension m.
func (a *Accumulator) Dim() int { return a.m }

// Add adds the feature rows Phi (rows×m) with their targets y (class
// indices or values). Phi and y are not modified.
func (a *Accumulator) Add(Phi *mat.Dense, y []float64) error {
	return a.AddExcept(Phi, y, nil, nil, 0)
}

// AddExcept is Add without the rows of Phi listed in out (ascending row
// indices), whose features it copies instead to rows at, at+1, … of dst:
// the held-out rows of criterion Holdout, which SolveHeldOut scores and
// then adds. Phi and y are not modified.
func (a *Accumulator) AddExcept(Phi *mat.Dense, y []float64, out []int, dst *mat.Dense, at int) error {
	if err := check.Matrix("Phi", Phi); err != nil {
		return wrap(err)
	}
	r, c := Phi.Dims()
	if c != a.m {
		return check.New(check.Shape, "", "krr: Phi has %d columns but the accumulator has %d features; use the same feature map for every block", c, a.m)
	}
	if r != len(y) {
		return check.New(check.Shape, "", "krr: Phi has %d rows but y has %d values; give one target per row", r, len(y))
	}
	if err := checkTargets(y, a.opt, a.n); err != nil {
		return err
	}
	for i, o := range out {
		if o < 0 || o >= r || (i > 0 && o <= out[i-1]) {
			return check.New(check.Value, "", "krr: the rows to leave out must be rows of Phi (0…%d) in increasing order; entry %d is %d", r-1, i, o)
		}
	}
	if len(out) > 0 {
		if dst == nil {
			return check.New(check.Type, "", "krr: dst is nil but %d rows are left out; pass a matrix for their features", len(out))
		}
		if dr, dc := dst.Dims(); dc != a.m || at < 0 || at+len(out) > dr {
			return check.New(check.Shape, "", "krr: dst is %d×%d; rows %d…%d of %d features do not fit", dr, dc, at, at+len(out)-1, a.m)
		}
	}
	a.buf = grow(a.buf, r*a.m)
	a.ykept = a.ykept[:0]
	k := 0
	for i := range r {
		if k < len(out) && out[k] == i {
			copy(dst.RawRowView(at+k), Phi.RawRowView(i))
			k++
			continue
		}
		copy(a.buf[len(a.ykept)*a.m:], Phi.RawRowView(i))
		a.ykept = append(a.ykept, y[i])
	}
	a.addOwned(a.buf[:len(a.ykept)*a.m], a.ykept)
	return nil
}

// addOwned adds a contiguous rows×m block that the accumulator may
// overwrite (it is centered in place). Targets must be checked.
func (a *Accumulator) addOwned(phi []float64, y []float64) {
	r, m, k := len(y), a.m, a.k
	if r == 0 {
		return
	}
	// Block means.
	bmu, byb := a.bmu, a.bybr
	clear(bmu)
	for i := 0; i < r; i++ {
		addRow(bmu, phi[i*m:(i+1)*m])
	}
	a.ybuf = grow(a.ybuf, r*k)
	yb := a.ybuf[:r*k]
	for i, v := range y {
		encodeRow(yb[i*k:(i+1)*k], v, a.opt.Task)
	}
	clear(byb)
	for i := 0; i < r; i++ {
		for j, v := range yb[i*k : (i+1)*k] {
			byb[j] += v
		}
	}
	inv := 1 / float64(r)
	for j := range bmu {
		bmu[j] *= inv
	}
	for j := range byb {
		byb[j] *= inv
	}
	// Center the block on its own means.
	for i := 0; i < r; i++ {
		subRow(phi[i*m:(i+1)*m], bmu)
		yr := yb[i*k : (i+1)*k]
		for j := range yr {
			yr[j] -= byb[j]
		}
	}
	if a.opt.Gram == rf.Float32 {
		linalg.AddAtA32(a.c, phi, r, m)
	} else {
		linalg.AddAtA(a.c, phi, r, m)
	}
	linalg.AddAtBRows(a.d, phi, yb, r, m, k) // Dgemm's bits
	for i := 0; i < r; i++ {
		for j, v := range yb[i*k : (i+1)*k] {
			a.e[j] += v * v
		}
	}
	a.mergeMoments(r, bmu, byb, nil, nil, nil)
}

// addRow adds row to s entry by entry, and subRow subtracts mu from row:
// each a call of its own per row, not inlined, because WebAssembly
// engines swap optimized code in only at a function's next call, and a
// loop over a whole block in one call ran to its end in baseline code.
//
//go:noinline
func addRow(s, row []float64) {
	s = s[:len(row)]
	for j, v := range row {
		s[j] += v
	}
}

//go:noinline
func subRow(row, mu []float64) {
	mu = mu[:len(row)]
	for j := range row {
		row[j] -= mu[j]
	}
}

// mergeMoments folds a part with nb rows and means bmu, byb into a. The
// part's centered co-moments are added when given (cb, db, eb; cb(i) is
// row i of C from the diagonal on, m−i values); Add has already added its
// block's own into a.
func (a *Accumulator) mergeMoments(nb int, bmu, byb []float64, cb func(i int) []float64, db, eb []float64) {
	m, k := a.m, a.k
	na := a.n
	n := na + nb
	f := float64(na) * float64(nb) / float64(n)
	dmu := make([]float64, m)
	for j := range dmu {
		dmu[j] = bmu[j] - a.mu[j]
	}
	dy := make([]float64, k)
	for j := range dy {
		dy[j] = byb[j] - a.ybar[j]
	}
	for i := 0; i < m; i++ {
		var ci []float64
		if cb != nil {
			ci = cb(i)
		}
		mergeRow(a.c[i*m+i:(i+1)*m], ci, f*dmu[i], dmu[i:], f != 0)
		drow := a.d[i*k : (i+1)*k]
		for j := range drow {
			if db != nil {
				drow[j] += db[i*k+j]
			}
			drow[j] += f * dmu[i] * dy[j]
		}
	}
	for j := range a.e {
		if eb != nil {
			a.e[j] += eb[j]
		}
		a.e[j] += f * dy[j] * dy[j]
	}
	w := float64(nb) / float64(n)
	for j := range a.mu {
		a.mu[j] += w * dmu[j]
	}
	for j := range a.ybar {
		a.ybar[j] += w * dy[j]
	}
	a.n = n
}

// mergeRow adds a part's row of C from the diagonal on (c, nil for none)
// to row, then, with moments, fi·dmu (the correction for the means). A
// (not inlined) call per row: WebAssembly engines optimize a function
// between its calls and a running call never changes code, so the loop
// over all of C in mergeMoments ran to its end in baseline code at its
// first calls (the solving worker merges the parts' sums this way).
//
//go:noinline
func mergeRow(row, c []float64, fi float64, dmu []float64, moments bool) {
	for j, v := range c {
		row[j] += v
	}
	if moments {
		dmu = dmu[:len(row)]
		for j := range row {
			row[j] += fi * dmu[j]
		}
	}
}

// Merge adds the rows summed in b into a, as if they had been added to a.
// b is not modified.
func (a *Accumulator) Merge(b *Accumulator) error {
	if b == nil {
		return check.New(check.Type, "", "krr: the accumulator to merge is nil")
	}
	if b.m != a.m || b.opt.Task != a.opt.Task || b.k != a.k {
		return check.New(check.Shape, "", "krr: cannot merge an accumulator of %d features and %d outputs (%s) into one of %d features and %d outputs (%s); use the same map and options",
			b.m, b.k, b.opt.Task, a.m, a.k, a.opt.Task)
	}
	if b.n == 0 {
		return nil
	}
	a.mergeMoments(b.n, b.mu, b.ybar, upper(b.c, b.m), b.d, b.e)
	return nil
}

// Solve chooses λ (unless Options.Lambda fixes it) by GCV and solves the
// ridge problem on the rows added. Criterion LOO needs a second pass over
// the rows (use Spectrum, LOOSums and Spectrum.Solve) and Holdout the
// held-out rows (left out with AddExcept, then SolveHeldOut); an empty
// criterion means GCV here, so a host that splits a classification fit
// calls SolveHeldOut to choose as FitFeatures does. The model predicts from features; attach the map with
// Model.SetFeaturizer to predict from inputs.
func (a *Accumulator) Solve() (*Model, error) { return a.SolveContext(context.Background()) }

// SolveContext is Solve returning ctx's error once ctx is cancelled before
// the eigendecomposition.
func (a *Accumulator) SolveContext(ctx context.Context) (*Model, error) {
	if err := a.checkSolvable(); err != nil {
		return nil, err
	}
	if a.opt.Lambda > 0 {
		return a.solve(a.opt.Lambda, nil)
	}
	switch a.opt.Criterion {
	case LOO:
		return nil, check.New(check.Option, "criterion", "krr: criterion %q needs a second pass over the rows; use Spectrum and LOOSums, or criterion %q", LOO, GCV)
	case Holdout:
		return nil, check.New(check.Option, "criterion", "krr: criterion %q needs the held-out rows; leave them out with AddExcept and use SolveHeldOut", Holdout)
	}
	s, err := a.spectrum(ctx, false)
	if err != nil {
		return nil, err
	}
	return s.Solve(s.GCV())
}

// SolveAt solves the ridge problem at the given λ > 0, whatever
// Options.Lambda says: to compare several λ on the same rows without
// accumulating them again.
func (a *Accumulator) SolveAt(lambda float64) (*Model, error) {
	if err := check.Lambda("krr", "lambda", lambda); err != nil {
		return nil, err
	}
	if err := a.checkSolvable(); err != nil {
		return nil, err
	}
	return a.solve(lambda, nil)
}

func (a *Accumulator) checkSolvable() error {
	return solvable(a.n, a.opt.Task, a.ybar)
}

// solvable says why n rows whose class frequencies are ybar cannot be
// fitted, if they cannot.
func solvable(n int, task Task, ybar ...[]float64) error {
	if n < 2 {
		return check.New(check.Shape, "", "krr: %d rows added; ridge regression needs at least 2", n)
	}
	if task == Classification {
		seen := 0
		for c := range ybar[0] {
			if slices.ContainsFunc(ybar, func(p []float64) bool { return len(p) > c && p[c] > 0 }) {
				seen++
			}
		}
		if seen < 2 {
			return check.New(check.Data, "", "krr: all %d rows are of one class; classification needs at least two classes", n)
		}
	}
	return nil
}

// centered returns a copy of C in the accumulator's scratch matrix, valid
// until the next Solve.
func (a *Accumulator) centered() []float64 {
	a.work = grow(a.work, a.m*a.m)
	// On all cores: the first copy also faults the m² fresh values in
	// (0.3 s at m = 4096 on one core).
	m := a.m
	linalg.ParallelFor((m+63)/64, func(b int) {
		lo, hi := b*64*m, min((b+1)*64, m)*m
		copy(a.work[lo:hi], a.c[lo:hi])
	})
	return a.work
}

// coefficients factors C + λI by Cholesky and returns W = (C + λI)⁻¹D
// and the intercept ȳ − μᵀW; ok is false when C + λI is not numerically
// positive definite.
func (a *Accumulator) coefficients(lambda float64) (W *mat.Dense, bias []float64, ok bool) {
	s := a.centered()
	for i := 0; i < a.m; i++ {
		s[i*a.m+i] += lambda
	}
	W, err := linalg.CholSolveShared(s, a.m, a.d, a.k, a.opt.Helper)
	if err != nil {
		return nil, nil, false
	}
	bias = append([]float64(nil), a.ybar...)
	for j := 0; j < a.m; j++ {
		for o, w := range W.RawRowView(j) {
			bias[o] -= a.mu[j] * w
		}
	}
	return W, bias, true
}

// solve returns the model at λ (see coefficients).
func (a *Accumulator) solve(lambda float64, curve []CurvePoint) (*Model, error) {
	W, bias, ok := a.coefficients(lambda)
	if !ok {
		return nil, singular("ΦᵀΦ", lambda, a.opt.Lambda > 0)
	}
	if err := checkFitted(W, bias, lambda); err != nil {
		return nil, err
	}
	return &Model{
		task: a.opt.Task, classes: a.opt.Classes, blockRows: a.opt.BlockRows,
		lambda: lambda, curve: curve, w: W, bias: bias,
	}, nil
}

// upper returns the rows of the m×m c from the diagonal on.
func upper(c []float64, m int) func(i int) []float64 {
	return func(i int) []float64 { return c[i*m+i : (i+1)*m] }
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// Clone returns a copy of a's sums (its scratch memory is not copied).
func (a *Accumulator) Clone() *Accumulator {
	return &Accumulator{
		opt: a.opt, m: a.m, k: a.k, n: a.n,
		mu: slices.Clone(a.mu), ybar: slices.Clone(a.ybar),
		c: slices.Clone(a.c), d: slices.Clone(a.d), e: slices.Clone(a.e),
		bmu: make([]float64, a.m), bybr: make([]float64, a.k),
	}
}

// Reset empties a for new rows, keeping its memory (a fresh m×m sum costs
// its first touches: 0.3–1.5 s for 134 MB on this machine, against a pass
// to clear it).
func (a *Accumulator) Reset() {
	a.n = 0
	clear(a.mu)
	clear(a.ybar)
	clear(a.c)
	clear(a.d)
	clear(a.e)
}

// DropScratch lets a's scratch memory go (the block buffers Add reuses,
// the m×m copy a solve works in): a host that keeps sums between their
// rows and their merge holds only the sums. The next Add or solve makes
// them again.
func (a *Accumulator) DropScratch() {
	a.buf, a.ykept, a.ybuf, a.work = nil, nil, nil, nil
}

// MoveScratch hands a's scratch memory (the block buffers Add reuses, rows×m
// numbers) to b, which then needs none of its own: a host that fills
// accumulators one after another keeps one set of buffers.
func (a *Accumulator) MoveScratch(b *Accumulator) {
	if a == nil || b == nil || a == b || b.m != a.m || b.k != a.k {
		return
	}
	b.buf, b.ykept, b.ybuf = a.buf, a.ykept[:0], a.ybuf
	a.buf, a.ykept, a.ybuf = nil, nil, nil
}
