package kernel

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/errs"
	"ntkrf/internal/check"
)

// refTol is the relative tolerance against ../shared/REFERENCE.md, whose
// values come from an independent float64 implementation (printed to 12
// digits, so 1e-12 relative is what the table itself supports).
const refTol = 1e-11

func refRows() *mat.Dense {
	return mat.NewDense(3, 3, []float64{1, 2, 0, 0.5, -1, 3, -2, 0.25, 1})
}

func relErr(got, want float64) float64 {
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}

func TestReferenceRows(t *testing.T) {
	t.Parallel()
	// ../shared/REFERENCE.md, "Rows x1=(1,2,0), x2=(0.5,-1,3), x3=(-2,0.25,1)".
	tests := []struct {
		depth int
		ntk   [3]float64 // (1,2), (1,3), (2,3)
		nngp  [3]float64
	}{
		{1, [3]float64{0.929748487903, 0.317734398640, 4.247645813606}, [3]float64{1.578958845595, 0.923183854534, 3.235951880892}},
		{2, [3]float64{3.654574907598, 2.267625755618, 6.900169605308}, [3]float64{3.123885623718, 2.090094638749, 4.146431376587}},
		{3, [3]float64{6.413877736095, 4.229851586649, 9.554994540434}, [3]float64{4.061304571599, 2.786804685692, 4.757746689591}},
	}
	pairs := [3][2]int{{0, 1}, {0, 2}, {1, 2}}
	sq := []float64{5, 10.25, 5.0625}
	for _, tc := range tests {
		K, err := NTK(refRows(), tc.depth)
		if err != nil {
			t.Fatal(err)
		}
		G, err := NNGP(refRows(), tc.depth)
		if err != nil {
			t.Fatal(err)
		}
		for p, ij := range pairs {
			if e := relErr(K.At(ij[0], ij[1]), tc.ntk[p]); e > refTol {
				t.Errorf("L=%d NTK(x%d,x%d) = %.15g, want %.12g (rel err %.2g)", tc.depth, ij[0]+1, ij[1]+1, K.At(ij[0], ij[1]), tc.ntk[p], e)
			}
			if e := relErr(G.At(ij[0], ij[1]), tc.nngp[p]); e > refTol {
				t.Errorf("L=%d NNGP(x%d,x%d) = %.15g, want %.12g (rel err %.2g)", tc.depth, ij[0]+1, ij[1]+1, G.At(ij[0], ij[1]), tc.nngp[p], e)
			}
		}
		for i, s := range sq {
			if K.At(i, i) != float64(tc.depth+1)*s {
				t.Errorf("L=%d NTK diagonal %d = %.17g, want exactly %g", tc.depth, i, K.At(i, i), float64(tc.depth+1)*s)
			}
			if G.At(i, i) != s {
				t.Errorf("L=%d NNGP diagonal %d = %.17g, want exactly %g", tc.depth, i, G.At(i, i), s)
			}
		}
	}
}

func TestReferenceCosines(t *testing.T) {
	t.Parallel()
	// ../shared/REFERENCE.md, unit vectors with cosine ρ; six digits given.
	const tol = 5e-7
	tests := []struct {
		rho  float64
		want [3]float64
	}{
		{0.5, [3]float64{0.942331, 1.351480, 1.737845}},
		{0, [3]float64{0.318310, 0.685709, 1.060388}},
	}
	for _, tc := range tests {
		X := mat.NewDense(2, 2, []float64{1, 0, tc.rho, math.Sqrt(1 - tc.rho*tc.rho)})
		for L := 1; L <= 3; L++ {
			K, err := NTK(X, L)
			if err != nil {
				t.Fatal(err)
			}
			if d := math.Abs(K.At(0, 1) - tc.want[L-1]); d > tol {
				t.Errorf("ρ=%v L=%d: NTK = %.7f, want %.6f", tc.rho, L, K.At(0, 1), tc.want[L-1])
			}
			s := X.At(1, 1)
			sq := tc.rho*tc.rho + s*s
			if K.At(0, 0) != float64(L+1) || K.At(1, 1) != float64(L+1)*sq {
				t.Errorf("ρ=%v L=%d: diagonal %v, %v, want exactly %d·‖x‖²", tc.rho, L, K.At(0, 0), K.At(1, 1), L+1)
			}
		}
	}
}

