//go:build goexperiment.simd && wasm

package linalg

import "unsafe"

// gemmBlockK is the number of inner indices a gemm kernel call sums before
// its partial sums go back to c (exact: they are float64 either way): a
// 4-column strip of b over gemmBlockK rows stays in cache while every
// 4-row group of a passes over it.
const gemmBlockK = 256

// gemmStrips runs gemm4x4SIMD over rows [i0, i1), a multiple of 4, and the
// columns from j0 on that fill whole strips of 4; it returns the first
// column not covered. In WebAssembly this is the two-stage reduction's
// VᵀA₂₂ and the blocked Cholesky's panel products: gemmPortable there ran
// at a fifth of the Gram kernel's speed.
func gemmStrips(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, i0, i1, j0, j1, k int, add bool) int {
	je := j1 - (j1-j0)%4
	if i1 <= i0 || je == j0 || k == 0 {
		return j0
	}
	// The kernel reads a[i0·lda : (i1−1)·lda+k], b[j0 : (k−1)·ldb+je] and
	// c[i0·ldc+j0 : (i1−1)·ldc+je] through pointers.
	_ = a[(i1-1)*lda+k-1]
	_ = b[(k-1)*ldb+je-1]
	_ = c[(i1-1)*ldc+je-1]
	for l0 := 0; l0 < k; l0 += gemmBlockK {
		kl := min(gemmBlockK, k-l0)
		for j := j0; j < je; j += 4 {
			pb := unsafe.Pointer(&b[l0*ldb+j])
			for i := i0; i < i1; i += 4 {
				gemm4x4SIMD(kl, unsafe.Pointer(&a[i*lda+l0]), 8*lda, pb, 8*ldb, unsafe.Pointer(&c[i*ldc+j]), 8*ldc, add || l0 > 0)
			}
		}
	}
	return je
}

// gemm4x4SIMD sets the 4×4 block at c (row stride ldc bytes) to the sums
// over l < k of a[r][l]·b[l][0:4] (a's rows lda bytes apart, b's ldb), or
// adds them to it if add is set: each lane starts from 0 or from c and adds
// its separately rounded products in increasing l, as gemmPortable does.
// The caller checks that the operands hold k columns and rows.
func gemm4x4SIMD(k int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c unsafe.Pointer, ldc int, add bool) {
	var c00, c01, c10, c11, c20, c21, c30, c31 f64x2
	if add {
		c00, c01 = load2(c), load2(at(c, 16))
		c10, c11 = load2(at(c, ldc)), load2(at(c, ldc+16))
		c20, c21 = load2(at(c, 2*ldc)), load2(at(c, 2*ldc+16))
		c30, c31 = load2(at(c, 3*ldc)), load2(at(c, 3*ldc+16))
	}
	a1, a2, a3 := at(a, lda), at(a, 2*lda), at(a, 3*lda)
	step := func(o int, b unsafe.Pointer) {
		b0, b1 := load2(b), load2(at(b, 16))
		x := splat2(at(a, o))
		c00 = c00.Add(x.Mul(b0))
		c01 = c01.Add(x.Mul(b1))
		x = splat2(at(a1, o))
		c10 = c10.Add(x.Mul(b0))
		c11 = c11.Add(x.Mul(b1))
		x = splat2(at(a2, o))
		c20 = c20.Add(x.Mul(b0))
		c21 = c21.Add(x.Mul(b1))
		x = splat2(at(a3, o))
		c30 = c30.Add(x.Mul(b0))
		c31 = c31.Add(x.Mul(b1))
	}
	// Four steps per iteration, as in block4x4: a backward branch costs a
	// jump table in Go's wasm code.
	l := 0
	for ; l+4 <= k; l += 4 {
		pb := at(b, l*ldb)
		step(8*l, pb)
		step(8*l+8, at(pb, ldb))
		step(8*l+16, at(pb, 2*ldb))
		step(8*l+24, at(pb, 3*ldb))
	}
	for ; l < k; l++ {
		step(8*l, at(b, l*ldb))
	}
	for r, v := range [4][2]f64x2{{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}} {
		p := at(c, r*ldc)
		v[0].StoreArray((*[2]float64)(p))
		v[1].StoreArray((*[2]float64)(at(p, 16)))
	}
}
