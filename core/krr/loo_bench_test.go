package krr

import (
	"ntkrf/core/kernel"
	"ntkrf/internal/fixture"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkKernelCurve_Regression1000 is one candidate of 'auto' model
// selection on a regression: exact leave-one-out over the default grid on
// the NTK of 1,000 rows (pipeline.DefaultSearchRows).
func BenchmarkKernelCurve_Regression1000(b *testing.B) {
	K0, y := regressionGram(b, 1000)
	for b.Loop() {
		K := mat.DenseCopyOf(K0)
		if _, _, err := KernelCurve(K, y, Options{Task: Regression}); err != nil {
			b.Fatal(err)
		}
	}
}

// regressionGram is the depth-2 NTK of n rows of 16 inputs and a smooth
// target of them.
func regressionGram(tb testing.TB, n int) (*mat.Dense, []float64) {
	X, _ := fixture.Data(n, 16, 2, 1)
	y := make([]float64, n)
	for i := range y {
		y[i] = X.At(i, 0) - 0.5*X.At(i, 2)*X.At(i, 1)
	}
	K, err := kernel.Spec{Name: "ntk", Depth: 2}.Gram(X, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return K, y
}

// kernelCurveEigen is KernelCurve by the eigendecomposition Kc = UΛUᵀ
// (looEigen), the method before looTridiag: the reference of the tests
// and the benchmark.
func kernelCurveEigen(K *mat.Dense, y []float64, opt Options) ([]CurvePoint, [][]float64, error) {
	opt, err := opt.checked(y, true)
	if err != nil {
		return nil, nil, err
	}
	n, _ := K.Dims()
	_, _, yc := centerDual(K, y, opt)
	cols, kp := presentColumns(yc)
	ycp := make([]float64, n*kp)
	for i := range n {
		for o, c := range cols {
			ycp[i*kp+o] = yc.At(i, c)
		}
	}
	var losses [][]float64
	curve, err := looCurve(nil, append([]float64(nil), K.RawMatrix().Data...), yc, ycp, cols, y, opt, &losses, false)
	return curve, losses, err
}

// BenchmarkLOOTridiagVsEigen scores the default grid by the
// eigendecomposition and by the tridiagonal form in turn, and prints the
// ratio of their CPU times: the regression of
// BenchmarkKernelCurve_Regression1000, and the 182 rows of 1,000 classes
// of BenchmarkKernelCurve_1000Classes (where the residuals dominate).
func BenchmarkLOOTridiagVsEigen(b *testing.B) {
	b.Run("regression-1000", func(b *testing.B) {
		K0, y := regressionGram(b, 1000)
		benchSideBySide(b, K0, y, Options{Task: Regression})
	})
	b.Run("classes-1000-rows-182", func(b *testing.B) {
		X, y := fixture.Data(182, 16, 1000, 1)
		K0, err := kernel.Spec{Name: "ntk", Depth: 2}.Gram(X, nil)
		if err != nil {
			b.Fatal(err)
		}
		benchSideBySide(b, K0, y, Options{Classes: 1000})
	})
}

func benchSideBySide(b *testing.B, K0 *mat.Dense, y []float64, opt Options) {
	var eig, tri float64
	for b.Loop() {
		t0 := cpuSeconds()
		if _, _, err := kernelCurveEigen(mat.DenseCopyOf(K0), y, opt); err != nil {
			b.Fatal(err)
		}
		t1 := cpuSeconds()
		if _, _, err := KernelCurve(mat.DenseCopyOf(K0), y, opt); err != nil {
			b.Fatal(err)
		}
		t2 := cpuSeconds()
		eig += t1 - t0
		tri += t2 - t1
	}
	b.ReportMetric(eig/float64(b.N), "eigen-cpu-s/op")
	b.ReportMetric(tri/float64(b.N), "tridiag-cpu-s/op")
	b.ReportMetric(eig/tri, "speedup")
}
