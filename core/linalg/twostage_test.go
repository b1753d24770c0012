package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"testing"
	"time"

	"ntkrf/internal/fixture"
)

// TestTwoStage checks the two-stage reduction (band, then bulge chasing)
// against the one-stage one: the same eigenvalues to 1e-12 of the largest,
// the same ‖(VᵀR)ⱼ‖ for well separated eigenvalues (rows of VᵀR are defined
// up to sign), and BᵀB = RᵀR. Band widths from 1 to wider than m cover
// partial panels and bulges that run off the end.
func TestTwoStage(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const l = 3
	for _, c := range []struct{ m, nb int }{{2, 1}, {3, 1}, {5, 2}, {40, 1}, {40, 3}, {50, 4}, {130, 7}, {130, 64}, {131, 16}, {70, 100}, {600, 64}} {
		for _, kind := range []string{"indefinite", "gram"} {
			m := c.m
			a := make([]float64, m*m)
			switch kind {
			case "indefinite":
				for i := range m {
					for j := i; j < m; j++ {
						a[i*m+j] = r.NormFloat64()
					}
				}
			case "gram":
				// Features with a decaying spectrum, as random features give.
				n := m + 5
				phi := make([]float64, n*m)
				for i := range phi {
					phi[i] = r.NormFloat64() / (1 + float64(i%m))
				}
				AddAtA(a, phi, n, m)
			}
			rhs := make([]float64, m*l)
			for i := range rhs {
				rhs[i] = r.NormFloat64()
			}
			ref := slices.Clone(a)
			d1 := make([]float64, m)
			e1 := make([]float64, m)
			tau := make([]float64, max(m-1, 1))
			w1 := slices.Clone(rhs)
			tridiag(ref, m, d1, e1, tau, nil)
			applyQt(ref, m, tau, w1, l)
			if err := tql(d1, e1, w1, l); err != nil {
				t.Fatal(err)
			}
			sortEig(d1, w1, l)
			w2 := slices.Clone(rhs)
			d2, e2, _, _, _ := twoStageReduce(slices.Clone(a), m, c.nb, w2, l, false, nil)
			if err := tql(d2, e2, w2, l); err != nil {
				t.Fatal(err)
			}
			sortEig(d2, w2, l)
			scale := math.Max(math.Abs(d1[0]), math.Abs(d1[m-1]))
			for i := range m {
				if math.Abs(d1[i]-d2[i]) > 1e-12*scale {
					t.Errorf("m=%d nb=%d %s: eigenvalue %d: %.17g one-stage, %.17g two-stage", m, c.nb, kind, i, d1[i], d2[i])
					break
				}
			}
			norm := func(w []float64, i int) float64 {
				s := 0.0
				for _, v := range w[i*l : (i+1)*l] {
					s += v * v
				}
				return math.Sqrt(s)
			}
			rn := 0.0
			for _, v := range rhs {
				rn += v * v
			}
			rn = math.Sqrt(rn)
			for i := range m {
				gap := math.Inf(1)
				if i > 0 {
					gap = d1[i] - d1[i-1]
				}
				if i+1 < m {
					gap = math.Min(gap, d1[i+1]-d1[i])
				}
				if gap < 1e-3*scale {
					continue
				}
				if math.Abs(norm(w1, i)-norm(w2, i)) > 1e-9*rn {
					t.Errorf("m=%d nb=%d %s: ‖(VᵀR)_%d‖ %g one-stage, %g two-stage", m, c.nb, kind, i, norm(w1, i), norm(w2, i))
					break
				}
			}
			for p := range l {
				for q := range l {
					s1, s2 := 0.0, 0.0
					for i := range m {
						s1 += rhs[i*l+p] * rhs[i*l+q]
						s2 += w2[i*l+p] * w2[i*l+q]
					}
					if math.Abs(s1-s2) > 1e-12*rn*rn {
						t.Errorf("m=%d nb=%d %s: (BᵀB)_%d%d = %g, (RᵀR) = %g", m, c.nb, kind, p, q, s2, s1)
					}
				}
			}
			md := 0.0
			for i := range m {
				md = math.Max(md, math.Abs(d1[i]-d2[i]))
			}
			t.Logf("m=%d nb=%d %s: max eigenvalue difference %.3g of %.3g", m, c.nb, kind, md, scale)
			if !sort.Float64sAreSorted(d2) {
				t.Errorf("unsorted")
			}
		}
	}
}

