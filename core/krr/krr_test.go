package krr

import (
	"math"
	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/metrics"
	"ntkrf/internal/fixture"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// exactTol bounds the disagreement of two exact computations of the same
// quantity (a shortcut formula against its definition, primal against
// dual): the systems solved have condition numbers below ~1e4 on these
// grids, so rounding of ~1e4·eps ≈ 2e-12 leaves three digits of margin.
const exactTol = 1e-9

// fitFunc fits with a fixed λ; the brute-force checks refit with it.
type fitFunc func(X *mat.Dense, y []float64, opt Options) (*Model, error)

func primalFit(f Featurizer) fitFunc {
	return func(X *mat.Dense, y []float64, opt Options) (*Model, error) { return FitFeatures(f, X, y, opt) }
}

func dualFit(k kernel.Spec) fitFunc {
	return func(X *mat.Dense, y []float64, opt Options) (*Model, error) { return FitKernel(k, X, y, opt) }
}

// bruteLOO refits without each row in turn and returns the mean squared
// leave-one-out error per output at each λ, and the leave-one-out accuracy
// (classification).
func bruteLOO(t *testing.T, fit fitFunc, X *mat.Dense, y []float64, opt Options, grid []float64) (mse, acc []float64) {
	t.Helper()
	n, _ := X.Dims()
	out := make([]float64, len(grid))
	acc = make([]float64, len(grid))
	for g, lam := range grid {
		o := opt
		o.Lambda, o.Grid, o.Criterion = lam, nil, ""
		var sum float64
		var k int
		for i := 0; i < n; i++ {
			idx := make([]int, 0, n-1)
			for j := 0; j < n; j++ {
				if j != i {
					idx = append(idx, j)
				}
			}
			m, err := fit(data.Rows(X, idx), data.Take(y, idx), o)
			if err != nil {
				t.Fatal(err)
			}
			s, err := m.Predict(data.Rows(X, []int{i}))
			if err != nil {
				t.Fatal(err)
			}
			k = m.Outputs()
			target := make([]float64, k)
			encodeRow(target, y[i], m.task)
			for c := 0; c < k; c++ {
				d := target[c] - s.At(0, c)
				sum += d * d
			}
			if m.task == Classification && m.Labels(s)[0] == y[i] {
				acc[g] += 1 / float64(n)
			}
		}
		out[g] = sum / float64(n*k)
	}
	return out, acc
}

// directGCV forms the hat matrix P = 11ᵀ/n + Hc explicitly from the
// centered Gram matrix Kc (n×n) and returns ‖(I−P)Y‖²/(n·k)/(1 − tr P/n)².
func directGCV(Kc *mat.Dense, Y *mat.Dense, lam float64) float64 {
	n, k := Y.Dims()
	A := mat.DenseCopyOf(Kc)
	for i := 0; i < n; i++ {
		A.Set(i, i, A.At(i, i)+lam)
	}
	var inv mat.Dense
	if err := inv.Inverse(A); err != nil {
		panic(err)
	}
	var P mat.Dense
	P.Mul(Kc, &inv)
	tr := 1.0
	for i := 0; i < n; i++ {
		tr += P.At(i, i)
		for j := 0; j < n; j++ {
			P.Set(i, j, P.At(i, j)+1/float64(n))
		}
	}
	var R mat.Dense
	R.Mul(&P, Y)
	R.Sub(Y, &R)
	rss := mat.Norm(&R, 2)
	rss *= rss
	den := 1 - tr/float64(n)
	return rss / float64(n*k) / (den * den)
}

// centeredGram returns HΦΦᵀH (or HKH for a given K) and the one-hot or
// value target matrix.
func centeredGram(K *mat.Dense) *mat.Dense {
	n, _ := K.Dims()
	H := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := -1 / float64(n)
			if i == j {
				v++
			}
			H.Set(i, j, v)
		}
	}
	var t, kc mat.Dense
	t.Mul(H, K)
	kc.Mul(&t, H)
	return &kc
}

func targets(y []float64, opt Options) *mat.Dense {
	k := opt.outputs()
	Y := mat.NewDense(len(y), k, nil)
	for i, v := range y {
		encodeRow(Y.RawRowView(i), v, opt.Task)
	}
	return Y
}

type criterionCase struct {
	name    string
	fit     fitFunc
	gram    func(X *mat.Dense) *mat.Dense // ΦΦᵀ or K
	n, d, k int
}

