package linalg

import (
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
// (sy2sb), Q₁ᵀR, the bulge chase (sb2st), Q₂X and Q₁X; and the same ratio
// in CPU time (cpu-search/gram; 0 where the CPU time is unknown), steadier
// when other work shares the machine.
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
	var names []string
	for b.Loop() {
		clear(c)
		t0, u0 := time.Now(), cpuSeconds()
		AddAtA(c, phi, n, m)
		t1, u1 := time.Now(), cpuSeconds()
		last := t1
		lap := func(name string) {
			now := time.Now()
			if _, ok := stages[name]; !ok {
				names = append(names, name)
			}
			stages[name] += now.Sub(last)
			last = now
		}
		copy(work, c)
		lap("copy")
		copy(x, x0)
		reduceStages(work, m, rhs, k, x, k*lams, lap)
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
	}
	b.ReportMetric(search.Seconds()/gram.Seconds(), "search/gram")
	if cpuGram > 0 {
		b.ReportMetric(cpuSearch/cpuGram, "cpu-search/gram")
	}
}

// reduceStages is Reduce (two stages, Q kept) followed by ApplyQ on the
// m×l matrix x, stage by stage as twoStageReduce and ApplyQ run them,
// calling lap after each. It returns T and QᵀR; TestReduceStages holds it
// to Reduce's bits.
func reduceStages(a []float64, m int, rhs []float64, k int, x []float64, l int, lap func(string)) (d, e, z []float64) {
	const nb = bandWidth
	ld := 2 * nb
	z = slices.Clone(rhs[:m*k])
	s := scaleUpper(a, m)
	tau := make([]float64, m)
	band := make([]float64, m*ld)
	sy2sb(a, m, nb, tau, band, ld, nil)
	lap("band")
	ts := make([]float64, tsLen(m, nb))
	applyReflectors(a, m, nb, tau, z, k, true, ts)
	lap("q1r")
	d, e = make([]float64, m), make([]float64, m)
	log := newChaseLog(a, m, nb)
	sb2st(band, ld, m, nb, d, e, z, k, log, runtime.GOMAXPROCS(0))
	unscale(s, d, e)
	lap("chase")
	applyChaseQ(a, m, nb, log.tau, x, l)
	lap("q2x")
	applyReflectors(a, m, nb, tau, x, l, false, ts)
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
	d2, e2, z2 := reduceStages(slices.Clone(a), m, rhs, k, x2, l, func(string) {})
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
