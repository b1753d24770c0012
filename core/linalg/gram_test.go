package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"ntkrf/internal/fixture"
)

// randSlice returns n standard normal values from a fixed seed, with every
// seventh one an exact zero (sparse rows are common in ReLU features).
func randSlice(n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	s := make([]float64, n)
	for i := range s {
		if i%7 != 3 {
			s[i] = rng.NormFloat64()
		}
	}
	return s
}

// shapes of A (n×m) for AddAtA: empty, single row or column, sizes that
// are not multiples of the panel (8), the tile (8×24), the work item
// (64×192) or the packed block (256 rows), and one large enough to run on
// several goroutines.
var shapes = []struct{ n, m int }{
	{0, 5}, {5, 0}, {1, 1}, {3, 1}, {1, 7}, {2, 8}, {9, 9}, {17, 23},
	{40, 24}, {33, 25}, {100, 64}, {257, 31}, {31, 200}, {300, 300},
}

func TestAddAtA(t *testing.T) {
	t.Parallel()
	for _, k := range kernels() {
		for _, s := range shapes {
			t.Run(fmt.Sprintf("%s/n=%d,m=%d", k.name, s.n, s.m), func(t *testing.T) {
				t.Parallel()
				checkAddAtA(t, func(g, a []float64, n, m int) { addAtA(k.tile, g, m, a, n, m, false) }, s.n, s.m)
			})
		}
	}
}

// TestAddAtAExported checks the kernel picked for this CPU through the
// public function, including the parallel path.
func TestAddAtAExported(t *testing.T) {
	t.Parallel()
	checkAddAtA(t, AddAtA, 300, 300)
}

// checkAddAtA compares g0 + AᵀA against a naive loop. Any order of n
// products with or without fused multiply-add is within γ_n·Σ_k|a_ki·a_kj|
// of the exact sum (γ_n = n·u/(1−n·u), u = ε/2; Higham, Accuracy and
// Stability of Numerical Algorithms, §3.1), and adding g0 costs one more
// rounding, so two such results differ by at most
// tol = (n+2)·ε·(Σ_k|a_ki·a_kj| + |g0_ij|).
func checkAddAtA(t *testing.T, addAtA func(g, a []float64, n, m int), n, m int) {
	t.Helper()
	checkAddAtAWithin(t, addAtA, n, m, float64(n+2)*0x1p-52)
}

// checkAddAtAWithin requires every upper entry of g0 + AᵀA within
// unit·(Σ_k|a_ki·a_kj| + |g0_ij|) of the exact sum, and the lower triangle
// untouched.
func checkAddAtAWithin(t *testing.T, addAtA func(g, a []float64, n, m int), n, m int, unit float64) {
	t.Helper()
	a := randSlice(n*m, uint64(1000*n+m))
	g0 := randSlice(m*m, 7)
	g := append([]float64(nil), g0...)
	addAtA(g, a, n, m)
	for i := range m {
		for j := range m {
			got := g[i*m+j]
			if j < i {
				if math.Float64bits(got) != math.Float64bits(g0[i*m+j]) {
					t.Fatalf("lower triangle g[%d,%d] changed: %v, was %v", i, j, got, g0[i*m+j])
				}
				continue
			}
			want, abs := g0[i*m+j], math.Abs(g0[i*m+j])
			for l := range n {
				p := a[l*m+i] * a[l*m+j]
				want += p
				abs += math.Abs(p)
			}
			if tol := unit * abs; math.Abs(got-want) > tol {
				t.Fatalf("g[%d,%d] = %v, want %v ± %.3g", i, j, got, want, tol)
			}
		}
	}
}

func TestAddAtAPanics(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name      string
		lg, la, n int
	}{
		{"short a", 9, 5, 2}, {"short g", 8, 6, 2}, {"negative n", 9, 6, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("AddAtA(len(g)=%d, len(a)=%d, n=%d, m=3) did not panic", c.lg, c.la, c.n)
				}
			}()
			AddAtA(make([]float64, c.lg), make([]float64, c.la), c.n, 3)
		})
	}
}

