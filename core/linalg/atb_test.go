package linalg

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"ntkrf/internal/fixture"
)

// TestAddAtBRowsIsDgemm: AddAtBRows gives gonum's Dgemm(Trans, NoTrans)
// bits, on the sizes where Dgemm runs serially and where it splits into
// parallel blocks, with zeros in A (skipped by both).
func TestAddAtBRowsIsDgemm(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for _, s := range []struct{ r, m, k int }{{0, 3, 2}, {1, 1, 1}, {5, 7, 3}, {300, 130, 10}, {1024, 200, 10}, {70, 513, 1}, {40, 33, 11}, {9, 17, 2}} {
		t.Run(fmt.Sprintf("r=%d,m=%d,k=%d", s.r, s.m, s.k), func(t *testing.T) {
			a, b := randFloats(r, s.r*s.m), randFloats(r, s.r*s.k)
			for i := range a {
				if i%5 == 0 {
					a[i] = 0
				}
			}
			got := randFloats(r, s.m*s.k)
			want := append([]float64(nil), got...)
			AddAtBRows(got, a, b, s.r, s.m, s.k)
			if s.r > 0 {
				blas64.Gemm(blas.Trans, blas.NoTrans, 1,
					blas64.General{Rows: s.r, Cols: s.m, Stride: s.m, Data: a},
					blas64.General{Rows: s.r, Cols: s.k, Stride: s.k, Data: b},
					1, blas64.General{Rows: s.m, Cols: s.k, Stride: s.k, Data: want})
			}
			fixture.SameBits(t, "c", got, want)
		})
	}
}

// TestMulRowsIsDgemm: MulRows gives gonum's Dgemm(NoTrans, NoTrans) bits
// with β = 0 (mat.Dense.Mul), on strided blocks, with zeros in A.
func TestMulRowsIsDgemm(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	for _, s := range []struct{ n, m, k, pad int }{{0, 3, 2, 0}, {1, 1, 1, 0}, {5, 7, 3, 2}, {300, 130, 10, 0}, {1024, 200, 10, 3}, {70, 513, 1, 1}, {40, 33, 11, 1}, {9, 17, 2, 3}, {33, 200, 4, 1}, {33, 200, 5, 2}, {8, 300, 3, 0}} {
		t.Run(fmt.Sprintf("n=%d,m=%d,k=%d,pad=%d", s.n, s.m, s.k, s.pad), func(t *testing.T) {
			lda, ldb, ldc := s.m+s.pad, s.k+s.pad, s.k+2*s.pad
			a, b := randFloats(r, s.n*lda), randFloats(r, s.m*ldb)
			for i := range a {
				if i%5 == 0 {
					a[i] = 0
				}
			}
			got := randFloats(r, s.n*ldc) // overwritten, padding kept
			want := append([]float64(nil), got...)
			MulRows(got, ldc, a, lda, b, ldb, s.n, s.m, s.k)
			if s.n > 0 {
				blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
					blas64.General{Rows: s.n, Cols: s.m, Stride: lda, Data: a},
					blas64.General{Rows: s.m, Cols: s.k, Stride: ldb, Data: b},
					0, blas64.General{Rows: s.n, Cols: s.k, Stride: ldc, Data: want})
			}
			fixture.SameBits(t, "c", got, want)
		})
	}
}
