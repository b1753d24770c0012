package krr

import (
	"cmp"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/linalg"
	"ntkrf/internal/fixture"
)

func TestHoldoutRows(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 4, 5, 97, 10000, 20000, 50000} {
		rows := HoldoutRows(n)
		want := min(n/5, MaxHoldoutRows)
		if len(rows) != want {
			t.Errorf("n=%d: %d rows, want %d", n, len(rows), want)
		}
		if !slices.IsSorted(rows) || len(slices.Compact(slices.Clone(rows))) != len(rows) {
			t.Errorf("n=%d: rows not sorted and distinct", n)
		}
		if len(rows) > 0 && (rows[0] < 0 || rows[len(rows)-1] >= n) {
			t.Errorf("n=%d: rows out of range", n)
		}
		if !slices.Equal(rows, HoldoutRows(n)) {
			t.Errorf("n=%d: not deterministic", n)
		}
	}
	// Rows sorted by class (three blocks, as iris is) are sampled evenly:
	// each block's share is binomial around a third; 6 standard deviations.
	n := 3000
	rows := HoldoutRows(n)
	v := float64(len(rows))
	sd := math.Sqrt(v / 3 * 2 / 3)
	for b := 0; b < 3; b++ {
		c := 0
		for _, r := range rows {
			if r/(n/3) == b {
				c++
			}
		}
		if math.Abs(float64(c)-v/3) > 6*sd {
			t.Errorf("block %d holds %d of %v held-out rows", b, c, v)
		}
	}
}

// TestHoldoutMatchesRefits checks the held-out curve against fits on the
// kept rows at each λ, scored on the held-out rows by Predict, and the
// final model against a fit on all rows at the chosen λ; with 12 features
// (a one-stage tridiagonal reduction) and 520 (two-stage).
func TestHoldoutMatchesRefits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ n, m, k int }{{90, 12, 0}, {90, 12, 3}, {700, 520, 0}, {700, 520, 4}} {
		k, n := c.k, c.n
		f := fixture.NewReLU(5, c.m, 3) // m < n: primal
		X, y := fixture.Data(n, 5, k, 8)
		m, err := FitFeatures(f, X, y, Options{Classes: k, Task: map[bool]Task{true: Classification, false: Regression}[k > 0], Criterion: Holdout, BlockRows: 7})
		if err != nil {
			t.Fatal(err)
		}
		held := HoldoutRows(n)
		var kept []int
		for i := range n {
			if !slices.Contains(held, i) {
				kept = append(kept, i)
			}
		}
		curve := m.Curve()
		// Every half-decade of the bracket, around the GCV choice of the
		// kept rows.
		if want := int((holdoutHi-holdoutLo)/holdoutStep) + 1; len(curve) != want {
			t.Fatalf("k=%d: %d curve points, want %d", k, len(curve), want)
		}
		for i := 1; i < len(curve); i++ {
			if r := curve[i].Lambda / curve[i-1].Lambda; math.Abs(r-math.Pow(10, holdoutStep)) > 1e-12 {
				t.Errorf("k=%d: λ %g then %g: not a half-decade apart", k, curve[i-1].Lambda, curve[i].Lambda)
			}
		}
		g, err := FitFeatures(f, data.Rows(X, kept), data.Take(y, kept), Options{Classes: k, Task: m.Task(), Criterion: GCV})
		if err != nil {
			t.Fatal(err)
		}
		if c := curve[int(-holdoutLo/holdoutStep)].Lambda; math.Abs(c/g.Lambda()-1) > 1e-9 {
			t.Errorf("k=%d: the bracket is centred on %g; the kept rows' GCV chooses %g", k, c, g.Lambda())
		}
		for _, p := range curve {
			r, err := FitFeatures(f, data.Rows(X, kept), data.Take(y, kept), Options{Classes: k, Task: m.Task(), Lambda: p.Lambda})
			if err != nil {
				t.Fatal(err)
			}
			S, _ := r.Predict(data.Rows(X, held))
			sse, hits := 0.0, 0
			labels := r.Labels(S)
			for i, v := range data.Take(y, held) {
				row := make([]float64, r.Outputs())
				encodeRow(row, v, m.Task())
				for o, t := range row {
					sse += (t - S.At(i, o)) * (t - S.At(i, o))
				}
				if labels[i] == v {
					hits++
				}
			}
			mse := sse / float64(len(held)*r.Outputs())
			if math.Abs(p.Score-mse) > exactTol*mse {
				t.Errorf("k=%d λ=%g: held-out error %.15g, refit gives %.15g", k, p.Lambda, p.Score, mse)
			}
			if k > 0 && p.Accuracy != float64(hits)/float64(len(held)) {
				t.Errorf("k=%d λ=%g: held-out accuracy %g, refit gives %g", k, p.Lambda, p.Accuracy, float64(hits)/float64(len(held)))
			}
		}
		i, _ := Best(curve, k > 0)
		if m.Lambda() != curve[i].Lambda {
			t.Errorf("k=%d: model λ %g, best of the curve %g", k, m.Lambda(), curve[i].Lambda)
		}
		all, _ := FitFeatures(f, X, y, Options{Classes: k, Task: m.Task(), Lambda: m.Lambda()})
		a, _ := all.Predict(X)
		b, _ := m.Predict(X)
		if r := fixture.RelDiff(a, b); r > splitTol {
			t.Errorf("k=%d: the final model is not the fit on all rows at λ (%g relative)", k, r)
		}
	}
}

