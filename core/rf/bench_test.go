package rf

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

var (
	sinkDense *mat.Dense
	sinkVec   []float64
)

// benchTransform measures Transform of n unit-norm Gaussian rows in d
// dimensions (the map is drawn outside the timer).
func benchTransform(b *testing.B, cfg Config, n, d int) {
	f, err := New(cfg, d)
	if err != nil {
		b.Fatal(err)
	}
	X := mat.NewDense(n, d, gaussianRows(&gauss{r: newStream(1, 0, 0)}, n, d))
	for i := range n {
		normalize(X.RawRowView(i))
	}
	dst := mat.NewDense(n, f.Dim(), nil)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if sinkDense, err = f.Transform(dst, X); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTransform_NTK_L1_N2000_D784_M4096(b *testing.B) {
	benchTransform(b, Config{Depth: 1, Dim: 4096}, 2000, 784)
}

func BenchmarkTransform_NTK_L2_N2000_D784_M4096(b *testing.B) {
	benchTransform(b, Config{Depth: 2, Dim: 4096}, 2000, 784)
}

func BenchmarkTransform_NTKSRHT_L2_N2000_D784_M4096(b *testing.B) {
	benchTransform(b, Config{Depth: 2, Dim: 4096, Sketch: "tensorsrht"}, 2000, 784)
}

func BenchmarkNew_NTK_L2_D784_M4096(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(Config{Depth: 2, Dim: 4096}, 784); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNew_Gibbs_L1_D784_M4096(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(Config{Depth: 1, Dim: 4096, Sampler: "gibbs"}, 784); err != nil {
			b.Fatal(err)
		}
	}
}

func benchTensorSketch(b *testing.B, in1, in2, out int) {
	s, err := NewTensorSketch(in1, in2, out, 1)
	if err != nil {
		b.Fatal(err)
	}
	u, v, dst := randVec(1, in1), randVec(2, in2), make([]float64, out)
	buf := new(scratch)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.apply(dst, u, v, buf)
	}
	sinkVec = dst
}

func BenchmarkTensorSketch_2048(b *testing.B) { benchTensorSketch(b, 2048, 4096, 2048) }
func BenchmarkTensorSketch_2000(b *testing.B) { benchTensorSketch(b, 2048, 4096, 2000) }

func benchFWHT(b *testing.B, n int) {
	x := randVec(1, n)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		fwht(x)
	}
	sinkVec = x
}

func BenchmarkFWHT_4096(b *testing.B) { benchFWHT(b, 4096) }

// BenchmarkNew_Sampler draws maps at d = 784, m = 4096 (Fashion-MNIST's
// shape) with the structured samplers, whose drawing cost grows with the
// depth: the split form's deeper layers project d + |A_1| + … inputs, the
// paper's form m/2.
func BenchmarkNew_Sampler(b *testing.B) {
	cases := []struct {
		sampler Sampler
		sketch  Sketch
		depth   int
	}{
		{"exact", "split", 2},
		{"orthogonal", "split", 1},
		{"orthogonal", "split", 2},
		{"orthogonal", "split", 3},
		{"orthogonal", "tensorsketch", 2},
		{"hadamard", "split", 1},
		{"hadamard", "split", 2},
		{"hadamard", "split", 3},
	}
	for _, c := range cases {
		b.Run(fmt.Sprintf("%s/%s/L%d", c.sampler, c.sketch, c.depth), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := New(Config{Depth: c.depth, Dim: 4096, Sampler: c.sampler, Sketch: c.sketch}, 784); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPrecision times Transform in float64 and float32 side by side
// on Fashion-MNIST's shape (d = 784), alternating the two five times, and
// reports the medians and their ratio (timings on a shared machine are
// only comparable within one run). The projection's own share is timed
// too: linalg.Mul or Mul32 on the first layer's shape.
func BenchmarkPrecision(b *testing.B) {
	for _, c := range []struct{ depth, dim, rows int }{{1, 2048, 512}, {2, 4096, 256}} {
		b.Run(fmt.Sprintf("L%d_M%d", c.depth, c.dim), func(b *testing.B) {
			const d = 784
			X := mat.NewDense(c.rows, d, gaussianRows(&gauss{r: newStream(1, 0, 0)}, c.rows, d))
			for i := range c.rows {
				normalize(X.RawRowView(i))
			}
			var maps [2]*Map
			for i, p := range Precisions() {
				f, err := New(Config{Depth: c.depth, Dim: c.dim, Precision: p}, d)
				if err != nil {
					b.Fatal(err)
				}
				maps[i] = f
			}
			dst := mat.NewDense(c.rows, c.dim, nil)
			var t [2][]float64
			for b.Loop() {
				for range 5 {
					for i, f := range maps {
						start := time.Now()
						if _, err := f.Transform(dst, X); err != nil {
							b.Fatal(err)
						}
						t[i] = append(t[i], time.Since(start).Seconds())
					}
				}
			}
			m64, m32 := median(t[0]), median(t[1])
			b.ReportMetric(m64*1e3, "ms-float64")
			b.ReportMetric(m32*1e3, "ms-float32")
			b.ReportMetric(m64/m32, "speedup")
			b.Logf("L = %d, m = %d, %d rows: float64 %.1f ms, float32 %.1f ms, float32 %.2f× faster (medians of %d)", c.depth, c.dim, c.rows, m64*1e3, m32*1e3, m64/m32, len(t[0]))
		})
	}
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return s[len(s)/2]
}
