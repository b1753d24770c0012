//go:build amd64 && !noasm

package linalg

import "golang.org/x/sys/cpu"

// Implemented in mul32_amd64.s.

//go:noescape
func mul4x64AVX512F32(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int, add bool)

//go:noescape
func mul4x16AVX2F32(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int, add bool)

//go:noescape
func mul6x16AVX2F32(k int, a, b, c *float32, ldc int, add bool)

// mul32PanelKernels lists the panel micro-kernels (Weights32) this CPU can
// run, the fastest first. AVX-512 machines keep Mul32's 4×64 kernel on
// row-major weights: the panel kernel was measured only with AVX2.
func mul32PanelKernels() []mul32TileSet {
	if cpu.X86.HasAVX2 && !cpu.X86.HasAVX512F {
		return []mul32TileSet{{name: "avx2", tile: mul6x16AVX2F32}}
	}
	return nil
}

// mul32Kernels lists the Mul32 implementations this CPU can run, the
// fastest first.
func mul32Kernels() []mul32Set {
	var ks []mul32Set
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX2 {
		ks = append(ks, mul32Set{"avx512", mul32AVX512})
	}
	if cpu.X86.HasAVX2 {
		ks = append(ks, mul32Set{"avx2", mul32AVX2})
	}
	return append(ks, mul32Set{"portable", mul32Portable})
}

// mul32Strips runs a 4-row float32 kernel of width w over rows [i0, i1)
// and the columns from j0 on that fill whole strips, inner indices in
// blocks of mulBlock (a float32 partial sum stored and reloaded is exact).
// It returns the first column not covered.
func mul32Strips(kern func(int, *float32, int, *float32, int, *float32, int, bool), w int, c, a, b []float32, i0, i1, j0, k, m int) int {
	je := m - (m-j0)%w
	if i1-i0 < 4 || je == j0 {
		// No whole row group or strip: the tail does it all (the bounds
		// check below would read before b with no strip).
		return j0
	}
	if k == 0 {
		for i := i0; i < i1; i++ {
			clear(c[i*m+j0 : i*m+je])
		}
		return je
	}
	// The kernels read a[i·k : (i+3)·k+l0+kl], b up to row k−1, column je−1
	// and c up to row i1−1, column je−1 through pointers.
	_, _, _ = a[(i1-1)*k+k-1], b[(k-1)*m+je-1], c[(i1-1)*m+je-1]
	for j := j0; j < je; j += w {
		for l0 := 0; l0 < k; l0 += mulBlock {
			kl := min(mulBlock, k-l0)
			for i := i0; i+4 <= i1; i += 4 {
				kern(kl, &a[i*k+l0], k, &b[l0*m+j], m, &c[i*m+j], m, l0 > 0)
			}
		}
	}
	return je
}

func mul32AVX512(c, a, b []float32, i0, i1, k, m int) {
	j := mul32Strips(mul4x64AVX512F32, 64, c, a, b, i0, i1, 0, k, m)
	j = mul32Strips(mul4x16AVX2F32, 16, c, a, b, i0, i1, j, k, m)
	mul32Tail(c, a, b, i0, i1, j, k, m)
}

func mul32AVX2(c, a, b []float32, i0, i1, k, m int) {
	j := mul32Strips(mul4x16AVX2F32, 16, c, a, b, i0, i1, 0, k, m)
	mul32Tail(c, a, b, i0, i1, j, k, m)
}
