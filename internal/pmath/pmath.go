// Portable exp, log and erfc, adapted from Go's pure-Go sources
// (src/math/exp.go, log.go, erf.go), which carry this notice:
//
// Copyright 2009 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.
//
// They in turn derive from FreeBSD's /usr/src/lib/msun/src/e_exp.c,
// e_log.c and s_erf.c:
//
// ====================================================
// Copyright (C) 2004 by Sun Microsystems, Inc. All rights reserved.
//
// Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice
// is preserved.
// ====================================================
//
// math.Exp and math.Log use assembly on amd64 (Exp even FMA), so they can
// differ in the last bit from what WebAssembly computes; these copies run
// the same float64 operations everywhere. Every product that a compiler
// could fuse with an addition is rounded explicitly with float64(…).

package pmath

import "math"

// poly returns c[0] + x*(c[1] + x*(… + x*c[n-1])) in Horner order, with
// every product rounded before the addition.
func poly(x float64, c []float64) float64 {
	acc := c[len(c)-1]
	for i := len(c) - 2; i >= 0; i-- {
		acc = c[i] + float64(x*acc)
	}
	return acc
}

// Exp returns e**x, bit-identical on every platform.
func Exp(x float64) float64 {
	const (
		ln2Hi     = 6.93147180369123816490e-01
		ln2Lo     = 1.90821492927058770002e-10
		log2e     = 1.44269504088896338700e+00
		overflow  = 7.09782712893383973096e+02
		underflow = -7.45133219101941108420e+02
		nearZero  = 1.0 / (1 << 28)
	)
	switch {
	case math.IsNaN(x):
		return x
	case x > overflow:
		return math.Inf(1)
	case x < underflow:
		return 0
	case -nearZero < x && x < nearZero:
		return 1 + x
	}
	var k int
	switch {
	case x < 0:
		k = int(float64(log2e*x) - 0.5)
	case x > 0:
		k = int(float64(log2e*x) + 0.5)
	}
	hi := x - float64(float64(k)*ln2Hi)
	lo := float64(float64(k) * ln2Lo)
	r := hi - lo
	t := r * r
	c := r - float64(t*poly(t, expP[:]))
	y := 1 - ((lo - (r*c)/(2-c)) - hi)
	return math.Ldexp(y, k)
}

var expP = [...]float64{
	1.66666666666666657415e-01,
	-2.77777777770155933842e-03,
	6.61375632143793436117e-05,
	-1.65339022054652515390e-06,
	4.13813679705723846039e-08,
}

// Log returns the natural logarithm of x, bit-identical on every platform.
func Log(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
		L1    = 6.666666666666735130e-01
		L2    = 3.999999999940941908e-01
		L3    = 2.857142874366239149e-01
		L4    = 2.222219843214978396e-01
		L5    = 1.818357216161805012e-01
		L6    = 1.531383769920937332e-01
		L7    = 1.479819860511658591e-01
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	f1, ki := math.Frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := s * s
	s4 := s2 * s2
	t1 := float64(s2 * (L1 + float64(s4*(L3+float64(s4*(L5+float64(s4*L7)))))))
	t2 := float64(s4 * (L2 + float64(s4*(L4+float64(s4*L6)))))
	R := t1 + t2
	hfsq := float64(0.5 * f * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+R)) + float64(k*ln2Lo))) - f)
}

// Coefficients of erfc's rational approximations (see src/math/erf.go).
var (
	erfPP = [...]float64{1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02, -5.77027029648944159157e-03, -2.37630166566501626084e-05}
	erfQQ = [...]float64{1, 3.97917223959155352819e-01, 6.50222499887672944485e-02, 5.08130628187576562776e-03, 1.32494738004321644526e-04, -3.96022827877536812320e-06}
	erfPA = [...]float64{-2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01, 3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02, -2.16637559486879084300e-03}
	erfQA = [...]float64{1, 1.06420880400844228286e-01, 5.40397917702171048937e-01, 7.18286544141962662868e-02, 1.26171219808761642112e-01, 1.36370839120290507362e-02, 1.19844998467991074170e-02}
	erfRA = [...]float64{-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01, -6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02, -8.12874355063065934246e+01, -9.81432934416914548592e+00}
	erfSA = [...]float64{1, 1.96512716674392571292e+01, 1.37657754143519042600e+02, 4.34565877475229228821e+02, 6.45387271733267880336e+02, 4.29008140027567833386e+02, 1.08635005541779435134e+02, 6.57024977031928170135e+00, -6.04244152148580987438e-02}
	erfRB = [...]float64{-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01, -1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03, -4.83519191608651397019e+02}
	erfSB = [...]float64{1, 3.03380607434824582924e+01, 3.25792512996573918826e+02, 1.53672958608443695994e+03, 3.19985821950859553908e+03, 2.55305040643316442583e+03, 4.74528541206955367215e+02, -2.24409524465858183362e+01}
)

// Erfc returns the complementary error function 1 − erf(x),
// bit-identical on every platform.
func Erfc(x float64) float64 {
	const (
		tiny = 1.0 / (1 << 56)
		erx  = 8.45062911510467529297e-01
	)
	switch {
	case math.IsNaN(x):
		return math.NaN()
	case math.IsInf(x, 1):
		return 0
	case math.IsInf(x, -1):
		return 2
	}
	sign := false
	if x < 0 {
		x = -x
		sign = true
	}
	if x < 0.84375 {
		var temp float64
		if x < tiny {
			temp = x
		} else {
			z := x * x
			y := poly(z, erfPP[:]) / poly(z, erfQQ[:])
			if x < 0.25 {
				temp = x + float64(x*y)
			} else {
				temp = 0.5 + (float64(x*y) + (x - 0.5))
			}
		}
		if sign {
			return 1 + temp
		}
		return 1 - temp
	}
	if x < 1.25 {
		s := x - 1
		p := poly(s, erfPA[:]) / poly(s, erfQA[:])
		if sign {
			return 1 + erx + p
		}
		return 1 - erx - p
	}
	if x < 28 {
		s := 1 / (x * x)
		var r float64
		if x < 1/0.35 {
			r = poly(s, erfRA[:]) / poly(s, erfSA[:])
		} else {
			if sign && x > 6 {
				return 2
			}
			r = poly(s, erfRB[:]) / poly(s, erfSB[:])
		}
		z := math.Float64frombits(math.Float64bits(x) & 0xffffffff00000000)
		e := Exp(-float64(z*z)-0.5625) * Exp(float64((z-x)*(z+x))+r)
		if sign {
			return 2 - e/x
		}
		return e / x
	}
	if sign {
		return 2
	}
	return 0
}
