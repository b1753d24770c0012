package krr

import (
	"math"
	"ntkrf/core/kernel"
	"ntkrf/core/linalg"
	"ntkrf/internal/fixture"
	"reflect"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// looCase is a kernel and targets for KernelCurve: n rows of the NTK, the
// last dup of them copies of the first (an exactly singular Kc), or, with
// near set, copies moved by 1e-7 (eigenvalues near 0 but not at it).
type looCase struct {
	name string
	n    int
	dup  int
	near bool
	opt  Options
}

func (c looCase) gram(t *testing.T) (*mat.Dense, []float64) {
	t.Helper()
	X, y := c.rows()
	K, err := kernel.Spec{Name: "ntk", Depth: 2}.Gram(X, nil)
	if err != nil {
		t.Fatal(err)
	}
	return K, y
}

// rows returns the case's inputs and targets.
func (c looCase) rows() (*mat.Dense, []float64) {
	k := 3
	if c.opt.Task == Regression {
		k = 2
	}
	X, y := fixture.Data(c.n, 4, k, uint64(c.n))
	for i := c.n - c.dup; i < c.n; i++ {
		for j := range 4 {
			v := X.At(i-(c.n-c.dup), j)
			if c.near {
				v += 1e-7 * float64(j+1)
			}
			X.Set(i, j, v)
		}
		y[i] = y[i-(c.n-c.dup)]
	}
	if c.opt.Task == Regression {
		for i := range y {
			y[i] = X.At(i, 0) - 0.5*X.At(i, 2)*X.At(i, 1)
		}
	}
	return X, y
}

var looCases = func() []looCase {
	var cs []looCase
	grid := []float64{1e-5, 1e-3, 0.1, 3, 100}
	for _, n := range []int{3, 4, 17, 200} {
		for _, task := range []Options{{Classes: 3}, {Task: Regression}} {
			for _, g := range [][]float64{nil, grid} {
				o := task
				o.Grid = g
				name := map[bool]string{true: "class", false: "regr"}[task.Task != Regression]
				if g != nil {
					name += "/fixed-grid"
				}
				cs = append(cs, looCase{name: name, n: n, opt: o})
				if n >= 17 {
					cs = append(cs,
						looCase{name: name + "/duplicates", n: n, dup: n / 4, opt: o},
						looCase{name: name + "/near-duplicates", n: n, dup: n / 4, near: true, opt: o})
				}
			}
		}
	}
	return cs
}()

// TestLOOTridiagMatchesEigen checks KernelCurve's leave-one-out from the
// tridiagonal form on kernels with a spectrum at or near 0, with the
// default and a fixed grid: against refits without each row (bruteLOO,
// the definition) at n = 17 and for regression at 3 and 4, and against
// the eigendecomposition's formula (looEigen, the method before) for every
// row's loss otherwise.
//
// Each method is backward stable: exact for Kc perturbed by O(n·ε·‖Kc‖),
// which moves (Kc+λI)⁻¹ — a refit's solution, the residuals, 1 − Pᵢᵢ — by
// up to n·ε·κ relative, κ = (λmax+λ)/λ the condition number of Kc+λI; a
// loss e²/(1 − Pᵢᵢ)² by up to four times that: tol = 64·4·n·ε·κ. looEigen
// forms 1 − Pᵢᵢ as 1 − 1/n − Σⱼ Uᵢⱼ²λⱼ/(λⱼ+λ), which cancels down to
// 1 − Pᵢᵢ ≥ (1 − 1/n)/κ: its own error is up to κ times larger, so against
// it tol = 64·4·n·ε·κ² (both capped at 1, where neither means much). The
// tridiagonal form sums positive terms instead: at n = 17, λ = 1e-5 it
// matched the refits to 3e-10 where looEigen was off by 3e-4.
func TestLOOTridiagMatchesEigen(t *testing.T) {
	t.Parallel()
	for _, c := range looCases {
		K, y := c.gram(t)
		if !tookTridiag(t, K, y, c.opt) {
			t.Errorf("n=%d %s: the tridiagonal path was not taken", c.n, c.name)
			continue
		}
		got, gotLoss, err := KernelCurve(mat.DenseCopyOf(K), y, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		vals, grid := centeredSpectrum(t, K, y, c.opt)
		lmax := vals[len(vals)-1]
		eps := 64 * 4 * float64(c.n) * 0x1p-52
		// A refit of 2 or 3 rows may lack a class: there the eigen formula.
		if c.n == 17 || c.n < 17 && c.opt.Task == Regression {
			X, yx := c.rows()
			fit := func(X *mat.Dense, y []float64, o Options) (*Model, error) {
				return FitKernel(kernel.Spec{Name: "ntk", Depth: 2}, X, y, o)
			}
			mse, acc := bruteLOO(t, fit, X, yx, c.opt, grid)
			for ti, p := range got {
				tol := min(1, eps*(lmax+p.Lambda)/p.Lambda)
				if !near(p.Score, mse[ti], tol) || math.Abs(p.Accuracy-acc[ti]) > 1e-12 && !(tol > 1e-6) {
					t.Errorf("n=%d %s λ=%g: score %.15g accuracy %v, refits %.15g %v (tol %g)", c.n, c.name, p.Lambda, p.Score, p.Accuracy, mse[ti], acc[ti], tol)
				}
			}
			continue
		}
		want, wantLoss, err := kernelCurveEigen(mat.DenseCopyOf(K), y, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		for ti, p := range got {
			kappa := (lmax + p.Lambda) / p.Lambda
			tol := min(1, eps*kappa*kappa)
			w := want[ti]
			// The grid: tr T/n (looFastGrid) against the clamped eigenvalues' mean, equal but for rounding.
			if !near(p.Lambda, w.Lambda, 1e-13) || !near(p.Score, w.Score, tol) || p.Accuracy != w.Accuracy && !(tol > 1e-6) {
				t.Errorf("n=%d %s λ=%g: score %v accuracy %v, eigen %v %v (tol %g)", c.n, c.name, p.Lambda, p.Score, p.Accuracy, w.Score, w.Accuracy, tol)
			}
			for i, l := range gotLoss[ti] {
				wl := wantLoss[ti][i]
				// A residual's error is relative to Yc, not to itself: a
				// loss near 0 is compared at the scale of the mean loss.
				if c.opt.Task == Regression && !near(l, wl, tol) && !(math.Abs(l-wl) <= tol*w.Score) || c.opt.Task != Regression && l != wl && !(tol > 1e-6) {
					t.Errorf("n=%d %s λ=%g row %d: loss %v, eigen %v (tol %g)", c.n, c.name, p.Lambda, i, l, wl, tol)
					break
				}
			}
		}
	}
}

// near reports |a − b| ≤ tol·max(|a|, |b|) plus a floor for values that
// are 0 up to rounding.
func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))+1e-300
}

