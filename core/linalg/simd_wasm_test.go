//go:build goexperiment.simd && wasm

package linalg

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"ntkrf/internal/fixture"
)

// The SIMD kernels must give the portable kernels' bits (see
// kernel_simd_wasm.go): the portable code is the oracle, and features and
// eigendecompositions then agree between SIMD and non-SIMD WebAssembly.

func TestAddAtASIMDBits(t *testing.T) {
	t.Parallel()
	for _, s := range append(shapes, struct{ n, m int }{600, 130}) {
		for _, sub := range []bool{false, true} {
			t.Run(fmt.Sprintf("n=%d,m=%d,sub=%v", s.n, s.m, sub), func(t *testing.T) {
				t.Parallel()
				if s.n == 0 || s.m == 0 {
					return
				}
				a := randSlice(s.n*s.m, 5)
				ldg := s.m + 3 // a block of a larger matrix
				got := randSlice(s.m*ldg, 6)
				want := append([]float64(nil), got...)
				addAtA(tileSIMD, got, ldg, a, s.n, s.m, sub)
				addAtA(tilePortable, want, ldg, a, s.n, s.m, sub)
				fixture.SameBits(t, "g", got, want)
			})
		}
	}
}

func TestAddAtA32SIMDBits(t *testing.T) {
	t.Parallel()
	for _, s := range append(shapes, struct{ n, m int }{600, 130}) {
		t.Run(fmt.Sprintf("n=%d,m=%d", s.n, s.m), func(t *testing.T) {
			t.Parallel()
			if s.n == 0 || s.m == 0 {
				return
			}
			a := randSlice(s.n*s.m, 5)
			got := randSlice(s.m*s.m, 6)
			want := append([]float64(nil), got...)
			addAtA32(tile32SIMD, got, a, s.n, s.m)
			addAtA32(tile32Portable, want, a, s.n, s.m)
			fixture.SameBits(t, "g", got, want)
		})
	}
}

func TestDotAxpySIMDBits(t *testing.T) {
	t.Parallel()
	src := randSlice(3*1100, 4)
	for n := range 41 {
		for _, off := range []int{0, 1, 3} {
			for _, n := range []int{n, 1000 + n} {
				a, x := src[off:off+n], src[1100+off:1100+off+n]
				y0 := src[2200 : 2200+n]
				got, want := append([]float64(nil), y0...), append([]float64(nil), y0...)
				d := dotAxpySIMD(got, a, x, -1.7)
				dw := dotAxpyPortable(want, a, x, -1.7)
				fixture.SameBits(t, fmt.Sprintf("n=%d off=%d: y", n, off), got, want)
				fixture.SameBits(t, fmt.Sprintf("n=%d off=%d: dot", n, off), []float64{d}, []float64{dw})
			}
		}
	}
}

// TestReflectLeft64: the chase's 64-wide left reflections in strips
// (reflectLeft64) give the bits of two axpy calls per row
// (reflectRowsAxpy), for 1 to 64 rows of a strided matrix.
func TestReflectLeft64(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{1, 2, 17, 63, 64} {
		const ldc, i0 = 131, 3
		c := randFloats(r, (i0+n)*ldc)
		v := randFloats(r, n)
		tau := 2 / dot(v, v)
		want := slices.Clone(c)
		reflectRowsAxpy(want, ldc, 64, i0, n, v, tau, make([]float64, 64))
		got := slices.Clone(c)
		if !reflectLeft64(got[i0*ldc:], ldc, n, v, tau) {
			t.Fatal("reflectLeft64 has no kernel in WebAssembly SIMD")
		}
		fixture.SameBits(t, fmt.Sprintf("n=%d", n), got, want)
	}
}
