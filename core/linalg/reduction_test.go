package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"ntkrf/internal/fixture"
)

// reduceWith is Reduce with the band's half-width nb (0: one stage), so
// that small matrices exercise the two-stage path.
func reduceWith(a []float64, m, nb int, rhs []float64, l int) (*Reduction, []float64) {
	if nb == 0 {
		w := slices.Clone(rhs)
		r := &Reduction{a: a, m: m, off: 1}
		r.D, r.E, r.tau, r.ts = oneStageReduce(a, m, w, l, true, nil)
		return r, w
	}
	w := slices.Clone(rhs)
	r := &Reduction{a: a, m: m, off: nb, nb: nb}
	r.D, r.E, r.tau, r.tau2, r.ts = twoStageReduce(a, m, nb, w, l, true, nil)
	return r, w
}

// TestReductionQ checks that the Q a Reduction applies is the one that
// reduced C: Q·(QᵀR) = R, and Q·T·Qᵀ = C to rounding, for one-stage and
// two-stage reductions with bands narrower and wider than m; and that
// keeping Q changes no bit of T or QᵀR.
func TestReductionQ(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const l = 3
	for _, c := range []struct{ m, nb int }{{1, 0}, {2, 0}, {3, 1}, {5, 2}, {40, 0}, {40, 3}, {50, 4}, {130, 7}, {131, 16}, {70, 100}, {200, 64}, {600, 64}} {
		t.Run(fmt.Sprintf("m%d_nb%d", c.m, c.nb), func(t *testing.T) {
			m := c.m
			a := make([]float64, m*m)
			for i := range m {
				for j := i; j < m; j++ {
					a[i*m+j] = r.NormFloat64()
				}
			}
			full := make([]float64, m*m)
			cnorm := 0.0
			for i := range m {
				for j := i; j < m; j++ {
					full[i*m+j], full[j*m+i] = a[i*m+j], a[i*m+j]
					cnorm = math.Max(cnorm, math.Abs(a[i*m+j]))
				}
			}
			rhs := randFloats(r, m*l)
			red, w := reduceWith(slices.Clone(a), m, c.nb, rhs, l)

			// Keeping Q changes nothing of what the reduction returns.
			var d, e, w0 []float64
			if c.nb == 0 {
				w0 = slices.Clone(rhs)
				d, e, _, _ = oneStageReduce(slices.Clone(a), m, w0, l, false, nil)
			} else {
				w0 = slices.Clone(rhs)
				d, e, _, _, _ = twoStageReduce(slices.Clone(a), m, c.nb, w0, l, false, nil)
			}
			fixture.SameBits(t, "D", red.D, d)
			fixture.SameBits(t, "E", red.E, e)
			fixture.SameBits(t, "QᵀR", w, w0)

			red.ApplyQ(w, l)
			for i, v := range w {
				if math.Abs(v-rhs[i]) > 1e-12*float64(m) {
					t.Fatalf("Q(QᵀR)[%d] = %.17g, R = %.17g", i, v, rhs[i])
				}
			}
			// Q·T·Qᵀ: Q applied to T's columns, then to the rows of the result.
			qt := make([]float64, m*m)
			for i := range m {
				qt[i*m+i] = red.D[i]
				if i+1 < m {
					qt[i*m+i+1], qt[(i+1)*m+i] = red.E[i], red.E[i]
				}
			}
			red.ApplyQ(qt, m) // QT
			tr := make([]float64, m*m)
			for i := range m {
				for j := range m {
					tr[j*m+i] = qt[i*m+j]
				}
			}
			red.ApplyQ(tr, m) // Q(QT)ᵀ = QTQᵀ (T symmetric)
			for i := range m * m {
				if math.Abs(tr[i]-full[i]) > 1e-12*cnorm*float64(m) {
					t.Fatalf("QTQᵀ[%d, %d] = %.17g, C = %.17g", i/m, i%m, tr[i], full[i])
				}
			}
		})
	}
}

// TestReduceMatchesTridiagonalize: Reduce at the sizes EigSym switches
// paths at returns Tridiagonalize's T and QᵀR bit for bit.
func TestReduceMatchesTridiagonalize(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const l = 2
	for _, m := range []int{twoStageMin - 1, twoStageMin + 3} {
		phi := randFloats(r, (m+10)*m)
		a := make([]float64, m*m)
		AddAtA(a, phi, m+10, m)
		rhs := randFloats(r, m*l)
		red, w := Reduce(slices.Clone(a), m, rhs, l, nil)
		d, e, w0 := Tridiagonalize(slices.Clone(a), m, rhs, l, nil)
		fixture.SameBits(t, fmt.Sprintf("m=%d D", m), red.D, d)
		fixture.SameBits(t, fmt.Sprintf("m=%d E", m), red.E, e)
		fixture.SameBits(t, fmt.Sprintf("m=%d QᵀR", m), w, w0)
	}
}

// BenchmarkApplyQ_M4096_L110 times what the held-out λ search applies:
// Q of a two-stage reduction at m = 4096 to 11 λ × 10 classes.
func BenchmarkApplyQ_M4096_L110(b *testing.B) {
	const m, l = 4096, 110
	r := rand.New(rand.NewPCG(1, 2))
	phi := randFloats(r, (m+100)*m)
	a := make([]float64, m*m)
	AddAtA(a, phi, m+100, m)
	red, _ := Reduce(a, m, randFloats(r, m*10), 10, nil)
	x := randFloats(r, m*l)
	b.ResetTimer()
	for range b.N {
		red.ApplyQ(x, l)
	}
}
