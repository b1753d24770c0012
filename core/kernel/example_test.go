package kernel_test

import (
	"fmt"
	"ntkrf/core/kernel"

	"gonum.org/v1/gonum/mat"
)

func ExampleNTK() {
	X := mat.NewDense(3, 3, []float64{1, 2, 0, 0.5, -1, 3, -2, 0.25, 1})
	K, err := kernel.NTK(X, 2)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.6f\n", mat.Formatted(K))
	// Output:
	// ⎡15.000000   3.654575   2.267626⎤
	// ⎢ 3.654575  30.750000   6.900170⎥
	// ⎣ 2.267626   6.900170  15.187500⎦
}

func ExampleNTKCross() {
	X := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	Z := mat.NewDense(1, 2, []float64{1, 1})
	K, _ := kernel.NTKCross(X, Z, 1)
	fmt.Printf("%.6f\n", mat.Formatted(K))
	// Output:
	// ⎡1.818310⎤
	// ⎣1.818310⎦
}

func ExampleNNGP() {
	X := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	K, _ := kernel.NNGP(X, 1)
	fmt.Printf("%.6f\n", mat.Formatted(K))
	// Output:
	// ⎡1.000000  0.318310⎤
	// ⎣0.318310  1.000000⎦
}

func ExampleRBF() {
	X := mat.NewDense(2, 1, []float64{0, 1})
	K, _ := kernel.RBF(X, 0.5)
	fmt.Printf("%.6f\n", mat.Formatted(K))
	// Output:
	// ⎡1.000000  0.606531⎤
	// ⎣0.606531  1.000000⎦
}

func ExampleSpec_Gram() {
	_, err := kernel.Spec{Name: "ntk", Depth: -1}.Gram(mat.NewDense(1, 1, []float64{1}), nil)
	fmt.Println(err)
	// Output:
	// kernel: depth -1 is out of range; use 1 ≤ depth ≤ 64 (0 means 1)
}
