//go:build amd64 && !noasm

package linalg

import "golang.org/x/sys/cpu"

// Implemented in kernel32_amd64.s.

//go:noescape
func tile8x48AVX512F32(k int, a, b *float32, ps int, c *float64, ldc int)

// kernels32 lists the AddAtA32 micro-kernels this CPU can run.
func kernels32() []kernel32Set {
	if cpu.X86.HasAVX512F {
		return []kernel32Set{{"avx512", tileAVX512F32}}
	}
	return nil
}

// tileAVX512F32 checks that the slices hold what the kernel reads and
// writes, so the assembly never touches memory outside them.
func tileAVX512F32(k int, a, b []float32, ps int, c []float64, ldc int) {
	if k < 1 || len(a) < (k-1)*panel32+tile32R || ps < k*panel32 || len(b) < 2*ps+k*panel32 ||
		ldc < tile32C || len(c) < (tile32R-1)*ldc+tile32C {
		panic("linalg: float32 tile kernel called with bad shapes")
	}
	tile8x48AVX512F32(k, &a[0], &b[0], ps, &c[0], ldc)
}
