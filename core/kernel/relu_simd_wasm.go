//go:build goexperiment.simd && wasm

package kernel

import (
	"math"
	"simd/archsimd"
	"unsafe"

	"gonum.org/v1/gonum/mat"
)

type f64x2 = archsimd.Float64x2

// simdPairs: reluRow and Depths map entries two at a time (layersPair).
const simdPairs = true

func bcast(v float64) f64x2 { return archsimd.BroadcastFloat64x2(v) }

func any2(m archsimd.Mask64x2) bool {
	i := m.ToInt64x2()
	return i.GetElem(0)|i.GetElem(1) != 0
}

// reluPairs maps the depth-1 entries of row from j0 two at a time, each
// lane relu1's operations for its entry in the same order (every branch
// of arccos, satan and the recursion computed and the lane's one
// selected; wasm has no fused multiply-add), so the bits are relu1's; a
// pair with a zero norm or a nearly parallel pair of rows (the rows
// themselves needed) is left to relu1. It returns where the scalar loop
// takes over: the last entry of an odd count. The scalar map ran at
// 2.4× its native time, most of it in branches and divisions one entry at
// a time. layersPair at depth 1 gives the same bits 1.5× slower (its
// layer loop and the lanes taken out one by one), hence this loop.
func reluPairs(row []float64, j0 int, a float64, b, x []float64, Z *mat.Dense, ntk bool) int {
	n := len(row) - j0
	if n < 2 || a == 0 {
		return j0
	}
	va, one, zero, pi := bcast(a), bcast(1), bcast(0), bcast(math.Pi)
	near, negNear := bcast(nearParallel), bcast(-nearParallel)
	end := j0 + n&^1
	pr, pb := unsafe.Pointer(&row[0]), unsafe.Pointer(&b[0])
	_ = b[end-1]
	for j := j0; j < end; j += 2 {
		rp := (*[2]float64)(unsafe.Add(pr, 8*j))
		g := archsimd.LoadFloat64x2Array(rp)
		bj := archsimd.LoadFloat64x2Array((*[2]float64)(unsafe.Add(pb, 8*j)))
		ab := va.Mul(bj)
		c := g.Div(ab) // |c| > 1 only beyond nearParallel: relu1 clamps it
		if any2(bj.Equal(zero).Or(c.Greater(near)).Or(c.Less(negNear))) {
			row[j] = relu1(row[j], a, b[j], x, Z, j, ntk)
			row[j+1] = relu1(row[j+1], a, b[j+1], x, Z, j+1, ntk)
			continue
		}
		theta := bcast(math.Pi / 2).Sub(asin2(c)) // arccos c
		// The recursion's one layer; the series where θ < 0.1.
		omc, opc := one.Sub(c), one.Add(c)
		sin := omc.Mul(opc).Sqrt()
		f0 := one.Sub(theta.Div(pi))
		cnSeries := one.Sub(omc.Add(smallAngle2(theta).Div(pi)))
		cnMain := sin.Add(pi.Sub(theta).Mul(c)).Div(pi)
		cn := cnSeries.IfElse(theta.Less(bcast(0.1)), cnMain)
		out := ab.Mul(cn)
		if ntk {
			out = out.Add(g.Mul(f0))
		}
		out.StoreArray(rp)
	}
	return end
}

