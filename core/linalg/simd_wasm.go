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

// quadCols is quadColsPortable λ by λ, eight columns (then two) at a
// time, their z and sums in registers for the whole sweep down the rows:
// the portable loop loads and stores both at every row, in short loops
// whose back edges Go's wasm code makes slow. Each entry sees the
// portable sequence of operations.
func quadCols(f *ShiftedLDL, out, x []float64, l, c0, c1 int) {
	m, nl := f.m, len(f.lambdas)
	_, _ = x[(m-1)*l+c1-1], out[(c1-1)*nl+nl-1]
	c := c0
	for ; c+8 <= c1; c += 8 {
		for t := range nl {
			quad8(f, t, out, unsafe.Pointer(&x[c]), 8*l, c)
		}
	}
	for ; c+2 <= c1; c += 2 {
		for t := range nl {
			quad2(f, t, out, unsafe.Pointer(&x[c]), 8*l, c)
		}
	}
	if c < c1 {
		quadColsPortable(f, out, x, l, c, c1)
	}
}

// quad8 sweeps λ t down the eight columns from p (rows rs bytes apart)
// and sets their entries of out (columns c to c+7).
func quad8(f *ShiftedLDL, t int, out []float64, p unsafe.Pointer, rs, c int) {
	m, nl := f.m, len(f.lambdas)
	mult, inv := f.mult[t*m:(t+1)*m], f.inv[t*m:(t+1)*m]
	d := archsimd.BroadcastFloat64x2(inv[0])
	z0, z1, z2, z3 := load2(p), load2(at(p, 16)), load2(at(p, 32)), load2(at(p, 48))
	a0, a1, a2, a3 := z0.Mul(z0).Mul(d), z1.Mul(z1).Mul(d), z2.Mul(z2).Mul(d), z3.Mul(z3).Mul(d)
	pm, pi := unsafe.Pointer(&mult[0]), unsafe.Pointer(&inv[0])
	step := func(j int) {
		p = at(p, rs)
		lj, d := splat2(at(pm, 8*(j-1))), splat2(at(pi, 8*j))
		z0 = load2(p).Sub(lj.Mul(z0))
		z1 = load2(at(p, 16)).Sub(lj.Mul(z1))
		z2 = load2(at(p, 32)).Sub(lj.Mul(z2))
		z3 = load2(at(p, 48)).Sub(lj.Mul(z3))
		a0 = a0.Add(z0.Mul(z0).Mul(d))
		a1 = a1.Add(z1.Mul(z1).Mul(d))
		a2 = a2.Add(z2.Mul(z2).Mul(d))
		a3 = a3.Add(z3.Mul(z3).Mul(d))
	}
	// Two rows per iteration: every backward branch of Go's wasm code
	// goes through a jump table (see block4x4).
	j := 1
	for ; j+2 <= m; j += 2 {
		step(j)
		step(j + 1)
	}
	if j < m {
		step(j)
	}
	lam := f.lambdas[t]
	for i, a := range [4]f64x2{a0, a1, a2, a3} {
		out[(c+2*i)*nl+t] = lam * a.GetElem(0)
		out[(c+2*i+1)*nl+t] = lam * a.GetElem(1)
	}
}

// quad2 is quad8 for two columns.
func quad2(f *ShiftedLDL, t int, out []float64, p unsafe.Pointer, rs, c int) {
	m, nl := f.m, len(f.lambdas)
	mult, inv := f.mult[t*m:(t+1)*m], f.inv[t*m:(t+1)*m]
	z := load2(p)
	a := z.Mul(z).Mul(archsimd.BroadcastFloat64x2(inv[0]))
	pm, pi := unsafe.Pointer(&mult[0]), unsafe.Pointer(&inv[0])
	for j := 1; j < m; j++ {
		p = at(p, rs)
		z = load2(p).Sub(splat2(at(pm, 8*(j-1))).Mul(z))
		a = a.Add(z.Mul(z).Mul(splat2(at(pi, 8*j))))
	}
	lam := f.lambdas[t]
	out[c*nl+t] = lam * a.GetElem(0)
	out[(c+1)*nl+t] = lam * a.GetElem(1)
}
