package krr_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/active"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/metrics"
)

// poly maps a scalar x to (x, x²): a tiny stand-in for rf's random
// feature maps, which satisfy the same interface.
type poly struct{}

func (poly) Dim() int      { return 2 }
func (poly) InputDim() int { return 1 }
func (poly) Transform(dst, X *mat.Dense) (*mat.Dense, error) {
	n, _ := X.Dims()
	if dst == nil {
		dst = mat.NewDense(n, 2, nil)
	}
	for i := 0; i < n; i++ {
		x := X.At(i, 0)
		dst.Set(i, 0, x)
		dst.Set(i, 1, x*x)
	}
	return dst, nil
}

func ExampleFitFeatures() {
	X := mat.NewDense(5, 1, []float64{-2, -1, 0, 1, 2})
	y := []float64{5, 2, 1, 2, 5} // 1 + x²
	m, err := krr.FitFeatures(poly{}, X, y, krr.Options{Lambda: 1e-6, Task: krr.Regression})
	if err != nil {
		panic(err)
	}
	p, _ := m.PredictLabels(mat.NewDense(2, 1, []float64{0.5, 3}))
	fmt.Printf("%.3f %.3f\n", p[0], p[1])
	// Output:
	// 1.250 10.000
}

func ExampleFitKernel() {
	X := mat.NewDense(6, 1, []float64{-3, -2.5, -2, 2, 2.5, 3})
	y := []float64{0, 0, 0, 1, 1, 1} // class indices
	m, err := krr.FitKernel(kernel.Spec{Name: "rbf", Gamma: 0.5}, X, y, krr.Options{Classes: 2, Criterion: krr.LOO})
	if err != nil {
		panic(err)
	}
	labels, _ := m.PredictLabels(mat.NewDense(2, 1, []float64{-1.5, 2.2}))
	fmt.Println(labels, len(m.Curve()), "λ values scored by leave-one-out")
	// Output:
	// [0 1] 30 λ values scored by leave-one-out
}

// Classification scores are centered one-hot fits plus the class
// frequencies: each row sums to 1, and the label is the largest.
func ExampleModel_Predict() {
	X := mat.NewDense(4, 1, []float64{-2, -1, 1, 2})
	y := []float64{0, 0, 1, 1}
	m, _ := krr.FitFeatures(poly{}, X, y, krr.Options{Classes: 2, Lambda: 0.1})
	s, _ := m.Predict(mat.NewDense(1, 1, []float64{1.5}))
	fmt.Printf("%.3f + %.3f = %.3f\n", s.At(0, 0), s.At(0, 1), s.At(0, 0)+s.At(0, 1))
	// Output:
	// 0.054 + 0.946 = 1.000
}

func ExampleFitFeatures_errors() {
	X := mat.NewDense(3, 1, []float64{0, 1, 2})
	_, err := krr.FitFeatures(poly{}, X, []float64{1, 1, 1}, krr.Options{Classes: 2})
	fmt.Println(err)
	// Output:
	// krr: every row is of class 1; classification needs at least two classes
}

// Two workers featurize halves of the rows; their sums are merged and
// solved as one.
func ExampleNewAccumulator() {
	phi := mat.NewDense(4, 2, []float64{1, 1, 2, 4, 3, 9, 4, 16}) // (x, x²)
	y := []float64{2, 5, 10, 17}                                  // 1 + x²
	a, _ := krr.NewAccumulator(2, krr.Options{Lambda: 1e-8})
	b, _ := krr.NewAccumulator(2, krr.Options{Lambda: 1e-8})
	a.Add(phi.Slice(0, 2, 0, 2).(*mat.Dense), y[:2])
	b.Add(phi.Slice(2, 4, 0, 2).(*mat.Dense), y[2:])
	if err := a.Merge(b); err != nil {
		panic(err)
	}
	m, _ := a.Solve()
	m.SetFeaturizer(poly{})
	p, _ := m.PredictLabels(mat.NewDense(1, 1, []float64{5}))
	fmt.Printf("%d rows, f(5) = %.3f\n", a.Rows(), p[0])
	// Output:
	// 4 rows, f(5) = 26.000
}

