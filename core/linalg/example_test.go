package linalg_test

import (
	"fmt"

	"ntkrf/core/linalg"
)

func ExampleAddAtA() {
	// Two row blocks of a 3×2 matrix A, accumulated into G = AᵀA.
	g := make([]float64, 2*2)
	linalg.AddAtA(g, []float64{1, 2, 3, 4}, 2, 2)
	linalg.AddAtA(g, []float64{5, 6}, 1, 2)
	fmt.Println(g) // the lower-left entry is not written
	// Output: [35 44 0 56]
}

func ExampleMul() {
	c := make([]float64, 2*2)
	linalg.Mul(c, []float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}, 2, 2, 2)
	fmt.Println(c)
	// Output: [19 22 43 50]
}

func ExampleSubAtAStride() {
	// The trailing 2×2 block of a 3×3 matrix (row stride 3) minus AᵀA for
	// the 1×2 row A = [1 2]; only the block's upper triangle changes.
	g := []float64{
		9, 9, 9,
		9, 5, 6,
		9, 9, 7,
	}
	linalg.SubAtAStride(g[3+1:], 3, []float64{1, 2}, 1, 2)
	fmt.Println(g)
	// Output: [9 9 9 9 4 4 9 9 3]
}

func ExampleAddAtA32() {
	// Small integers are exact in float32, so the result equals AddAtA's.
	g := make([]float64, 2*2)
	linalg.AddAtA32(g, []float64{1, 2, 3, 4, 5, 6}, 3, 2)
	fmt.Println(g)
	// Output: [35 44 0 56]
}
