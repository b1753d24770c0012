package linalg

import (
	"fmt"
	"testing"
)

// TestAddAtA32 compares g0 + AᵀA by every float32 kernel (the portable
// one runs everywhere) with the exact sum in float64. Each block of up to
// 256 rows rounds A to float32 (2⁻²⁴ relative per factor) and sums at most
// 256 products in float32 (γ_256 in units of 2⁻²⁴), so an entry is within
// (min(n, 256) + 3)·2⁻²⁴·(Σ_k |a_ki·a_kj|) plus the float64 roundings of
// adding the blocks and g0, covered by the same slack.
func TestAddAtA32(t *testing.T) {
	t.Parallel()
	ks := append([]kernel32Set{{"portable", tile32Portable}}, kernels32()...)
	for _, k := range ks {
		for _, s := range append(shapes, struct{ n, m int }{600, 130}) {
			t.Run(fmt.Sprintf("%s/n=%d,m=%d", k.name, s.n, s.m), func(t *testing.T) {
				t.Parallel()
				checkAddAtA32(t, func(g, a []float64, n, m int) {
					if n > 0 && m > 0 {
						addAtA32(k.tile, g, a, n, m)
					}
				}, s.n, s.m)
			})
		}
	}
	t.Run("exported", func(t *testing.T) {
		t.Parallel()
		checkAddAtA32(t, AddAtA32, 300, 300)
	})
}

func checkAddAtA32(t *testing.T, add func(g, a []float64, n, m int), n, m int) {
	t.Helper()
	checkAddAtAWithin(t, add, n, m, float64(min(n, kc)+3)*0x1p-24)
}

func TestAddAtA32Panics(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("AddAtA32 with a short g did not panic")
		}
	}()
	AddAtA32(make([]float64, 8), make([]float64, 6), 2, 3)
}
