//go:build wasm && goexperiment.simd

package linalg

import (
	"unsafe"

	"simd/archsimd"
)

// The bulge chase's left reflections C ← C − τv(vᵀC) in WebAssembly: a
// strip of up to 16 columns at a time with its share of vᵀC in up to
// eight vectors held across the rows, instead of two axpy calls per row,
// each on a few values (a third of the chase in the package's profile).
// Each entry gets the operations axpy gives it, in the same order
// (z + row·v[q], then row + z·(−τv[q])), so the bits are
// reflectRowsAxpy's (TestReflectNarrow, TestReflectLeft64).

// reflectNarrow is reflectRows for 2 to 15 columns (the chase's rows of
// QᵀR: 10 at 10 classes): one strip, the odd last column in Go.
func reflectNarrow(c []float64, ldc, cols, i0, n int, v []float64, tau float64) bool {
	if cols < 2 || cols >= 16 {
		return false
	}
	if n <= 0 {
		return true
	}
	_ = c[(i0+n-1)*ldc+cols-1]
	v = v[:n]
	reflectStrip(unsafe.Pointer(&c[i0*ldc]), 8*uintptr(ldc), cols/2, v, tau)
	if cols&1 != 0 {
		last := i0*ldc + cols - 1
		var z float64
		for q, vq := range v {
			z += vq * c[last+q*ldc]
		}
		for q, vq := range v {
			f := -tau * vq
			c[last+q*ldc] += f * z
		}
	}
	return true
}

// reflectLeft64 sets C ← C − τv(vᵀC) for the n×64 matrix C at c (row
// stride ldc), v of length n: the chase's 64-wide blocks, in four strips
// of 16 columns. It always reports true.
func reflectLeft64(c []float64, ldc, n int, v []float64, tau float64) bool {
	if n <= 0 {
		return true
	}
	_ = c[(n-1)*ldc+63]
	v = v[:n]
	for strip := range 4 {
		reflectStrip(unsafe.Pointer(&c[16*strip]), 8*uintptr(ldc), 8, v, tau)
	}
	return true
}

// reflectStrip reflects the 2·pairs columns (pairs 1…8) at base of the
// len(v) rows stride bytes apart.
func reflectStrip(base unsafe.Pointer, stride uintptr, pairs int, v []float64, tau float64) {
	var z0, z1, z2, z3, z4, z5, z6, z7 f64x2
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
								if pairs > 7 {
									z7 = z7.Add(load2(unsafe.Add(p, 112)).Mul(s))
								}
							}
						}
					}
				}
			}
		}
	}
	for q, vq := range v {
		p := unsafe.Add(base, uintptr(q)*stride)
		s := archsimd.BroadcastFloat64x2(-tau * vq)
		update := func(o uintptr, z f64x2) {
			a := (*[2]float64)(unsafe.Add(p, o))
			archsimd.LoadFloat64x2Array(a).Add(z.Mul(s)).StoreArray(a)
		}
		update(0, z0)
		if pairs > 1 {
			update(16, z1)
			if pairs > 2 {
				update(32, z2)
				if pairs > 3 {
					update(48, z3)
					if pairs > 4 {
						update(64, z4)
						if pairs > 5 {
							update(80, z5)
							if pairs > 6 {
								update(96, z6)
								if pairs > 7 {
									update(112, z7)
								}
							}
						}
					}
				}
			}
		}
	}
}
