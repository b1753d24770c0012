package krr

import (
	"math"
	"ntkrf/core/kernel"
	"ntkrf/internal/fixture"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// ridgeRef solves the ridge problem of the package doc,
// min Σᵢ (yᵢ − b − wᵀφᵢ)² + λ‖w‖², from its normal equations with the
// intercept as an extra unpenalized unknown,
//
//	[ΦᵀΦ + λI  Φᵀ1] [w]   [Φᵀy]
//	[1ᵀΦ       n  ] [b] = [1ᵀy]
//
// solved by LU: no centering, no eigendecomposition, no Cholesky, so it
// shares no code with the package. It returns w and b.
func ridgeRef(phi *mat.Dense, y []float64, lambda float64) ([]float64, float64) {
	n, m := phi.Dims()
	// [Φ 1] augmented, so that A = [Φ 1]ᵀ[Φ 1] + λ·diag(1…1, 0).
	aug := mat.NewDense(n, m+1, nil)
	aug.Slice(0, n, 0, m).(*mat.Dense).Copy(phi)
	for i := range n {
		aug.Set(i, m, 1)
	}
	var A mat.Dense
	A.Mul(aug.T(), aug)
	for j := range m {
		A.Set(j, j, A.At(j, j)+lambda)
	}
	var rhs mat.VecDense
	rhs.MulVec(aug.T(), mat.NewVecDense(n, y))
	var sol mat.VecDense
	if err := sol.SolveVec(&A, &rhs); err != nil {
		panic(err)
	}
	w := make([]float64, m)
	for j := range w {
		w[j] = sol.AtVec(j)
	}
	return w, sol.AtVec(m)
}

// looRef is the leave-one-out mean squared error of ridgeRef at λ: every
// row in turn is left out, the rest refitted, and the row predicted.
func looRef(phi *mat.Dense, y []float64, lambda float64) float64 {
	n, m := phi.Dims()
	var sum float64
	for i := range n {
		rest := mat.NewDense(n-1, m, nil)
		ry := make([]float64, 0, n-1)
		for j := range n {
			if j != i {
				rest.SetRow(len(ry), phi.RawRowView(j))
				ry = append(ry, y[j])
			}
		}
		w, b := ridgeRef(rest, ry, lambda)
		pred := b
		for j, v := range phi.RawRowView(i) {
			pred += w[j] * v
		}
		sum += (y[i] - pred) * (y[i] - pred)
	}
	return sum / float64(n)
}

// logGrid returns k values log-spaced over [lo, hi], both included.
func logGrid(lo, hi float64, k int) []float64 {
	g := make([]float64, k)
	for i := range g {
		g[i] = lo * math.Pow(hi/lo, float64(i)/float64(k-1))
	}
	return g
}

// TestFixedLambdaMatchesReference: at a fixed λ the primal fit, the dual
// fit on ΦΦᵀ (FitFeatures with rows ≤ features) and FitKernel on the linear
// kernel predict what the plain normal equations give.
func TestFixedLambdaMatchesReference(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(24, 3, 0, 40)
	Xt, _ := fixture.Data(6, 3, 0, 41)
	const lambda = 0.7
	cases := []struct {
		name string
		f    Featurizer
		fit  func() (*Model, error)
	}{
		{"primal", fixture.NewReLU(3, 8, 42), nil},
		{"dual path", fixture.NewReLU(3, 40, 43), nil},
		{"kernel", identity{3}, func() (*Model, error) {
			return FitKernel(kernel.Spec{Name: "linear"}, X, y, Options{Lambda: lambda})
		}},
	}
	for _, tc := range cases {
		fit := tc.fit
		if fit == nil {
			fit = func() (*Model, error) { return FitFeatures(tc.f, X, y, Options{Lambda: lambda}) }
		}
		m, err := fit()
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Predict(Xt)
		if err != nil {
			t.Fatal(err)
		}
		w, b := ridgeRef(mustTransform(tc.f, X), y, lambda)
		phiT := mustTransform(tc.f, Xt)
		for i := range 6 {
			want := b
			for j, v := range phiT.RawRowView(i) {
				want += w[j] * v
			}
			if math.Abs(got.At(i, 0)-want) > exactTol*math.Abs(want) {
				t.Errorf("%s row %d: predicts %.15g, normal equations %.15g", tc.name, i, got.At(i, 0), want)
			}
		}
	}
}

// TestDualPathChoosesLOO: with no more rows than features and no
// criterion given, FitFeatures documents leave-one-out, not GCV. The λ it
// picks must be the grid's minimizer of the leave-one-out error found by
// refitting without each row (looRef), and its curve must be that error.
// The problem is one where GCV (from the explicit hat matrix) prefers
// another λ, so a silent switch to GCV cannot pass.
func TestDualPathChoosesLOO(t *testing.T) {
	t.Parallel()
	const n = 16
	f := fixture.NewReLU(3, 40, 3) // m = 40 ≥ n: the dual path
	X, y := fixture.Data(n, 3, 0, 103)
	phi := mustTransform(f, X)
	var K mat.Dense
	K.Mul(phi, phi.T())
	Kc := centeredGram(&K)
	tr := mat.Trace(Kc)
	grid := logGrid(1e-4*tr/n, 10*tr/n, 15)
	loo := make([]float64, len(grid))
	best, gcvBest := 0, 0
	Y := mat.NewDense(n, 1, append([]float64(nil), y...))
	gcv := math.Inf(1)
	for i, lam := range grid {
		loo[i] = looRef(phi, y, lam)
		if loo[i] < loo[best] {
			best = i
		}
		if g := directGCV(Kc, Y, lam); g < gcv {
			gcv, gcvBest = g, i
		}
	}
	if gcvBest == best {
		t.Fatalf("GCV and LOO both pick λ #%d here; the test needs a problem that separates them", best)
	}
	for i, v := range loo {
		if i != best && v < loo[best]*(1+1e-6) {
			t.Fatalf("λ #%d and #%d have LOO errors within 1e-6; the minimizer is not well defined", i, best)
		}
	}
	m, err := FitFeatures(f, X, y, Options{Grid: grid})
	if err != nil {
		t.Fatal(err)
	}
	if m.Lambda() != grid[best] {
		t.Errorf("chose λ = %g; leave-one-out refits pick %g (#%d), GCV %g (#%d)", m.Lambda(), grid[best], best, grid[gcvBest], gcvBest)
	}
	for i, p := range m.Curve() {
		if math.Abs(p.Score-loo[i]) > exactTol*loo[i] {
			t.Errorf("λ = %g: curve %.15g, leave-one-out refits %.15g", p.Lambda, p.Score, loo[i])
		}
	}
}

// TestDefaultGrid checks the default λ grid against its documentation
// (Options.Grid): 30 values log-spaced over 1e-6…1e2 × s, both ends
// included, with s = tr(Gc)/m in the primal (Gc = ΦcᵀΦc, Φc the
// column-centered features, m of them) and s = tr(Kc)/n in the dual
// (Kc = HKH over n rows: FitKernel, and FitFeatures with rows ≤ features).
// The traces are computed here from the centered matrices; the package
// sums eigenvalues instead, equal to them within a few hundred ulps.
func TestDefaultGrid(t *testing.T) {
	t.Parallel()
	const tol = 1e-12
	X, y := fixture.Data(30, 3, 0, 50)
	Xs, ys := X.Slice(0, 16, 0, 3).(*mat.Dense), y[:16]
	narrow, wide := fixture.NewReLU(3, 6, 51), fixture.NewReLU(3, 40, 52)
	ntk := kernel.Spec{Name: "ntk", Depth: 2}
	// primalScale is tr(ΦcᵀΦc)/m = ‖Φc‖²_F/m.
	primalScale := func(f Featurizer, X *mat.Dense) float64 {
		phi := mustTransform(f, X)
		n, m := phi.Dims()
		var tr float64
		for j := range m {
			var mean float64
			for i := range n {
				mean += phi.At(i, j) / float64(n)
			}
			for i := range n {
				tr += (phi.At(i, j) - mean) * (phi.At(i, j) - mean)
			}
		}
		return tr / float64(m)
	}
	dualScale := func(K *mat.Dense) float64 {
		n, _ := K.Dims()
		return mat.Trace(centeredGram(K)) / float64(n)
	}
	phiS := mustTransform(wide, Xs)
	var KS mat.Dense
	KS.Mul(phiS, phiS.T())
	Kntk, err := kernel.NTK(Xs, 2)
	if err != nil {
		t.Fatal(err)
	}
	acc, err := NewAccumulator(6, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := acc.Add(mustTransform(narrow, X), y); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		fit   func() (*Model, error)
		scale float64
	}{
		{"primal", func() (*Model, error) { return FitFeatures(narrow, X, y, Options{}) }, primalScale(narrow, X)},
		{"primal LOO", func() (*Model, error) { return FitFeatures(narrow, X, y, Options{Criterion: LOO}) }, primalScale(narrow, X)},
		{"accumulator", acc.Solve, primalScale(narrow, X)},
		{"features, dual path", func() (*Model, error) { return FitFeatures(wide, Xs, ys, Options{}) }, dualScale(&KS)},
		{"kernel", func() (*Model, error) { return FitKernel(ntk, Xs, ys, Options{}) }, dualScale(Kntk)},
		{"kernel LOO", func() (*Model, error) { return FitKernel(ntk, Xs, ys, Options{Criterion: LOO}) }, dualScale(Kntk)},
	}
	for _, tc := range cases {
		m, err := tc.fit()
		if err != nil {
			t.Fatal(err)
		}
		curve := m.Curve()
		if len(curve) != 30 {
			t.Fatalf("%s: %d grid points, want 30", tc.name, len(curve))
		}
		for i, p := range curve {
			want := tc.scale * 1e-6 * math.Pow(1e8, float64(i)/29)
			if math.Abs(p.Lambda-want) > tol*want {
				t.Errorf("%s: λ #%d is %.15g, want %.15g (%.3g × tr/size)", tc.name, i, p.Lambda, want, want/tc.scale)
			}
		}
	}
}
