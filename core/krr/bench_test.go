package krr

import (
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
func benchFitFeatures(b *testing.B, n, m int, criterion string) {
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
