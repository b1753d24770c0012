//go:build amd64 && !noasm

package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"ntkrf/internal/fixture"
)

// reflectLeft64Ref is reflectLeft64AVX512's order in Go: each column's
// vᵀC summed with FMA from zero over the rows, scaled by τ, then each
// entry c − v·z in one FMA.
func reflectLeft64Ref(c []float64, ldc, n int, v []float64, tau float64) {
	var z [64]float64
	for q := range n {
		for j := range z {
			z[j] = math.FMA(v[q], c[q*ldc+j], z[j])
		}
	}
	for j := range z {
		z[j] *= tau
	}
	for q := range n {
		for j := range z {
			c[q*ldc+j] = math.FMA(-v[q], z[j], c[q*ldc+j])
		}
	}
}

// reflectRight64Ref is reflectRight64AVX512's order in Go: two 8-lane
// partial sums over alternate 8-entry chunks, added lane by lane, then
// halves, quarters and the last pair; each entry r + s·u in one FMA.
func reflectRight64Ref(c []float64, ldc, n int, u []float64, tau float64) {
	for q := range n {
		r := c[q*ldc : q*ldc+64]
		var p [2][8]float64
		for k := range 8 {
			for i := range 8 {
				if k < 2 {
					p[k%2][i] = r[8*k+i] * u[8*k+i]
				} else {
					p[k%2][i] = math.FMA(r[8*k+i], u[8*k+i], p[k%2][i])
				}
			}
		}
		var h [8]float64
		for i := range 8 {
			h[i] = p[0][i] + p[1][i]
		}
		var f [4]float64
		for i := range 4 {
			f[i] = h[i] + h[i+4]
		}
		s := ((f[0] + f[2]) + (f[1] + f[3])) * -tau
		for i := range r {
			r[i] = math.FMA(s, u[i], r[i])
		}
	}
}

// TestReflect64Bits: every 64-wide reflector kernel this CPU runs
// (AVX-512, AVX2) gives the bits of the order written out in Go, so the
// bulge chase has the same bits on AVX-512 and AVX2 machines.
func TestReflect64Bits(t *testing.T) {
	type kern = func(int, *float64, int, *float64, float64)
	var sets []struct {
		name        string
		left, right kern
	}
	if vec512 {
		sets = append(sets, struct {
			name        string
			left, right kern
		}{"avx512", reflectLeft64AVX512, reflectRight64AVX512})
	}
	if vecFMA {
		sets = append(sets, struct {
			name        string
			left, right kern
		}{"avx2", reflectLeft64AVX2, reflectRight64AVX2})
	}
	if len(sets) == 0 {
		t.Skip("no AVX2 with FMA on this CPU")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, k := range sets {
		for _, n := range []int{1, 2, 7, 64} {
			for _, ldc := range []int{64, 127} {
				c0 := randFloats(r, (n-1)*ldc+64)
				v := randFloats(r, max(n, 64))
				tau := 1.3
				got, want := slices.Clone(c0), slices.Clone(c0)
				k.left(n, &got[0], ldc, &v[0], tau)
				reflectLeft64Ref(want, ldc, n, v, tau)
				fixture.SameBits(t, fmt.Sprintf("%s left n=%d ldc=%d", k.name, n, ldc), got, want)
				got, want = slices.Clone(c0), slices.Clone(c0)
				k.right(n, &got[0], ldc, &v[0], tau)
				reflectRight64Ref(want, ldc, n, v, tau)
				fixture.SameBits(t, fmt.Sprintf("%s right n=%d ldc=%d", k.name, n, ldc), got, want)
			}
		}
	}
}

// TestSub2Fast: sub2Fast is x − (v·f + w·g) with v·f + w·g in one FMA
// after w·g is rounded, on lengths around the vector widths.
func TestSub2Fast(t *testing.T) {
	if !vecFMA {
		t.Skip("no AVX2 with FMA on this CPU")
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 3, 4, 5, 8, 12, 13, 64} {
		x, v, w := randFloats(r, n), randFloats(r, n), randFloats(r, n)
		f, g := 0.7, -1.9
		want := slices.Clone(x)
		for i := range want {
			if i < n&^3 {
				want[i] -= math.FMA(v[i], f, w[i]*g)
			} else {
				want[i] -= v[i]*f + w[i]*g
			}
		}
		sub2Fast(x, v, w, f, g)
		fixture.SameBits(t, fmt.Sprintf("n=%d", n), x, want)
	}
}
