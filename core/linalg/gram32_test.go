package linalg

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// TestAddAtA32 compares g0 + AᵀA by every float32 kernel (the portable
// one runs everywhere) with the exact sum in float64. Each block of up to
// 256 rows rounds A to float32 (2⁻²⁴ relative per factor) and sums at most
// 256 products in float32 (γ_256 in units of 2⁻²⁴), so an entry is within
// (min(n, 256) + 3)·2⁻²⁴·(Σ_k |a_ki·a_kj|) plus the float64 roundings of
// adding the blocks and g0, covered by the same slack.
func TestAddAtA32(t *testing.T) {
	t.Parallel()
	ks := append([]kernel32Set{{"portable", tile32Portable, false}}, kernels32()...)
	for _, k := range ks {
		for _, s := range append(shapes, struct{ n, m int }{600, 130}) {
			t.Run(fmt.Sprintf("%s/n=%d,m=%d", k.name, s.n, s.m), func(t *testing.T) {
				t.Parallel()
				checkAddAtA32(t, func(g, a []float64, n, m int) {
					if n > 0 && m > 0 {
						addAtA32(k.tile, g, a, n, m)
					}
				}, s.n, s.m)
			})
		}
	}
	t.Run("exported", func(t *testing.T) {
		t.Parallel()
		checkAddAtA32(t, AddAtA32, 300, 300)
	})
}

func checkAddAtA32(t *testing.T, add func(g, a []float64, n, m int), n, m int) {
	t.Helper()
	checkAddAtAWithin(t, add, n, m, float64(min(n, kc)+3)*0x1p-24)
}

func TestAddAtA32Panics(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("AddAtA32 with a short g did not panic")
		}
	}()
	AddAtA32(make([]float64, 8), make([]float64, 6), 2, 3)
}

// TestTile32Bits holds every SIMD float32 kernel to the definition of the
// blocking bit for bit: entry (r, s) of the tile adds to c, in float64,
// the float32 chain acc ← acc + a[16l+r]·b[(s/16)·ps+16l+s%16] over
// increasing l from zero, with one rounding per step (fused kernels) or
// two. The reference rounds exactly (math/big), so a kernel that
// reorders, splits or widens a chain fails here, and the x86 kernels give
// the same bits as each other.
func TestTile32Bits(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for _, kern := range kernels32() {
		for _, k := range []int{1, 2, 5, 64, kc} {
			t.Run(fmt.Sprintf("%s/k=%d", kern.name, k), func(t *testing.T) {
				ps, ldc := k*panel32+5, tile32C+3
				a := spreadFloat32s(r, (k-1)*panel32+tile32R)
				b := spreadFloat32s(r, 2*ps+k*panel32)
				c := randFloats(r, (tile32R-1)*ldc+tile32C+2)
				want := slices.Clone(c)
				tile32Ref(kern.fused, k, a, b, ps, want, ldc)
				kern.tile(k, a, b, ps, c, ldc)
				if !slices.Equal(c, want) {
					t.Errorf("bits differ from the float32 chains (fused=%v)", kern.fused)
				}
			})
		}
	}
}

// TestAddAtA32Procs checks that AddAtA32 gives the same bits for any
// GOMAXPROCS, on shapes with several row blocks and partial tiles. Not
// parallel: it sets GOMAXPROCS.
func TestAddAtA32Procs(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	for _, s := range []struct{ n, m int }{{700, 500}, {1100, 97}} {
		a := randSlice(s.n*s.m, 7)
		var want []float64
		for _, p := range []int{1, 2, 3, 7, 16} {
			runtime.GOMAXPROCS(p)
			g := randSlice(s.m*s.m, 8)
			AddAtA32(g, a, s.n, s.m)
			if want == nil {
				want = g
			} else if !slices.Equal(g, want) {
				t.Errorf("n=%d m=%d: GOMAXPROCS %d and 1 give different bits", s.n, s.m, p)
			}
		}
	}
}

// tile32Ref is the tile kernel's definition with exact rounding: each step
// of an entry's chain is the float32 of acc + a·b (fused) or of acc +
// float32(a·b), computed in math/big and rounded once to 24 bits.
func tile32Ref(fused bool, k int, a, b []float32, ps int, c []float64, ldc int) {
	for r := range tile32R {
		for s := range tile32C {
			var acc float32
			for l := range k {
				x, y := a[l*panel32+r], b[(s/panel32)*ps+l*panel32+s%panel32]
				if fused {
					acc = fma32(x, y, acc)
				} else {
					acc += float32(x * y)
				}
			}
			c[r*ldc+s] += float64(acc)
		}
	}
}

// fma32 is x·y + z rounded once to float32: the product is exact in 48
// bits, and big.Float rounds the sum to the receiver's 24.
func fma32(x, y, z float32) float32 {
	p := new(big.Float).SetPrec(64).SetFloat64(float64(x))
	p.Mul(p, new(big.Float).SetFloat64(float64(y)))
	s := new(big.Float).SetPrec(24).SetMode(big.ToNearestEven)
	s.Add(p, new(big.Float).SetFloat64(float64(z)))
	f, _ := s.Float32()
	return f
}

// spreadFloat32s returns n normal deviates as float32 scaled by powers of
// two from 2⁻⁴ to 2⁴, one in seven zero, so chains round often.
func spreadFloat32s(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		if i%7 != 3 {
			s[i] = float32(r.NormFloat64() * math.Exp2(float64(r.IntN(9)-4)))
		}
	}
	return s
}
