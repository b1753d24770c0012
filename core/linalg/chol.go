package linalg

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// CholSolve solves A X = B for the symmetric positive definite m×m matrix
// whose upper triangle is in a (overwritten by its Cholesky factor U) and
// the m×k right-hand sides b; it returns X. The factorization runs on the
// Gram kernel (Cholesky), several times faster than a generic one.
// ok is false when A is not numerically positive definite.
func CholSolve(a []float64, m int, b []float64, k int) (x *mat.Dense, ok bool) {
	if err := Cholesky(a, m); err != nil {
		return nil, false
	}
	x = mat.NewDense(m, k, append([]float64(nil), b...))
	u := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: m, Stride: m, Data: a}
	xs := blas64.General{Rows: m, Cols: k, Stride: k, Data: x.RawMatrix().Data}
	blas64.Trsm(blas.Left, blas.Trans, 1, u, xs)   // Uᵀ Z = B
	blas64.Trsm(blas.Left, blas.NoTrans, 1, u, xs) // U X = Z
	for _, v := range xs.Data {
		if math.IsNaN(v) || math.IsInf(v, 0) { // numerically singular
			return nil, false
		}
	}
	return x, true
}
