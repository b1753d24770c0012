package krr

import (
	"gonum.org/v1/gonum/mat"
	"ntkrf/core/kernel"
	"ntkrf/internal/fixture"
	"testing"
)

var (
	sinkModel *Model
)

func BenchmarkFitFeatures_N4000_M1024(b *testing.B)     { benchFitFeatures(b, 4000, 1024, GCV) }
func BenchmarkFitFeatures_N4000_M1024_LOO(b *testing.B) { benchFitFeatures(b, 4000, 1024, LOO) }
func BenchmarkFitFeatures_N4000_M256(b *testing.B)      { benchFitFeatures(b, 4000, 256, GCV) }
func BenchmarkFitKernel_N2000(b *testing.B)             { benchFitKernel(b, 2000) }

// benchFitFeatures fits 10 classes on a ReLU random-feature map of 16
// inputs, choosing λ by the given criterion.
func benchFitFeatures(b *testing.B, n, m int, criterion Criterion) {
	X, y := fixture.Data(n, 16, 10, 1)
	f := fixture.NewReLU(16, m, 2)
	opt := Options{Classes: 10, Criterion: criterion}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, err := FitFeatures(f, X, y, opt)
		if err != nil {
			b.Fatal(err)
		}
		sinkModel = m
	}
}

func benchFitKernel(b *testing.B, n int) {
	X, y := fixture.Data(n, 16, 10, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, err := FitKernel(kernel.Spec{Name: "ntk", Depth: 2}, X, y, Options{Classes: 10})
		if err != nil {
			b.Fatal(err)
		}
		sinkModel = m
	}
}

// BenchmarkKernelCurve_1000Classes scores the default grid by leave-one-out
// on the NTK of the 182 rows model selection searches with 1,000 classes
// (pipeline's defaultRows): the residuals for every λ and class dominate.
func BenchmarkKernelCurve_1000Classes(b *testing.B) {
	const n, k = 182, 1000
	X, y := fixture.Data(n, 16, k, 1)
	spec := kernel.Spec{Name: "ntk", Depth: 2}
	K0, err := spec.Gram(X, nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		K := mat.DenseCopyOf(K0)
		if _, _, err := KernelCurve(K, y, Options{Classes: k}); err != nil {
			b.Fatal(err)
		}
	}
}
