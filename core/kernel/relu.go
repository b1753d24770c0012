package kernel

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// nearParallel is the |c| beyond which the first angle is recomputed from
// the rows: arccos loses about eps/sin θ absolute, and sin θ < 0.045 here.
const nearParallel = 1 - 1e-3

// reluRow maps row[j0:] in place from the inner products of x (norm a)
// with the rows of Z (norms b) to NTK_depth (ntk) or NNGP_depth, each
// entry the bits of reluLayers. One call per row, the depth-1 recursion
// written out and arccos in this package: the per-entry calls (a
// closure, the recursion's frame, math.Acos's four levels, math.Max and
// Min) were over half of the map's time natively. In SIMD WebAssembly
// depth 1 runs two entries at a time (reluPairs).
func reluRow(row []float64, j0 int, a float64, b []float64, x []float64, Z *mat.Dense, depth int, ntk bool) {
	if depth == 0 {
		for j := j0; j < len(row); j++ {
			if a == 0 || b[j] == 0 {
				row[j] = 0
			}
		}
		return
	}
	if depth > 1 {
		var out [MaxDepth]float64
		var two [2][MaxDepth]float64
		for j := j0; j < len(row); j++ {
			if simdPairs && j+1 < len(row) && layersPair((*[2]float64)(row[j:j+2]), (*[2]float64)(b[j:j+2]), a, ntk, &two, depth) {
				row[j], row[j+1] = two[0][depth-1], two[1][depth-1]
				j++
				continue
			}
			reluLayers(row[j], a, b[j], x, Z.RawRowView(j), ntk, out[:depth])
			row[j] = out[depth-1]
		}
		return
	}
	for j := reluPairs(row, j0, a, b, x, Z, ntk); j < len(row); j++ {
		row[j] = relu1(row[j], a, b[j], x, Z, j, ntk)
	}
}

// relu1 is reluLayers at depth 1 for the inner product g of x (norm a)
// with Z's row j (norm bj), written out: NTK₁ (ntk) or NNGP₁.
func relu1(g, a, bj float64, x []float64, Z *mat.Dense, j int, ntk bool) float64 {
	if a == 0 || bj == 0 {
		return 0
	}
	ab := a * bj
	c, theta, omc, opc := firstAngle(clampUnit(g/ab), x, a, Z.RawRowView(j), bj)
	sin := math.Sqrt(omc * opc)
	f0 := 1 - theta/math.Pi
	var cn float64
	if theta < 0.1 {
		cn = 1 - (omc + smallAngle(theta)/math.Pi)
	} else {
		cn = (sin + (math.Pi-theta)*c) / math.Pi
	}
	nngp := ab * cn
	if ntk {
		return nngp + g*f0
	}
	return nngp
}

// reluLayers runs the ReLU kernel recursion for one pair of rows with
// inner product g and norms a, b through len(out) ≥ 1 layers, setting
// out[l−1] to NTK_l (ntk) or NNGP_l: each the bits of a recursion of depth
// l alone, whose last layer differs only in not computing the next angle.
func reluLayers(g, a, b float64, x, z []float64, ntk bool, out []float64) {
	depth := len(out)
	if a == 0 || b == 0 {
		clear(out)
		return
	}
	ab := a * b
	c, theta, omc, opc := firstAngle(clampUnit(g/ab), x, a, z, b)
	k := g
	for l := 0; l < depth; l++ {
		sin := math.Sqrt(omc * opc)
		f0 := 1 - theta/math.Pi
		var cn, omcn, thetan float64
		if theta < 0.1 {
			omcn = omc + smallAngle(theta)/math.Pi
			cn = 1 - omcn
			if l+1 < depth { // the last layer's angle is not used
				thetan = 2 * math.Asin(math.Sqrt(omcn/2))
			}
		} else {
			cn = (sin + (math.Pi-theta)*c) / math.Pi
			omcn = 1 - cn
			if l+1 < depth {
				thetan = arccos(cn)
			}
		}
		nngp := ab * cn
		k = nngp + k*f0
		if ntk {
			out[l] = k
		} else {
			out[l] = nngp
		}
		c, omc, opc, theta = cn, omcn, 1+cn, thetan
	}
}