// oracle is the textbook recursion in the naive form, used where inputs are
// well away from the ill-conditioned c ≈ ±1.
func oracle(x, z []float64, depth int, ntk bool) float64 {
	var g, a, b float64
	for i := range x {
		g += x[i] * z[i]
		a += x[i] * x[i]
		b += z[i] * z[i]
	}
	nngp, k := g, g
	for l := 0; l < depth; l++ {
		c := math.Max(-1, math.Min(1, nngp/math.Sqrt(a*b)))
		f0 := 1 - math.Acos(c)/math.Pi
		nngp = math.Sqrt(a*b) * (math.Sqrt(1-c*c) + (math.Pi-math.Acos(c))*c) / math.Pi
		k = nngp + k*f0
	}
	if ntk {
		return k
	}
	return nngp
}

func randDense(rng *rand.Rand, n, d int) *mat.Dense {
	X := mat.NewDense(n, d, nil)
	for i := range X.RawMatrix().Data {
		X.RawMatrix().Data[i] = rng.NormFloat64()
	}
	return X
}

func TestCrossMatchesOracleAndSymmetric(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	X, Z := randDense(rng, 17, 5), randDense(rng, 9, 5)
	for _, name := range []Name{NameNTK, NameNNGP} {
		for L := 0; L <= 6; L++ {
			k := Spec{Name: name, Depth: L}
			if L == 0 {
				k = Spec{Name: "linear"} // Depth 0 in a Spec means the default
			}
			C, err := k.Gram(X, Z)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 17; i++ {
				for j := 0; j < 9; j++ {
					x, z := X.RawRowView(i), Z.RawRowView(j)
					want := oracle(x, z, L, name == "ntk")
					// Entries near zero come from cancellation; bound the error
					// by the scale of the terms, (L+1)‖x‖‖z‖.
					scale := float64(L+1) * mat.Norm(mat.NewVecDense(5, x), 2) * mat.Norm(mat.NewVecDense(5, z), 2)
					if math.Abs(C.At(i, j)-want) > 1e-13*scale {
						t.Fatalf("%s L=%d (%d,%d): %.16g vs oracle %.16g", name, L, i, j, C.At(i, j), want)
					}
				}
			}
			S, err := k.Gram(X, nil)
			if err != nil {
				t.Fatal(err)
			}
			SX, err := k.Gram(X, X)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 17; i++ {
				for j := 0; j < 17; j++ {
					if S.At(i, j) != S.At(j, i) {
						t.Fatalf("%s L=%d not symmetric at (%d,%d)", name, L, i, j)
					}
					if e := relErr(SX.At(i, j), S.At(i, j)); e > 1e-12 {
						t.Fatalf("%s L=%d: Gram(X,X)[%d,%d]=%.16g but Gram(X)=%.16g", name, L, i, j, SX.At(i, j), S.At(i, j))
					}
				}
			}
		}
	}
}

func TestPositiveSemidefinite(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(2, 3))
	X := randDense(rng, 40, 6)
	for _, k := range []Spec{{Name: "ntk", Depth: 3}, {Name: "nngp", Depth: 2}, {Name: "rbf", Gamma: 0.3}} {
		K, err := k.Gram(X, nil)
		if err != nil {
			t.Fatal(err)
		}
		var eig mat.EigenSym
		if !eig.Factorize(mat.NewSymDense(40, K.RawMatrix().Data), false) {
			t.Fatal("eigendecomposition failed")
		}
		vals := eig.Values(nil)
		// Rounding in the entries bounds how negative an eigenvalue can look.
		tol := 1e-12 * vals[len(vals)-1] * 40
		if vals[0] < -tol {
			t.Errorf("%s: smallest eigenvalue %g < −%g", k.Name, vals[0], tol)
		}
	}
}

