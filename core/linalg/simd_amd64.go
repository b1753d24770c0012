//go:build amd64 && !noasm

package linalg

import "golang.org/x/sys/cpu"

// Implemented in plain_amd64.s: the vector loops of the one-stage
// reduction to tridiagonal form, of applyQt and of Quad, in AVX with each
// entry's portable operations in the portable order (a rounded multiply,
// then a rounded add; no fused multiply-add), so the bits are those of the
// plain Go loops and of WebAssembly's (simd_wasm.go): the exact path's
// eigendecompositions and leave-one-out sums do not depend on the host.

//go:noescape
func dotPlainAVX(n int, x, y *float64) float64

//go:noescape
func axpyPlainAVX(n int, y, x *float64, s float64)

//go:noescape
func sub2PlainAVX(n int, x, v, w *float64, fv, gv float64)

//go:noescape
func quad16AVX(m int, x *float64, rs int, mult, inv *float64, acc *[16]float64)

//go:noescape
func mul4x8MaskAVX(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, add bool, mask *[8]int64)

//go:noescape
func quad4AVX(m int, x *float64, rs int, mult, inv *float64, acc *[4]float64)

// plainAVX says the loops run in AVX; without it (or with -tags noasm)
// they are the portable Go.
var plainAVX = cpu.X86.HasAVX

// dot is dotPortable: its partial sums s0…s3 are the four lanes of one
// vector.
func dot(x, y []float64) float64 {
	y = y[:len(x)]
	if !plainAVX || len(x) == 0 {
		return dotPortable(x, y)
	}
	return dotPlainAVX(len(x), &x[0], &y[0])
}

// axpy is axpyPortable, four entries at a time.
func axpy(y, x []float64, s float64) {
	x = x[:len(y)]
	if !plainAVX || len(y) == 0 {
		axpyPortable(y, x, s)
		return
	}
	axpyPlainAVX(len(y), &y[0], &x[0], s)
}

// sub2 is sub2Portable, four entries at a time.
func sub2(x, v, w []float64, f, g float64) {
	v, w = v[:len(x)], w[:len(x)]
	if !plainAVX || len(x) == 0 {
		sub2Portable(x, v, w, f, g)
		return
	}
	sub2PlainAVX(len(x), &x[0], &v[0], &w[0], f, g)
}

// quadCols is quadColsPortable λ by λ, sixteen columns (then four) at a
// time, their z and sums in registers for the whole sweep down the rows;
// the last columns (fewer than four) run the portable loop.
func quadCols(f *ShiftedLDL, out, x []float64, l, c0, c1 int) {
	m, nl := f.m, len(f.lambdas)
	if !plainAVX || m == 0 || c1-c0 < 4 {
		quadColsPortable(f, out, x, l, c0, c1)
		return
	}
	_, _ = x[(m-1)*l+c1-1], out[(c1-1)*nl+nl-1]
	rs := 8 * l
	c := c0
	for ; c+16 <= c1; c += 16 {
		var acc [16]float64
		p := &x[c]
		for t, lam := range f.lambdas {
			quad16AVX(m, p, rs, &f.mult[t*m], &f.inv[t*m], &acc)
			for i, a := range acc {
				out[(c+i)*nl+t] = lam * a
			}
		}
	}
	for ; c+4 <= c1; c += 4 {
		var acc [4]float64
		for t, lam := range f.lambdas {
			quad4AVX(m, &x[c], rs, &f.mult[t*m], &f.inv[t*m], &acc)
			for i, a := range acc {
				out[(c+i)*nl+t] = lam * a
			}
		}
	}
	if c < c1 {
		quadColsPortable(f, out, x, l, c, c1)
	}
}

// mulMaskCols runs mul4x8MaskAVX on the last m−j0 (< 8) columns of the
// 4-row blocks of rows [i0, i1), blocked over the inner index as
// mulStrips does, and returns the first column it leaves (m, or j0 where
// it has nothing to do): the columns a product's strips leave, which
// mulTail summed one scalar at a time (on the exact path, 3 of every
// 427-column row of applyQt's R −= VY at breast_cancer's size).
func mulMaskCols(c, a, b []float64, i0, i1, j0, k, m int) int {
	w := m - j0
	if !plainAVX || w <= 0 || w >= 8 || k == 0 || i1-i0 < 4 {
		return j0
	}
	var mask [8]int64
	for q := range w {
		mask[q] = -1
	}
	_, _, _ = a[(i1-1)*k+k-1], b[(k-1)*m+m-1], c[(i1-1)*m+m-1]
	for l0 := 0; l0 < k; l0 += mulBlock {
		kl := min(mulBlock, k-l0)
		for i := i0; i+4 <= i1; i += 4 {
			mul4x8MaskAVX(kl, &a[i*k+l0], k, &b[l0*m+j0], m, &c[i*m+j0], m, l0 > 0, &mask)
		}
	}
	return m
}
