//go:build amd64 && !noasm

package linalg

import "golang.org/x/sys/cpu"

var (
	gemmHas512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX2
	gemmHas256 = cpu.X86.HasAVX2
)

// gemmStrips runs the 4-row Mul kernels (no FMA) over rows [i0, i1), a
// multiple of 4, and the columns from j0 on that fill whole strips of 32,
// then of 8; it returns the first column not covered. Inner indices go in
// blocks of mulBlock, each block's sums stored and reloaded (exact).
func gemmStrips(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, i0, i1, j0, j1, k int, add bool) int {
	if i1 <= i0 {
		return j0
	}
	strips := func(kern func(int, *float64, int, *float64, int, *float64, int, bool), w, j0 int) int {
		je := j1 - (j1-j0)%w
		for j := j0; j < je; j += w {
			for l0 := 0; l0 < k; l0 += mulBlock {
				kl := min(mulBlock, k-l0)
				for i := i0; i < i1; i += 4 {
					kern(kl, &a[i*lda+l0], lda, &b[l0*ldb+j], ldb, &c[i*ldc+j], ldc, add || l0 > 0)
				}
			}
		}
		return je
	}
	j := j0
	if gemmHas512 {
		j = strips(mul4x32AVX512, 32, j)
	}
	if gemmHas256 {
		j = strips(mul4x8AVX2, 8, j)
	}
	return j
}