func TestHomogeneity(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(4, 5))
	X, Z := randDense(rng, 6, 4), randDense(rng, 5, 4)
	const a, b = 3.5, 0.25
	Xa, Zb := mat.DenseCopyOf(X), mat.DenseCopyOf(Z)
	Xa.Scale(a, X)
	Zb.Scale(b, Z)
	for L := 1; L <= 4; L++ {
		K, _ := NTKCross(X, Z, L)
		Ks, _ := NTKCross(Xa, Zb, L)
		for i := 0; i < 6; i++ {
			for j := 0; j < 5; j++ {
				if e := relErr(Ks.At(i, j), a*b*K.At(i, j)); e > 1e-13 {
					t.Errorf("L=%d: NTK(ax,bz) = %g, a·b·NTK(x,z) = %g", L, Ks.At(i, j), a*b*K.At(i, j))
				}
			}
		}
	}
}

func TestNearDuplicateRows(t *testing.T) {
	t.Parallel()
	// x and x(1+δ)+tiny orthogonal part: the angle is ~1e-9, far below what
	// arccos of a rounded cosine resolves. Compare with the exact small-angle
	// value computed from a scaled copy (homogeneity makes it exact).
	x := []float64{0.3, -1.2, 2.5, 0.7}
	X := mat.NewDense(2, 4, append(append([]float64{}, x...), 2*x[0], 2*x[1], 2*x[2], 2*x[3]))
	for L := 1; L <= 5; L++ {
		K, err := NTK(X, L)
		if err != nil {
			t.Fatal(err)
		}
		// Parallel rows: NTK(x, 2x) = 2·(L+1)‖x‖².
		want := 2 * float64(L+1) * (0.09 + 1.44 + 6.25 + 0.49)
		if e := relErr(K.At(0, 1), want); e > 1e-15 {
			t.Errorf("L=%d parallel rows: %.17g want %.17g (rel %.2g)", L, K.At(0, 1), want, e)
		}
		C, _ := NTKCross(mat.NewDense(1, 4, x), mat.NewDense(1, 4, []float64{-x[0], -x[1], -x[2], -x[3]}), L)
		// Opposite rows: c = −1 exactly; check against the oracle, well conditioned at c = −1 after clipping.
		if e := relErr(C.At(0, 0), oracle(x, []float64{-x[0], -x[1], -x[2], -x[3]}, L, true)); e > 1e-14 {
			t.Errorf("L=%d opposite rows: %.17g", L, C.At(0, 0))
		}
	}
	// A tiny angle: θ = 1e-7. NTK_1 = ‖x‖‖z‖(cos' + cosθ(1−θ/π)); compare the
	// cross kernel computed via angles against a series expansion.
	th := 1e-7
	P := mat.NewDense(1, 2, []float64{1, 0})
	Q := mat.NewDense(1, 2, []float64{math.Cos(th), math.Sin(th)})
	K, _ := NTKCross(P, Q, 1)
	// cos' = (sinθ + (π−θ)cosθ)/π ≈ 1 − θ²/2 + θ³/(3π); F0 = 1 − θ/π.
	cp := 1 - th*th/2 + th*th*th/(3*math.Pi)
	want := cp + math.Cos(th)*(1-th/math.Pi)
	if e := relErr(K.At(0, 0), want); e > 1e-15 {
		t.Errorf("θ=1e-7: NTK_1 = %.17g want %.17g (rel %.2g)", K.At(0, 0), want, e)
	}
}

