//go:build amd64 && !noasm

package linalg

import (
	"fmt"
	"testing"
)

// BenchmarkReduceQPlainAVX times the one-stage reduction and Q formed
// (ReduceQ) at breast_cancer's and Vehicle's training rows: the portable
// vector loops, row-by-row symmetric product and scalar column tails of
// products (old), the AVX loops and masked product tails of
// plain_amd64.s (avx), and those with the symmetric product's rows in one
// assembly call (avx+symv). Same bits, side by side in one run (-cpu 1
// for one core), with the CPU time per
// operation: steadier than wall time on a shared machine.
func BenchmarkReduceQPlainAVX(b *testing.B) {
	for _, m := range []int{427, 634} {
		a0 := randSlice(m*m, 5) // ReduceQ reads the upper triangle
		a := make([]float64, m*m)
		for _, impl := range []string{"old", "avx", "avx+symv"} {
			b.Run(fmt.Sprintf("m=%d/%s", m, impl), func(b *testing.B) {
				if impl != "old" && !plainAVX {
					b.Skip("no AVX")
				}
				defer func(avx bool, sv func([]float64, []float64, int, int, int, int, []float64)) {
					plainAVX, symvRowsNative = avx, sv
				}(plainAVX, symvRowsNative)
				plainAVX = impl != "old"
				if impl != "avx+symv" {
					symvRowsNative = nil
				}
				c0 := cpuSeconds()
				for b.Loop() {
					copy(a, a0)
					ReduceQ(a, m, nil)
				}
				b.ReportMetric((cpuSeconds()-c0)*1e9/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
