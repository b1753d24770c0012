package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"
)

// BenchmarkSearchVsGram times, in one run on the same synthetic features
// (n Gaussian rows of m features; NTKRF_BENCH_N and NTKRF_BENCH_M
// override n = 20,000, m = 4096), the Gram step of the standard job
// (AddAtA) and the linear algebra of its held-out λ search: the copy of C,
// Reduce with QᵀR for 10 outputs, and Q applied to the 11 λ × 10 outputs
// of the bracket. It reports both, their ratio (search/gram, the figure
// the targets are stated in) and the search's stages: the band reduction
// (sy2sb), Q₁ᵀR, the bulge chase (sb2st), Q₂X and Q₁X, each in wall (s-)
// and CPU seconds (cpu-); and the same ratio in CPU time
// (cpu-search/gram; 0 where the CPU time is unknown), steadier when other
// work shares the machine.
func BenchmarkSearchVsGram(b *testing.B) {
	n, m := envInt("NTKRF_BENCH_N", 20000), envInt("NTKRF_BENCH_M", 4096)
	const k, lams = 10, 11
	r := rand.New(rand.NewPCG(1, 5))
	phi := randFloats(r, n*m)
	rhs := randFloats(r, m*k)
	x0 := randFloats(r, m*k*lams)
	c := make([]float64, m*m)
	work := make([]float64, m*m)
	x := make([]float64, len(x0))
	var gram, search time.Duration
	var cpuGram, cpuSearch float64
	stages := map[string]time.Duration{}
	cpuStages := map[string]float64{}
	var names []string
	for b.Loop() {
		clear(c)
		t0, u0 := time.Now(), cpuSeconds()
		AddAtA(c, phi, n, m)
		t1, u1 := time.Now(), cpuSeconds()
		last, lastCPU := t1, u1
		lap := func(name string) {
			now, cpu := time.Now(), cpuSeconds()
			if _, ok := stages[name]; !ok {
				names = append(names, name)
			}
			stages[name] += now.Sub(last)
			cpuStages[name] += cpu - lastCPU
			last, lastCPU = now, cpu
		}
		copy(work, c)
		lap("copy")
		copy(x, x0)
		reduceStages(work, m, bandWidth, rhs, k, x, k*lams, lap)
		gram += t1.Sub(t0)
		search += time.Since(t1)
		cpuGram += u1 - u0
		cpuSearch += cpuSeconds() - u1
	}
	N := float64(b.N)
	b.ReportMetric(gram.Seconds()/N, "s-gram")
	b.ReportMetric(search.Seconds()/N, "s-search")
	for _, name := range names {
		b.ReportMetric(stages[name].Seconds()/N, "s-"+name)
		b.ReportMetric(cpuStages[name]/N, "cpu-"+name)
	}
	b.ReportMetric(cpuGram/N, "cpu-gram")
	b.ReportMetric(cpuSearch/N, "cpu-search")
	b.ReportMetric(search.Seconds()/gram.Seconds(), "search/gram")
	if cpuGram > 0 {
		b.ReportMetric(cpuSearch/cpuGram, "cpu-search/gram")
	}
}

// reduceStages is Reduce (two stages through a band of half-width nb, Q kept) followed by ApplyQ on the
// m×l matrix x, stage by stage as twoStageReduce and ApplyQ run them,
// calling lap after each. It returns T and QᵀR; TestReduceStages holds it
// to Reduce's bits.
func reduceStages(a []float64, m, nb int, rhs []float64, k int, x []float64, l int, lap func(string)) (d, e, z []float64) {
	ld := 2 * nb
	z = slices.Clone(rhs[:m*k])
	s := scaleUpper(a, m)
	tau := make([]float64, m)
	band := make([]float64, m*ld)
	ts := make([]float64, tsLen(m, nb))
	given := sy2sb(a, m, nb, tau, band, ld, ts, nil)
	lap("band")
	if !panelTs {
		given = 0
	}
	applyReflectors(a, m, nb, tau, z, k, true, ts, given)
	lap("q1r")
	d, e = make([]float64, m), make([]float64, m)
	log := newChaseLog(a, m, nb)
	sb2st(band, ld, m, nb, d, e, z, k, log, runtime.GOMAXPROCS(0))
	unscale(s, d, e)
	lap("chase")
	applyChaseQ(a, m, nb, log.tau, x, l)
	lap("q2x")
	applyReflectors(a, m, nb, tau, x, l, false, ts, 0)
	lap("q1x")
	return d, e, z
}

