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

// reflectPairs is reflectEach two rows at a time: each pair's dots share
// the loads of u, and a row costs no calls. Each row gets dot's
// operations in dot's order (two vectors of partial sums, four values a
// step, the tail into the first sum) and then axpy's, so the bits are
// the dot and axpy calls' (TestReflectPairs). It always reports true.
func reflectPairs(c []float64, ldc, n int, u []float64, tau float64) bool {
	k := len(u)
	if n <= 0 || k == 0 {
		return true
	}
	_ = c[(n-1)*ldc+k-1]
	k4, k2 := k&^3, k&^1
	pu := unsafe.Pointer(&u[0])
	q := 0
	for ; q+1 < n; q += 2 {
		ra, rb := c[q*ldc:q*ldc+k], c[(q+1)*ldc:(q+1)*ldc+k]
		pa, pb := unsafe.Pointer(&ra[0]), unsafe.Pointer(&rb[0])
		var a01, a23, b01, b23 f64x2
		for o := 0; o < 8*k4; o += 32 {
			u01, u23 := load2(unsafe.Add(pu, o)), load2(unsafe.Add(pu, o+16))
			a01 = a01.Add(load2(unsafe.Add(pa, o)).Mul(u01))
			a23 = a23.Add(load2(unsafe.Add(pa, o+16)).Mul(u23))
			b01 = b01.Add(load2(unsafe.Add(pb, o)).Mul(u01))
			b23 = b23.Add(load2(unsafe.Add(pb, o+16)).Mul(u23))
		}
		sa, sb := a01.GetElem(0), b01.GetElem(0)
		for i := k4; i < k; i++ {
			sa += ra[i] * u[i]
			sb += rb[i] * u[i]
		}
		fa := -tau * ((sa + a01.GetElem(1)) + (a23.GetElem(0) + a23.GetElem(1)))
		fb := -tau * ((sb + b01.GetElem(1)) + (b23.GetElem(0) + b23.GetElem(1)))
		va, vb := archsimd.BroadcastFloat64x2(fa), archsimd.BroadcastFloat64x2(fb)
		for o := 0; o < 8*k2; o += 16 {
			x := load2(unsafe.Add(pu, o))
			ya, yb := (*[2]float64)(unsafe.Add(pa, o)), (*[2]float64)(unsafe.Add(pb, o))
			archsimd.LoadFloat64x2Array(ya).Add(x.Mul(va)).StoreArray(ya)
			archsimd.LoadFloat64x2Array(yb).Add(x.Mul(vb)).StoreArray(yb)
		}
		for i := k2; i < k; i++ {
			ra[i] += fa * u[i]
			rb[i] += fb * u[i]
		}
	}
	if q < n {
		r := c[q*ldc : q*ldc+k]
		axpy(r, u, -tau*dot(r, u))
	}
	return true
}