func criterionCases() []criterionCase {
	relu := fixture.NewReLU(4, 9, 1)  // m < n
	wide := fixture.NewReLU(4, 40, 2) // m > n
	ntk := kernel.Spec{Name: "ntk", Depth: 2}
	rbf := kernel.Spec{Name: "rbf", Gamma: 0.3}
	feat := func(f Featurizer) func(*mat.Dense) *mat.Dense {
		return func(X *mat.Dense) *mat.Dense {
			phi, _ := f.Transform(nil, X)
			var K mat.Dense
			K.Mul(phi, phi.T())
			return &K
		}
	}
	kern := func(k kernel.Spec) func(*mat.Dense) *mat.Dense {
		return func(X *mat.Dense) *mat.Dense { K, _ := k.Gram(X, nil); return K }
	}
	return []criterionCase{
		{"primal regression m<n", primalFit(relu), feat(relu), 20, 4, 0},
		{"primal classes m<n", primalFit(relu), feat(relu), 40, 4, 3},
		{"primal classes m>n", primalFit(wide), feat(wide), 20, 4, 3},
		{"dual ntk regression", dualFit(ntk), kern(ntk), 18, 4, 0},
		{"dual rbf classes", dualFit(rbf), kern(rbf), 18, 4, 3},
	}
}

func TestLOOMatchesRefits(t *testing.T) {
	t.Parallel()
	for i, tc := range criterionCases() {
		t.Run(tc.name, func(t *testing.T) {
			X, y := fixture.Data(tc.n, tc.d, tc.k, uint64(20+i))
			K := centeredGram(tc.gram(X))
			tr := mat.Trace(K)
			grid := []float64{1e-3 * tr / float64(tc.n), 0.1 * tr / float64(tc.n), 3 * tr / float64(tc.n)}
			opt := Options{Criterion: LOO, Grid: grid, Classes: tc.k}
			m, err := tc.fit(X, y, opt)
			if err != nil {
				t.Fatal(err)
			}
			want, acc := bruteLOO(t, tc.fit, X, y, opt, grid)
			for g, p := range m.Curve() {
				if math.Abs(p.Score-want[g]) > exactTol*want[g] {
					t.Errorf("λ=%g: LOO %.15g, refits give %.15g", p.Lambda, p.Score, want[g])
				}
				if math.Abs(p.Accuracy-acc[g]) > 1e-12 {
					t.Errorf("λ=%g: LOO accuracy %g, refits give %g", p.Lambda, p.Accuracy, acc[g])
				}
			}
			if tc.k > 0 && !slices.ContainsFunc(acc, func(a float64) bool { return a > 0.5 }) {
				t.Errorf("no λ classifies more than half the left-out rows (%v): the check is too weak", acc)
			}
		})
	}
}

func TestGCVMatchesDefinition(t *testing.T) {
	t.Parallel()
	for i, tc := range criterionCases() {
		t.Run(tc.name, func(t *testing.T) {
			X, y := fixture.Data(tc.n, tc.d, tc.k, uint64(30+i))
			K := centeredGram(tc.gram(X))
			tr := mat.Trace(K)
			grid := []float64{1e-3 * tr / float64(tc.n), 0.1 * tr / float64(tc.n), 3 * tr / float64(tc.n)}
			opt := Options{Criterion: GCV, Grid: grid, Classes: tc.k}
			m, err := tc.fit(X, y, opt)
			if err != nil {
				t.Fatal(err)
			}
			o, _ := opt.checked(y, true)
			Y := targets(y, o)
			for _, p := range m.Curve() {
				want := directGCV(K, Y, p.Lambda)
				if math.Abs(p.Score-want) > exactTol*want {
					t.Errorf("λ=%g: GCV %.15g, definition gives %.15g", p.Lambda, p.Score, want)
				}
			}
		})
	}
}

