//go:build goexperiment.simd && wasm

package linalg

import (
	"simd/archsimd"
	"unsafe"
)

// WebAssembly SIMD versions of the vector loops of the reduction to
// tridiagonal form. Each lane does the portable code's operations for its
// entries in the same order (wasm has no fused multiply-add), so the bits
// are those of dotPortable and sub2Portable, and the eigendecomposition is
// the same with and without SIMD.

// dot is dotPortable with the partial sums s0, s1 in one vector and s2,
// s3 in another.
func dot(x, y []float64) float64 {
	y = y[:len(x)]
	n := len(x) &^ 3
	var s01, s23 f64x2
	if n > 0 {
		px, py := unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0])
		step := func(o int) {
			s01 = s01.Add(load2(unsafe.Add(px, o)).Mul(load2(unsafe.Add(py, o))))
			s23 = s23.Add(load2(unsafe.Add(px, o+16)).Mul(load2(unsafe.Add(py, o+16))))
		}
		// Four steps per iteration: every backward branch of Go's wasm
		// code goes through a jump table (see block4x4).
		o := 0
		for ; o+128 <= 8*n; o += 128 {
			step(o)
			step(o + 32)
			step(o + 64)
			step(o + 96)
		}
		for ; o < 8*n; o += 32 {
			step(o)
		}
	}
	s0 := s01.GetElem(0)
	for i := n; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s01.GetElem(1)) + (s23.GetElem(0) + s23.GetElem(1))
}

// rotSweep is rotSweepPortable on two columns per vector, a vector at a
// time down the rows: the row a rotation leaves for the next one stays in
// registers, so each step loads one row and stores one. Every entry sees
// the portable sequence of operations.
func rotSweep(w []float64, l, lo, hi int, cs, sn []float64, t0, t1 int) {
	if hi <= lo || t1 <= t0 {
		return
	}
	_, _, _ = w[hi*l+t1-1], cs[lo:hi], sn[lo:hi]
	t := t0
	for ; t+2 <= t1; t += 2 {
		p := unsafe.Pointer(&w[lo*l+t])
		at := func(i int) *[2]float64 { return (*[2]float64)(unsafe.Add(p, 8*(i-lo)*l)) }
		y := archsimd.LoadFloat64x2Array(at(hi))
		for i := hi - 1; i >= lo; i-- {
			c, s := archsimd.BroadcastFloat64x2(cs[i]), archsimd.BroadcastFloat64x2(sn[i])
			x := archsimd.LoadFloat64x2Array(at(i))
			s.Mul(x).Add(c.Mul(y)).StoreArray(at(i + 1))
			y = c.Mul(x).Sub(s.Mul(y))
		}
		y.StoreArray(at(lo))
	}
	if t < t1 {
		rotSweepPortable(w, l, lo, hi, cs, sn, t, t1)
	}
}

// axpy is axpyPortable two entries at a time: the bulge chasing of the
// two-stage reduction and its panel factorization are made of it.
func axpy(y, x []float64, s float64) {
	x = x[:len(y)]
	n := len(y) &^ 1
	if n > 0 {
		sv := archsimd.BroadcastFloat64x2(s)
		py, px := unsafe.Pointer(&y[0]), unsafe.Pointer(&x[0])
		step := func(o int) {
			yp := (*[2]float64)(unsafe.Add(py, o))
			archsimd.LoadFloat64x2Array(yp).Add(load2(unsafe.Add(px, o)).Mul(sv)).StoreArray(yp)
		}
		o := 0
		for ; o+64 <= 8*n; o += 64 {
			step(o)
			step(o + 16)
			step(o + 32)
			step(o + 48)
		}
		for ; o < 8*n; o += 16 {
			step(o)
		}
	}
	for i := n; i < len(y); i++ {
		y[i] += s * x[i]
	}
}

// sub2 is sub2Portable two entries at a time.
func sub2(x, v, w []float64, f, g float64) {
	v, w = v[:len(x)], w[:len(x)]
	n := len(x) &^ 1
	if n > 0 {
		fv, gv := archsimd.BroadcastFloat64x2(f), archsimd.BroadcastFloat64x2(g)
		px, pv, pw := unsafe.Pointer(&x[0]), unsafe.Pointer(&v[0]), unsafe.Pointer(&w[0])
		step := func(o int) {
			xp := (*[2]float64)(unsafe.Add(px, o))
			t := load2(unsafe.Add(pv, o)).Mul(fv).Add(load2(unsafe.Add(pw, o)).Mul(gv))
			archsimd.LoadFloat64x2Array(xp).Sub(t).StoreArray(xp)
		}
		o := 0
		for ; o+64 <= 8*n; o += 64 {
			step(o)
			step(o + 16)
			step(o + 32)
			step(o + 48)
		}
		for ; o < 8*n; o += 16 {
			step(o)
		}
	}
	for c := n; c < len(x); c++ {
		x[c] -= v[c]*f + w[c]*g
	}
}
