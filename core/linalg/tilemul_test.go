package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"
)

// TestTileAtB checks tileAtB on every kernel this build has, with A
// given and given as its transpose, against the product entry by entry (to the rounding of k fused terms), with and
// without sub, on shapes with edges in every direction and inner sizes
// past kc; and that its bits do not depend on GOMAXPROCS or on the
// columns beside each (a column's entries alone, from a one-column b,
// are those it gets among all of them), which ApplyQ's callers rely on
// (the λ search pads its bracket's columns). Not parallel: it sets
// GOMAXPROCS.
func TestTileAtB(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	for _, ks := range kernels() {
		for _, c := range []struct{ k, n, m int }{{1, 1, 1}, {3, 5, 7}, {32, 8, 24}, {300, 33, 50}, {600, 257, 112}, {32, 700, 110}} {
			for _, sub := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s_k%d_n%d_m%d_sub%v", ks.name, c.k, c.n, c.m, sub), func(t *testing.T) {
					k, n, m := c.k, c.n, c.m
					const pad = 3 // row strides wider than the rows
					a := randFloats(r, k*(n+pad))
					b := randFloats(r, k*(m+pad))
					c0 := randFloats(r, n*(m+pad))
					// A's transpose (n×k, row stride k+pad), for at.
					aT := make([]float64, n*(k+pad))
					for l := range k {
						for i := range n {
							aT[i*(k+pad)+l] = a[l*(n+pad)+i]
						}
					}
					run := func(p int) []float64 {
						runtime.GOMAXPROCS(p)
						got := slices.Clone(c0)
						tileAtB(ks.tile, got, m+pad, a, n+pad, false, b, m+pad, k, n, m, sub)
						return got
					}
					got := run(1)
					// From the transpose: the same values packed, the same bits.
					gotT := slices.Clone(c0)
					tileAtB(ks.tile, gotT, m+pad, aT, k+pad, true, b, m+pad, k, n, m, sub)
					if !slices.Equal(gotT, got) {
						t.Errorf("A from its transpose: different bits")
					}
					for i := range n {
						for j := range m {
							s, bound := 0.0, 0.0
							for l := range k {
								p := a[l*(n+pad)+i] * b[l*(m+pad)+j]
								s += p
								bound += math.Abs(p)
							}
							want := c0[i*(m+pad)+j] + s
							if sub {
								want = c0[i*(m+pad)+j] - s
							}
							if d := math.Abs(got[i*(m+pad)+j] - want); d > 4*float64(k+2)*0x1p-53*(bound+math.Abs(c0[i*(m+pad)+j])) {
								t.Fatalf("(%d, %d) = %.17g, want %.17g", i, j, got[i*(m+pad)+j], want)
							}
						}
						// Entries past column m are not touched.
						for j := m; j < m+pad; j++ {
							if got[i*(m+pad)+j] != c0[i*(m+pad)+j] {
								t.Fatalf("(%d, %d) past the block was written", i, j)
							}
						}
					}
					for _, p := range []int{2, 3, 8} {
						if !slices.Equal(run(p), got) {
							t.Errorf("GOMAXPROCS %d and 1 give different bits", p)
						}
					}
					// Column j alone, from a one-column b: the same bits.
					runtime.GOMAXPROCS(procs)
					for _, j := range []int{0, m / 2, m - 1} {
						bj := make([]float64, k)
						cj := make([]float64, n)
						for l := range k {
							bj[l] = b[l*(m+pad)+j]
						}
						for i := range n {
							cj[i] = c0[i*(m+pad)+j]
						}
						tileAtB(ks.tile, cj, 1, a, n+pad, false, bj, 1, k, n, 1, sub)
						for i := range n {
							if math.Float64bits(cj[i]) != math.Float64bits(got[i*(m+pad)+j]) {
								t.Fatalf("column %d alone: (%d) = %.17g, among all %.17g", j, i, cj[i], got[i*(m+pad)+j])
							}
						}
					}
				})
			}
		}
	}
}

