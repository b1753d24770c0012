//go:build amd64 && !noasm

package linalg

import "golang.org/x/sys/cpu"

// Implemented in kernel32_amd64.s.

//go:noescape
func tile8x48AVX512F32(k int, a, b *float32, ps int, c *float64, ldc int)

//go:noescape
func tile4x24AVX2F32(k int, a, b0, b1, b2 *float32, c *float64, ldc int)

// kernels32 lists the AddAtA32 micro-kernels this CPU can run, the fastest
// first. Both sum each entry as the same chain of float32 fused
// multiply-adds, so they give the same bits.
func kernels32() []kernel32Set {
	var ks []kernel32Set
	if cpu.X86.HasAVX512F {
		ks = append(ks, kernel32Set{"avx512", tileAVX512F32, true})
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		ks = append(ks, kernel32Set{"avx2", tileAVX2F32, true})
	}
	return ks
}

// tile32Check panics unless the slices hold what a float32 tile kernel
// reads and writes, so the assembly never touches memory outside them.
func tile32Check(k int, a, b []float32, ps int, c []float64, ldc int) {
	if k < 1 || len(a) < (k-1)*panel32+tile32R || ps < k*panel32 || len(b) < 2*ps+k*panel32 ||
		ldc < tile32C || len(c) < (tile32R-1)*ldc+tile32C {
		panic("linalg: float32 tile kernel called with bad shapes")
	}
}

func tileAVX512F32(k int, a, b []float32, ps int, c []float64, ldc int) {
	tile32Check(k, a, b, ps, c, ldc)
	tile8x48AVX512F32(k, &a[0], &b[0], ps, &c[0], ldc)
}

// tileAVX2F32 covers the 8×48 tile with four 4×24 kernels (16 ymm
// registers hold a 4×24 tile plus its operands); a 24-column half starts
// in the middle of the second panel.
func tileAVX2F32(k int, a, b []float32, ps int, c []float64, ldc int) {
	tile32Check(k, a, b, ps, c, ldc)
	tile4x24AVX2F32(k, &a[0], &b[0], &b[8], &b[ps], &c[0], ldc)
	tile4x24AVX2F32(k, &a[0], &b[ps+8], &b[2*ps], &b[2*ps+8], &c[24], ldc)
	tile4x24AVX2F32(k, &a[4], &b[0], &b[8], &b[ps], &c[4*ldc], ldc)
	tile4x24AVX2F32(k, &a[4], &b[ps+8], &b[2*ps], &b[2*ps+8], &c[4*ldc+24], ldc)
}
