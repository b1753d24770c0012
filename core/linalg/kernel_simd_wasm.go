//go:build goexperiment.simd && wasm

package linalg

import (
	"simd/archsimd"
	"unsafe"
)

// WebAssembly SIMD kernels (128-bit vectors, no fused multiply-add). Each
// lane sums one entry of the result in the order of the portable kernel it
// replaces, with the same roundings, so results are bit-for-bit those of
// the portable code: only the number of entries per instruction changes.
//
// The loops address their operands through unsafe.Pointer offsets from a
// slice's first element: Go's wasm port checks the bounds of every slice
// expression, which cost a third of the kernels' time. Each kernel checks
// the lengths once before its loop, and no offset leaves the slice.

// kernels lists the AddAtA and Mul implementations this build can run, the
// fastest first.
func kernels() []kernelSet {
	return []kernelSet{
		{"simd", tileSIMD, mulSIMD},
		{"portable", tilePortable, mulPacked},
	}
}

// kernels32 lists the AddAtA32 micro-kernels this build can run.
func kernels32() []kernel32Set { return []kernel32Set{{"simd", tile32SIMD, false}} }

// dotAxpy is the DotAxpy implementation.
var dotAxpy = dotAxpySIMD

type f64x2 = archsimd.Float64x2

// at returns the address off bytes past p.
func at(p unsafe.Pointer, off int) unsafe.Pointer { return unsafe.Add(p, off) }

func load2(p unsafe.Pointer) f64x2 { return archsimd.LoadFloat64x2Array((*[2]float64)(p)) }

func splat2(p unsafe.Pointer) f64x2 { return archsimd.BroadcastFloat64x2(*(*float64)(p)) }

// block4x4 returns the sums over l < k of the outer products of the 4
// values at a + l·stride and the 4 at b + l·stride (stride in bytes), as
// rows of two vectors: acc[2r+h] holds entries (r, 2h) and (r, 2h+1).
// Every entry starts at zero and adds its products in increasing l, as
// kernel4x2 and mulKernel4x2 do. The caller checks that the operands hold
// k rows.
func block4x4(k int, a, b unsafe.Pointer, stride int) (acc [8]f64x2) {
	var c00, c01, c10, c11, c20, c21, c30, c31 f64x2
	step := func(a, b unsafe.Pointer) {
		b0, b1 := load2(b), load2(at(b, 16))
		a0 := splat2(a)
		c00 = c00.Add(a0.Mul(b0))
		c01 = c01.Add(a0.Mul(b1))
		a1 := splat2(at(a, 8))
		c10 = c10.Add(a1.Mul(b0))
		c11 = c11.Add(a1.Mul(b1))
		a2 := splat2(at(a, 16))
		c20 = c20.Add(a2.Mul(b0))
		c21 = c21.Add(a2.Mul(b1))
		a3 := splat2(at(a, 24))
		c30 = c30.Add(a3.Mul(b0))
		c31 = c31.Add(a3.Mul(b1))
	}
	// Four steps per iteration: every backward branch of Go's wasm code
	// goes through a jump table, and this halved the time per step.
	l := 0
	for ; l+4 <= k; l += 4 {
		o := l * stride
		step(at(a, o), at(b, o))
		step(at(a, o+stride), at(b, o+stride))
		step(at(a, o+2*stride), at(b, o+2*stride))
		step(at(a, o+3*stride), at(b, o+3*stride))
	}
	for ; l < k; l++ {
		step(at(a, l*stride), at(b, l*stride))
	}
	return [8]f64x2{c00, c01, c10, c11, c20, c21, c30, c31}
}

// tileSIMD is the tileFunc on 4×4 blocks: kernel4x2's sums, two columns
// per vector.
func tileSIMD(k int, a, b []float64, ps int, c []float64, ldc int) {
	if k < 1 || len(a) < k*panelW || len(b) < 2*ps+k*panelW || ps < k*panelW ||
		ldc < tileC || len(c) < (tileR-1)*ldc+tileC {
		panic("linalg: tile kernel called with bad shapes")
	}
	pa, pb := unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0])
	for r := 0; r < tileR; r += 4 {
		for s := 0; s < tileC; s += 4 {
			q, o := s/panelW, s%panelW
			acc := block4x4(k, at(pa, 8*r), at(pb, 8*(q*ps+o)), 8*panelW)
			for i := range 4 {
				ci := c[(r+i)*ldc+s : (r+i)*ldc+s+4]
				archsimd.LoadFloat64x2(ci).Add(acc[2*i]).Store(ci)
				archsimd.LoadFloat64x2(ci[2:]).Add(acc[2*i+1]).Store(ci[2:])
			}
		}
	}
}

// mulSIMD is mulPacked on 4×4 blocks.
func mulSIMD(c, a, b []float64, i0, i1, k, m int) {
	mulPackedWith(mul4x4SIMD, c, a, b, i0, i1, k, m)
}