// TestBulgeChasingWorkers runs sb2st's pipeline of sweeps on 1 to 4
// goroutines: the tridiagonal form and the reflected rows are the same to
// the bit (every row sees the same reflectors in the same order).
func TestBulgeChasingWorkers(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	const l = 3
	for _, c := range []struct{ m, nb int }{{3, 1}, {40, 3}, {131, 16}, {300, 64}, {700, 32}} {
		m, nb := c.m, c.nb
		ld := 2 * nb
		band := make([]float64, m*ld)
		for i := range m {
			for t := 0; t <= nb && i+t < m; t++ {
				band[i*ld+t] = r.NormFloat64()
			}
		}
		rhs := make([]float64, m*l)
		for i := range rhs {
			rhs[i] = r.NormFloat64()
		}
		var ref [3][]float64
		for workers := 1; workers <= 4; workers++ {
			b, w := slices.Clone(band), slices.Clone(rhs)
			d, e := make([]float64, m), make([]float64, m)
			sb2st(b, ld, m, nb, d, e, w, l, nil, workers)
			if workers == 1 {
				ref = [3][]float64{d, e, w}
				continue
			}
			for k, got := range [3][]float64{d, e, w} {
				fixture.SameBits(t, fmt.Sprintf("m=%d nb=%d, %d workers against one: output %d", m, nb, workers, k), got, ref[k])
			}
		}
	}
}

// packSymmColumns is packSymm as first written: the entries below the
// diagonal a column at a time, each written to its own cache line of bp.
// It is the reference for TestPackSymmPanelRows and the baseline of
// BenchmarkPackSymm.
func packSymmColumns(bp []float64, bs int, s []float64, lds, l0, k, c0, c1 int) {
	nq := len(bp) / bs
	if c1-c0 < nq*panelW {
		clear(bp[(c1-c0)/panelW*bs:])
	}
	for l := range k {
		r := l0 + l
		for c := max(c0, r); c < c1; c++ {
			cc := c - c0
			bp[cc/panelW*bs+l*panelW+cc%panelW] = s[r*lds+c]
		}
	}
	for c := c0; c < c1 && c+1 < l0+k; c++ {
		cc := c - c0
		d := bp[cc/panelW*bs+cc%panelW:]
		r0 := max(l0, c+1)
		for r, x := range s[c*lds+r0 : c*lds+l0+k] {
			d[(r0-l0+r)*panelW] = x
		}
	}
}

// packSymmArrayCopy is packSymm before search4: the entries on and above
// the diagonal copied a panel row at a time as an 8-value array, which
// calls memmove. It is the baseline of BenchmarkPackSymm's new/prev.
func packSymmArrayCopy(bp []float64, bs int, s []float64, lds, l0, k, c0, c1 int) {
	w := c1 - c0
	nq := len(bp) / bs
	if w < nq*panelW {
		clear(bp[w/panelW*bs:])
	}
	for l := range k {
		r := l0 + l
		if r >= c1 {
			break
		}
		row := s[r*lds : r*lds+c1]
		c := max(c0, r)
		for ; c < c1 && (c-c0)%panelW != 0; c++ {
			cc := c - c0
			bp[cc/panelW*bs+l*panelW+cc%panelW] = row[c]
		}
		for ; c+panelW <= c1; c += panelW {
			o := (c-c0)/panelW*bs + l*panelW
			*(*[panelW]float64)(bp[o : o+panelW]) = *(*[panelW]float64)(row[c : c+panelW])
		}
		for ; c < c1; c++ {
			cc := c - c0
			bp[cc/panelW*bs+l*panelW+cc%panelW] = row[c]
		}
	}
	// Below the diagonal: packSymm's (unchanged).
	packSymmBelow(bp, bs, s, lds, l0, k, c0, c1)
}

