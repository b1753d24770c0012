package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

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

// BenchmarkApplyQ_M4096_L110 times what the held-out λ search applied:
// Q of a two-stage reduction at m = 4096 to 11 λ × 10 classes, and, in
// the same loop, to those 110 columns padded to 112 with zeros, as the
// search now pads them (krr's scoreCols): it reports both and the ratio
// (s-l112/s-l110, and in CPU time, steadier on a shared machine; the
// product kernels' 8-column strips left 6 of the 110 columns to the
// scalar tail).
func BenchmarkApplyQ_M4096_L110(b *testing.B) {
	const m, l, lp = 4096, 110, 112
	r := rand.New(rand.NewPCG(1, 2))
	phi := randFloats(r, (m+100)*m)
	a := make([]float64, m*m)
	AddAtA(a, phi, m+100, m)
	red, _ := Reduce(a, m, randFloats(r, m*10), 10, nil)
	x := randFloats(r, m*l)
	xp := make([]float64, m*lp)
	for i := range m {
		copy(xp[i*lp:], x[i*l:(i+1)*l])
	}
	var t110, t112 time.Duration
	var c110, c112 float64
	for b.Loop() {
		t0, u0 := time.Now(), cpuSeconds()
		red.ApplyQ(x, l)
		t1, u1 := time.Now(), cpuSeconds()
		red.ApplyQ(xp, lp)
		t110 += t1.Sub(t0)
		t112 += time.Since(t1)
		c110 += u1 - u0
		c112 += cpuSeconds() - u1
	}
	b.ReportMetric(t110.Seconds()/float64(b.N), "s-l110")
	b.ReportMetric(t112.Seconds()/float64(b.N), "s-l112")
	b.ReportMetric(t112.Seconds()/t110.Seconds(), "s-l112/s-l110")
	if c110 > 0 {
		b.ReportMetric(c112/c110, "cpu-l112/cpu-l110")
	}
}

// TestReflect64 checks the 64-column reflector kernels (or the portable
// loops where the CPU has none), through reflectRows and reflectEach,
// against the definition H = I − τvvᵀ applied entry by entry, on strided
// matrices with 1 to 70 rows.
func TestReflect64(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 7, 64, 70} {
		const ldc = 127
		c := randFloats(r, n*ldc)
		v := randFloats(r, n)
		tau := 2 / dot(v, v)

		// From the left: C[:, :64] ← C − τv(vᵀC); the rest of each row kept.
		want := slices.Clone(c)
		for j := range 64 {
			s := 0.0
			for q := range n {
				s += v[q] * c[q*ldc+j]
			}
			for q := range n {
				want[q*ldc+j] -= tau * v[q] * s
			}
		}
		got := slices.Clone(c)
		reflectRows(got, ldc, 64, 0, n, v, tau, make([]float64, 64))
		closeAll(t, fmt.Sprintf("left n=%d", n), got, want)

		// From the right: each row x of length 64 ← x − τ(x·u)u.
		u := randFloats(r, 64)
		tu := 2 / dot(u, u)
		want = slices.Clone(c)
		for q := range n {
			x := want[q*ldc : q*ldc+64]
			s := tu * dot(x, u)
			for j := range x {
				x[j] -= s * u[j]
			}
		}
		got = slices.Clone(c)
		reflectEach(got, ldc, n, u, tu)
		closeAll(t, fmt.Sprintf("right n=%d", n), got, want)
	}
}

// closeAll fails unless got and want agree to 1e-13 of want's largest
// entry (the kernels fuse multiply-adds; the definition does not).
func closeAll(t *testing.T, what string, got, want []float64) {
	t.Helper()
	big := 0.0
	for _, w := range want {
		big = max(big, math.Abs(w))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-13*big {
			t.Fatalf("%s: entry %d is %v, want %v", what, i, got[i], want[i])
		}
	}
}
