package linalg_test

import (
	"fmt"

	"ntkrf/core/linalg"
)

func ExampleDotAxpy() {
	y := []float64{1, 1, 1}
	d := linalg.DotAxpy(y, []float64{1, 2, 3}, []float64{4, 5, 6}, 2)
	fmt.Println(d, y)
	// Output: 32 [3 5 7]
}
