//go:build amd64 && !noasm

package linalg

import "golang.org/x/sys/cpu"

// Implemented in kernel_amd64.s.

//go:noescape
func tile8x24AVX512(k int, a, b *float64, ps int, c *float64, ldc int)

//go:noescape
func tile4x12AVX2(k int, a, b0, b1, b2 *float64, c *float64, ldc int)

//go:noescape
func mul4x32AVX512(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, add bool)

//go:noescape
func mul4x8AVX2(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, add bool)

// kernels lists the AddAtA and Mul implementations this CPU can run, the
// fastest first.
func kernels() []kernelSet {
	var ks []kernelSet
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		ks = append(ks, kernelSet{"avx512", tileAVX512, mulAVX512})
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		ks = append(ks, kernelSet{"avx2", tileAVX2, mulAVX2})
	}
	return append(ks, kernelSet{"portable", tilePortable, mulPacked})
}

// tileCheck panics unless the slices hold what a tile kernel reads and
// writes, so the assembly never touches memory outside them.
func tileCheck(k int, a, b []float64, ps int, c []float64, ldc int) {
	if k < 1 || len(a) < k*panelW || len(b) < 2*ps+k*panelW || ps < k*panelW ||
		ldc < tileC || len(c) < (tileR-1)*ldc+tileC {
		panic("linalg: tile kernel called with bad shapes")
	}
}

func tileAVX512(k int, a, b []float64, ps int, c []float64, ldc int) {
	tileCheck(k, a, b, ps, c, ldc)
	tile8x24AVX512(k, &a[0], &b[0], ps, &c[0], ldc)
}

// tileAVX2 covers the 8×24 tile with four 4×12 kernels (16 ymm registers
// hold a 4×12 tile plus its operands).
func tileAVX2(k int, a, b []float64, ps int, c []float64, ldc int) {
	tileCheck(k, a, b, ps, c, ldc)
	tile4x12AVX2(k, &a[0], &b[0], &b[4], &b[ps], &c[0], ldc)
	tile4x12AVX2(k, &a[0], &b[ps+4], &b[2*ps], &b[2*ps+4], &c[12], ldc)
	tile4x12AVX2(k, &a[4], &b[0], &b[4], &b[ps], &c[4*ldc], ldc)
	tile4x12AVX2(k, &a[4], &b[ps+4], &b[2*ps], &b[2*ps+4], &c[4*ldc+12], ldc)
}

// mulBlock is the number of inner indices a 4-row kernel sums before its
// partial sums go back to c: a block of b (mulBlock rows of a 32-column
// strip, 32 KiB) then stays in L1 while the rows of a stream past it, and
// the strip of c stays in L2. Storing and
// reloading a float64 is exact, so this blocking does not change any bit.
const mulBlock = 128

// mulStrips runs a 4-row kernel of width w over rows [i0, i1) and the
// columns from j0 on that fill whole strips. It returns the first column
// not covered.
func mulStrips(kern func(int, *float64, int, *float64, int, *float64, int, bool), w int, c, a, b []float64, i0, i1, j0, k, m int) int {
	je := m - (m-j0)%w
	if k == 0 {
		// The kernels would take the address of an empty a; with nothing
		// to sum, only c is written.
		for i := i0; i < i1; i++ {
			clear(c[i*m+j0 : i*m+je])
		}
		return je
	}
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

// mulTail does what the 4-row kernels leave, in the portable order: the
// last i1−i0 mod 4 rows, and columns [j0, m) of the others.
func mulTail(c, a, b []float64, i0, i1, j0, k, m int) {
	r := i1 - (i1-i0)%4
	mulPortable(c, a, b, r, i1, k, m)
	if j0 == m {
		return
	}
	for i := i0; i < r; i++ {
		ci := c[i*m+j0 : (i+1)*m]
		clear(ci)
		for l, av := range a[i*k : (i+1)*k] {
			bl := b[l*m+j0 : (l+1)*m]
			for j := range ci {
				ci[j] += float64(av * bl[j])
			}
		}
	}
}

func mulAVX512(c, a, b []float64, i0, i1, k, m int) {
	j := mulStrips(mul4x32AVX512, 32, c, a, b, i0, i1, 0, k, m)
	j = mulStrips(mul4x8AVX2, 8, c, a, b, i0, i1, j, k, m)
	j = mulMaskCols(c, a, b, i0, i1, j, k, m)
	mulTail(c, a, b, i0, i1, j, k, m)
}

func mulAVX2(c, a, b []float64, i0, i1, k, m int) {
	j := mulStrips(mul4x8AVX2, 8, c, a, b, i0, i1, 0, k, m)
	j = mulMaskCols(c, a, b, i0, i1, j, k, m)
	mulTail(c, a, b, i0, i1, j, k, m)
}
