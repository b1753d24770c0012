package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	lapack "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// eps is the unit roundoff of float64.
const eps = 0x1p-53

// symCase is a symmetric test matrix, full row-major.
type symCase struct {
	name string
	m    int
	a    []float64
	// generic: no eigenvalue clusters and no (near) invariant subspace met
	// by the reduction, so T itself, not only its spectrum, is
	// well-conditioned and can be compared with gonum's.
	generic bool
}

// symCases returns random symmetric and Gram-like PSD matrices of sizes
// around the panel width, a rank-deficient Gram, a matrix with repeated
// eigenvalues and the zero matrix.
func symCases() []symCase {
	r := rand.New(rand.NewPCG(1, 5))
	// gramOf returns GᵀG/k for the k×m Gaussian G.
	gramOf := func(k, m int) []float64 {
		g := mat.NewDense(k, m, randFloats(r, k*m))
		var c mat.Dense
		c.Mul(g.T(), g)
		c.Scale(1/float64(k), &c)
		return c.RawMatrix().Data
	}
	var cs []symCase
	for _, m := range []int{1, 2, 3, 7, 64, 65, 200} {
		g := randFloats(r, m*m)
		a := make([]float64, m*m)
		for i := 0; i < m; i++ {
			for j := 0; j < m; j++ {
				a[i*m+j] = g[i*m+j] + g[j*m+i]
			}
		}
		cs = append(cs,
			symCase{fmt.Sprintf("indefinite %d", m), m, a, true},
			symCase{fmt.Sprintf("Gram %d", m), m, gramOf(2*m, m), true})
	}
	cs = append(cs, symCase{"Gram 400 (parallel symv)", 400, gramOf(800, 400), true})
	cs = append(cs, symCase{"rank 20 of 130", 130, gramOf(20, 130), false})
	// Q·diag(1, 1, …, 2, 2, …)·Qᵀ for a random orthogonal Q.
	const n = 97
	var qr mat.QR
	qr.Factorize(mat.NewDense(n, n, randFloats(r, n*n)))
	var q, rep mat.Dense
	qr.QTo(&q)
	lam := make([]float64, n)
	for i := range lam {
		lam[i] = float64(1 + i%2)
	}
	rep.Mul(&q, mat.NewDiagDense(n, lam))
	rep.Mul(&rep, q.T())
	cs = append(cs, symCase{"repeated 97", n, rep.RawMatrix().Data, false})
	cs = append(cs, symCase{"zero 70", 70, make([]float64, 70*70), false})
	return cs
}

// normOf returns the Frobenius norm of x.
func normOf(x []float64) float64 { return math.Sqrt(dot(x, x)) }

// TestTridiag compares tridiag with gonum's Dsytrd (lower triangle, the
// same sequence of reflectors): d and |e| on generic matrices, and the
// reflectors through QᵀR on every matrix: ‖QᵀR‖ = ‖R‖ and
// (QᵀR)ᵀT(QᵀR) = RᵀAR. Both reductions are backward stable, with errors
// O(m·ε·‖A‖), so each check allows m·1e-14 (45ε per unit of m) times
// ‖A‖_F, or ‖R‖_F for the norm (R has entries of size one); the largest
// error seen is 5% of that.
func TestTridiag(t *testing.T) {
	t.Parallel()
	const tol = 1e-14
	for _, c := range symCases() {
		m := c.m
		scale := normOf(c.a)
		d, e, tau := make([]float64, m), make([]float64, m), make([]float64, max(m-1, 1))
		a := slices.Clone(c.a)
		tridiag(a, m, d, e, tau, nil)
		if c.generic {
			gd, ge, gtau := make([]float64, m), make([]float64, m), make([]float64, max(m-1, 1))
			ga := slices.Clone(c.a)
			impl := lapack.Implementation{}
			work := []float64{0}
			impl.Dsytrd(blas.Lower, m, ga, m, gd, ge, gtau, work, -1)
			work = make([]float64, int(work[0]))
			impl.Dsytrd(blas.Lower, m, ga, m, gd, ge, gtau, work, len(work))
			worst := 0.0
			for i := range d {
				worst = math.Max(worst, math.Abs(d[i]-gd[i]))
				if i < m-1 {
					worst = math.Max(worst, math.Abs(math.Abs(e[i])-math.Abs(ge[i])))
				}
			}
			if worst > tol*float64(m)*scale {
				t.Errorf("%s: T differs from gonum's by %g (‖A‖ = %g)", c.name, worst, scale)
			}
		}
		const l = 3
		R := mat.NewDense(m, l, nil)
		for i := range R.RawMatrix().Data {
			R.RawMatrix().Data[i] = math.Sin(float64(7*i + 1))
		}
		b := slices.Clone(R.RawMatrix().Data)
		applyQt(a, m, tau, b, l)
		if got, want := normOf(b), normOf(R.RawMatrix().Data); math.Abs(got-want) > tol*float64(m)*want {
			t.Errorf("%s: ‖QᵀR‖ = %g, ‖R‖ = %g", c.name, got, want)
		}
		// TB with T from d and e.
		tb := mat.NewDense(m, l, nil)
		for i := 0; i < m; i++ {
			for k := 0; k < l; k++ {
				v := d[i] * b[i*l+k]
				if i > 0 {
					v += e[i-1] * b[(i-1)*l+k]
				}
				if i < m-1 {
					v += e[i] * b[(i+1)*l+k]
				}
				tb.Set(i, k, v)
			}
		}
		var btb, ar, rar mat.Dense
		btb.Mul(mat.NewDense(m, l, b).T(), tb)
		ar.Mul(mat.NewDense(m, m, c.a), R)
		rar.Mul(R.T(), &ar)
		if diff := maxAbsDiff(&btb, &rar); diff > tol*float64(m)*scale {
			t.Errorf("%s: BᵀTB differs from RᵀAR by %g (‖A‖ = %g)", c.name, diff, scale)
		}
	}
}