// asin2 is Go's asin (math.Asin, whose bits arccos keeps) on both lanes,
// for |x| ≤ 1: the sign taken off and put back, satan of x/√(1−x²) or,
// beyond 0.7, π/2 − satan(√(1−x²)/x). Either quotient is at most
// √0.51/0.7 < 1.03, so satan's third case (beyond tan 3π/8) never comes:
// xatan of y or of (y−1)/(y+1), a division by 1 being exact. At ±0 it
// gives ±0, as asin does.
func asin2(x f64x2) f64x2 {
	one, halfPi := bcast(1), bcast(math.Pi/2)
	neg := x.Less(bcast(0))
	ax := x.Abs()
	temp := one.Sub(ax.Mul(ax)).Sqrt()
	big := ax.Greater(bcast(0.7))
	y := temp.IfElse(big, ax).Div(ax.IfElse(big, temp)) // temp/x where x > 0.7, else x/temp
	low := y.LessEqual(bcast(0.66))
	u := y.IfElse(low, y.Sub(one)).Div(one.IfElse(low, y.Add(one)))
	z := u.Mul(u)
	z = z.Mul(bcast(atanP0).Mul(z).Add(bcast(atanP1)).Mul(z).Add(bcast(atanP2)).Mul(z).Add(bcast(atanP3)).Mul(z).Add(bcast(atanP4))).
		Div(z.Add(bcast(atanQ0)).Mul(z).Add(bcast(atanQ1)).Mul(z).Add(bcast(atanQ2)).Mul(z).Add(bcast(atanQ3)).Mul(z).Add(bcast(atanQ4)))
	r := u.Mul(z).Add(u)
	sat := r.IfElse(low, bcast(math.Pi/4).Add(r).Add(bcast(0.5*morebits)))
	t := halfPi.Sub(sat).IfElse(big, sat)
	return t.Neg().IfElse(neg, t)
}

// layersPair runs reluLayers for two entries at once, the inner products
// g[0], g[1] of a row of norm a with rows of norms b[0], b[1], through
// len(out[0]) layers, setting out[e][l] as reluLayers sets out[l] for
// entry e, with its bits (every branch on both lanes, each lane's own
// selected). It reports false, and sets nothing, for a pair with a zero
// norm or nearly parallel rows: reluLayers then takes each entry.
func layersPair(g, b *[2]float64, a float64, ntk bool, out *[2][MaxDepth]float64, depth int) bool {
	one, pi := bcast(1), bcast(math.Pi)
	vg := archsimd.LoadFloat64x2Array(g)
	vb := archsimd.LoadFloat64x2Array(b)
	ab := bcast(a).Mul(vb)
	c := vg.Div(ab)
	if a == 0 || any2(vb.Equal(bcast(0)).Or(c.Greater(bcast(nearParallel))).Or(c.Less(bcast(-nearParallel)))) {
		return false
	}
	theta := bcast(math.Pi / 2).Sub(asin2(c))
	omc, opc := one.Sub(c), one.Add(c)
	k := vg
	for l := range depth {
		sin := omc.Mul(opc).Sqrt()
		f0 := one.Sub(theta.Div(pi))
		omcS := omc.Add(smallAngle2(theta).Div(pi))
		cnS := one.Sub(omcS)
		cnM := sin.Add(pi.Sub(theta).Mul(c)).Div(pi)
		omcM := one.Sub(cnM)
		small := theta.Less(bcast(0.1))
		cn, omcn := cnS.IfElse(small, cnM), omcS.IfElse(small, omcM)
		var thetan f64x2
		if l+1 < depth { // the last layer's angle is not used
			thetan = bcast(2).Mul(asin2(omcS.Div(bcast(2)).Sqrt())).IfElse(small, bcast(math.Pi/2).Sub(asin2(cnM)))
		}
		nngp := ab.Mul(cn)
		k = nngp.Add(k.Mul(f0))
		v := nngp
		if ntk {
			v = k
		}
		out[0][l], out[1][l] = v.GetElem(0), v.GetElem(1)
		c, omc, opc, theta = cn, omcn, one.Add(cn), thetan
	}
	return true
}

// smallAngle2 is smallAngle on both lanes.
func smallAngle2(theta f64x2) f64x2 {
	t2 := theta.Mul(theta)
	return theta.Neg().Mul(t2).Mul(bcast(1.0 / 3).Sub(t2.Mul(bcast(1.0 / 30).Sub(t2.Mul(bcast(1.0 / 840).Sub(t2.Mul(bcast(1.0 / 45360).Sub(t2.Div(bcast(3991680))))))))))
}
