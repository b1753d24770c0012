package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"ntkrf/internal/fixture"
)

// The vector loops of the one-stage reduction and of Quad (dot, axpy,
// sub2, quadCols) must give their portable versions' bits on every build:
// natively in AVX (simd_amd64.go), in WebAssembly SIMD (simd_wasm.go), or
// the portable code itself (-tags noasm, other hosts). The portable code is
// the oracle, so the exact path's eigendecompositions and leave-one-out
// sums are the same natively and in WebAssembly.

// oddSlice is randSlice with awkward values mixed in: subnormals, products
// that underflow to subnormals, values whose products overflow, zeros of
// both signs and infinities (no NaN inputs: the NaN a SIMD lane and a
// scalar instruction produce from two NaNs may differ in payload).
func oddSlice(n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x243f6a8885a308d3))
	s := make([]float64, n)
	for i := range s {
		v := rng.NormFloat64()
		switch rng.IntN(16) {
		case 0:
			v *= 0x1p-1060 // subnormal
		case 1:
			v *= 1e-160 // products underflow
		case 2:
			v *= 1e300 // products overflow
		case 3:
			v = 0
		case 4:
			v = math.Copysign(0, -1)
		case 5:
			if rng.IntN(8) == 0 {
				v = math.Inf(1 - 2*rng.IntN(2))
			}
		}
		s[i] = v
	}
	return s
}

func TestVecLoopsBits(t *testing.T) {
	t.Parallel()
	for _, gen := range []struct {
		name string
		f    func(int, uint64) []float64
	}{{"normal", randSlice}, {"odd", oddSlice}} {
		src := gen.f(4*1100, 7)
		for n0 := range 68 {
			for _, off := range []int{0, 1, 3} {
				for _, n := range []int{n0, 1000 + n0} {
					if n > 1000 && off > 0 && n0%5 != 0 {
						continue
					}
					x, y := src[off:off+n], src[1100+off:1100+off+n]
					v, w := src[2200+2*off:2200+2*off+n], src[3300+off:3300+off+n]
					what := fmt.Sprintf("%s n=%d off=%d", gen.name, n, off)

					fixture.SameBits(t, what+": dot", []float64{dot(x, y)}, []float64{dotPortable(x, y)})

					for _, s := range []float64{-1.7, 1e300, 0x1p-1070} {
						got, want := append([]float64(nil), y...), append([]float64(nil), y...)
						axpy(got, x, s)
						axpyPortable(want, x, s)
						fixture.SameBits(t, what+fmt.Sprintf(": axpy s=%v", s), got, want)
					}

					for _, fg := range [][2]float64{{0.3, -2.1}, {1e300, 1e-300}, {-0x1p-1060, 3}} {
						got, want := append([]float64(nil), x...), append([]float64(nil), x...)
						sub2(got, v, w, fg[0], fg[1])
						sub2Portable(want, v, w, fg[0], fg[1])
						fixture.SameBits(t, what+fmt.Sprintf(": sub2 f,g=%v", fg), got, want)
					}
				}
			}
		}
	}
}

// TestQuadSIMDBits: Quad's sweeps, columns in registers λ by λ, against
// the portable row-by-row loop, on widths around its chunks (32 columns)
// and the kernels' groups, from a factorization of T + λI.
func TestQuadSIMDBits(t *testing.T) {
	t.Parallel()
	for _, s := range []struct{ m, l int }{{1, 1}, {2, 3}, {5, 9}, {17, 31}, {40, 33}, {130, 130}, {64, 75}} {
		t.Run(fmt.Sprintf("m=%d,l=%d", s.m, s.l), func(t *testing.T) {
			t.Parallel()
			f := factoredT(t, s.m, []float64{1e-3, 0.5, 7})
			x := randSlice(s.m*s.l, 3)
			got, want := make([]float64, s.l*3), make([]float64, s.l*3)
			f.Quad(got, x, s.l)
			quadColsPortable(f, want, x, s.l, 0, s.l)
			fixture.SameBits(t, "quad", got, want)
		})
	}
}

// TestQuadOddBits: Quad on factors and columns with awkward values (the
// sweep's operations are what matter, not that they come from a positive
// definite matrix), every width 0…67 and odd row strides.
func TestQuadOddBits(t *testing.T) {
	t.Parallel()
	for _, m := range []int{1, 2, 3, 8, 33} {
		for l := range 68 {
			for _, nl := range []int{1, 3} {
				f := &ShiftedLDL{
					lambdas: oddSlice(nl, uint64(10+l)),
					inv:     oddSlice(nl*m, uint64(20+l)),
					mult:    oddSlice(nl*m, uint64(30+l)),
					m:       m,
				}
				x := oddSlice(m*l+5, uint64(40+m))
				got, want := make([]float64, l*nl), make([]float64, l*nl)
				f.Quad(got, x, l)
				if l > 0 {
					quadColsPortable(f, want, x, l, 0, l)
				}
				fixture.SameBits(t, fmt.Sprintf("m=%d l=%d nl=%d", m, l, nl), got, want)
				// A block of columns in the middle of a wider matrix.
				if l >= 2 {
					got, want := make([]float64, l*nl), make([]float64, l*nl)
					quadCols(f, got, x, l, 1, l-1)
					quadColsPortable(f, want, x, l, 1, l-1)
					fixture.SameBits(t, fmt.Sprintf("m=%d l=%d nl=%d cols 1…%d", m, l, nl, l-2), got, want)
				}
			}
		}
	}
}

// TestSymvRowsBits: the symmetric product's rows on this build (one
// assembly call for all rows natively) against symvRowsGo, row by row on
// DotAxpy, for every order 1…67 and row ranges at and after lo.
func TestSymvRowsBits(t *testing.T) {
	t.Parallel()
	for _, gen := range []struct {
		name string
		f    func(int, uint64) []float64
	}{{"normal", randSlice}, {"odd", oddSlice}} {
		for m := 1; m < 68; m++ {
			a := gen.f(m*m, uint64(m))
			for _, lo := range []int{0, m / 3, m - 1} {
				x, y0 := gen.f(m-lo, uint64(100+m)), gen.f(m-lo, uint64(200+m))
				for _, rr := range [][2]int{{lo, m}, {lo, lo + (m-lo)/2}, {lo + (m-lo)/3, m}, {m - 1, m}} {
					got, want := append([]float64(nil), y0...), append([]float64(nil), y0...)
					symvRows(got, a, m, lo, rr[0], rr[1], x)
					symvRowsGo(want, a, m, lo, rr[0], rr[1], x)
					fixture.SameBits(t, fmt.Sprintf("%s m=%d lo=%d rows %d…%d", gen.name, m, lo, rr[0], rr[1]-1), got, want)
				}
			}
		}
	}
}