// firstAngle returns, for the cosine c of the angle between x (norm a)
// and z (norm b), c itself, θ = arccos c, 1 − c and 1 + c, all to full
// precision: from the rows by Kahan's formula where |c| > nearParallel
// (arccos loses about eps/sin θ there), else from c.
func firstAngle(c float64, x []float64, a float64, z []float64, b float64) (cos, theta, omc, opc float64) {
	if c > nearParallel || c < -nearParallel {
		theta = kahanAngle(x, a, z, b)
		s, co := math.Sincos(theta / 2)
		omc, opc = 2*s*s, 2*co*co
		return 1 - omc, theta, omc, opc
	}
	return c, arccos(c), 1 - c, 1 + c
}

// smallAngle returns θcosθ − sinθ for θ < 0.1 from its series
// −θ³/3 + θ⁵/30 − … (error below 1e-20 relative): 1 − c' = (π(1−c) + θc −
// sinθ)/π, whose terms cancel there.
func smallAngle(theta float64) float64 {
	t2 := theta * theta
	return -theta * t2 * (1.0/3 - t2*(1.0/30-t2*(1.0/840-t2*(1.0/45360-t2/3991680))))
}

// clampUnit is math.Max(−1, math.Min(1, v)) for the v that reach it (not
// NaN: the rows are finite), without their calls.
func clampUnit(v float64) float64 {
	if v > 1 {
		return 1
	}
	if v < -1 {
		return -1
	}
	return v
}

// kahanAngle returns the angle between x and z as 2·atan2(‖x̂−ẑ‖, ‖x̂+ẑ‖),
// accurate to a few ulps even for nearly parallel or opposite rows.
func kahanAngle(x []float64, a float64, z []float64, b float64) float64 {
	var dm, dp float64
	z = z[:len(x)]
	for i, xi := range x {
		u, v := xi/a, z[i]/b
		dm += (u - v) * (u - v)
		dp += (u + v) * (u + v)
	}
	return 2 * math.Atan2(math.Sqrt(dm), math.Sqrt(dp))
}

// arccos is math.Acos for −1 ≤ x ≤ 1, the same operations in one function
// (Go's acos, asin, satan and xatan, from the Go authors' math package,
// BSD licence), so the same bits on every build where math.Acos is
// pure Go (all but s390x): four nested calls per kernel entry were a
// third of the map's time. TestArccosIsMathAcos holds it to math.Acos.
func arccos(x float64) float64 {
	if x == 0 {
		return math.Pi / 2 // Pi/2 − asin(±0)
	}
	sign := false
	if x < 0 {
		x = -x
		sign = true
	}
	temp := math.Sqrt(1 - x*x)
	var t float64
	if x > 0.7 {
		t = math.Pi/2 - satan(temp/x)
	} else {
		t = satan(x / temp)
	}
	if sign {
		t = -t
	}
	return math.Pi/2 - t
}

// satan is Go's math.satan: atan of x ≥ 0 reduced to [0, 0.66].
func satan(x float64) float64 {
	const Tan3pio8 = 2.41421356237309504880 // tan(3*pi/8)
	if x <= 0.66 {
		return xatan(x)
	}
	if x > Tan3pio8 {
		return math.Pi/2 - xatan(1/x) + morebits
	}
	return math.Pi/4 + xatan((x-1)/(x+1)) + 0.5*morebits
}

// Go's math.xatan's coefficients and satan's Morebits (pi/2 = PIO2 +
// Morebits), for xatan and satan here and their two-lane forms.
const (
	atanP0   = -8.750608600031904122785e-01
	atanP1   = -1.615753718733365076637e+01
	atanP2   = -7.500855792314704667340e+01
	atanP3   = -1.228866684490136173410e+02
	atanP4   = -6.485021904942025371773e+01
	atanQ0   = +2.485846490142306297962e+01
	atanQ1   = +1.650270098316988542046e+02
	atanQ2   = +4.328810604912902668951e+02
	atanQ3   = +4.853903996359136964868e+02
	atanQ4   = +1.945506571482613964425e+02
	morebits = 6.123233995736765886130e-17
)

// xatan is Go's math.xatan: atan on [0, 0.66] by a rational function.
func xatan(x float64) float64 {
	z := x * x
	z = z * ((((atanP0*z+atanP1)*z+atanP2)*z+atanP3)*z + atanP4) / (((((z+atanQ0)*z+atanQ1)*z+atanQ2)*z+atanQ3)*z + atanQ4)
	z = x*z + x
	return z
}
