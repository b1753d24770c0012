//go:build amd64 && !noasm

package linalg

import "golang.org/x/sys/cpu"

// Implemented in vec_amd64.s.

//go:noescape
func dotAVX2(n int, a, x *float64) float64

//go:noescape
func axpyAVX2(n int, y, x *float64, s float64)

var vecFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dotFast returns Σ a[i]·x[i] over the length of a, with fused
// multiply-adds where the CPU has them: for the two-stage reduction, whose
// bits need not match WebAssembly's.
func dotFast(a, x []float64) float64 {
	x = x[:len(a)]
	if !vecFMA {
		return dotPortable(a, x)
	}
	n := len(a) &^ 3
	d := 0.0
	if n > 0 {
		d = dotAVX2(n, &a[0], &x[0])
	}
	for i := n; i < len(a); i++ {
		d += a[i] * x[i]
	}
	return d
}

// axpyFast sets y[i] += s·x[i] over the length of y.
func axpyFast(y, x []float64, s float64) {
	x = x[:len(y)]
	n := len(y) &^ 3
	if vecFMA && n > 0 {
		axpyAVX2(n, &y[0], &x[0], s)
	} else {
		n = 0
	}
	for i := n; i < len(y); i++ {
		y[i] += s * x[i]
	}
}

//go:noescape
func sub2AVX2(n int, x, v, w *float64, fv, gv float64)

// sub2Fast sets x[i] −= v[i]·f + w[i]·g over the length of x, with a
// fused multiply-add where the CPU has one: the bulge chase's symmetric
// update, whose bits need not match WebAssembly's (sub2, which the
// one-stage reduction runs, is unfused here: plain_amd64.s).
func sub2Fast(x, v, w []float64, f, g float64) {
	v, w = v[:len(x)], w[:len(x)]
	n := len(x) &^ 3
	if vecFMA && n > 0 {
		sub2AVX2(n, &x[0], &v[0], &w[0], f, g)
	} else {
		n = 0
	}
	for c := n; c < len(x); c++ {
		x[c] -= v[c]*f + w[c]*g
	}
}

//go:noescape
func reflectLeft64AVX512(n int, c *float64, ldc int, v *float64, tau float64)

//go:noescape
func reflectRight64AVX512(n int, c *float64, ldc int, u *float64, tau float64)

//go:noescape
func reflectLeft64AVX2(n int, c *float64, ldc int, v *float64, tau float64)

//go:noescape
func reflectRight64AVX2(n int, c *float64, ldc int, u *float64, tau float64)

var vec512 = vecFMA && cpu.X86.HasAVX512F

// reflect64 are the bulge chase's 64-wide reflector kernels of this CPU:
// AVX-512, or their AVX2 twins (the same operations in the same order, so
// the same bits: TestReflect64Bits), or none. Without the AVX2 twins an
// AVX2 machine (AMD EPYC without AVX-512) ran the chase on axpyFast and
// dotFast, a call per row.
var reflectLeft64Kernel, reflectRight64Kernel = func() (func(int, *float64, int, *float64, float64), func(int, *float64, int, *float64, float64)) {
	switch {
	case vec512:
		return reflectLeft64AVX512, reflectRight64AVX512
	case vecFMA:
		return reflectLeft64AVX2, reflectRight64AVX2
	}
	return nil, nil
}()

// reflectLeft64 sets C ← C − τv(vᵀC) for the n×64 matrix C at c (row
// stride ldc), v of length n, and reports whether it could (AVX-512 or
// AVX2): the bulge chase's blocks are nb = 64 wide, and with vᵀC in
// registers a reflector costs two passes over C and no calls per row.
func reflectLeft64(c []float64, ldc, n int, v []float64, tau float64) bool {
	if reflectLeft64Kernel == nil || n < 1 || ldc < 64 {
		return false
	}
	_, _ = c[(n-1)*ldc+63], v[n-1]
	reflectLeft64Kernel(n, &c[0], ldc, &v[0], tau)
	return true
}

// reflectRight64 sets each of the n rows r of length 64 at c (stride ldc)
// to r − τ(r·g)g, and reports whether it could (AVX-512 or AVX2).
func reflectRight64(c []float64, ldc, n int, g []float64, tau float64) bool {
	if reflectRight64Kernel == nil || n < 1 || ldc < 64 {
		return false
	}
	_, _ = c[(n-1)*ldc+63], g[63]
	reflectRight64Kernel(n, &c[0], ldc, &g[0], tau)
	return true
}

//go:noescape
func reflectNarrow8AVX2(n int, c *float64, ldc int, v *float64, ntau float64)

// reflectNarrow is reflectRows for 8 to 11 columns (the chase's rows of
// QᵀR at 10 classes): the first 8 columns in one call of an AVX2 kernel
// that keeps vᵀC in registers, the rest in Go, where the two axpyFast
// calls per row it replaces cost more in calls than in arithmetic. Each
// entry gets the operations axpyFast gives it, in the same order, so the
// bits are reflectRows': fused multiply-adds on the first 8 columns, the
// Go expression on the rest. False for other widths and where the CPU
// has no FMA.
func reflectNarrow(c []float64, ldc, cols, i0, n int, v []float64, tau float64) bool {
	if !vecFMA || cols&^3 != 8 {
		return false
	}
	if n <= 0 {
		return true
	}
	_ = c[(i0+n-1)*ldc+cols-1]
	v = v[:n]
	reflectNarrow8AVX2(n, &c[i0*ldc], ldc, &v[0], -tau)
	var z [3]float64
	for q, s := range v {
		row := c[(i0+q)*ldc+8 : (i0+q)*ldc+cols]
		for j, x := range row {
			z[j] += s * x
		}
	}
	for q, vq := range v {
		row := c[(i0+q)*ldc+8 : (i0+q)*ldc+cols]
		s := -tau * vq
		for j := range row {
			row[j] += s * z[j]
		}
	}
	return true
}