// TestPackSymmPanelRows checks that packSymm, which writes the entries
// below the diagonal a panel row at a time, packs every block the column
// by column packing did: blocks above, across and below the diagonal,
// strips of whole and partial panels, odd strides.
func TestPackSymmPanelRows(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(31, 32))
	const n, lds = 300, 307
	s := randFloats(r, n*lds)
	for _, c := range []struct{ l0, k, c0, c1 int }{
		{0, 256, 0, 192}, {0, 256, 192, 300}, {256, 44, 0, 192}, {256, 44, 192, 300},
		{100, 50, 96, 130}, {0, 7, 0, 13}, {5, 7, 0, 13}, {8, 5, 1, 11}, {3, 1, 0, 24}, {290, 10, 283, 300},
	} {
		nq := (c.c1 - c.c0 + tileC - 1) / tileC * 3
		bs := c.k * panelW
		want := slices.Repeat([]float64{math.NaN()}, nq*bs)
		got := slices.Clone(want)
		packSymmColumns(want, bs, s, lds, c.l0, c.k, c.c0, c.c1)
		packSymm(got, bs, s, lds, c.l0, c.k, c.c0, c.c1)
		fixture.SameBits(t, fmt.Sprintf("rows %d+%d, columns %d…%d", c.l0, c.k, c.c0, c.c1), got, want)
	}
}

// BenchmarkPackSymm packs the trailing matrix of the first panel at
// m = 4096 (n = 4032, symmLeft's strips and blocks) with packSymm, with
// the column by column packing it first replaced (old) and with its
// previous version (prev: the upper part copied as 8-value arrays),
// alternately, and reports each and new/old, new/prev, in wall and in CPU
// time.
func BenchmarkPackSymm(b *testing.B) {
	const n, lds = 4032, 4096
	s := randFloats(rand.New(rand.NewPCG(1, 2)), n*lds)
	w := symmStripWidth(n, 2)
	nq := (w + tileC - 1) / tileC * 3
	bp := make([]float64, nq*symmKC*panelW)
	pass := func(pack func([]float64, int, []float64, int, int, int, int, int)) (time.Duration, float64) {
		t0, u0 := time.Now(), cpuSeconds()
		for c0 := 0; c0 < n; c0 += w {
			for l0 := 0; l0 < n; l0 += symmKC {
				k := min(symmKC, n-l0)
				pack(bp[:nq*k*panelW], k*panelW, s, lds, l0, k, c0, min(c0+w, n))
			}
		}
		return time.Since(t0), cpuSeconds() - u0
	}
	packs := []func([]float64, int, []float64, int, int, int, int, int){packSymmColumns, packSymmArrayCopy, packSymm}
	var wall [3]time.Duration
	var cpu [3]float64
	for b.Loop() {
		for i, p := range packs {
			t, c := pass(p)
			wall[i] += t
			cpu[i] += c
		}
	}
	N := float64(b.N)
	b.ReportMetric(wall[2].Seconds()/N, "s-new")
	b.ReportMetric(wall[1].Seconds()/N, "s-prev")
	b.ReportMetric(wall[0].Seconds()/N, "s-old")
	b.ReportMetric(wall[2].Seconds()/wall[0].Seconds(), "new/old")
	b.ReportMetric(wall[2].Seconds()/wall[1].Seconds(), "new/prev")
	if cpu[0] > 0 && cpu[1] > 0 {
		b.ReportMetric(cpu[2]/cpu[0], "cpu-new/old")
		b.ReportMetric(cpu[2]/cpu[1], "cpu-new/prev")
	}
}