// BenchmarkQ1OnTile_M4096_L112 times Q₁ alone (the first stage's
// reflectors, compact WY blocks of 32) applied to the λ search's 112
// padded columns at m = 4096, on Mul's 4×8 kernel and on the fused AddAtA
// kernel (tileAtB) alternately: s-mul, s-tile and their CPU seconds
// (steadier on a shared machine), and the ratios tile/mul.
func BenchmarkQ1OnTile_M4096_L112(b *testing.B) {
	const m, lp = 4096, 112
	r := rand.New(rand.NewPCG(1, 2))
	phi := randFloats(r, (m+100)*m)
	a := make([]float64, m*m)
	AddAtA(a, phi, m+100, m)
	red, _ := Reduce(a, m, randFloats(r, m*10), 10, nil)
	xp := randFloats(r, m*lp)
	onTile := applyOnTile
	defer func() { applyOnTile = onTile }()
	var wall, cpu [2]float64
	for b.Loop() {
		for v, t := range []bool{false, true} {
			applyOnTile = t
			t0, u0 := time.Now(), cpuSeconds()
			applyReflectors(red.a, red.m, red.off, red.tau, xp, lp, false, red.ts, 0)
			wall[v] += time.Since(t0).Seconds()
			cpu[v] += cpuSeconds() - u0
		}
	}
	b.ReportMetric(wall[0]/float64(b.N), "s-mul")
	b.ReportMetric(wall[1]/float64(b.N), "s-tile")
	b.ReportMetric(cpu[0]/float64(b.N), "cpu-mul")
	b.ReportMetric(cpu[1]/float64(b.N), "cpu-tile")
	b.ReportMetric(wall[1]/wall[0], "s-tile/s-mul")
	if cpu[0] > 0 {
		b.ReportMetric(cpu[1]/cpu[0], "cpu-tile/cpu-mul")
	}
}

// BenchmarkWideBlocks_M4096_L112 times Q₁ applied to the λ search's 112
// padded columns at m = 4096 in blocks of 32 reflectors and of 64
// (wideBlocks), each on its own reduction of the same matrix (the blocks'
// T are kept in that layout), alternately, the order swapped every round:
// s-32, s-64, their CPU seconds and the ratios 64/32.
func BenchmarkWideBlocks_M4096_L112(b *testing.B) {
	const m, lp = 4096, 112
	r := rand.New(rand.NewPCG(1, 2))
	phi := randFloats(r, (m+100)*m)
	a := make([]float64, m*m)
	AddAtA(a, phi, m+100, m)
	rhs := randFloats(r, m*10)
	wide := wideBlocks
	defer func() { wideBlocks = wide }()
	var reds [2]*Reduction
	for i, w := range []bool{false, true} {
		wideBlocks = w
		reds[i], _ = Reduce(slices.Clone(a), m, rhs, 10, nil)
	}
	x0 := randFloats(r, m*lp)
	x := make([]float64, len(x0))
	var wall, cpu [2]float64
	for it := 0; b.Loop(); it++ {
		for o := range 2 {
			i := o ^ it&1
			wideBlocks = i == 1
			red := reds[i]
			copy(x, x0)
			t0, u0 := time.Now(), cpuSeconds()
			applyReflectors(red.a, red.m, red.off, red.tau, x, lp, false, red.ts, 0)
			wall[i] += time.Since(t0).Seconds()
			cpu[i] += cpuSeconds() - u0
		}
	}
	N := float64(b.N)
	b.ReportMetric(wall[0]/N, "s-32")
	b.ReportMetric(wall[1]/N, "s-64")
	b.ReportMetric(cpu[0]/N, "cpu-32")
	b.ReportMetric(cpu[1]/N, "cpu-64")
	b.ReportMetric(wall[1]/wall[0], "64/32")
	if cpu[0] > 0 {
		b.ReportMetric(cpu[1]/cpu[0], "cpu-64/32")
	}
}