// maxAbsDiff is max|a−b| over two matrices of the same shape.
func maxAbsDiff(a, b *mat.Dense) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, math.Inf(1))
}

// TestEigSymAgainstGonum checks EigSym on every case: eigenvalues against
// gonum's EigenSym to 1e-12·‖A‖ (both are backward stable, so each is
// within O(m·ε·‖A‖) of the truth: 4e-14·‖A‖ at m = 200), and B = VᵀR
// through Σⱼ Bⱼ²/(λⱼ+μ) = Rᵀ(A+μI)⁻¹R, which Cholesky gives independently,
// to 1e-10 relative (the condition number of A+μI is at most 1e2 here).
func TestEigSymAgainstGonum(t *testing.T) {
	t.Parallel()
	const tolVal, tolSolve = 1e-12, 1e-10
	for _, c := range symCases() {
		m := c.m
		scale := normOf(c.a)
		r := make([]float64, m)
		for i := range r {
			r[i] = math.Cos(float64(3*i + 2))
		}
		vals, b, err := EigSym(slices.Clone(c.a), m, r, 1, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var es mat.EigenSym
		if !es.Factorize(mat.NewSymDense(m, slices.Clone(c.a)), false) {
			t.Fatalf("%s: gonum's EigenSym failed", c.name)
		}
		want := es.Values(nil)
		for i := range vals {
			if math.Abs(vals[i]-want[i]) > tolVal*math.Max(scale, 1) {
				t.Errorf("%s: eigenvalue %d is %g, gonum %g", c.name, i, vals[i], want[i])
				break
			}
		}
		// μ makes A+μI positive definite with condition ≤ 1e2 here.
		mu := 2*math.Max(-want[0], 0) + math.Max(scale/100, 1)
		got := 0.0
		for j, l := range vals {
			got += b[j] * b[j] / (l + mu)
		}
		shifted := mat.NewSymDense(m, slices.Clone(c.a))
		for i := 0; i < m; i++ {
			shifted.SetSym(i, i, shifted.At(i, i)+mu)
		}
		var ch mat.Cholesky
		if !ch.Factorize(shifted) {
			t.Fatalf("%s: A+μI is not positive definite", c.name)
		}
		var x mat.VecDense
		if err := ch.SolveVecTo(&x, mat.NewVecDense(m, r)); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		wantSolve := mat.Dot(&x, mat.NewVecDense(m, r))
		if math.Abs(got-wantSolve) > tolSolve*math.Abs(wantSolve) {
			t.Errorf("%s: Σ B²/(λ+μ) = %.15g, Rᵀ(A+μI)⁻¹R = %.15g", c.name, got, wantSolve)
		}
	}
}

// TestTridiagUpdate checks the in-place rank-2k update on the Gram kernel
// against the plain sum A − Σⱼ (vⱼwⱼᵀ + wⱼvⱼᵀ), with vⱼ and wⱼ of very
// different sizes to exercise the balancing. Each half sums b products of
// rows balanced to ‖fv‖ = ‖gw‖ = √(‖v‖‖w‖/2), so each entry is off by at
// most 2·2b·ε·Σⱼ (‖fvⱼ‖ + ‖gwⱼ‖)² = 8b·ε·Σⱼ ‖vⱼ‖‖wⱼ‖, plus the rounding of A.
func TestTridiagUpdate(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	const m, p, b = 150, 10, 30
	a := make([]float64, m*m)
	for i := range a {
		a[i] = r.NormFloat64()
	}
	tw := &tridiagWork{w: make([]float64, b*m), pm: make([]float64, 3*b*m)}
	bound := 0.0
	for j := 0; j < b; j++ {
		sv, sw := math.Exp2(float64(j%7-3)*6), math.Exp2(float64(j%5-2)*5)
		for c := 0; c < m; c++ {
			a[(p+j)*m+c] = sv * r.NormFloat64()
			tw.w[j*m+c] = sw * r.NormFloat64()
		}
		if j == 4 {
			clear(tw.w[j*m : (j+1)*m]) // a zero w (a reflector with τ = 0)
		}
	}
	q := p + b
	want := slices.Clone(a)
	for j := 0; j < b; j++ {
		v, w := a[(p+j)*m:(p+j+1)*m], tw.w[j*m:(j+1)*m]
		bound += normOf(v[q:]) * normOf(w[q:])
		for i := q; i < m; i++ {
			for k := i; k < m; k++ {
				want[i*m+k] -= v[i]*w[k] + w[i]*v[k]
			}
		}
	}
	got := slices.Clone(a)
	tw.update(got, m, p, b)
	tol := 8*b*eps*bound + 4*eps*10 // |A| < 10 for these Gaussians
	for i := 0; i < m; i++ {
		for k := 0; k < m; k++ {
			if k < i || i < q {
				if got[i*m+k] != a[i*m+k] {
					t.Fatalf("entry (%d, %d) outside the trailing upper triangle changed", i, k)
				}
				continue
			}
			if diff := math.Abs(got[i*m+k] - want[i*m+k]); diff > tol {
				t.Fatalf("entry (%d, %d) off by %g > %g", i, k, diff, tol)
			}
		}
	}
}

// TestSymv checks the chunked symmetric matrix–vector product against a
// plain loop, to n·1e-13 (the worst-case rounding n·ε·Σⱼ|aᵢⱼxⱼ| is about
// 700·1.1e-16·560 = 4e-11 at n = 700), and that its
// bits do not depend on GOMAXPROCS. Not parallel: it sets GOMAXPROCS.
func TestSymv(t *testing.T) {
	const tol = 1e-13
	r := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct{ m, lo int }{{9, 2}, {500, 0}, {700, 123}} {
		m, lo, n := tc.m, tc.lo, tc.m-tc.lo
		a := make([]float64, m*m)
		for i := range a {
			a[i] = r.NormFloat64()
		}
		x := make([]float64, n)
		for i := range x {
			x[i] = r.NormFloat64()
		}
		want := make([]float64, n)
		for i := lo; i < m; i++ {
			for j := lo; j < m; j++ {
				aij := a[min(i, j)*m+max(i, j)] // upper triangle only
				want[i-lo] += aij * x[j-lo]
			}
		}
		var sv symv
		got := make([]float64, n)
		sv.mul(got, a, m, lo, x)
		for i := range got {
			if math.Abs(got[i]-want[i]) > tol*float64(n) {
				t.Fatalf("m=%d lo=%d: y[%d] = %g, want %g", m, lo, i, got[i], want[i])
			}
		}
		procs := runtime.GOMAXPROCS(1)
		one := make([]float64, n)
		sv.mul(one, a, m, lo, x)
		runtime.GOMAXPROCS(3)
		three := make([]float64, n)
		sv.mul(three, a, m, lo, x)
		runtime.GOMAXPROCS(procs)
		if !slices.Equal(one, got) || !slices.Equal(three, got) {
			t.Errorf("m=%d lo=%d: results depend on GOMAXPROCS", m, lo)
		}
	}
}

// TestEigSymProcs checks that EigSym gives the same bits whatever
// GOMAXPROCS: at m = 600 the symmetric products, the panel updates, the
// rank-2k updates and the rotations all run on several goroutines, and
// each must split its work without changing any sum. Not parallel: it
// sets GOMAXPROCS.
func TestEigSymProcs(t *testing.T) {
	const m, l = 600, 2
	r := rand.New(rand.NewPCG(7, 8))
	a := make([]float64, m*m)
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			a[i*m+j] = r.NormFloat64()
		}
	}
	rhs := make([]float64, m*l)
	for i := range rhs {
		rhs[i] = r.NormFloat64()
	}
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	var vals, b [][]float64
	for _, p := range []int{1, 2, 3} {
		runtime.GOMAXPROCS(p)
		v, w, err := EigSym(slices.Clone(a), m, rhs, l, nil)
		if err != nil {
			t.Fatal(err)
		}
		vals, b = append(vals, v), append(b, w)
	}
	for k := 1; k < len(vals); k++ {
		if !slices.Equal(vals[k], vals[0]) || !slices.Equal(b[k], b[0]) {
			t.Errorf("GOMAXPROCS %d and 1 give different results", k+1)
		}
	}
}
