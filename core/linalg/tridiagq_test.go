package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestTridiagQ checks ReduceQ's factors against dense algebra:
// Eigenvalues = EigSym's bits, Quad of Qᵀ's columns = diag λ(C+λI)⁻¹ and
// Solve = λ(T+λI)⁻¹b
// against gonum's dense solves, and Factor's refusal of an indefinite
// T+λI. Tolerances: a backward stable solve is off by O(m·ε·κ) relative,
// κ = (|λ|max+λ)/(λmin+λ) of T+λI; 100·m·ε·κ here.
func TestTridiagQ(t *testing.T) {
	t.Parallel()
	for _, m := range []int{1, 2, 3, 17, 130} {
		r := rand.New(rand.NewPCG(uint64(m), 3))
		c := make([]float64, m*m)
		for i := range m {
			for j := i; j < m; j++ {
				v := r.NormFloat64()
				c[i*m+j], c[j*m+i] = v, v
			}
			c[i*m+i] += float64(m) // positive definite, κ(C) modest
		}
		a := append([]float64(nil), c...)
		tq := ReduceQ(a, m, nil)
		vals, err := tq.Eigenvalues()
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := EigSym(append([]float64(nil), c...), m, nil, 0, nil)
		if err != nil || !slices.Equal(vals, want) {
			t.Errorf("m=%d: eigenvalues %v, EigSym %v (%v)", m, vals, want, err)
		}
		lambdas := []float64{1e-3, 1, 50}
		f, ok := tq.Factor(lambdas)
		if !ok {
			t.Fatalf("m=%d: T+λI refused for positive definite C", m)
		}
		quad := make([]float64, m*len(lambdas))
		f.Quad(quad, tq.Qt, m)
		kappa := (vals[m-1] + 1e-3) / (vals[0] + 1e-3)
		tol := 100 * float64(m) * 0x1p-52 * kappa
		b := make([]float64, m*2)
		for i := range b {
			b[i] = r.NormFloat64()
		}
		for ti, lam := range lambdas {
			// λ(C+λI)⁻¹ dense: its diagonal is Quad of Qᵀ's columns.
			sh := mat.NewDense(m, m, append([]float64(nil), c...))
			for i := range m {
				sh.Set(i, i, sh.At(i, i)+lam)
			}
			var inv mat.Dense
			if err := inv.Inverse(sh); err != nil {
				t.Fatal(err)
			}
			for i := range m {
				if w := lam * inv.At(i, i); math.Abs(quad[i*len(lambdas)+ti]-w) > tol*w {
					t.Errorf("m=%d λ=%g: Quad[%d] %v, dense %v", m, lam, i, quad[i*len(lambdas)+ti], w)
				}
			}
			// Solve in T's basis: QᵀX = λ(T+λI)⁻¹Qᵀb.
			qtb := make([]float64, m*2)
			Mul(qtb, tq.Qt, b, m, m, 2)
			f.Solve(ti, qtb, 2)
			var x mat.Dense
			x.Mul(&inv, mat.NewDense(m, 2, b))
			x.Scale(lam, &x)
			want := make([]float64, m*2)
			Mul(want, tq.Qt, x.RawMatrix().Data, m, m, 2)
			for i, v := range qtb {
				if math.Abs(v-want[i]) > tol*(1+math.Abs(want[i])) {
					t.Errorf("m=%d λ=%g: Solve[%d] %v, dense %v", m, lam, i, v, want[i])
				}
			}
		}
		// Below −λmin, T+λI is indefinite: no factorization.
		if _, ok := tq.Factor([]float64{1, -vals[0] * 1.5}); ok && m > 0 {
			t.Errorf("m=%d: T+λI factored at λ = %g below −λmin = %g", m, -vals[0]*1.5, -vals[0])
		}
	}
}

// TestTridiagQShapes: shapes that do not fit are a programming error, a
// panic naming the call (linalg's kernels' rule), never a read out of
// range or a silent partial result.
func TestTridiagQShapes(t *testing.T) {
	r := ReduceQ([]float64{2, 1, 1, 2}, 2, nil)
	f, ok := r.Factor([]float64{1, 2})
	if !ok {
		t.Fatal("T+λI of a positive definite T refused")
	}
	for _, tc := range []struct {
		name string
		call func()
	}{
		{"ReduceQ short", func() { ReduceQ(make([]float64, 3), 2, nil) }},
		{"ReduceQ m 0", func() { ReduceQ(nil, 0, nil) }},
		{"Quad short x", func() { f.Quad(make([]float64, 4), make([]float64, 3), 2) }},
		{"Quad short out", func() { f.Quad(make([]float64, 3), make([]float64, 4), 2) }},
		{"Solve λ out of range", func() { f.Solve(2, make([]float64, 2), 1) }},
		{"Solve negative λ index", func() { f.Solve(-1, make([]float64, 2), 1) }},
		{"Solve short b", func() { f.Solve(0, make([]float64, 3), 2) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				// linalg's message, not the runtime's index error.
				if msg, _ := recover().(string); !strings.HasPrefix(msg, "linalg: ") {
					t.Errorf("%s: panic %q, want linalg's message", tc.name, msg)
				}
			}()
			tc.call()
		})
	}
	// The shapes that fit run.
	f.Quad(make([]float64, 4), make([]float64, 4), 2)
	f.Solve(1, make([]float64, 4), 2)
}

// BenchmarkQuad_M634 times Quad at the Vehicle table's 634 training rows
// and the default grid's 30 λ: the exact leave-one-out's denominators.
func BenchmarkQuad_M634(b *testing.B) {
	const m = 634
	f := factoredT(b, m, gridLambdas())
	x, out := randSlice(m*m, 3), make([]float64, m*len(f.lambdas))
	for b.Loop() {
		f.Quad(out, x, m)
	}
}

// factoredT is the factorization of T + λI at lambdas for a seeded
// random tridiagonal T of order m, diagonally dominant (so positive
// definite): the input of Quad's tests and benchmarks.
func factoredT(tb testing.TB, m int, lambdas []float64) *ShiftedLDL {
	tb.Helper()
	d, e := randSlice(m, 1), randSlice(m, 2)
	for i := range d {
		d[i] = 3 + d[i]*d[i]
		e[i] /= 2
	}
	e[m-1] = 0
	f, ok := (&TridiagQ{d: d, e: e}).Factor(lambdas)
	if !ok {
		tb.Fatal("T+λI refused")
	}
	return f
}

// gridLambdas is a grid of 30 λ, 2⁻²⁰ … 2⁹: the size of the default λ
// grid, which Quad's benchmarks sweep.
func gridLambdas() []float64 {
	lambdas := make([]float64, 30)
	for i := range lambdas {
		lambdas[i] = math.Ldexp(1, i-20)
	}
	return lambdas
}