// BenchmarkChaseNarrow_M4096 times the bulge chase (sb2st, GOMAXPROCS
// workers, 10 columns of QᵀR, the reflectors logged as Reduce logs them)
// on the band of a random symmetric matrix at m = 4096 (NTKRF_BENCH_M),
// with reflectRows' kernels (the 64-wide blocks' reflectLeft64, QᵀR's
// narrow rows) and without them (the two axpyFast calls per row they
// replaced) alternately: s-axpy, s-narrow and the ratios in wall and CPU
// time. Where the kernels keep axpyFast's bits (TestReflectNarrow, and in
// WebAssembly TestReflectLeft64) both give the same bits.
func BenchmarkChaseNarrow_M4096(b *testing.B) {
	m, nb, l := envInt("NTKRF_BENCH_M", 4096), bandWidth, 10
	r := rand.New(rand.NewPCG(3, 9))
	a := make([]float64, m*m)
	for i := range m {
		for j := i; j < m; j++ {
			a[i*m+j] = r.NormFloat64()
		}
	}
	ld := 2 * nb
	band0 := make([]float64, m*ld)
	sy2sb(a, m, nb, make([]float64, m), band0, ld, nil, nil)
	rhs := randFloats(r, m*l)
	band, w := make([]float64, len(band0)), make([]float64, len(rhs))
	d, e := make([]float64, m), make([]float64, m)
	defer func() { narrowReflect = true }()
	var wall, cpu [2]float64
	for b.Loop() {
		for k, on := range []bool{false, true} {
			narrowReflect = on
			copy(band, band0)
			copy(w, rhs)
			t0, u0 := time.Now(), cpuSeconds()
			sb2st(band, ld, m, nb, d, e, w, l, newChaseLog(a, m, nb), runtime.GOMAXPROCS(0))
			wall[k] += time.Since(t0).Seconds()
			cpu[k] += cpuSeconds() - u0
		}
	}
	n := float64(b.N)
	b.ReportMetric(wall[0]/n, "s-axpy")
	b.ReportMetric(wall[1]/n, "s-narrow")
	b.ReportMetric(wall[1]/wall[0], "s-narrow/s-axpy")
	if cpu[0] > 0 {
		b.ReportMetric(cpu[1]/cpu[0], "cpu-narrow/cpu-axpy")
	}
}

// TestPanelTs checks, with blocks of 32 reflectors (two per panel of
// 64) and of 64 (wideBlocks), that the T blocks sy2sb hands to
// applyReflectors (the diagonal blocks of each panel's T) are the T applyReflectors
// builds from the reflectors itself (to rounding: VᵀV comes from gemm
// there and from dot products here), that it hands over every block its
// panels cover, and that QᵀR with them agrees with QᵀR without. A block
// shifted or transposed, or a panel's τ past its reflectors, is off by
// O(1).
func TestPanelTs(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	wide := wideBlocks
	defer func() { wideBlocks = wide }()
	for _, c := range []struct {
		m, nb int
		wide  bool
	}{{130, 32, false}, {300, 64, false}, {333, 64, false}, {600, 64, false}, {200, 48, false}, {130, 32, true}, {333, 64, true}, {600, 64, true}} {
		wideBlocks = c.wide
		t.Run(fmt.Sprintf("m%d_nb%d_wide%v", c.m, c.nb, c.wide), func(t *testing.T) {
			m, nb := c.m, c.nb
			phi := randFloats(r, (m+3)*m)
			a := make([]float64, m*m)
			AddAtA(a, phi, m+3, m)
			tau := make([]float64, m)
			band := make([]float64, m*2*nb)
			ts := make([]float64, tsLen(m, nb))
			given := sy2sb(a, m, nb, tau, band, 2*nb, ts, nil)
			rb := reflectBlockFor(nb)
			blocks := (m - nb + rb - 1) / rb
			want := 0
			if nb%rb == 0 {
				want = min(blocks, ((m-nb-2)/nb+1)*nb/rb)
			}
			if given != want {
				t.Fatalf("sy2sb filled %d blocks of T, want %d", given, want)
			}
			const l = 3
			rhs := randFloats(r, m*l)
			w, w2 := slices.Clone(rhs), slices.Clone(rhs)
			got := slices.Clone(ts)
			applyReflectors(a, m, nb, tau, w, l, true, got, given)
			ts2 := make([]float64, len(ts))
			applyReflectors(a, m, nb, tau, w2, l, true, ts2, 0)
			// Block k's T is b×b, b the block's reflectors (the rest of
			// the block is scratch).
			for k := range blocks {
				b := min(rb, m-nb-k*rb)
				for i := range b {
					for j := range b {
						g, w := got[k*rb*rb+i*rb+j], ts2[k*rb*rb+i*rb+j]
						if d := math.Abs(g - w); d > 1e-12*(1+math.Abs(w)) {
							t.Fatalf("T block %d (%d, %d) = %.17g, built from the reflectors %.17g", k, i, j, g, w)
						}
					}
				}
			}
			norm := 0.0
			for _, v := range rhs {
				norm = math.Hypot(norm, v)
			}
			for i := range w {
				if d := math.Abs(w[i] - w2[i]); d > 1e-12*norm {
					t.Fatalf("QᵀR[%d] = %.17g with sy2sb's T, %.17g without", i, w[i], w2[i])
				}
			}
		})
	}
}