// tookTridiag reports whether KernelCurve takes looTridiag on K.
func tookTridiag(t *testing.T, K *mat.Dense, y []float64, opt Options) bool {
	t.Helper()
	vals, grid := centeredSpectrum(t, K, y, opt)
	return looFast(grid, vals[0])
}

// centeredSpectrum returns the eigenvalues of Kc, unclamped, and the grid
// KernelCurve scores.
func centeredSpectrum(t *testing.T, K *mat.Dense, y []float64, opt Options) (vals, grid []float64) {
	t.Helper()
	opt, err := opt.checked(y, true)
	if err != nil {
		t.Fatal(err)
	}
	Kc := mat.DenseCopyOf(K)
	centerDual(Kc, y, opt)
	n, _ := K.Dims()
	vals, err = linalg.ReduceQ(Kc.RawMatrix().Data, n, nil).Eigenvalues()
	if err != nil {
		t.Fatal(err)
	}
	grid, err = curveGrid(append([]float64(nil), vals...), n, opt)
	if err != nil {
		t.Fatal(err)
	}
	return vals, grid
}

// TestLOOFallsBackWhereIndefinite checks that a kernel matrix whose
// centered form has an eigenvalue well below 0 (not a kernel: K less
// 3vvᵀ) is scored by the eigendecomposition, whose clamping at 0 keeps
// the denominators positive, bit for bit as before.
func TestLOOFallsBackWhereIndefinite(t *testing.T) {
	t.Parallel()
	for _, task := range []Options{{Task: Regression}, {Classes: 3}} {
		c := looCase{n: 60, opt: task}
		c.opt.Grid = []float64{1e-3, 1, 10}
		K, y := c.gram(t)
		for i := range c.n {
			for j := range c.n {
				vi, vj := math.Sin(float64(i)), math.Sin(float64(j))
				K.Set(i, j, K.At(i, j)-3*vi*vj)
			}
		}
		vals, _ := centeredSpectrum(t, K, y, c.opt)
		if tookTridiag(t, K, y, c.opt) || !(vals[0] < -1) {
			t.Fatalf("least eigenvalue %g: the tridiagonal path would be taken", vals[0])
		}
		got, gotLoss, err := KernelCurve(mat.DenseCopyOf(K), y, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		want, wantLoss, _ := kernelCurveEigen(mat.DenseCopyOf(K), y, c.opt)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotLoss, wantLoss) {
			t.Errorf("fallback curve %v\neigen %v", got, want)
		}
	}
}

// TestLOOOnAnyCores checks that the curve and losses have the same bits
// on one core and on four.
func TestLOOOnAnyCores(t *testing.T) {
	for _, c := range []looCase{{n: 200, opt: Options{Task: Regression}}, {n: 200, dup: 50, opt: Options{Classes: 3}}} {
		K, y := c.gram(t)
		var curves [][]CurvePoint
		var losses [][][]float64
		for _, procs := range []int{1, 4} {
			prev := runtime.GOMAXPROCS(procs)
			cv, l, err := KernelCurve(mat.DenseCopyOf(K), y, c.opt)
			runtime.GOMAXPROCS(prev)
			if err != nil {
				t.Fatal(err)
			}
			curves, losses = append(curves, cv), append(losses, l)
		}
		if !reflect.DeepEqual(curves[0], curves[1]) || !reflect.DeepEqual(losses[0], losses[1]) {
			t.Errorf("dup=%d: one core %v\nfour %v", c.dup, curves[0], curves[1])
		}
	}
}