// TestDefaultCriterion: classification in the primal is chosen by
// held-out accuracy, in the dual by LOO accuracy; regression by GCV and
// LOO squared error.
func TestDefaultCriterion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		task Task
		dual bool
		want Criterion
	}{
		{Classification, false, Holdout}, {Classification, true, LOO},
		{Regression, false, GCV}, {Regression, true, LOO},
	} {
		if got := DefaultCriterion(tc.task, tc.dual); got != tc.want {
			t.Errorf("DefaultCriterion(%s, dual %v) = %s, want %s", tc.task, tc.dual, got, tc.want)
		}
	}
	f := fixture.NewReLU(5, 12, 3)
	X, y := fixture.Data(90, 5, 3, 9)
	m, _ := FitFeatures(f, X, y, Options{Classes: 3})
	h, _ := FitFeatures(f, X, y, Options{Classes: 3, Criterion: Holdout})
	if m.Lambda() != h.Lambda() || m.Curve()[0].Accuracy == 0 {
		t.Errorf("default primal classification: λ %g, Holdout λ %g", m.Lambda(), h.Lambda())
	}
}

func TestKernelCurveIsFitKernelCurve(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(30, 4, 3, 10)
	k := kernel.Spec{Name: "ntk", Depth: 3}
	m, err := FitKernel(k, X, y, Options{Classes: 3})
	if err != nil {
		t.Fatal(err)
	}
	K, _ := k.Gram(X, nil)
	c, _, err := KernelCurve(K, y, Options{Classes: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c, m.Curve()) {
		t.Errorf("KernelCurve %v\nFitKernel curve %v", c, m.Curve())
	}
	if _, _, err := KernelCurve(K, y[:5], Options{Classes: 3}); err == nil {
		t.Error("KernelCurve took a kernel of 30 rows with 5 targets")
	}
	K, _ = k.Gram(X, nil)
	if _, l, err := KernelCurve(K, y, Options{Classes: 3, Criterion: GCV}); err != nil || l != nil {
		t.Errorf("GCV curve: losses %v, error %v; want none", l, err)
	}
}

// TestKernelCurveLosses checks each row's leave-one-out loss against a
// refit without that row: the miss indicator (classification) or the
// squared error per output (regression), and their mean against the
// curve's accuracy or score.
func TestKernelCurveLosses(t *testing.T) {
	t.Parallel()
	X, yc := fixture.Data(25, 4, 3, 11)
	yr := make([]float64, len(yc))
	for i := range yr {
		yr[i] = X.At(i, 0) - 0.5*X.At(i, 2)*X.At(i, 1)
	}
	k := kernel.Spec{Name: "ntk", Depth: 2}
	grid := []float64{1e-4, 0.01, 0.3, 10}
	for _, tc := range []struct {
		name string
		y    []float64
		opt  Options
	}{
		{"classification", yc, Options{Classes: 3, Grid: grid}},
		// Classes 3…6 have no rows: dualCurve leaves their zero columns out.
		{"classification, classes absent", yc, Options{Classes: 7, Grid: grid}},
		{"regression", yr, Options{Task: Regression, Grid: grid}},
	} {
		K, _ := k.Gram(X, nil)
		curve, losses, err := KernelCurve(K, tc.y, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(losses) != len(grid) {
			t.Fatalf("%s: %d loss rows for %d λ", tc.name, len(losses), len(grid))
		}
		n := len(tc.y)
		for g, lam := range grid {
			o := tc.opt
			o.Lambda, o.Grid = lam, nil
			mean := 0.0
			for i := 0; i < n; i++ {
				var idx []int
				for j := range n {
					if j != i {
						idx = append(idx, j)
					}
				}
				m, err := FitKernel(k, data.Rows(X, idx), data.Take(tc.y, idx), o)
				if err != nil {
					t.Fatal(err)
				}
				s, _ := m.Predict(data.Rows(X, []int{i}))
				want := 0.0
				if tc.opt.Task == Regression {
					d := tc.y[i] - s.At(0, 0)
					want = d * d
				} else if m.Labels(s)[0] != tc.y[i] {
					want = 1
				}
				if got := losses[g][i]; math.Abs(got-want) > exactTol*(1+want) {
					t.Errorf("%s λ=%g row %d: loss %v, refit %v", tc.name, lam, i, got, want)
				}
				mean += losses[g][i] / float64(n)
			}
			want := curve[g].Score
			if tc.opt.Task != Regression {
				want = 1 - curve[g].Accuracy
			}
			if math.Abs(mean-want) > exactTol {
				t.Errorf("%s λ=%g: mean loss %v, curve says %v", tc.name, lam, mean, want)
			}
			if !(mean > 0) || (tc.opt.Task != Regression && !(mean < 1)) {
				t.Errorf("%s λ=%g: mean loss %v; the check needs rows of both kinds", tc.name, lam, mean)
			}
		}
	}
}

func TestBest(t *testing.T) {
	t.Parallel()
	inf := math.Inf(1)
	for _, tc := range []struct {
		name  string
		curve []CurvePoint
		byAcc bool
		want  int
	}{
		{"lowest score", []CurvePoint{{1, 3, 0}, {2, 1, 0}, {3, 2, 0}}, false, 1},
		{"smaller λ on ties", []CurvePoint{{1, 1, 0}, {2, 1, 0}}, false, 0},
		{"accuracy first", []CurvePoint{{1, 1, 0.8}, {2, 2, 0.9}}, true, 1},
		{"score breaks accuracy ties", []CurvePoint{{1, 2, 0.9}, {2, 1, 0.9}}, true, 1},
		{"infinite scores never win", []CurvePoint{{1, inf, 1}, {2, 5, 0.5}}, true, 1},
	} {
		if got, err := Best(tc.curve, tc.byAcc); err != nil || got != tc.want {
			t.Errorf("%s: Best = %d, %v; want %d", tc.name, got, err, tc.want)
		}
	}
	if _, err := Best([]CurvePoint{{1, inf, 0}}, false); err == nil {
		t.Error("Best found a point in an all-infinite curve")
	}
}

// TestHoldoutRowsWithoutAnNBuffer: the heap picks exactly the rows of the
// definition (the v smallest hashes of all n rows, sorted), which the old
// code found by sorting an n-sized index.
func TestHoldoutRowsWithoutAnNBuffer(t *testing.T) {
	// Not parallel: the allocation count below must be this test's alone.
	for _, n := range []int{-1, 0, 4, 5, 9, 10, 11, 997, 5000, 10003, 23456} {
		want := []int(nil)
		if v := min(n/5, MaxHoldoutRows); v >= 1 {
			idx := make([]int, n)
			for i := range idx {
				idx[i] = i
			}
			slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(mix(uint64(a)), mix(uint64(b))) })
			want = idx[:v]
			slices.Sort(want)
		}
		if got := HoldoutRows(n); !slices.Equal(got, want) {
			t.Errorf("HoldoutRows(%d): %d rows, not the %d of the definition", n, len(got), len(want))
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	HoldoutRows(1 << 22)
	runtime.ReadMemStats(&after)
	if b := after.TotalAlloc - before.TotalAlloc; b > 1<<20 {
		t.Errorf("HoldoutRows(2^22) allocated %d bytes; its memory is O(MaxHoldoutRows)", b)
	}
}

// TestLooHitAbsent checks looHit on the present classes' residuals against
// the definition on all k (an absent class's residual is 0, its left-out
// score 0), on rows whose own score is positive, zero and negative, with
// and without absent classes.
func TestLooHitAbsent(t *testing.T) {
	t.Parallel()
	full := func(e []float64, den float64, c int) bool { // every class, score_o = [o = c] − e_o/den
		own := 1 - e[c]/den
		for o, v := range e {
			if o != c && -v/den >= own {
				return false
			}
		}
		return true
	}
	r := rand.New(rand.NewPCG(41, 42))
	for _, tc := range []struct {
		name    string
		present []bool
	}{
		{"all present", []bool{true, true, true, true}},
		{"one absent", []bool{true, false, true, true}},
		{"most absent", []bool{false, true, false, false, true, false, false}},
	} {
		k := len(tc.present)
		var cols []int
		pos := make([]int, k)
		for c, p := range tc.present {
			pos[c] = -1
			if p {
				pos[c] = len(cols)
				cols = append(cols, c)
			}
		}
		hits, misses := 0, 0
		for range 2000 {
			e := make([]float64, k)
			for _, c := range cols {
				e[c] = 2 * r.NormFloat64()
			}
			c := cols[r.IntN(len(cols))]
			if r.IntN(10) == 0 {
				e[c] = 0.5 // own score exactly 0 at den = 0.5: a tie with the absent classes
			}
			den := 0.5
			ep := make([]float64, len(cols))
			for o, cc := range cols {
				ep[o] = e[cc]
			}
			want := full(e, den, c)
			if got := looHit(ep, den, pos[c], len(cols) < k); got != want {
				t.Fatalf("%s: e=%v class %d: looHit %v, definition %v", tc.name, e, c, got, want)
			}
			if want {
				hits++
			} else {
				misses++
			}
		}
		if hits == 0 || misses == 0 {
			t.Errorf("%s: %d hits, %d misses: the check needs both", tc.name, hits, misses)
		}
	}
}

// TestScoreBatchIsEachAlone checks that scoring the bracket in one batch
// (every λ's coefficients side by side, padded with zero columns to a
// multiple of scoreCols, Q and the held-out product applied once) gives
// the bits of scoring each λ alone on its own k columns: columns are
// independent in ApplyQ and Mul, so neither the batch nor the padding may
// move a bit of the curve. Orders 40 (one stage) and 600 (two stages);
// k = 2, 3 and 5 leave 6, 1 and 1 columns past the last multiple of 8.
func TestScoreBatchIsEachAlone(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ n, m, k int }{{300, 40, 2}, {300, 40, 3}, {800, 600, 2}, {800, 600, 5}, {800, 600, 0}} {
		task := map[bool]Task{true: Classification, false: Regression}[c.k > 0]
		f := fixture.NewReLU(5, c.m, 3)
		X, y := fixture.Data(c.n, 5, c.k, 9)
		held := HoldoutRows(c.n)
		acc, err := NewAccumulator(c.m, Options{Classes: c.k, Task: task})
		if err != nil {
			t.Fatal(err)
		}
		Phi, err := f.Transform(nil, X)
		if err != nil {
			t.Fatal(err)
		}
		var kept []int
		for i := range c.n {
			if !slices.Contains(held, i) {
				kept = append(kept, i)
			}
		}
		if err := acc.Add(data.Rows(Phi, kept), data.Take(y, kept)); err != nil {
			t.Fatal(err)
		}
		phiH, yH := data.Rows(Phi, held), data.Take(y, held)
		h, err := acc.newHoldout(nil, phiH, yH)
		if err != nil {
			t.Fatal(err)
		}
		var lams []float64
		for x := holdoutLo; x <= holdoutHi+1e-9; x += holdoutStep {
			lams = append(lams, h.center*math.Pow(10, x))
		}
		curve := h.score(lams)
		m, k := acc.m, acc.k
		rows, _ := phiH.Dims()
		phi := make([]float64, rows*m)
		for i := range rows {
			copy(phi[i*m:(i+1)*m], phiH.RawRowView(i))
		}
		x, p := make([]float64, m*k), make([]float64, m)
		pred := make([]float64, rows*k)
		bias := make([]float64, k)
		for i, lam := range lams {
			if !ldlSolve(h.red.D, h.red.E, lam, h.z, k, p, x) {
				if !math.IsInf(curve[i].Score, 1) {
					t.Errorf("k=%d λ=%g: not positive definite alone, scored %g in the batch", c.k, lam, curve[i].Score)
				}
				continue
			}
			h.red.ApplyQ(x, k)
			linalg.Mul(pred, phi, x, rows, m, k)
			copy(bias, acc.ybar)
			for j := range m {
				for o, w := range x[j*k : (j+1)*k] {
					bias[o] -= acc.mu[j] * w
				}
			}
			want := acc.scorePredictions(lam, pred, k, bias, yH)
			if curve[i] != want {
				t.Errorf("m=%d k=%d λ=%g: the batch scores %+v, alone %+v", c.m, c.k, lam, curve[i], want)
			}
		}
	}
}
