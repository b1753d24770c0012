//go:build amd64 && !noasm

package linalg

import (
	"fmt"
	"testing"
)

// BenchmarkReduceQPlainAVX times the one-stage reduction and Q formed
// (ReduceQ) on one core at breast_cancer's and Vehicle's training rows,
// with the AVX vector loops (plain_amd64.s) and without: same bits, side
// by side in one run (-cpu 1 for one core).
func BenchmarkReduceQPlainAVX(b *testing.B) {
	for _, m := range []int{427, 634} {
		a0 := randSlice(m*m, 5) // ReduceQ reads the upper triangle
		a := make([]float64, m*m)
		for _, avx := range []bool{false, true} {
			b.Run(fmt.Sprintf("m=%d/avx=%v", m, avx), func(b *testing.B) {
				if avx && !plainAVX {
					b.Skip("no AVX")
				}
				defer func(old bool) { plainAVX = old }(plainAVX)
				plainAVX = avx
				for b.Loop() {
					copy(a, a0)
					ReduceQ(a, m, nil)
				}
			})
		}
	}
}
