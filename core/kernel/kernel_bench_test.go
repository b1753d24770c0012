package kernel

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

var sink *mat.Dense

func benchNTK(b *testing.B, n, d, depth int) {
	X := randDense(rand.New(rand.NewPCG(1, 2)), n, d)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		K, err := NTK(X, depth)
		if err != nil {
			b.Fatal(err)
		}
		sink = K
	}
	b.ReportMetric(float64(n)*float64(n)/2/b.Elapsed().Seconds()*float64(b.N)/1e6, "Mentries/s")
}

func BenchmarkNTK_N2000_D64_L2(b *testing.B)  { benchNTK(b, 2000, 64, 2) }
func BenchmarkNTK_N2000_D784_L2(b *testing.B) { benchNTK(b, 2000, 784, 2) }
func BenchmarkNTK_N10000_D64_L2(b *testing.B) { benchNTK(b, 10000, 64, 2) }
func BenchmarkNTK_N2000_D64_L5(b *testing.B)  { benchNTK(b, 2000, 64, 5) }
