package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/fixture"
)

func TestCholesky(t *testing.T) {
	t.Parallel()
	for _, m := range []int{1, 2, 7, 255, 256, 257, 600} {
		r := rand.New(rand.NewPCG(uint64(m), 3))
		n := m + 5
		x := randFloats(r, n*m)
		a := make([]float64, m*m)
		AddAtA(a, x, n, m)
		for i := 0; i < m; i++ {
			a[i*m+i] += 1
			for j := 0; j < i; j++ {
				a[i*m+j] = -7 // the lower triangle must survive
			}
		}
		sym := mat.NewSymDense(m, nil)
		for i := 0; i < m; i++ {
			for j := i; j < m; j++ {
				sym.SetSym(i, j, a[i*m+j])
			}
		}
		var ref mat.Cholesky
		if !ref.Factorize(sym) {
			t.Fatal("reference factorization failed")
		}
		var U mat.TriDense
		ref.UTo(&U)
		if err := Cholesky(a, m); err != nil {
			t.Fatalf("m=%d: %v", m, err)
		}
		// Both are backward stable; entries agree to about cond·m·eps
		// relative to the diagonal scale. cond(AᵀA + I) is modest here.
		tol := 1e-10
		for i := 0; i < m; i++ {
			for j := 0; j < m; j++ {
				if j < i {
					if a[i*m+j] != -7 {
						t.Fatalf("m=%d: lower triangle changed at (%d,%d)", m, i, j)
					}
					continue
				}
				if d := math.Abs(a[i*m+j] - U.At(i, j)); d > tol*math.Abs(U.At(j, j)) {
					t.Fatalf("m=%d: U[%d,%d] = %v, gonum %v", m, i, j, a[i*m+j], U.At(i, j))
				}
			}
		}
	}
}

func TestCholeskyNotPositiveDefinite(t *testing.T) {
	t.Parallel()
	for _, a := range [][]float64{
		{1, 2, 2, 1}, // eigenvalues 3 and −1
		{0, 0, 0, 1}, // singular
		{math.NaN(), 0, 0, 1},
	} {
		if err := Cholesky(append([]float64(nil), a...), 2); err != ErrNotPositiveDefinite {
			t.Errorf("%v: error %v, want ErrNotPositiveDefinite", a, err)
		}
	}
	// Beyond the first panel.
	m := 300
	a := make([]float64, m*m)
	for i := 0; i < m; i++ {
		a[i*m+i] = 1
	}
	a[280*m+280] = -1
	if err := Cholesky(a, m); err != ErrNotPositiveDefinite {
		t.Errorf("negative pivot at 280: %v", err)
	}
}

func BenchmarkCholesky_M4096(b *testing.B) {
	m := 4096
	x := randSlice((m+8)*m, 5)
	base := make([]float64, m*m)
	AddAtA(base, x, m+8, m)
	a := make([]float64, m*m)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		copy(a, base)
		b.StartTimer()
		if err := Cholesky(a, m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(m)*float64(m)*float64(m)/3/b.Elapsed().Seconds()*float64(b.N)/1e9, "GFLOP/s")
}

func TestTranspose(t *testing.T) {
	t.Parallel()
	a := []float64{1, 2, 3, 4, 5, 6} // 2×3
	got := Transpose(a, 2, 3)
	want := []float64{1, 4, 2, 5, 3, 6}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Transpose = %v, want %v", got, want)
		}
	}
	if back := Transpose(got, 3, 2); back[1] != 2 || back[3] != 4 {
		t.Fatalf("transpose twice = %v", back)
	}
}

// TestCholeskyPanelBits factors with the panel's rows solved through gemm
// in groups (Cholesky) and by plain loops only: the same bits, since gemm
// adds the negated products in solveRows' order. Orders cover partial
// groups, partial panels and several panels.
func TestCholeskyPanelBits(t *testing.T) {
	t.Parallel()
	for _, m := range []int{5, 40, 257, 300, 700} {
		r := rand.New(rand.NewPCG(uint64(m), 8))
		n := m + 3
		x := randFloats(r, n*m)
		a := make([]float64, m*m)
		AddAtA(a, x, n, m)
		got, want := append([]float64(nil), a...), append([]float64(nil), a...)
		if err := Cholesky(got, m); err != nil {
			t.Fatal(err)
		}
		if err := cholesky(want, m, choleskyBlock, nil); err != nil {
			t.Fatal(err)
		}
		fixture.SameBits(t, fmt.Sprintf("m=%d, against plain loops", m), got, want)
	}
}

// TestSolveRowsBits holds solveRows (on axpy, the vector kernel in
// WebAssembly) to the plain loop r −= u·x it replaced, bit for bit, on
// widths with and without a scalar tail and chunks not starting at the
// panel's first row.
func TestSolveRowsBits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ m, j0, i, c0, c1 int }{
		{8, 0, 3, 4, 8}, {40, 0, 17, 18, 40}, {40, 5, 17, 20, 39}, {131, 32, 95, 96, 131}, {300, 0, 255, 256, 300},
	} {
		r := rand.New(rand.NewPCG(uint64(c.m), uint64(c.i)))
		a := randFloats(r, c.m*c.m)
		for k := range c.m {
			a[k*c.m+k] = 1 + float64(k%7) // pivots away from zero
		}
		want := append([]float64(nil), a...)
		ri := want[c.i*c.m+c.c0 : c.i*c.m+c.c1]
		for k := c.j0; k < c.i; k++ {
			uki := want[k*c.m+c.i]
			for j := range ri {
				ri[j] -= uki * want[k*c.m+c.c0+j]
			}
		}
		inv := 1 / want[c.i*c.m+c.i]
		for j := range ri {
			ri[j] *= inv
		}
		solveRows(a, c.m, a[c.c0:], c.m, c.j0, c.i, c.c1-c.c0)
		fixture.SameBits(t, fmt.Sprintf("%+v", c), a, want)
	}
}

// TestCholSolve solves A X = B against gonum's Cholesky solve, on sizes
// with one and several panels and right-hand sides split over the cores,
// and refuses a singular A.
func TestCholSolve(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ m, k int }{{1, 1}, {7, 3}, {300, 10}, {600, 1}} {
		r := rand.New(rand.NewPCG(uint64(c.m), 11))
		n := c.m + 4
		x := randFloats(r, n*c.m)
		a := make([]float64, c.m*c.m)
		AddAtA(a, x, n, c.m)
		sym := mat.NewSymDense(c.m, nil)
		for i := range c.m {
			for j := i; j < c.m; j++ {
				sym.SetSym(i, j, a[i*c.m+j])
			}
		}
		b := randFloats(r, c.m*c.k)
		var ch mat.Cholesky
		if !ch.Factorize(sym) {
			t.Fatal("reference factorization failed")
		}
		var want mat.Dense
		if err := ch.SolveTo(&want, mat.NewDense(c.m, c.k, append([]float64(nil), b...))); err != nil {
			t.Fatal(err)
		}
		got, ok := CholSolve(a, c.m, b, c.k)
		if !ok {
			t.Fatalf("m=%d: not positive definite", c.m)
		}
		var d mat.Dense
		d.Sub(got, &want)
		// The condition number of these Gram matrices is below 1e4.
		if e := mat.Norm(&d, 2) / mat.Norm(&want, 2); e > 1e-10 {
			t.Errorf("m=%d k=%d: relative error %g against gonum", c.m, c.k, e)
		}
	}
	if _, ok := CholSolve([]float64{1, 2, 2, 4}, 2, []float64{1, 1}, 1); ok {
		t.Error("a singular matrix was solved")
	}
}
