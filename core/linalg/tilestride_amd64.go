//go:build amd64 && !noasm

package linalg

import "golang.org/x/sys/cpu"

//go:noescape
func tile4x12StrideAVX2(k int, a, b0, b1, b2 *float64, c *float64, ldc, ldb int)

// tileStride is the tile kernel on a right operand read in place (see
// tileStrideFunc): the AVX2 kernel where the CPU has AVX2 and FMA, else
// nil.
var tileStride tileStrideFunc = func() tileStrideFunc {
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		return tileStrideAVX2
	}
	return nil
}()

// tileStrideAVX2 covers the 8×24 tile with four 4×12 kernels, as tileAVX2.
func tileStrideAVX2(k int, a, b []float64, ldb int, c []float64, ldc int) {
	if k < 1 || len(a) < k*panelW || ldb < tileC || len(b) < (k-1)*ldb+tileC ||
		ldc < tileC || len(c) < (tileR-1)*ldc+tileC {
		panic("linalg: tile kernel called with bad shapes")
	}
	tile4x12StrideAVX2(k, &a[0], &b[0], &b[4], &b[8], &c[0], ldc, ldb)
	tile4x12StrideAVX2(k, &a[0], &b[12], &b[16], &b[20], &c[12], ldc, ldb)
	tile4x12StrideAVX2(k, &a[4], &b[0], &b[4], &b[8], &c[4*ldc], ldc, ldb)
	tile4x12StrideAVX2(k, &a[4], &b[12], &b[16], &b[20], &c[4*ldc+12], ldc, ldb)
}
