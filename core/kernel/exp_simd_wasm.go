//go:build goexperiment.simd && wasm

package kernel

import (
	"simd/archsimd"
	"unsafe"
)

// rbfPairs maps row[j0:] two entries at a time to exp(−γ·max(‖x‖²+‖zⱼ‖²−2g, 0))
// with expOf's operations on both lanes (its reduction, polynomial and
// ldexp, which for a normal result puts k into the exponent's bits), so
// expOf's bits: the scalar loop ran at 3.5× its native time. A pair with
// an argument below −708 (a result near or under the smallest normal
// float64) is left to expOf. It returns where the scalar loop takes over.
func rbfPairs(row []float64, j0 int, sx float64, sz []float64, gamma float64) int {
	const (
		Ln2Hi    = 6.93147180369123816490e-01
		Ln2Lo    = 1.90821492927058770002e-10
		Log2e    = 1.44269504088896338700e+00
		NearZero = 1.0 / (1 << 28)

		P1 = 1.66666666666666657415e-01
		P2 = -2.77777777770155933842e-03
		P3 = 6.61375632143793436117e-05
		P4 = -1.65339022054652515390e-06
		P5 = 4.13813679705723846039e-08

		magic = 0x1.8p52 // k + magic holds k in its low bits for |k| < 2⁵¹
	)
	n := len(row) - j0
	if n < 2 {
		return j0
	}
	end := j0 + n&^1
	_ = sz[end-1]
	pr, pz := unsafe.Pointer(&row[0]), unsafe.Pointer(&sz[0])
	vsx, ng, zero, one, two := bcast(sx), bcast(-gamma), bcast(0), bcast(1), bcast(2)
	magicBits := archsimd.BroadcastFloat64x2(magic).ToBits()
	for j := j0; j < end; j += 2 {
		rp := (*[2]float64)(unsafe.Add(pr, 8*j))
		g := archsimd.LoadFloat64x2Array(rp)
		s := archsimd.LoadFloat64x2Array((*[2]float64)(unsafe.Add(pz, 8*j)))
		x := ng.Mul(vsx.Add(s).Sub(two.Mul(g)).Max(zero))
		if any2(x.Less(bcast(-708)).Or(x.NotEqual(x))) {
			row[j] = expOf(-gamma * max(sx+sz[j]-2*row[j], 0))
			row[j+1] = expOf(-gamma * max(sx+sz[j+1]-2*row[j+1], 0))
			continue
		}
		// x ≤ 0 here: k = int(Log2e·x − 0.5), truncated toward zero.
		kf := bcast(Log2e).Mul(x).Sub(bcast(0.5)).Trunc()
		hi := x.Sub(kf.Mul(bcast(Ln2Hi)))
		lo := kf.Mul(bcast(Ln2Lo))
		r := hi.Sub(lo)
		t := r.Mul(r)
		c := r.Sub(t.Mul(bcast(P1).Add(t.Mul(bcast(P2).Add(t.Mul(bcast(P3).Add(t.Mul(bcast(P4).Add(t.Mul(bcast(P5)))))))))))
		y := one.Sub(lo.Sub(r.Mul(c).Div(two.Sub(c))).Sub(hi))
		k := kf.Add(bcast(magic)).ToBits().Sub(magicBits) // k as two's complement
		e := y.ToBits().Add(k.ShiftAllLeft(52)).BitsToFloat64()
		// expOf's special case near zero (those below −708 went to expOf).
		e = one.Add(x).IfElse(x.Greater(bcast(-NearZero)), e)
		e.StoreArray(rp)
	}
	return end
}
