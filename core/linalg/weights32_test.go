package linalg

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// BenchmarkWeights32Strips times, alternating seven times in one process,
// the feature projection of 256 rows from 784 inner indices onto m = 1776
// (the split form at L = 1) and m = 4096 columns with Mul32's kernels on
// row-major weights and with Weights32.Mul (this build's packed layout),
// one goroutine each, and reports the median ratio per m. CPU time where
// the platform has it, else wall time (WebAssembly, one thread: run it
// with GOEXPERIMENT=simd GOOS=js GOARCH=wasm for the strips of 8).
func BenchmarkWeights32Strips(b *testing.B) {
	const n, k = 256, 784
	for _, m := range []int{1776, 4096} {
		b.Run(fmt.Sprintf("m=%d", m), func(b *testing.B) {
			a, w := make([]float32, n*k), make([]float32, k*m)
			for i, v := range randSlice(n*k, 1) {
				a[i] = float32(v)
			}
			for i, v := range randSlice(k*m, 2) {
				w[i] = float32(v)
			}
			p := NewWeights32(w, k, m)
			c := make([]float32, n*m)
			var t [2][]float64
			timed := func(i int, f func()) {
				s, c0 := time.Now(), cpuSeconds()
				f()
				d := cpuSeconds() - c0
				if d <= 0 {
					d = time.Since(s).Seconds()
				}
				t[i] = append(t[i], d)
			}
			for b.Loop() {
				for range 7 {
					timed(0, func() { mul32Rows(c, a, w, 0, n, k, m) })
					timed(1, func() { p.Mul(c, a, n, 1) })
				}
			}
			med := func(x []float64) float64 { s := slices.Clone(x); slices.Sort(s); return s[len(s)/2] }
			b.ReportMetric(1e3*med(t[0]), "ms-Mul32")
			b.ReportMetric(1e3*med(t[1]), "ms-Weights32")
			b.ReportMetric(med(t[0])/med(t[1]), "x-Weights32")
			b.Logf("n=%d k=%d m=%d packed=%v: Mul32 %.1f ms, Weights32 %.1f ms, %.2f×", n, k, m, p.packed, 1e3*med(t[0]), 1e3*med(t[1]), med(t[0])/med(t[1]))
		})
	}
}