// TestPrimalEqualsDual fits the identity features (primal) and the linear
// kernel (dual): the same model, so predictions and
// curves agree.
func TestPrimalEqualsDual(t *testing.T) {
	t.Parallel()
	for _, crit := range []Criterion{GCV, LOO} {
		for _, k := range []int{0, 4} {
			X, y := fixture.Data(40, 6, k, 3)
			Xt, _ := fixture.Data(10, 6, k, 4)
			grid := []float64{0.01, 0.3, 10}
			opt := Options{Criterion: crit, Grid: grid, Classes: k, BlockRows: 3} // partial blocks
			p, err := FitFeatures(identity{6}, X, y, opt)
			if err != nil {
				t.Fatal(err)
			}
			d, err := FitKernel(kernel.Spec{Name: "linear"}, X, y, opt)
			if err != nil {
				t.Fatal(err)
			}
			if p.Lambda() != d.Lambda() {
				t.Errorf("%s k=%d: primal chose λ=%g, dual λ=%g", crit, k, p.Lambda(), d.Lambda())
			}
			for i, c := range p.Curve() {
				if dc := d.Curve()[i]; math.Abs(c.Score-dc.Score) > exactTol*dc.Score {
					t.Errorf("%s k=%d λ=%g: primal score %g, dual %g", crit, k, c.Lambda, c.Score, dc.Score)
				}
			}
			sp, _ := p.Predict(Xt)
			sd, _ := d.Predict(Xt)
			if r := fixture.RelDiff(sp, sd); r > exactTol {
				t.Errorf("%s k=%d: predictions differ by %g relative", crit, k, r)
			}
		}
	}
}

// splitTol is the agreement required between fits whose rows were summed in
// different blocks: only the order of floating-point sums differs (n·eps
// relative at worst in the sums, amplified by cond(C+λI) < 1e3 here).
const splitTol = 1e-10

func TestAccumulatorSplits(t *testing.T) {
	t.Parallel()
	f := fixture.NewReLU(5, 30, 5)
	X, y := fixture.Data(97, 5, 3, 6)
	Xt, _ := fixture.Data(20, 5, 3, 7)
	ref, err := FitFeatures(f, X, y, Options{Classes: 3, BlockRows: 1000})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ref.Predict(Xt)
	for _, br := range []int{1, 7, 50} {
		m, err := FitFeatures(f, X, y, Options{Classes: 3, BlockRows: br})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := m.Predict(Xt)
		// The default grid scales with tr(C), itself summed in another order.
		if math.Abs(m.Lambda()-ref.Lambda()) > splitTol*ref.Lambda() {
			t.Errorf("blocks of %d: λ %g, want %g", br, m.Lambda(), ref.Lambda())
		}
		if r := fixture.RelDiff(got, want); r > splitTol {
			t.Errorf("blocks of %d: predictions differ by %g relative", br, r)
		}
	}
	// Workers: three accumulators over uneven row ranges, merged in reverse.
	// FitFeatures' default for classification in the primal is Holdout; a
	// host that splits the rows leaves the same held-out rows out.
	phi, _ := f.Transform(nil, X)
	held := HoldoutRows(97)
	phiHeld := mat.NewDense(len(held), 30, nil)
	var parts []*Accumulator
	for _, r := range [][2]int{{0, 10}, {10, 60}, {60, 97}} {
		a, err := NewAccumulator(30, Options{Classes: 3})
		if err != nil {
			t.Fatal(err)
		}
		out, at := heldIn(held, r[0], r[1])
		if err := a.AddExcept(phi.Slice(r[0], r[1], 0, 30).(*mat.Dense), y[r[0]:r[1]], out, phiHeld, at); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, a)
	}
	total, _ := NewAccumulator(30, Options{Classes: 3})
	for i := len(parts) - 1; i >= 0; i-- {
		if err := total.Merge(parts[i]); err != nil {
			t.Fatal(err)
		}
	}
	if total.Rows() != 97-len(held) {
		t.Fatalf("merged %d rows, want %d", total.Rows(), 97-len(held))
	}
	m, err := total.SolveHeldOut(phiHeld, data.Take(y, held))
	if err != nil {
		t.Fatal(err)
	}
	if total.Rows() != 97 {
		t.Fatalf("after SolveHeldOut the accumulator holds %d rows, want all 97", total.Rows())
	}
	fixture.SameBits(t, "the held-out rows' features", phiHeld.RawMatrix().Data, data.Rows(phi, held).RawMatrix().Data)
	fromPhi, _ := m.Predict(mustTransform(f, Xt))
	if r := fixture.RelDiff(fromPhi, want); r > splitTol {
		t.Errorf("merged accumulators: predictions differ by %g relative", r)
	}
	if err := m.SetFeaturizer(f); err != nil {
		t.Fatal(err)
	}
	fromX, _ := m.Predict(Xt)
	if r := fixture.RelDiff(fromX, fromPhi); r != 0 {
		t.Errorf("SetFeaturizer: predictions from inputs differ from features by %g", r)
	}
	// LOO through the exported pieces equals FitFeatures' own LOO pass.
	s, err := total.Spectrum()
	if err != nil {
		t.Fatal(err)
	}
	var sums []CurvePoint
	for _, r := range [][2]int{{0, 40}, {40, 97}} {
		part, err := s.LOOSums(phi.Slice(r[0], r[1], 0, 30).(*mat.Dense), y[r[0]:r[1]])
		if err != nil {
			t.Fatal(err)
		}
		if sums, err = AddSums(sums, part); err != nil {
			t.Fatal(err)
		}
	}
	curve, err := s.LOOCurve(sums)
	if err != nil {
		t.Fatal(err)
	}
	loo, err := FitFeatures(f, X, y, Options{Classes: 3, Criterion: LOO, BlockRows: 16})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range loo.Curve() {
		if math.Abs(p.Score-curve[i].Score) > splitTol*p.Score {
			t.Errorf("λ=%g: LOO from pieces %g, from FitFeatures %g", p.Lambda, curve[i].Score, p.Score)
		}
		if p.Accuracy != curve[i].Accuracy || p.Accuracy == 0 {
			t.Errorf("λ=%g: LOO accuracy from pieces %g, from FitFeatures %g", p.Lambda, curve[i].Accuracy, p.Accuracy)
		}
	}
}

