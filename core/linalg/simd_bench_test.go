package linalg

import (
	"fmt"
	"testing"
)

// BenchmarkVecLoops times this build's dot, axpy and sub2 (AVX natively,
// SIMD in WebAssembly) against the portable loops they match bit for bit,
// side by side in one run, at the lengths of the one-stage reduction's
// rows (breast_cancer's 427 training rows among them).
func BenchmarkVecLoops(b *testing.B) {
	for _, n := range []int{64, 427, 1024} {
		x, y, v, w := randSlice(n, 1), randSlice(n, 2), randSlice(n, 3), randSlice(n, 4)
		for _, impl := range []string{"portable", "build"} {
			b.Run(fmt.Sprintf("dot/n=%d/%s", n, impl), func(b *testing.B) {
				f := dot
				if impl == "portable" {
					f = dotPortable
				}
				s := 0.0
				for b.Loop() {
					s += f(x, y)
				}
				sink = s
			})
			b.Run(fmt.Sprintf("axpy/n=%d/%s", n, impl), func(b *testing.B) {
				f := axpy
				if impl == "portable" {
					f = axpyPortable
				}
				for b.Loop() {
					f(y, x, 1e-9)
				}
			})
			b.Run(fmt.Sprintf("sub2/n=%d/%s", n, impl), func(b *testing.B) {
				f := sub2
				if impl == "portable" {
					f = sub2Portable
				}
				for b.Loop() {
					f(x, v, w, 1e-9, -1e-9)
				}
			})
		}
	}
}

// BenchmarkQuadCols times Quad's sweeps on one core, this build's
// (quadCols) against the portable loop, at breast_cancer's 427 training
// rows and the default grid's 30 λ, chunk by chunk as Quad cuts them, with the CPU time per operation.
func BenchmarkQuadCols(b *testing.B) {
	const m = 427
	f := factoredT(b, m, gridLambdas())
	x, out := randSlice(m*m, 3), make([]float64, m*len(f.lambdas))
	for _, impl := range []string{"portable", "build"} {
		b.Run(fmt.Sprintf("m=%d/%s", m, impl), func(b *testing.B) {
			q := quadCols
			if impl == "portable" {
				q = quadColsPortable
			}
			t0 := cpuSeconds()
			for b.Loop() {
				for c0 := 0; c0 < m; c0 += quadChunk {
					q(f, out, x, m, c0, min(c0+quadChunk, m))
				}
			}
			b.ReportMetric((cpuSeconds()-t0)*1e9/float64(b.N), "cpu-ns/op")
		})
	}
}
