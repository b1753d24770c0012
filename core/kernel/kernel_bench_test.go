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

// benchCross times the map of a cross kernel where the inner products are
// cheap (d = 3: the playground's 64×64 grid, two coordinates and a bias,
// against 200 points), so that the per-entry recursion is what is timed.
func benchCross(b *testing.B, k Spec) {
	r := rand.New(rand.NewPCG(1, 2))
	X, Z := randDense(r, 4096, 3), randDense(r, 200, 3)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		K, err := k.Gram(X, Z)
		if err != nil {
			b.Fatal(err)
		}
		sink = K
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N)/(4096*200), "ns/entry")
}

func BenchmarkCross_Grid_NTK_L1(b *testing.B) { benchCross(b, Spec{Name: NameNTK, Depth: 1}) }
func BenchmarkCross_Grid_NTK_L2(b *testing.B) { benchCross(b, Spec{Name: NameNTK, Depth: 2}) }
func BenchmarkCross_Grid_RBF(b *testing.B)    { benchCross(b, Spec{Name: NameRBF, Gamma: 10}) }