func ExampleAccumulator_SolveAt() {
	phi := mat.NewDense(4, 2, []float64{1, 1, 2, 4, 3, 9, 4, 16}) // (x, x²)
	y := []float64{2, 5, 10, 17}                                  // 1 + x²
	a, _ := krr.NewAccumulator(2, krr.Options{})
	a.Add(phi, y)
	for _, lam := range []float64{1e-8, 10, 1000} { // no second pass over the rows; large λ shrinks to ȳ = 8.5
		m, _ := a.SolveAt(lam)
		m.SetFeaturizer(poly{})
		p, _ := m.PredictLabels(mat.NewDense(1, 1, []float64{5}))
		fmt.Printf("λ = %g: f(5) = %.3f\n", lam, p[0])
	}
	// Output:
	// λ = 1e-08: f(5) = 26.000
	// λ = 10: f(5) = 24.630
	// λ = 1000: f(5) = 10.546
}

// Exact leave-one-out in the primal takes a second pass over the rows,
// which workers can share: each returns LOOSums for its rows.
func ExampleSpectrum_LOOSums() {
	phi := mat.NewDense(6, 2, []float64{-2, 4, -1, 1, 0, 0, 1, 1, 2, 4, 3, 9})
	y := []float64{5.1, 1.9, 1.0, 2.1, 4.9, 10.0}
	acc, _ := krr.NewAccumulator(2, krr.Options{Grid: []float64{1e-3, 1, 1e3}})
	acc.Add(phi, y)
	s, _ := acc.Spectrum()
	part1, _ := s.LOOSums(phi.Slice(0, 3, 0, 2).(*mat.Dense), y[:3])
	part2, _ := s.LOOSums(phi.Slice(3, 6, 0, 2).(*mat.Dense), y[3:])
	sums, _ := krr.AddSums(part1, part2)
	curve, _ := s.LOOCurve(sums)
	m, _ := s.Solve(curve)
	fmt.Println("λ =", m.Lambda())
	// Output:
	// λ = 0.001
}

func ExampleSelectActive() {
	// Six pool rows: three near (1, 0), one near (0, 1), two at the origin.
	phi := mat.NewDense(6, 2, []float64{1, 0, 0.9, 0.1, 1, 0.05, 0, 1, 0, 0, 0.01, 0})
	sel, err := active.SelectActive(phi, 2, 0.1)
	if err != nil {
		panic(err)
	}
	fmt.Println(sel) // the strongest row of the (1, 0) cluster, then the (0, 1) row
	// Output:
	// [2 3]
}

func ExampleRelFrobenius() {
	X := mat.NewDense(3, 2, []float64{1, 0, 0, 2, 1, 1})
	K, _ := kernel.Spec{Name: "linear"}.Gram(X, nil) // XXᵀ
	var phi mat.Dense
	phi.Scale(1.1, X) // features whose Gram is 1.21·K
	e, _ := metrics.RelFrobenius(K, &phi)
	fmt.Printf("%.3f\n", e)
	// Output:
	// 0.210
}

func ExampleSpectral() {
	X := mat.NewDense(3, 2, []float64{1, 0, 0, 2, 1, 1})
	K, _ := kernel.Spec{Name: "linear"}.Gram(X, nil)
	c, _ := metrics.Spectral(K, X, 0) // exact features: perfect conditioning
	fmt.Printf("%.6f\n", c)
	// Output:
	// 1.000000
}

func ExampleAccuracy() {
	a, _ := metrics.Accuracy([]float64{0, 1, 2, 1}, []float64{0, 2, 2, 1})
	fmt.Println(a)
	// Output:
	// 0.75
}

func ExampleConfusion() {
	c, _ := metrics.Confusion([]float64{0, 1, 1}, []float64{0, 1, 0}, 2)
	fmt.Println(c)
	// Output:
	// [[1 0] [1 1]]
}

func ExampleR2() {
	r, _ := metrics.R2([]float64{1, 2, 3}, []float64{1, 2, 4})
	m, _ := metrics.MSE([]float64{1, 2, 3}, []float64{1, 2, 4})
	fmt.Printf("R² %.2f, MSE %.3f\n", r, m)
	// Output:
	// R² 0.50, MSE 0.333
}