// BenchmarkQ1tRPanelTs_M4096 times Q₁ᵀR for the 10 columns of the λ
// search at m = 4096 (NTKRF_BENCH_M) with the T blocks sy2sb hands over
// and with every T built from the reflectors (as before), alternately on
// the same reduction: s-given, s-built, their CPU seconds and the ratios
// given/built.
func BenchmarkQ1tRPanelTs_M4096(b *testing.B) {
	m, nb, l := envInt("NTKRF_BENCH_M", 4096), bandWidth, 10
	r := rand.New(rand.NewPCG(7, 8))
	phi := randFloats(r, (m+10)*m)
	a := make([]float64, m*m)
	AddAtA(a, phi, m+10, m)
	tau := make([]float64, m)
	ts := make([]float64, tsLen(m, nb))
	given := sy2sb(a, m, nb, tau, make([]float64, m*2*nb), 2*nb, ts, nil)
	rhs := randFloats(r, m*l)
	w := make([]float64, m*l)
	scratch := make([]float64, len(ts))
	var wall, cpu [2]float64
	for it := 0; b.Loop(); it++ {
		for o := range 2 { // the order swapped every round
			i := o ^ it&1
			g := []int{given, 0}[i]
			copy(w, rhs)
			copy(scratch, ts)
			t0, u0 := time.Now(), cpuSeconds()
			applyReflectors(a, m, nb, tau, w, l, true, scratch, g)
			wall[i] += time.Since(t0).Seconds()
			cpu[i] += cpuSeconds() - u0
		}
	}
	N := float64(b.N)
	b.ReportMetric(wall[0]/N, "s-given")
	b.ReportMetric(wall[1]/N, "s-built")
	b.ReportMetric(cpu[0]/N, "cpu-given")
	b.ReportMetric(cpu[1]/N, "cpu-built")
	b.ReportMetric(wall[0]/wall[1], "given/built")
	if cpu[1] > 0 {
		b.ReportMetric(cpu[0]/cpu[1], "cpu-given/built")
	}
}

// BenchmarkPanelOnTile_M4096 times the band reduction (sy2sb) at m = 4096
// (NTKRF_BENCH_M) with its four nb-wide products per panel on gemm and on
// tileAtB (panelOnTile), alternately on copies of the same matrix:
// s-gemm, s-tile, their CPU seconds and the ratios tile/gemm.
func BenchmarkPanelOnTile_M4096(b *testing.B) {
	m, nb := envInt("NTKRF_BENCH_M", 4096), bandWidth
	r := rand.New(rand.NewPCG(9, 10))
	phi := randFloats(r, (m+10)*m)
	a0 := make([]float64, m*m)
	AddAtA(a0, phi, m+10, m)
	a := make([]float64, m*m)
	band := make([]float64, m*2*nb)
	on := panelOnTile
	defer func() { panelOnTile = on }()
	var wall, cpu [2]float64
	for it := 0; b.Loop(); it++ {
		for o := range 2 { // the order swapped every round
			i := o ^ it&1
			panelOnTile = i == 1
			copy(a, a0)
			t0, u0 := time.Now(), cpuSeconds()
			sy2sb(a, m, nb, make([]float64, m), band, 2*nb, nil, nil)
			wall[i] += time.Since(t0).Seconds()
			cpu[i] += cpuSeconds() - u0
		}
	}
	N := float64(b.N)
	b.ReportMetric(wall[0]/N, "s-gemm")
	b.ReportMetric(wall[1]/N, "s-tile")
	b.ReportMetric(cpu[0]/N, "cpu-gemm")
	b.ReportMetric(cpu[1]/N, "cpu-tile")
	b.ReportMetric(wall[1]/wall[0], "tile/gemm")
	if cpu[0] > 0 {
		b.ReportMetric(cpu[1]/cpu[0], "cpu-tile/gemm")
	}
}
