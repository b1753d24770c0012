package linalg

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// TestSymmLeftStrips checks that symmLeft, whose strips of columns run as
// independent tasks, gives the bits of the product split by column blocks
// (symmLeftBlocks, the previous form, kept here as the reference) for any
// GOMAXPROCS, on orders that leave partial blocks and strips. Not
// parallel: it sets GOMAXPROCS.
func TestSymmLeftStrips(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	for _, c := range []struct{ n, b, lds int }{{1, 1, 1}, {31, 4, 40}, {256, 64, 256}, {300, 64, 310}, {777, 64, 800}, {1100, 16, 1100}} {
		n, b := c.n, c.b
		s := randFloats(r, (n-1)*c.lds+n)
		vt := randFloats(r, b*n)
		v := make([]float64, n*2*b) // stride 2b, as sy2sb's
		for i := range n {
			for k := range b {
				v[i*2*b+k] = vt[k*n+i]
			}
		}
		want := make([]float64, b*n)
		runtime.GOMAXPROCS(1)
		symmLeftBlocks(want, vt, s, c.lds, n, b, v, 2*b, new(symmWork))
		for _, p := range []int{1, 2, 3, 7, 16} {
			runtime.GOMAXPROCS(p)
			got := randFloats(r, b*n) // stale values must not leak in
			symmLeft(got, vt, s, c.lds, n, b, v, 2*b, new(symmWork))
			if !slices.Equal(got, want) {
				t.Errorf("n=%d b=%d GOMAXPROCS=%d: bits differ from the column-block product", n, b, p)
			}
		}
	}
}

// TestReduceProcs checks that Reduce and ApplyQ give the same bits for
// any GOMAXPROCS, at orders where every stage (band reduction, bulge
// chase, Q₁ᵀR, Q₂ and Q₁ applied to many columns) runs on several
// goroutines. Not parallel: it sets GOMAXPROCS.
func TestReduceProcs(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	for _, c := range []struct{ m, l, cols int }{{600, 3, 110}, {1031, 10, 37}} {
		m := c.m
		phi := randFloats(r, (m+7)*m)
		a := make([]float64, m*m)
		AddAtA(a, phi, m+7, m)
		rhs := randFloats(r, m*c.l)
		x0 := randFloats(r, m*c.cols)
		type result struct{ d, e, z, x []float64 }
		var want result
		for i, p := range []int{1, 2, 3, 8, 16} {
			runtime.GOMAXPROCS(p)
			red, z := Reduce(slices.Clone(a), m, rhs, c.l, nil)
			x := slices.Clone(x0)
			red.ApplyQ(x, c.cols)
			got := result{red.D, red.E, z, x}
			if i == 0 {
				want = got
				continue
			}
			if !slices.Equal(got.d, want.d) || !slices.Equal(got.e, want.e) || !slices.Equal(got.z, want.z) || !slices.Equal(got.x, want.x) {
				t.Errorf("m=%d: GOMAXPROCS %d and 1 give different bits", m, p)
			}
		}
	}
}

// symmLeftBlocks is symmLeft as it was before its strips became tasks:
// xt (b×n) = vt·S for the b×n matrix vt and the symmetric
// n×n matrix S whose upper triangle is in s (stride lds); v (n×b, stride
// ldv) is vtᵀ. Column block J of the result is vt[:, <J]·S[<J, J] +
// vt[:, J]·S[J, J] + (S[J, >J]·v[>J, :])ᵀ: three products that read only
// the upper triangle, the diagonal block through a symmetrized copy.
func symmLeftBlocks(xt, vt, s []float64, lds, n, b int, v []float64, ldv int, w *symmWork) {
	bs := symmBlock
	w.d = grow(w.d, bs*bs)
	w.t = grow(w.t, bs*b)
	for j0 := 0; j0 < n; j0 += bs {
		j1 := min(j0+bs, n)
		nw := j1 - j0
		gemm(xt[j0:], n, vt, n, s[j0:], lds, b, j0, nw, false)
		d := w.d[:nw*nw]
		// Row i writes d[i, i:] and d[i:, i]: disjoint across rows.
		split(nw, nw/2, func(i0, i1 int) {
			for i := i0; i < i1; i++ {
				row := s[(j0+i)*lds+j0 : (j0+i)*lds+j1]
				copy(d[i*nw+i:(i+1)*nw], row[i:])
				for j := i + 1; j < nw; j++ {
					d[j*nw+i] = row[j]
				}
			}
		})
		gemm(xt[j0:], n, vt[j0:], n, d, nw, b, nw, nw, true)
		if j1 < n {
			t := w.t[:nw*b]
			gemm(t, b, s[j0*lds+j1:], lds, v[j1*ldv:], ldv, nw, n-j1, b, false)
			split(b, nw, func(k0, k1 int) {
				for k := k0; k < k1; k++ {
					row := xt[k*n+j0 : k*n+j0+nw]
					for i := range row {
						row[i] += t[i*b+k]
					}
				}
			})
		}
	}
}
