//go:build goexperiment.simd && wasm

package linalg

import "unsafe"

// mul32Kernels lists the Mul32 implementations this build can run, the
// fastest first.
func mul32Kernels() []mul32Set {
	return []mul32Set{{"simd", mul32SIMD}, {"portable", mul32Portable}}
}

// mul32SIMD runs mul4x8F32 over the 4-row groups of [i0, i1) and the
// columns in whole strips of 8, a strip of b (8 columns × k rows) staying
// in cache while the row groups pass over it; mul32Tail does the rest.
func mul32SIMD(c, a, b []float32, i0, i1, k, m int) {
	je := m &^ 7
	r1 := i1 - (i1-i0)%4
	if k > 0 && je > 0 && r1 > i0 {
		// The kernel reads a[i0·k : r1·k], b[: (k−1)·m+je] and writes
		// c[i0·m : (r1−1)·m+je] through pointers.
		_, _, _ = a[r1*k-1], b[(k-1)*m+je-1], c[(r1-1)*m+je-1]
		pa, pb, pc := unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), unsafe.Pointer(&c[0])
		for j := 0; j < je; j += 8 {
			for i := i0; i < r1; i += 4 {
				mul4x8F32(k, at(pa, 4*i*k), 4*k, at(pb, 4*j), 4*m, at(pc, 4*(i*m+j)), 4*m)
			}
		}
	} else {
		je = 0
	}
	mul32Tail(c, a, b, i0, i1, je, k, m)
}

// mul4x8F32 sets the 4×8 float32 block at c (rows ldc bytes apart) to the
// sums over l < k of a[r][l]·b[l][0:8] (a's rows lda bytes apart, b's
// ldb): each lane sums from zero in increasing l with a rounded float32
// product and sum (wasm has no fused multiply-add), as mul32Portable does.
func mul4x8F32(k int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c unsafe.Pointer, ldc int) {
	var c00, c01, c10, c11, c20, c21, c30, c31 f32x4
	a1, a2, a3 := at(a, lda), at(a, 2*lda), at(a, 3*lda)
	step := func(o int, b unsafe.Pointer) {
		b0, b1 := load4(b), load4(at(b, 16))
		x := splat4(at(a, o))
		c00 = c00.Add(x.Mul(b0))
		c01 = c01.Add(x.Mul(b1))
		x = splat4(at(a1, o))
		c10 = c10.Add(x.Mul(b0))
		c11 = c11.Add(x.Mul(b1))
		x = splat4(at(a2, o))
		c20 = c20.Add(x.Mul(b0))
		c21 = c21.Add(x.Mul(b1))
		x = splat4(at(a3, o))
		c30 = c30.Add(x.Mul(b0))
		c31 = c31.Add(x.Mul(b1))
	}
	// Four steps per iteration: a backward branch costs a jump table in
	// Go's wasm code.
	l := 0
	for ; l+4 <= k; l += 4 {
		pb := at(b, l*ldb)
		step(4*l, pb)
		step(4*l+4, at(pb, ldb))
		step(4*l+8, at(pb, 2*ldb))
		step(4*l+12, at(pb, 3*ldb))
	}
	for ; l < k; l++ {
		step(4*l, at(b, l*ldb))
	}
	store4 := func(p unsafe.Pointer, v f32x4) { v.StoreArray((*[4]float32)(p)) }
	store4(c, c00)
	store4(at(c, 16), c01)
	store4(at(c, ldc), c10)
	store4(at(c, ldc+16), c11)
	store4(at(c, 2*ldc), c20)
	store4(at(c, 2*ldc+16), c21)
	store4(at(c, 3*ldc), c30)
	store4(at(c, 3*ldc+16), c31)
}

// mul32PanelKernels lists the panel micro-kernels (Weights32) of this
// build: mul4x8F32 itself on strips of 8 columns (packStrips32), b read
// 32 bytes apart instead of m·4.
func mul32PanelKernels() []mul32TileSet {
	return []mul32TileSet{{name: "simd", strip: mul4x8F32}}
}
