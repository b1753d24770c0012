package gram

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// AddAtA adds AᵀA to the upper triangle of the m×m row-major matrix g
// (len(g) ≥ m·m, stride m), where A is the n×m row-major block a. The lower
// triangle of g is left untouched. It panics if the lengths do not match.
func AddAtA(g []float64, a []float64, n, m int) {
	if len(a) < n*m || len(g) < m*m {
		panic(fmt.Sprintf("gram: AddAtA lengths %d, %d do not fit n=%d, m=%d", len(a), len(g), n, m))
	}
	if n == 0 || m == 0 {
		return
	}
	blas64.Syrk(blas.Trans, 1,
		blas64.General{Rows: n, Cols: m, Stride: m, Data: a},
		1,
		blas64.Symmetric{Uplo: blas.Upper, N: m, Stride: m, Data: g})
}
