package linalg

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// TestSymmLeftStrips checks that symmLeft, whose strips of columns run as
// independent tasks, gives the bits of the same blocked sums computed tile
// by tile on the full symmetric matrix (symmLeftRef) for any GOMAXPROCS,
// on orders that leave partial blocks, strips and tiles, and agrees with
// the plain product to rounding. Not parallel: it sets GOMAXPROCS.
func TestSymmLeftStrips(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	for _, c := range []struct{ n, b, lds int }{{1, 1, 1}, {31, 4, 40}, {256, 64, 256}, {300, 64, 310}, {777, 64, 800}, {1100, 13, 1100}} {
		n, b := c.n, c.b
		s := randFloats(r, (n-1)*c.lds+n)
		v := randFloats(r, n*2*b) // stride 2b, as sy2sb's
		want := symmLeftRef(s, c.lds, n, b, v, 2*b)
		for _, p := range []int{1, 2, 3, 7, 16} {
			runtime.GOMAXPROCS(p)
			got := randFloats(r, b*n) // stale values must not leak in
			symmLeft(got, s, c.lds, n, b, v, 2*b, new(symmWork))
			if !slices.Equal(got, want) {
				t.Errorf("n=%d b=%d GOMAXPROCS=%d: bits differ from the tile-by-tile product", n, b, p)
			}
		}
		worst := 0.0
		for k := range b {
			for j := range n {
				sum, mag := 0.0, 0.0
				for l := range n {
					x := s[min(l, j)*c.lds+max(l, j)] * v[l*2*b+k]
					sum += x
					mag += math.Abs(x)
				}
				worst = max(worst, math.Abs(want[k*n+j]-sum)/mag)
			}
		}
		if worst > float64(n)*1e-16 {
			t.Errorf("n=%d b=%d: VᵀS off the plain product by %.3g of Σ|terms|", n, b, worst)
		}
	}
}

// symmLeftRef is symmLeft's sums done the long way: S written out in
// full, and each 8×24 tile of VᵀS summed by the Gram kernel block by block
// of symmKC inner indices from zero, each block added to the tile.
func symmLeftRef(s []float64, lds, n, b int, v []float64, ldv int) []float64 {
	full := make([]float64, n*n)
	for i := range n {
		for j := i; j < n; j++ {
			full[i*n+j], full[j*n+i] = s[i*lds+j], s[i*lds+j]
		}
	}
	xt := make([]float64, b*n)
	for r0 := 0; r0 < b; r0 += tileR {
		for g0 := 0; g0 < n; g0 += tileC {
			for l0 := 0; l0 < n; l0 += symmKC {
				k := min(symmKC, n-l0)
				a := make([]float64, k*panelW)
				bp := make([]float64, 3*k*panelW)
				for l := range k {
					for i := range tileR {
						if r0+i < b {
							a[l*panelW+i] = v[(l0+l)*ldv+r0+i]
						}
					}
					for j := range tileC {
						if g0+j < n {
							bp[j/panelW*k*panelW+l*panelW+j%panelW] = full[(l0+l)*n+g0+j]
						}
					}
				}
				c := make([]float64, tileR*tileC)
				tile(k, a, bp, k*panelW, c, tileC)
				for i := 0; i < tileR && r0+i < b; i++ {
					for j := 0; j < tileC && g0+j < n; j++ {
						xt[(r0+i)*n+g0+j] += c[i*tileC+j]
					}
				}
			}
		}
	}
	return xt
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