func mul4x4SIMD(k int, a, b, c []float64, ldc int) {
	if k < 1 || len(a) < 4*k || len(b) < 4*k || len(c) < 3*ldc+4 {
		panic("linalg: mul kernel called with bad shapes")
	}
	acc := block4x4(k, unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), 32)
	for i := range 4 {
		ci := c[i*ldc : i*ldc+4]
		acc[2*i].Store(ci)
		acc[2*i+1].Store(ci[2:])
	}
}

// tile32SIMD is tile32Portable on 4×8 blocks of Float32x4: each lane sums
// one entry in float32 in increasing l, then adds it to c in float64.
func tile32SIMD(k int, a, b []float32, ps int, c []float64, ldc int) {
	if k < 1 || len(a) < (k-1)*panel32+tile32R || ps < k*panel32 || len(b) < 2*ps+k*panel32 ||
		ldc < tile32C || len(c) < (tile32R-1)*ldc+tile32C {
		panic("linalg: float32 tile kernel called with bad shapes")
	}
	pa, pb := unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0])
	var sums [8][4]float32
	for r := 0; r < tile32R; r += 4 {
		for s := 0; s < tile32C; s += 8 {
			q, o := s/panel32, s%panel32
			block4x8F32(k, at(pa, 4*r), at(pb, 4*(q*ps+o)), &sums)
			for i := range 4 {
				ci := c[(r+i)*ldc+s : (r+i)*ldc+s+8]
				for j, v := range sums[2*i] {
					ci[j] += float64(v)
				}
				for j, v := range sums[2*i+1] {
					ci[4+j] += float64(v)
				}
			}
		}
	}
}

type f32x4 = archsimd.Float32x4

func load4(p unsafe.Pointer) f32x4 { return archsimd.LoadFloat32x4Array((*[4]float32)(p)) }

func splat4(p unsafe.Pointer) f32x4 { return archsimd.BroadcastFloat32x4(*(*float32)(p)) }

// block4x8F32 stores in sums the float32 sums over l < k of the outer
// products of the 4 values at a + 64l and the 8 at b + 64l (one row of a
// float32 panel), each from zero in increasing l.
func block4x8F32(k int, a, b unsafe.Pointer, sums *[8][4]float32) {
	const stride = 4 * panel32
	var c00, c01, c10, c11, c20, c21, c30, c31 f32x4
	step := func(a, b unsafe.Pointer) {
		b0, b1 := load4(b), load4(at(b, 16))
		a0 := splat4(a)
		c00 = c00.Add(a0.Mul(b0))
		c01 = c01.Add(a0.Mul(b1))
		a1 := splat4(at(a, 4))
		c10 = c10.Add(a1.Mul(b0))
		c11 = c11.Add(a1.Mul(b1))
		a2 := splat4(at(a, 8))
		c20 = c20.Add(a2.Mul(b0))
		c21 = c21.Add(a2.Mul(b1))
		a3 := splat4(at(a, 12))
		c30 = c30.Add(a3.Mul(b0))
		c31 = c31.Add(a3.Mul(b1))
	}
	l := 0
	for ; l+4 <= k; l += 4 {
		o := l * stride
		step(at(a, o), at(b, o))
		step(at(a, o+stride), at(b, o+stride))
		step(at(a, o+2*stride), at(b, o+2*stride))
		step(at(a, o+3*stride), at(b, o+3*stride))
	}
	for ; l < k; l++ {
		step(at(a, l*stride), at(b, l*stride))
	}
	for i, v := range [8]f32x4{c00, c01, c10, c11, c20, c21, c30, c31} {
		v.StoreArray(&sums[i])
	}
}

// dotAxpySIMD is dotAxpyPortable with its partial sums s0, s1 in one
// vector and s2, s3 in another: the same operations in the same order.
func dotAxpySIMD(y, a, x []float64, s float64) float64 {
	n := len(a) &^ 3
	x, y = x[:len(a)], y[:len(a)]
	var s01, s23 f64x2
	if n > 0 {
		sv := archsimd.BroadcastFloat64x2(s)
		pa, px, py := unsafe.Pointer(&a[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0])
		step := func(o int) {
			a01, a23 := load2(at(pa, o)), load2(at(pa, o+16))
			s01 = s01.Add(a01.Mul(load2(at(px, o))))
			s23 = s23.Add(a23.Mul(load2(at(px, o+16))))
			y01, y23 := (*[2]float64)(at(py, o)), (*[2]float64)(at(py, o+16))
			archsimd.LoadFloat64x2Array(y01).Add(a01.Mul(sv)).StoreArray(y01)
			archsimd.LoadFloat64x2Array(y23).Add(a23.Mul(sv)).StoreArray(y23)
		}
		c := 0
		for ; c+8 <= n; c += 8 {
			step(8 * c)
			step(8*c + 32)
		}
		if c < n {
			step(8 * c)
		}
	}
	s0, s1 := s01.GetElem(0), s01.GetElem(1)
	for c := n; c < len(a); c++ {
		s0 += a[c] * x[c]
		y[c] += a[c] * s
	}
	return (s0 + s1) + (s23.GetElem(0) + s23.GetElem(1))
}
