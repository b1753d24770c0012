//go:build goexperiment.simd && wasm

package linalg

import (
	"simd/archsimd"
	"unsafe"
)

// addRowAtB is addRowAtBPortable two columns of c at a time: each lane
// rounds v·b_j and adds it to c_ij as the plain loop does (wasm has no
// fused multiply-add), so the bits are the same. ΦᵀY at k = 10 classes
// took 0.3–0.6 s of each worker's part in scalar code. Its inner loop is
// axpy's, written out: a call of axpy per entry of al (and per entry of
// ai in mulRow) measured 1.4–2.4× slower at m = 2048, k = 10 in wasm.
//
//go:noinline
func addRowAtB(c, al, bl []float64) {
	k := len(bl)
	k2 := k &^ 1
	if k2 == 0 || len(al) == 0 {
		addRowAtBPortable(c, al, bl)
		return
	}
	_ = c[len(al)*k-1]
	pc, pb := unsafe.Pointer(&c[0]), unsafe.Pointer(&bl[0])
	last := bl[k-1]
	for i, v := range al {
		if v == 0 {
			continue
		}
		vv := archsimd.BroadcastFloat64x2(v)
		ci := unsafe.Add(pc, 8*i*k)
		step := func(o int) {
			cp := (*[2]float64)(unsafe.Add(ci, o))
			archsimd.LoadFloat64x2Array(cp).Add(load2(unsafe.Add(pb, o)).Mul(vv)).StoreArray(cp)
		}
		// Four pairs per iteration: every backward branch of Go's wasm
		// code goes through a jump table (see block4x4).
		o := 0
		for ; o+64 <= 8*k2; o += 64 {
			step(o)
			step(o + 16)
			step(o + 32)
			step(o + 48)
		}
		for ; o < 8*k2; o += 16 {
			step(o)
		}
		if k2 < k {
			c[i*k+k-1] += float64(v * last) // rounded, never fused
		}
	}
}

// mulRow is mulRowPortable two columns of ci at a time, each lane's
// product rounded and added as in the plain loop: the same bits.
//
//go:noinline
func mulRow(ci, ai, b []float64, ldb int) {
	k := len(ci)
	k2 := k &^ 1
	if k2 == 0 || len(ai) == 0 {
		mulRowPortable(ci, ai, b, ldb)
		return
	}
	_ = b[(len(ai)-1)*ldb+k-1]
	pc, pb := unsafe.Pointer(&ci[0]), unsafe.Pointer(&b[0])
	if k <= 5 {
		mulRowNarrow(pc, ai, pb, ldb, k)
		return
	}
	clear(ci)
	for l, v := range ai {
		if v == 0 {
			continue
		}
		vv := archsimd.BroadcastFloat64x2(v)
		bl := unsafe.Add(pb, 8*l*ldb)
		step := func(o int) {
			cp := (*[2]float64)(unsafe.Add(pc, o))
			archsimd.LoadFloat64x2Array(cp).Add(load2(unsafe.Add(bl, o)).Mul(vv)).StoreArray(cp)
		}
		o := 0
		for ; o+64 <= 8*k2; o += 64 {
			step(o)
			step(o + 16)
			step(o + 32)
			step(o + 48)
		}
		for ; o < 8*k2; o += 16 {
			step(o)
		}
		if k2 < k {
			ci[k-1] += float64(v * b[l*ldb+k-1]) // rounded, never fused
		}
	}
}

// mulRowNarrow is mulRow for 2 ≤ k ≤ 5 columns (the classes of a
// prediction: 2 for the playground's pictures) with the sums in registers
// instead of in ci, stored once: the wide loop loaded and stored ci once
// per entry of ai, a chain through memory that took most of a
// prediction's product. The same operations per lane, so the same bits.
func mulRowNarrow(pc unsafe.Pointer, ai []float64, pb unsafe.Pointer, ldb, k int) {
	zero := archsimd.BroadcastFloat64x2(0)
	s0, s1, tail := zero, zero, 0.0
	two := k >= 4
	odd := k&1 == 1
	for l, v := range ai {
		if v == 0 {
			continue
		}
		vv := archsimd.BroadcastFloat64x2(v)
		bl := unsafe.Add(pb, 8*l*ldb)
		s0 = s0.Add(load2(bl).Mul(vv))
		if two {
			s1 = s1.Add(load2(unsafe.Add(bl, 16)).Mul(vv))
		}
		if odd {
			tail += float64(v * *(*float64)(unsafe.Add(bl, 8*(k-1)))) // rounded, never fused
		}
	}
	s0.StoreArray((*[2]float64)(pc))
	if two {
		s1.StoreArray((*[2]float64)(unsafe.Add(pc, 16)))
	}
	if odd {
		*(*float64)(unsafe.Add(pc, 8*(k-1))) = tail
	}
}