func mustTransform(f Featurizer, X *mat.Dense) *mat.Dense {
	phi, err := f.Transform(nil, X)
	if err != nil {
		panic(err)
	}
	return phi
}

// TestChosenLambdaRefit: the model at the chosen λ is the fixed-λ model.
func TestChosenLambdaRefit(t *testing.T) {
	t.Parallel()
	f := fixture.NewReLU(3, 25, 8)
	X, y := fixture.Data(60, 3, 0, 9)
	auto, err := FitFeatures(f, X, y, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(auto.Curve()) != gridPoints {
		t.Fatalf("curve has %d points, want %d", len(auto.Curve()), gridPoints)
	}
	fixed, err := FitFeatures(f, X, y, Options{Lambda: auto.Lambda()})
	if err != nil {
		t.Fatal(err)
	}
	if fixed.Curve() != nil {
		t.Error("a fixed λ should report no curve")
	}
	a, _ := auto.Predict(X)
	b, _ := fixed.Predict(X)
	if !mat.Equal(a, b) {
		t.Error("fixed-λ refit differs from the automatic fit at the same λ")
	}
}

// TestShiftInvariance: the intercept is unpenalized, so adding c to y adds
// exactly c to the predictions (to rounding) and picks the same λ.
func TestShiftInvariance(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(50, 3, 0, 10)
	Xt, _ := fixture.Data(8, 3, 0, 11)
	const shift = 1000
	ys := make([]float64, len(y))
	for i, v := range y {
		ys[i] = v + shift
	}
	for name, fit := range map[string]fitFunc{"primal": primalFit(fixture.NewReLU(3, 20, 12)), "dual": dualFit(kernel.Spec{Name: "nngp", Depth: 1})} {
		a, err := fit(X, y, Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := fit(X, ys, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if a.Lambda() != b.Lambda() {
			t.Errorf("%s: λ %g after the shift, %g before", name, b.Lambda(), a.Lambda())
		}
		pa, _ := a.PredictLabels(Xt)
		pb, _ := b.PredictLabels(Xt)
		for i := range pa {
			// Rounding of values near 1000: a few ulps of 1000 each step.
			if d := pb[i] - shift - pa[i]; math.Abs(d) > 1e-9*shift {
				t.Errorf("%s row %d: shifted prediction off by %g", name, i, d)
			}
		}
	}
}

// TestLearns checks that fits generalize on held-out rows: regression
// R² and classification accuracy well above chance.
func TestLearns(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(400, 3, 0, 13)
	Xt, yt := fixture.Data(200, 3, 0, 14)
	// One draw for classes: the labeling function depends on the seed.
	Xa, ya := fixture.Data(600, 4, 3, 15)
	Xc, yc := Xa.Slice(0, 400, 0, 4).(*mat.Dense), ya[:400]
	Xct, yct := Xa.Slice(400, 600, 0, 4).(*mat.Dense), ya[400:]
	cases := []struct {
		name      string
		fit       fitFunc
		X, Xt     *mat.Dense
		y, yt     []float64
		task      Task
		metric    func(a, b []float64) (float64, error)
		threshold float64 // below what the fits reach (0.83–0.94), far above chance (0, 1/3)
	}{
		{"primal R²", primalFit(fixture.NewReLU(3, 200, 17)), X, Xt, y, yt, Regression, metrics.R2, 0.75},
		{"dual R²", dualFit(kernel.Spec{Name: "ntk", Depth: 2}), X, Xt, y, yt, "", metrics.R2, 0.75},
		{"primal accuracy", primalFit(fixture.NewReLU(4, 200, 18)), Xc, Xct, yc, yct, Classification, metrics.Accuracy, 0.8},
		{"dual accuracy", dualFit(kernel.Spec{Name: "rbf", Gamma: 0.1}), Xc, Xct, yc, yct, Classification, metrics.Accuracy, 0.8},
	}
	for _, tc := range cases {
		m, err := tc.fit(tc.X, tc.y, Options{Task: tc.task})
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.PredictLabels(tc.Xt)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := tc.metric(tc.yt, p)
		t.Logf("%s = %.3f at λ = %.3g", tc.name, s, m.Lambda())
		if s < tc.threshold {
			t.Errorf("%s = %.3f, want ≥ %.2f", tc.name, s, tc.threshold)
		}
	}
}

func TestProgress(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(25, 3, 0, 19)
	var stages []string
	last := 0
	opt := Options{BlockRows: 10, Criterion: LOO, Progress: func(done, total int, stage string) {
		if done <= last || done > total {
			t.Errorf("progress %d/%d after %d", done, total, last)
		}
		last = done
		stages = append(stages, stage)
	}}
	if _, err := FitFeatures(fixture.NewReLU(3, 8, 1), X, y, opt); err != nil {
		t.Fatal(err)
	}
	want := "features features features eigen loo loo loo solve"
	if got := strings.Join(stages, " "); got != want {
		t.Errorf("stages %q, want %q", got, want)
	}
}

// hugeMap claims a dimension whose Gram matrix cannot be allocated.
type hugeMap struct{ identity }

func (hugeMap) Dim() int { return 1 << 20 }

func TestErrors(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(10, 3, 0, 1)
	_, yc := fixture.Data(10, 3, 3, 1)
	f := fixture.NewReLU(3, 5, 1)
	nan := append([]float64(nil), y...)
	nan[4] = math.NaN()
	inf := append([]float64(nil), y...)
	inf[2] = math.Inf(1)
	half := append([]float64(nil), yc...)
	half[3] = 1.5
	one := make([]float64, 10)
	bigX := mat.NewDense(50000, 1, nil)
	cases := []struct {
		name string
		err  func() error
		want string
	}{
		{"rows vs y", func() error { _, err := FitFeatures(f, X, y[:9], Options{}); return err }, "X has 10 rows but y has 9"},
		{"NaN in y", func() error { _, err := FitFeatures(f, X, nan, Options{}); return err }, "y[4] is NaN"},
		{"Inf in y dual", func() error { _, err := FitKernel(kernel.Spec{Name: "ntk", Depth: 1}, X, inf, Options{}); return err }, "y[2] is +Inf"},
		{"one row", func() error { _, err := FitFeatures(f, X.Slice(0, 1, 0, 3).(*mat.Dense), y[:1], Options{}); return err }, "needs at least 2"},
		{"class out of range", func() error { _, err := FitFeatures(f, X, yc, Options{Classes: 2}); return err }, "not a class index in 0…1"},
		{"fractional class", func() error { _, err := FitFeatures(f, X, half, Options{Task: Classification}); return err }, "y[3] = 1.5 is not a class index"},
		{"one class", func() error {
			_, err := FitKernel(kernel.Spec{Name: "rbf", Gamma: 1}, X, one, Options{Classes: 2})
			return err
		}, "every row is of class 0"},
		{"negative λ", func() error { _, err := FitFeatures(f, X, y, Options{Lambda: -1}); return err }, "lambda -1 is invalid"},
		{"NaN λ", func() error {
			_, err := FitKernel(kernel.Spec{Name: "ntk"}, X, y, Options{Lambda: math.NaN()})
			return err
		}, "lambda NaN is invalid"},
		{"bad grid", func() error { _, err := FitFeatures(f, X, y, Options{Grid: []float64{1, 0}}); return err }, "grid[1] 0 is invalid"},
		{"criterion", func() error { _, err := FitFeatures(f, X, y, Options{Criterion: "aic"}); return err }, `unknown criterion "aic"`},
		{"task", func() error { _, err := FitFeatures(f, X, y, Options{Task: "ranking"}); return err }, `unknown task "ranking"`},
		{"input dim", func() error { _, err := FitFeatures(fixture.NewReLU(4, 5, 1), X, y, Options{}); return err }, "featurizer takes 4"},
		{"NaN in X", func() error {
			Z := mat.DenseCopyOf(X)
			Z.Set(1, 1, math.NaN())
			_, err := FitFeatures(f, Z, y, Options{})
			return err
		}, "X has NaN at row 1, column 1"},
		{"non-finite features", func() error {
			Z := mat.DenseCopyOf(X)
			Z.Set(7, 0, 1e308) // overflows in the projection
			_, err := FitFeatures(fixture.NewReLU(3, 5, 1), Z, y, Options{BlockRows: 4})
			return err
		}, "of row 7 is +Inf"},
		{"primal memory", func() error { _, err := NewAccumulator(1<<20, Options{}); return err }, "random features with a smaller dimension"},
		{"featurizer shape", func() error { _, err := FitFeatures(hugeMap{identity{3}}, X, y, Options{}); return err }, "must return rows×Dim()"},
		{"dual memory", func() error {
			_, err := FitKernel(kernel.Spec{Name: "ntk", Depth: 1}, bigX, make([]float64, 50000), Options{Task: Regression})
			return err
		}, "50000×50000 kernel matrix"},
		{"bad kernel", func() error { _, err := FitKernel(kernel.Spec{Name: "poly"}, X, y, Options{}); return err }, `unknown kernel "poly"`},
		{"accumulator classes", func() error { _, err := NewAccumulator(5, Options{Task: Classification}); return err }, "set Options.Classes"},
		{"accumulator empty", func() error { a, _ := NewAccumulator(5, Options{}); _, err := a.Solve(); return err }, "0 rows added"},
		{"accumulator one class", func() error {
			a, _ := NewAccumulator(3, Options{Classes: 3})
			if err := a.Add(X, one); err != nil {
				return err
			}
			_, err := a.Solve()
			return err
		}, "all 10 rows are of one class"},
		{"accumulator loo", func() error {
			a, _ := NewAccumulator(3, Options{Criterion: LOO})
			if err := a.Add(X, y); err != nil {
				return err
			}
			_, err := a.Solve()
			return err
		}, "needs a second pass"},
		{"accumulator width", func() error { a, _ := NewAccumulator(4, Options{}); return a.Add(X, y) }, "Phi has 3 columns but the accumulator has 4"},
		{"merge mismatch", func() error {
			a, _ := NewAccumulator(3, Options{})
			b, _ := NewAccumulator(3, Options{Classes: 2})
			return a.Merge(b)
		}, "cannot merge"},
		{"predict width", func() error {
			m, err := FitFeatures(f, X, y, Options{Lambda: 1})
			if err != nil {
				return err
			}
			_, err = m.Predict(mat.NewDense(2, 4, nil))
			return err
		}, "X has 4 columns but the model takes 3"},
	}
	for _, tc := range cases {
		err := tc.err()
		if err == nil {
			t.Errorf("%s: no error, want %q", tc.name, tc.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), "krr: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q, want krr: …%s…", tc.name, err, tc.want)
		}
	}
}

// TestSolveAt: solving an accumulator at a given λ gives the bits of an
// accumulator built with that λ fixed, leaves it usable for other λ, and
// rejects λ ≤ 0, NaN and Inf.
func TestSolveAt(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(300, 6, 3, 9)
	Phi, _ := fixture.NewReLU(6, 40, 10).Transform(nil, X)
	auto, _ := NewAccumulator(40, Options{Classes: 3})
	if err := auto.Add(Phi, y); err != nil {
		t.Fatal(err)
	}
	if _, err := auto.Solve(); err != nil { // the λ search first, as a fit would
		t.Fatal(err)
	}
	for _, lam := range []float64{0.01, 3} {
		fixed, _ := NewAccumulator(40, Options{Classes: 3, Lambda: lam})
		if err := fixed.Add(Phi, y); err != nil {
			t.Fatal(err)
		}
		want, err := fixed.Solve()
		if err != nil {
			t.Fatal(err)
		}
		got, err := auto.SolveAt(lam)
		if err != nil {
			t.Fatal(err)
		}
		if got.Lambda() != lam {
			t.Errorf("SolveAt(%g) has λ %g", lam, got.Lambda())
		}
		pw, _ := want.Predict(Phi)
		pg, _ := got.Predict(Phi)
		if !mat.Equal(pw, pg) {
			t.Errorf("SolveAt(%g) predicts differently from Options.Lambda = %g", lam, lam)
		}
	}
	for _, bad := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := auto.SolveAt(bad); err == nil {
			t.Errorf("SolveAt(%v) gave no error", bad)
		}
	}
}
