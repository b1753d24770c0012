package active_test

import (
	"testing"

	"ntkrf/core/active"
	"ntkrf/internal/fixture"
)

var sinkIdx []int

func BenchmarkSelectActive_N4000_M1024_K100(b *testing.B) { benchSelectActive(b, 4000, 1024, 100) }
func BenchmarkSelectActive_N4000_M256_K100(b *testing.B)  { benchSelectActive(b, 4000, 256, 100) }

func benchSelectActive(b *testing.B, n, m, k int) {
	X, _ := fixture.Data(n, 16, 0, 1)
	phi, _ := fixture.NewReLU(16, m, 2).Transform(nil, X)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sel, err := active.SelectActive(phi, k, 0.01)
		if err != nil {
			b.Fatal(err)
		}
		sinkIdx = sel
	}
}
