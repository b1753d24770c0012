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

// BenchmarkApplyQ_M4096_L110 times what the held-out λ search applies:
// Q of a two-stage reduction at m = 4096 to 11 λ × 10 classes, the 110
// columns padded to 112 with zeros as the search pads them (krr's
// scoreCols), three ways in turn in each loop: 110 columns with Q₁'s
// block products on Mul (the search before the padding), 112 on Mul, and
// 112 on the fused AddAtA kernel (tileAtB, what ApplyQ runs where the CPU
// has one). It reports each and the ratios, in wall and CPU time (CPU
// time is steadier on a shared machine): s-l112/s-l110 (padding),
// s-tile/s-l112 (the fused kernel).
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
	onTile := applyOnTile
	defer func() { applyOnTile = onTile }()
	var wall, cpu [3]float64
	for b.Loop() {
		for v, c := range []struct {
			x    []float64
			l    int
			tile bool
		}{{x, l, false}, {xp, lp, false}, {xp, lp, onTile}} {
			applyOnTile = c.tile
			t0, u0 := time.Now(), cpuSeconds()
			red.ApplyQ(c.x, c.l)
			wall[v] += time.Since(t0).Seconds()
			cpu[v] += cpuSeconds() - u0
		}
	}
	n := float64(b.N)
	b.ReportMetric(wall[0]/n, "s-l110")
	b.ReportMetric(wall[1]/n, "s-l112")
	b.ReportMetric(wall[2]/n, "s-tile")
	b.ReportMetric(wall[1]/wall[0], "s-l112/s-l110")
	b.ReportMetric(wall[2]/wall[1], "s-tile/s-l112")
	if cpu[0] > 0 && cpu[1] > 0 {
		b.ReportMetric(cpu[1]/cpu[0], "cpu-l112/cpu-l110")
		b.ReportMetric(cpu[2]/cpu[1], "cpu-tile/cpu-l112")
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

// TestReflectNarrow: reflectRows on fewer than 16 columns (the chase's
// rows of QᵀR) gives the bits of the two axpyFast calls per row it
// replaced (reflectRowsAxpy), for every width 1 … 15 and 1 to 70 rows of
// a strided matrix.
func TestReflectNarrow(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for cols := 1; cols < 16; cols++ {
		for _, n := range []int{1, 3, 64, 70} {
			const ldc, i0 = 19, 2
			c := randFloats(r, (i0+n)*ldc)
			v := randFloats(r, n)
			tau := 2 / dot(v, v)
			want := slices.Clone(c)
			reflectRowsAxpy(want, ldc, cols, i0, n, v, tau, make([]float64, cols))
			got := slices.Clone(c)
			reflectRows(got, ldc, cols, i0, n, v, tau, make([]float64, cols))
			fixture.SameBits(t, fmt.Sprintf("cols=%d n=%d", cols, n), got, want)
		}
	}
}

// BenchmarkReflectNarrow times what the bulge chase applies to its rows
// of QᵀR per reflector (64 rows of 10 columns, 10 classes), reflectRows'
// one loop (reflectNarrow) against the two axpyFast calls per row it
// replaced, alternately, 4096 reflectors a round: it reports both in ns a
// reflector and the ratio narrow/axpy (wall and CPU time).
func BenchmarkReflectNarrow(b *testing.B) {
	const n, cols, reps = 64, 10, 4096
	r := rand.New(rand.NewPCG(9, 10))
	c := randFloats(r, n*cols)
	v := randFloats(r, n)
	tau := 2 / dot(v, v) // H is orthogonal: c keeps its scale
	z := make([]float64, cols)
	var wall, cpu [2]float64
	for b.Loop() {
		for k := range 2 {
			t0, u0 := time.Now(), cpuSeconds()
			for range reps {
				if k == 0 {
					reflectRowsAxpy(c, cols, cols, 0, n, v, tau, z)
				} else {
					reflectRows(c, cols, cols, 0, n, v, tau, z)
				}
			}
			wall[k] += time.Since(t0).Seconds()
			cpu[k] += cpuSeconds() - u0
		}
	}
	per := float64(b.N) * reps / 1e9
	b.ReportMetric(wall[0]/per, "ns-axpy")
	b.ReportMetric(wall[1]/per, "ns-narrow")
	b.ReportMetric(wall[1]/wall[0], "narrow/axpy")
	if cpu[0] > 0 {
		b.ReportMetric(cpu[1]/cpu[0], "cpu-narrow/axpy")
	}
}
