//go:build goexperiment.simd && wasm

package rf

import (
	"simd/archsimd"
	"unsafe"
)

// WebAssembly SIMD versions of the transforms. Every lane does the
// additions, subtractions and rounded products of the portable code for
// one entry, in the same order (wasm has no fused multiply-add), so the
// bits are those of fwhtPortable and radix2Portable.

type f64x2 = archsimd.Float64x2

func load2(p *float64) f64x2 { return archsimd.LoadFloat64x2Array((*[2]float64)(unsafe.Pointer(p))) }

func store2(p *float64, v f64x2) { v.StoreArray((*[2]float64)(unsafe.Pointer(p))) }

// fwht is fwhtPortable with two entries per vector.
func fwht(x []float64) {
	n := len(x)
	if n < 8 {
		fwhtRef(x)
		return
	}
	// Level 1 pairs neighbours, which share a vector: [v0+v1, v0−v1] is
	// splat(v0) + splat(v1)·[1, −1], exact since multiplying by ±1 is and
	// v0 + (−v1) is v0 − v1 in IEEE arithmetic.
	sgn := archsimd.BroadcastFloat64x2(1).SetElem(1, -1)
	for i := 0; i+8 <= n; i += 8 {
		v := (*[8]float64)(x[i : i+8])
		pair := func(j int) f64x2 {
			return archsimd.BroadcastFloat64x2(v[j]).Add(archsimd.BroadcastFloat64x2(v[j+1]).Mul(sgn))
		}
		a01, a23, a45, a67 := pair(0), pair(2), pair(4), pair(6)
		b01, b23 := a01.Add(a23), a01.Sub(a23)
		b45, b67 := a45.Add(a67), a45.Sub(a67)
		store2(&v[0], b01.Add(b45))
		store2(&v[4], b01.Sub(b45))
		store2(&v[2], b23.Add(b67))
		store2(&v[6], b23.Sub(b67))
	}
	h := 8
	for ; 4*h <= n; h *= 4 {
		for i := 0; i < n; i += 4 * h {
			q := x[i : i+4*h]
			for j := 0; j < h; j += 2 {
				p0, p1, p2, p3 := &q[j], &q[h+j], &q[2*h+j], &q[3*h+j]
				x0, x1, x2, x3 := load2(p0), load2(p1), load2(p2), load2(p3)
				u0, u1 := x0.Add(x1), x0.Sub(x1)
				u2, u3 := x2.Add(x3), x2.Sub(x3)
				store2(p0, u0.Add(u2))
				store2(p2, u0.Sub(u2))
				store2(p1, u1.Add(u3))
				store2(p3, u1.Sub(u3))
			}
		}
	}
	if h < n { // one level left
		for j := 0; j < h; j += 2 {
			p0, p1 := &x[j], &x[h+j]
			a, b := load2(p0), load2(p1)
			store2(p0, a.Add(b))
			store2(p1, a.Sub(b))
		}
	}
}

// radix2 is radix2Portable with one complex number per vector: with
// w = wr + i·wi and b = br + i·bi, t = w·b is splat(br)·[wr, wi] +
// splat(bi)·[−wi, wr], whose lanes are wr·br − wi·bi and wi·br + wr·bi:
// the portable code's rounded products, and sums equal to its own since
// IEEE addition commutes and x + (−y) is x − y.
func radix2(x, tw []complex128, inverse bool) {
	n := len(x)
	conj := archsimd.BroadcastFloat64x2(1)
	if inverse {
		conj = conj.SetElem(1, -1)
	}
	for size := 2; size <= n; size <<= 1 {
		half, step := size/2, n/size
		for start := 0; start < n; start += size {
			a, b := x[start:start+half], x[start+half:start+size]
			for j := range a {
				w := load2((*float64)(unsafe.Pointer(&tw[j*step]))).Mul(conj)
				wr, wi := w.GetElem(0), w.GetElem(1)
				pa, pb := (*float64)(unsafe.Pointer(&a[j])), (*float64)(unsafe.Pointer(&b[j]))
				br, bi := archsimd.BroadcastFloat64x2(real(b[j])), archsimd.BroadcastFloat64x2(imag(b[j]))
				t := br.Mul(w).Add(bi.Mul(archsimd.BroadcastFloat64x2(-wi).SetElem(1, wr)))
				av := load2(pa)
				store2(pa, av.Add(t))
				store2(pb, av.Sub(t))
			}
		}
	}
}