// TestReduceStages checks that reduceStages, which the benchmark times,
// is Reduce and ApplyQ bit for bit.
func TestReduceStages(t *testing.T) {
	const m, k, l = 700, 3, 20
	r := rand.New(rand.NewPCG(21, 22))
	phi := randFloats(r, (m+3)*m)
	a := make([]float64, m*m)
	AddAtA(a, phi, m+3, m)
	rhs := randFloats(r, m*k)
	x0 := randFloats(r, m*l)
	red, z := Reduce(slices.Clone(a), m, rhs, k, nil)
	x := slices.Clone(x0)
	red.ApplyQ(x, l)
	x2 := slices.Clone(x0)
	d2, e2, z2 := reduceStages(slices.Clone(a), m, bandWidth, rhs, k, x2, l, func(string) {})
	if !slices.Equal(red.D, d2) || !slices.Equal(red.E, e2) || !slices.Equal(z, z2) || !slices.Equal(x, x2) {
		t.Error("reduceStages differs from Reduce and ApplyQ")
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// BenchmarkBandWidth times the held-out search's linear algebra
// (reduceStages: band, Q₁ᵀR, chase, Q₂X, Q₁X) at m = 4096 (NTKRF_BENCH_M)
// for band half-widths 64 (bandWidth), 48 and 32, alternating in one
// process on the same matrix: s-nbN and cpu-nbN (seconds per search), the
// stages of each (s-nbN-stage), and the ratios to nb = 64. Narrower bands
// make the chase cheaper (6·nb·m² flops) and the first stage's products
// less efficient (nb inner terms against each packed value of S). It
// checks that every width gives the same spectrum and the same solutions
// (relative 1e-10), since bits cannot match across widths.
func BenchmarkBandWidth(b *testing.B) {
	m := envInt("NTKRF_BENCH_M", 4096)
	n := m + 100
	const k, lams = 10, 11
	r := rand.New(rand.NewPCG(3, 4))
	phi := randFloats(r, n*m)
	c := make([]float64, m*m)
	AddAtA(c, phi, n, m)
	rhs := randFloats(r, m*k)
	x0 := randFloats(r, m*k*lams)
	widths := []int{64, 48, 32}
	wall := make([]float64, len(widths))
	cpu := make([]float64, len(widths))
	stages := make([]map[string]float64, len(widths))
	var names []string
	work := make([]float64, m*m)
	var ref []float64 // trace and ‖T‖² at nb = 64
	for i := range stages {
		stages[i] = map[string]float64{}
	}
	for b.Loop() {
		for i, nb := range widths {
			copy(work, c)
			x := slices.Clone(x0)
			t0, u0 := time.Now(), cpuSeconds()
			last := t0
			d, e, _ := reduceStages(work, m, nb, rhs, k, x, k*lams, func(name string) {
				now := time.Now()
				if i == 0 && !slices.Contains(names, name) {
					names = append(names, name)
				}
				stages[i][name] += now.Sub(last).Seconds()
				last = now
			})
			wall[i] += time.Since(t0).Seconds()
			cpu[i] += cpuSeconds() - u0
			// T is C's tridiagonal form whatever the width: the same trace
			// and Frobenius norm (orthogonal similarity keeps both).
			inv := tridiagInvariants(d, e)
			if i == 0 {
				ref = inv
			} else if math.Abs(inv[0]-ref[0]) > 1e-10*math.Abs(ref[0]) || math.Abs(inv[1]-ref[1]) > 1e-10*ref[1] {
				b.Fatalf("nb = %d: trace, ‖T‖² = %v, at nb = 64 %v", nb, inv, ref)
			}
		}
	}
	N := float64(b.N)
	for i, nb := range widths {
		b.ReportMetric(wall[i]/N, fmt.Sprintf("s-nb%d", nb))
		b.ReportMetric(cpu[i]/N, fmt.Sprintf("cpu-nb%d", nb))
		for _, name := range names {
			b.ReportMetric(stages[i][name]/N, fmt.Sprintf("s-nb%d-%s", nb, name))
		}
		if i > 0 {
			b.ReportMetric(wall[i]/wall[0], fmt.Sprintf("nb%d/nb64", nb))
			if cpu[0] > 0 {
				b.ReportMetric(cpu[i]/cpu[0], fmt.Sprintf("cpu-nb%d/nb64", nb))
			}
		}
	}
}

// tridiagInvariants returns the trace and the squared Frobenius norm of
// the symmetric tridiagonal matrix with diagonal d and off-diagonal e.
func tridiagInvariants(d, e []float64) []float64 {
	tr, f := 0.0, 0.0
	for i, v := range d {
		tr += v
		f += v * v
		if i+1 < len(d) {
			f += 2 * e[i] * e[i]
		}
	}
	return []float64{tr, f}
}

// panelTs lets reduceStages hand sy2sb's T blocks to Q₁ᵀR, as
// twoStageReduce does (BenchmarkSearch4 turns it off).
var panelTs = true

// BenchmarkSearch4 times the held-out search's linear algebra
// (reduceStages at m = 4096, NTKRF_BENCH_M, 11 λ × 10 outputs) as before
// search4 and as now, alternately in one process on the same matrix:
// before, Q₂ on the bracket one reflector at a time, Q₁ᵀR building its T,
// sy2sb's panel products on gemm, Q₁ in blocks of 32 reflectors
// (packSymm's element copies cannot be turned off: BenchmarkPackSymm);
// now, all on (with NTKRF_SEARCH4_LEVER=name, that lever alone is
// switched, the others on). It reports each total
// (s-, cpu-), its stages (cpu-old-STAGE, cpu-new-STAGE) and the ratios
// new/old, in wall and CPU time.
func BenchmarkSearch4(b *testing.B) {
	m := envInt("NTKRF_BENCH_M", 4096)
	const k, lams = 10, 11
	r := rand.New(rand.NewPCG(11, 12))
	phi := randFloats(r, (m+100)*m)
	c := make([]float64, m*m)
	AddAtA(c, phi, m+100, m)
	rhs := randFloats(r, m*k)
	x0 := randFloats(r, m*k*lams)
	work := make([]float64, m*m)
	x := make([]float64, len(x0))
	levers := map[string]*bool{"chaseQWY": &chaseQWY, "panelTs": &panelTs, "panelOnTile": &panelOnTile, "wideBlocks": &wideBlocks}
	saved := map[string]bool{}
	for name, p := range levers {
		saved[name] = *p
	}
	defer func() {
		for name, p := range levers {
			*p = saved[name]
		}
	}()
	// NTKRF_SEARCH4_LEVER=name switches that lever alone (the others on).
	only := os.Getenv("NTKRF_SEARCH4_LEVER")
	if only != "" && levers[only] == nil {
		b.Fatalf("NTKRF_SEARCH4_LEVER=%q: not one of chaseQWY, panelTs, panelOnTile, wideBlocks", only)
	}
	var wall, cpu [2]float64
	stages := [2]map[string]float64{{}, {}}
	var names []string
	for it := 0; b.Loop(); it++ {
		// Old first, then new first: neither always follows the other.
		for o := range 2 {
			i := o ^ it&1
			on := i == 1
			for name, p := range levers {
				*p = on || (only != "" && name != only)
			}
			copy(work, c)
			copy(x, x0)
			t0, u0 := time.Now(), cpuSeconds()
			last := u0
			reduceStages(work, m, bandWidth, rhs, k, x, k*lams, func(name string) {
				now := cpuSeconds()
				if i == 0 && !slices.Contains(names, name) {
					names = append(names, name)
				}
				stages[i][name] += now - last
				last = now
			})
			wall[i] += time.Since(t0).Seconds()
			cpu[i] += cpuSeconds() - u0
		}
	}
	N := float64(b.N)
	for i, v := range []string{"old", "new"} {
		b.ReportMetric(wall[i]/N, "s-"+v)
		b.ReportMetric(cpu[i]/N, "cpu-"+v)
		for _, name := range names {
			b.ReportMetric(stages[i][name]/N, "cpu-"+v+"-"+name)
		}
	}
	b.ReportMetric(wall[1]/wall[0], "new/old")
	if cpu[0] > 0 {
		b.ReportMetric(cpu[1]/cpu[0], "cpu-new/old")
	}
}
