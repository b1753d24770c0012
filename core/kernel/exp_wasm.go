//go:build wasm

package kernel

import "math"

// expOf is math.Exp as WebAssembly builds run it (Go's exp, expmulti and
// ldexp, from the Go authors' math package, BSD licence: pure Go, as
// math.Exp is there), the same operations in one function: the four
// nested calls per entry were a third of the RBF map's time in
// WebAssembly, whose calls cost more. TestExpOfIsMathExp holds it to
// math.Exp bit for bit; natively expOf is math.Exp (an assembly
// routine on amd64 and arm64).
func expOf(x float64) float64 {
	const (
		Ln2Hi = 6.93147180369123816490e-01
		Ln2Lo = 1.90821492927058770002e-10
		Log2e = 1.44269504088896338700e+00

		Overflow  = 7.09782712893383973096e+02
		Underflow = -7.45133219101941108420e+02
		NearZero  = 1.0 / (1 << 28) // 2**-28

		P1 = 1.66666666666666657415e-01  /* 0x3FC55555; 0x55555555 */
		P2 = -2.77777777770155933842e-03 /* 0xBF66C16C; 0x16BEBD93 */
		P3 = 6.61375632143793436117e-05  /* 0x3F11566A; 0xAF25DE2C */
		P4 = -1.65339022054652515390e-06 /* 0xBEBBBD41; 0xC5D26BF1 */
		P5 = 4.13813679705723846039e-08  /* 0x3E663769; 0x72BEA4D0 */
	)
	switch {
	case x != x: // NaN
		return x
	case x > Overflow:
		return math.Inf(1)
	case x < Underflow:
		return 0
	case -NearZero < x && x < NearZero:
		return 1 + x
	}
	var k int
	switch {
	case x < 0:
		k = int(Log2e*x - 0.5)
	case x > 0:
		k = int(Log2e*x + 0.5)
	}
	hi := x - float64(k)*Ln2Hi
	lo := float64(k) * Ln2Lo
	r := hi - lo
	t := r * r
	c := r - t*(P1+t*(P2+t*(P3+t*(P4+t*P5))))
	y := 1 - ((lo - (r*c)/(2-c)) - hi)
	return ldexpOf(y, k)
}

// ldexpOf is Go's math.ldexp for the finite, nonzero y of expOf.
func ldexpOf(frac float64, exp int) float64 {
	const (
		mask           = 0x7FF
		shift          = 64 - 11 - 1
		bias           = 1023
		SmallestNormal = 2.2250738585072014e-308 // 2**-1022
	)
	if frac == 0 || math.IsInf(frac, 0) || frac != frac {
		return frac
	}
	if math.Abs(frac) < SmallestNormal {
		frac *= 1 << 52
		exp -= 52
	}
	x := math.Float64bits(frac)
	exp += int(x>>shift)&mask - bias
	if exp < -1075 {
		return math.Copysign(0, frac) // underflow
	}
	if exp > 1023 { // overflow
		if frac < 0 {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	var m float64 = 1
	if exp < -1022 { // denormal
		exp += 53
		m = 1.0 / (1 << 53) // 2**-53
	}
	x &^= mask << shift
	x |= uint64(exp+bias) << shift
	return m * math.Float64frombits(x)
}