func TestZeroRowsAndRBF(t *testing.T) {
	t.Parallel()
	X := mat.NewDense(3, 2, []float64{0, 0, 1, 2, 3, -1})
	for L := 1; L <= 3; L++ {
		K, err := NTK(X, L)
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < 3; j++ {
			if K.At(0, j) != 0 || K.At(j, 0) != 0 {
				t.Errorf("L=%d: zero row gives %v, want 0", L, K.At(0, j))
			}
		}
	}
	R, err := RBF(X, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if R.At(1, 1) != 1 {
		t.Errorf("RBF diagonal %v, want 1", R.At(1, 1))
	}
	want := math.Exp(-0.5 * (4 + 9)) // ‖(1,2)−(3,−1)‖² = 13
	if e := relErr(R.At(1, 2), want); e > 1e-14 {
		t.Errorf("RBF = %v, want %v", R.At(1, 2), want)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	good := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	nan := mat.NewDense(2, 2, []float64{1, math.NaN(), 3, 4})
	inf := mat.NewDense(1, 2, []float64{math.Inf(-1), 0})
	tests := []struct {
		name string
		k    Spec
		X, Z *mat.Dense
		want string
	}{
		{"nil X", Spec{Name: "ntk", Depth: 1}, nil, nil, "X is empty"},
		{"empty X", Spec{Name: "ntk", Depth: 1}, &mat.Dense{}, nil, "X is empty"},
		{"NaN", Spec{Name: "ntk", Depth: 1}, nan, nil, "NaN at row 0, column 1"},
		{"Inf in Z", Spec{Name: "nngp", Depth: 1}, good, inf, "Z has -Inf at row 0, column 0"},
		{"shape", Spec{Name: "ntk", Depth: 1}, good, mat.NewDense(1, 3, nil), "X has 2 columns but Z has 3"},
		{"negative depth", Spec{Name: "ntk", Depth: -1}, good, nil, "depth -1 is out of range"},
		{"huge depth", Spec{Name: "nngp", Depth: 1000}, good, nil, "depth 1000 is out of range"},
		{"unknown", Spec{Name: "poly"}, good, nil, `unknown kernel "poly"`},
		{"gamma", Spec{Name: "rbf", Gamma: -1}, good, nil, "gamma must be a positive"},
		{"gamma NaN", Spec{Name: "rbf", Gamma: math.NaN()}, good, nil, "gamma must be a positive"},
		{"overflowing row", Spec{Name: "ntk", Depth: 2}, mat.NewDense(2, 1, []float64{1, 1e200}), nil, "X row 1 has a squared norm beyond the float64 range (1e+200)"},
	}
	for _, tc := range tests {
		_, err := tc.k.Gram(tc.X, tc.Z)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "kernel: ") {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if err := check.Alloc("kernel matrix", 1<<20, 1<<20); err == nil || !strings.Contains(err.Error(), "needs 8796.1 GB") {
		t.Errorf("CheckAlloc: %v", err)
	}
}

// TestDepthArgument: the functions that take a depth refuse 0 and
// out-of-range depths with ERR_OPTION naming "depth" (one rule: no
// default in an argument), while a zero Spec.Depth means DefaultDepth.
func TestDepthArgument(t *testing.T) {
	t.Parallel()
	X := mat.NewDense(2, 2, []float64{1, 0, 0.5, 2})
	calls := map[string]func(int) error{
		"NTK":       func(L int) error { _, err := NTK(X, L); return err },
		"NNGP":      func(L int) error { _, err := NNGP(X, L); return err },
		"NTKCross":  func(L int) error { _, err := NTKCross(X, X, L); return err },
		"NNGPCross": func(L int) error { _, err := NNGPCross(X, X, L); return err },
	}
	for name, call := range calls {
		for _, L := range []int{0, -1, MaxDepth + 1} {
			err := call(L)
			var e *errs.Error
			if !errors.As(err, &e) || e.Code != errs.Option || e.Option != "depth" || !strings.HasPrefix(err.Error(), "kernel: ") {
				t.Errorf("%s(X, %d): %v, want a kernel: ERR_OPTION on depth", name, L, err)
			}
		}
		if err := call(1); err != nil {
			t.Errorf("%s(X, 1): %v", name, err)
		}
	}
	zero, err := Spec{}.Gram(X, nil)
	if err != nil {
		t.Fatal(err)
	}
	one, _ := NTK(X, DefaultDepth)
	if !mat.Equal(zero, one) {
		t.Errorf("Spec{} is not the NTK of depth %d", DefaultDepth)
	}
}

// TestDefaultGamma: a zero γ means DefaultGamma(cols) in a Spec, and
// DefaultGamma(d) is DefaultGamma(1)/d, the form the schema states it in
// (defaultPerCol).
func TestDefaultGamma(t *testing.T) {
	t.Parallel()
	for d := 1; d <= 12; d++ {
		if DefaultGamma(d) != DefaultGamma(1)/float64(d) {
			t.Errorf("DefaultGamma(%d) = %v, not DefaultGamma(1)/%d", d, DefaultGamma(d), d)
		}
		k, err := Spec{Name: "rbf"}.Filled(d)
		if err != nil || k.Gamma != DefaultGamma(d) {
			t.Errorf("Spec{rbf}.Filled(%d): γ %v (%v), want %v", d, k.Gamma, err, DefaultGamma(d))
		}
	}
}