func TestMul(t *testing.T) {
	t.Parallel()
	// Shapes with column counts around the SIMD strip widths (4, 8, 32, 64), row
	// counts around the 4-row kernels, an empty inner dimension, one large
	// enough to split rows among goroutines, and an inner dimension beyond
	// the 128 summed per pass.
	mulShapes := []struct{ n, k, m int }{
		{0, 3, 4}, {3, 0, 5}, {1, 1, 1}, {5, 3, 7}, {4, 9, 8}, {7, 13, 45},
		{9, 20, 77}, {33, 64, 130}, {64, 70, 100}, {6, 300, 40}, {8, 5, 3}, {4, 1, 4}, {12, 2, 67},
		{8, 131, 15}, {5, 2, 6}, {4, 7, 2}, {13, 9, 427},
	}
	for _, k := range kernels() {
		for _, s := range mulShapes {
			t.Run(fmt.Sprintf("%s/n=%d,k=%d,m=%d", k.name, s.n, s.k, s.m), func(t *testing.T) {
				t.Parallel()
				checkMul(t, func(c, a, b []float64, n, kk, m int) { mul(k.mul, c, a, b, n, kk, m) }, s.n, s.k, s.m)
			})
		}
	}
	t.Run("exported", func(t *testing.T) {
		t.Parallel()
		checkMul(t, Mul, 64, 70, 100)
	})
}

// checkMul requires bit-for-bit the in-order sum of separately rounded
// products, whatever was in c before.
func checkMul(t *testing.T, mul func(c, a, b []float64, n, k, m int), n, k, m int) {
	t.Helper()
	a := randSlice(n*k, 1)
	b := randSlice(k*m, 2)
	c := randSlice(n*m, 3) // overwritten, not accumulated
	mul(c, a, b, n, k, m)
	for i := range n {
		for j := range m {
			want := 0.0
			for l := range k {
				want += float64(a[i*k+l] * b[l*m+j])
			}
			if got := c[i*m+j]; math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("c[%d,%d] = %v (%#x), want %v (%#x)", i, j, got, math.Float64bits(got), want, math.Float64bits(want))
			}
		}
	}
}

func TestMulPanics(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("Mul with a short c did not panic")
		}
	}()
	Mul(make([]float64, 3), make([]float64, 4), make([]float64, 6), 2, 2, 3)
}

// TestAddAtB checks the two-operand product rank2k relies on, g ∓= AᵀB on
// the upper triangle, for every kernel and shape, against a naive loop
// with checkAddAtA's bound.
func TestAddAtB(t *testing.T) {
	t.Parallel()
	for _, k := range kernels() {
		for _, s := range shapes {
			for _, sub := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/n=%d,m=%d,sub=%v", k.name, s.n, s.m, sub), func(t *testing.T) {
					t.Parallel()
					n, m := s.n, s.m
					a, b := randSlice(n*m, uint64(n+1)), randSlice(n*m, uint64(m+2))
					g0 := randSlice(m*m, 5)
					g := append([]float64(nil), g0...)
					if n > 0 && m > 0 {
						addAtB(k.tile, g, m, a, b, n, m, sub)
					}
					sign := 1.0
					if sub {
						sign = -1
					}
					for i := range m {
						for j := range m {
							if j < i {
								if g[i*m+j] != g0[i*m+j] {
									t.Fatalf("lower triangle g[%d,%d] changed", i, j)
								}
								continue
							}
							want, abs := g0[i*m+j], math.Abs(g0[i*m+j])
							for r := range n {
								want += sign * a[r*m+i] * b[r*m+j]
								abs += math.Abs(a[r*m+i] * b[r*m+j])
							}
							if d := math.Abs(g[i*m+j] - want); d > float64(n+2)*0x1p-52*abs {
								t.Fatalf("g[%d,%d] = %v, want %v (off by %.3g)", i, j, g[i*m+j], want, d)
							}
						}
					}
				})
			}
		}
	}
}

// TestGemm checks gemm, with whatever kernels this build has and split
// over the cores, bit for bit against gemmPortable (its documented order
// of sums), for shapes that leave partial row groups and column strips,
// inner lengths past one kernel block, and strides wider than the blocks.
func TestGemm(t *testing.T) {
	t.Parallel()
	for _, s := range []struct{ n, k, m int }{
		{1, 1, 1}, {4, 3, 4}, {5, 7, 9}, {8, 300, 36}, {13, 129, 67}, {64, 600, 256}, {300, 64, 70},
	} {
		for _, add := range []bool{false, true} {
			lda, ldb, ldc := s.k+3, s.m+5, s.m+2
			a := randSlice(s.n*lda, 1)
			b := randSlice(s.k*ldb, 2)
			c0 := randSlice(s.n*ldc, 3)
			got, want := append([]float64(nil), c0...), append([]float64(nil), c0...)
			gemm(got, ldc, a, lda, b, ldb, s.n, s.k, s.m, add)
			gemmPortable(want, ldc, a, lda, b, ldb, 0, s.n, 0, s.m, s.k, add)
			fixture.SameBits(t, fmt.Sprintf("gemm n=%d k=%d m=%d add=%v, against gemmPortable", s.n, s.k, s.m, add), got, want)
		}
	}
}
