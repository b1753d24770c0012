//go:build wasm && goexperiment.simd

package linalg

import (
	"unsafe"

	"simd/archsimd"
)

// reflectNarrow is reflectRows for 2 to 15 columns (the bulge chase's rows
// of QᵀR: 10 at 10 classes), with vᵀC in up to seven vectors held across
// the rows instead of two axpy calls per row, each on a few values (a
// third of the chase in the package's profile). Each entry gets the
// operations axpy gives it, in the same order (z + row·v[q], then
// row + z·(−τv[q]); the odd last column in Go), so the bits are
// reflectRowsAxpy's (TestReflectNarrow).
func reflectNarrow(c []float64, ldc, cols, i0, n int, v []float64, tau float64) bool {
	if cols < 2 || cols >= 16 {
		return false
	}
	if n <= 0 {
		return true
	}
	_ = c[(i0+n-1)*ldc+cols-1]
	v = v[:n]
	pairs := cols / 2
	odd := cols&1 != 0
	base := unsafe.Pointer(&c[i0*ldc])
	stride := 8 * uintptr(ldc)
	var z0, z1, z2, z3, z4, z5, z6 f64x2
	var zt float64 // the odd last column
	for q, vq := range v {
		p := unsafe.Add(base, uintptr(q)*stride) // never past the last row
		s := archsimd.BroadcastFloat64x2(vq)
		z0 = z0.Add(load2(p).Mul(s))
		if pairs > 1 {
			z1 = z1.Add(load2(unsafe.Add(p, 16)).Mul(s))
			if pairs > 2 {
				z2 = z2.Add(load2(unsafe.Add(p, 32)).Mul(s))
				if pairs > 3 {
					z3 = z3.Add(load2(unsafe.Add(p, 48)).Mul(s))
					if pairs > 4 {
						z4 = z4.Add(load2(unsafe.Add(p, 64)).Mul(s))
						if pairs > 5 {
							z5 = z5.Add(load2(unsafe.Add(p, 80)).Mul(s))
							if pairs > 6 {
								z6 = z6.Add(load2(unsafe.Add(p, 96)).Mul(s))
							}
						}
					}
				}
			}
		}
		if odd {
			zt += vq * *(*float64)(unsafe.Add(p, 16*pairs))
		}
	}
	for q, vq := range v {
		p := unsafe.Add(base, uintptr(q)*stride)
		f := -tau * vq
		s := archsimd.BroadcastFloat64x2(f)
		a := (*[2]float64)(p)
		archsimd.LoadFloat64x2Array(a).Add(z0.Mul(s)).StoreArray(a)
		if pairs > 1 {
			a = (*[2]float64)(unsafe.Add(p, 16))
			archsimd.LoadFloat64x2Array(a).Add(z1.Mul(s)).StoreArray(a)
			if pairs > 2 {
				a = (*[2]float64)(unsafe.Add(p, 32))
				archsimd.LoadFloat64x2Array(a).Add(z2.Mul(s)).StoreArray(a)
				if pairs > 3 {
					a = (*[2]float64)(unsafe.Add(p, 48))
					archsimd.LoadFloat64x2Array(a).Add(z3.Mul(s)).StoreArray(a)
					if pairs > 4 {
						a = (*[2]float64)(unsafe.Add(p, 64))
						archsimd.LoadFloat64x2Array(a).Add(z4.Mul(s)).StoreArray(a)
						if pairs > 5 {
							a = (*[2]float64)(unsafe.Add(p, 80))
							archsimd.LoadFloat64x2Array(a).Add(z5.Mul(s)).StoreArray(a)
							if pairs > 6 {
								a = (*[2]float64)(unsafe.Add(p, 96))
								archsimd.LoadFloat64x2Array(a).Add(z6.Mul(s)).StoreArray(a)
							}
						}
					}
				}
			}
		}
		if odd {
			t := (*float64)(unsafe.Add(p, 16*pairs))
			*t += f * zt
		}
	}
	return true
}

// reflectLeft64 sets C ← C − τv(vᵀC) for the n×64 matrix C at c (row
// stride ldc), v of length n: the bulge chase's left reflections of its
// 64-wide blocks, in four strips of 16 columns, vᵀC's strip in eight
// vectors across the rows (two axpy calls of 64 values per row before).
// Each entry gets reflectRowsAxpy's operations in its order, so the same
// bits (TestReflectLeft64). It always reports true.
func reflectLeft64(c []float64, ldc, n int, v []float64, tau float64) bool {
	if n <= 0 {
		return true
	}
	_ = c[(n-1)*ldc+63]
	v = v[:n]
	base, stride := unsafe.Pointer(&c[0]), 8*uintptr(ldc)
	for strip := uintptr(0); strip < 64*8; strip += 16 * 8 {
		var z0, z1, z2, z3, z4, z5, z6, z7 f64x2
		for q, vq := range v {
			p := unsafe.Add(base, uintptr(q)*stride+strip)
			s := archsimd.BroadcastFloat64x2(vq)
			z0 = z0.Add(load2(p).Mul(s))
			z1 = z1.Add(load2(unsafe.Add(p, 16)).Mul(s))
			z2 = z2.Add(load2(unsafe.Add(p, 32)).Mul(s))
			z3 = z3.Add(load2(unsafe.Add(p, 48)).Mul(s))
			z4 = z4.Add(load2(unsafe.Add(p, 64)).Mul(s))
			z5 = z5.Add(load2(unsafe.Add(p, 80)).Mul(s))
			z6 = z6.Add(load2(unsafe.Add(p, 96)).Mul(s))
			z7 = z7.Add(load2(unsafe.Add(p, 112)).Mul(s))
		}
		for q, vq := range v {
			p := unsafe.Add(base, uintptr(q)*stride+strip)
			s := archsimd.BroadcastFloat64x2(-tau * vq)
			at := func(o uintptr) *[2]float64 { return (*[2]float64)(unsafe.Add(p, o)) }
			archsimd.LoadFloat64x2Array(at(0)).Add(z0.Mul(s)).StoreArray(at(0))
			archsimd.LoadFloat64x2Array(at(16)).Add(z1.Mul(s)).StoreArray(at(16))
			archsimd.LoadFloat64x2Array(at(32)).Add(z2.Mul(s)).StoreArray(at(32))
			archsimd.LoadFloat64x2Array(at(48)).Add(z3.Mul(s)).StoreArray(at(48))
			archsimd.LoadFloat64x2Array(at(64)).Add(z4.Mul(s)).StoreArray(at(64))
			archsimd.LoadFloat64x2Array(at(80)).Add(z5.Mul(s)).StoreArray(at(80))
			archsimd.LoadFloat64x2Array(at(96)).Add(z6.Mul(s)).StoreArray(at(96))
			archsimd.LoadFloat64x2Array(at(112)).Add(z7.Mul(s)).StoreArray(at(112))
		}
	}
	return true
}
