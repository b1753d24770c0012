package linalg

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"
)

// BenchmarkSearchVsGram times, in one run on the same synthetic features
// (n Gaussian rows of m features; NTKRF_BENCH_N, NTKRF_BENCH_M override
// n = 20,000, m = 4096), the Gram step of the standard job (AddAtA, the
// kernel the job uses) and the linear algebra of its λ search: the
// centered copy of C, Reduce with QᵀR for 10 outputs, and Q applied to
// the 11 λ × 10 outputs of the held-out bracket. It reports both times
// and their ratio (search/gram), the figure the targets are
// stated in.
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
	var gram, search, reduce, applyQ time.Duration
	b.ResetTimer()
	for b.Loop() {
		clear(c)
		t0 := time.Now()
		AddAtA(c, phi, n, m)
		t1 := time.Now()
		copy(work, c)
		red, _ := Reduce(work, m, rhs, k, nil)
		t2 := time.Now()
		copy(x, x0)
		red.ApplyQ(x, k*lams)
		t3 := time.Now()
		gram += t1.Sub(t0)
		search += t3.Sub(t1)
		reduce += t2.Sub(t1)
		applyQ += t3.Sub(t2)
	}
	N := float64(b.N)
	b.ReportMetric(gram.Seconds()/N, "s-gram")
	b.ReportMetric(search.Seconds()/N, "s-search")
	b.ReportMetric(reduce.Seconds()/N, "s-reduce")
	b.ReportMetric(applyQ.Seconds()/N, "s-applyQ")
	b.ReportMetric(search.Seconds()/gram.Seconds(), "search/gram")
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
