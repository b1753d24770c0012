package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func randFloat32s(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	return x
}

// mul32Shapes cross the kernels' edges: row groups of 4, strips of 8, 16
// and 64 columns, blocks of mulBlock inner indices, empty products, and
// whole row groups narrower than any strip (one inner index: the AVX2
// kernel's bounds check read b[-1], found by FuzzFeatures once float32
// became the default).
var mul32Shapes = []struct{ n, k, m int }{
	{0, 3, 5}, {4, 0, 16}, {5, 0, 70}, {1, 1, 1}, {4, 1, 5}, {4, 1, 1}, {6, 2, 3}, {5, 1, 15},
	{3, 7, 9}, {4, 5, 8}, {4, 5, 16}, {7, 9, 17},
	{8, 128, 64}, {9, 129, 65}, {12, 300, 130}, {17, 31, 95}, {4, 257, 200}, {33, 784, 81},
	// Weights32's panels: groups of 6 rows and blocks of 264, panels of 16
	// columns, inner blocks of at most 1024 (2100 = 3 × 700: the sums
	// stored and reloaded twice).
	{6, 1, 16}, {7, 300, 16}, {13, 257, 33}, {270, 520, 37}, {7, 2100, 21},
}

// TestMul32Bits checks that every Mul32 implementation of this build
// gives mul32Portable's bits (a kernel that fused a multiply-add or summed
// in another order would differ in most entries of random products), and
// that mul32Portable is within the float32 error bound of the exact sum.
func TestMul32Bits(t *testing.T) {
	t.Parallel()
	for _, ks := range mul32Kernels() {
		for _, s := range mul32Shapes {
			t.Run(fmt.Sprintf("%s/n=%d,k=%d,m=%d", ks.name, s.n, s.k, s.m), func(t *testing.T) {
				t.Parallel()
				r := rand.New(rand.NewPCG(uint64(s.n), uint64(s.k*1000+s.m)))
				a, b := randFloat32s(r, s.n*s.k), randFloat32s(r, s.k*s.m)
				want := make([]float32, s.n*s.m)
				got := make([]float32, s.n*s.m)
				for i := range got {
					got[i] = float32(math.NaN()) // every entry must be written
				}
				mul32Portable(want, a, b, 0, s.n, s.k, s.m)
				ks.mul(got, a, b, 0, s.n, s.k, s.m)
				sameBits32(t, got, want)
				for i := range s.n {
					for j := range s.m {
						var exact, abs float64
						for l := range s.k {
							p := float64(a[i*s.k+l]) * float64(b[l*s.m+j])
							exact += p
							abs += math.Abs(p)
						}
						if e := math.Abs(float64(want[i*s.m+j]) - exact); e > float64(s.k+1)*0x1p-24*abs {
							t.Fatalf("entry (%d, %d) off the exact sum by %.3g; bound %.3g", i, j, e, float64(s.k+1)*0x1p-24*abs)
						}
					}
				}
			})
		}
	}
}

// sameBits32 fails t unless got and want hold the same bits.
func sameBits32(t *testing.T, got, want []float32) {
	t.Helper()
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("entry %d: %v (%08x), portable %v (%08x)", i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}

// weights32Kernels are the layouts Weights32 can have in this build: the
// panels of each panel kernel, those of the portable one (tested on every
// build), and row-major weights for mul32Rows (nil).
func weights32Kernels() []mul32TileSet {
	return append(mul32PanelKernels(),
		mul32TileSet{name: "portable", tile: mul6x16Portable},
		mul32TileSet{name: "portable-strips", strip: mul4x8Portable},
		mul32TileSet{name: "rows"})
}

// TestWeights32Bits checks that Weights32.Mul, on packed panels with
// every panel kernel of this build and on row-major weights, gives
// mul32Portable's bits on shapes that cross every edge of the packing (a
// panel kernel that fused, summed out of order, or lost its sums between
// inner blocks would differ), with 1 to 3 workers.
func TestWeights32Bits(t *testing.T) {
	t.Parallel()
	for _, ks := range weights32Kernels() {
		for _, s := range mul32Shapes {
			t.Run(fmt.Sprintf("%s/n=%d,k=%d,m=%d", ks.name, s.n, s.k, s.m), func(t *testing.T) {
				t.Parallel()
				r := rand.New(rand.NewPCG(uint64(s.n), uint64(s.k*1000+s.m)))
				a, b := randFloat32s(r, s.n*s.k), randFloat32s(r, s.k*s.m)
				want := make([]float32, s.n*s.m)
				mul32Portable(want, a, b, 0, s.n, s.k, s.m)
				w := newWeights32(ks, b, s.k, s.m)
				if k, m := w.Dims(); k != s.k || m != s.m {
					t.Fatalf("Dims %d, %d", k, m)
				}
				for workers := 1; workers <= 3; workers++ {
					got := make([]float32, s.n*s.m)
					for i := range got {
						got[i] = float32(math.NaN()) // every entry must be written
					}
					w.mul(ks, got, a, s.n, workers)
					sameBits32(t, got, want)
				}
			})
		}
	}
}

// TestWeights32Packed checks that this build's Weights32 packs where it
// has a panel kernel and keeps the rows elsewhere, and that Mul, the
// exported path, gives mul32Portable's bits above the parallel threshold.
func TestWeights32Packed(t *testing.T) {
	t.Parallel()
	const n, k, m = 70, 200, 150
	r := rand.New(rand.NewPCG(5, 6))
	a, b := randFloat32s(r, n*k), randFloat32s(r, k*m)
	w := NewWeights32(b, k, m)
	if packed := len(mul32PanelKernels()) > 0; w.packed != packed {
		t.Fatalf("packed %v with panel kernels %v", w.packed, mul32PanelKernels())
	}
	if w.Len() < k*m || w.Len() >= k*(m+nr32) {
		t.Fatalf("Len %d for %d×%d", w.Len(), k, m)
	}
	want, got := make([]float32, n*m), make([]float32, n*m)
	mul32Portable(want, a, b, 0, n, k, m)
	w.Mul(got, a, n, 2)
	sameBits32(t, got, want)
}

// TestMul32Float32 checks that the portable reference rounds every
// product and sum to float32 separately: 1 + 2⁻²⁴ is 1 in float32, so
// summing (1, 2⁻²⁴, 2⁻²⁴) left to right gives 1 where float64 or a fused
// multiply-add would give 1 + 2⁻²³.
func TestMul32Float32(t *testing.T) {
	t.Parallel()
	for _, ks := range mul32Kernels() {
		t.Run(ks.name, func(t *testing.T) {
			const k, m = 3, 64
			a := make([]float32, 4*k)
			b := make([]float32, k*m)
			for r := range 4 {
				a[r*k], a[r*k+1], a[r*k+2] = 1, 0x1p-12, 0x1p-12
			}
			for j := range m {
				b[j], b[m+j], b[2*m+j] = 1, 0x1p-12, 0x1p-12
			}
			c := make([]float32, 4*m)
			ks.mul(c, a, b, 0, 4, k, m)
			for i, v := range c {
				if v != 1 {
					t.Fatalf("entry %d is %v, want 1 (float32 sums in order)", i, v)
				}
			}
		})
	}
}

// TestMul32Workers checks that the exported product, split over the
// cores, gives the bits of one portable pass.
func TestMul32Workers(t *testing.T) {
	t.Parallel()
	const n, k, m = 70, 200, 150 // above minParallel
	r := rand.New(rand.NewPCG(3, 4))
	a, b := randFloat32s(r, n*k), randFloat32s(r, k*m)
	want, got := make([]float32, n*m), make([]float32, n*m)
	mul32Portable(want, a, b, 0, n, k, m)
	Mul32(got, a, b, n, k, m)
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("entry %d differs", i)
		}
	}
}

func TestWeights32Panics(t *testing.T) {
	t.Parallel()
	for name, f := range map[string]func(){
		"short b": func() { NewWeights32(make([]float32, 5), 2, 3) },
		"short c": func() { NewWeights32(make([]float32, 6), 2, 3).Mul(make([]float32, 5), make([]float32, 4), 2, 1) },
		"short a": func() { NewWeights32(make([]float32, 6), 2, 3).Mul(make([]float32, 6), make([]float32, 3), 2, 1) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		})
	}
}

func TestMul32Panics(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("Mul32 with a short c did not panic")
		}
	}()
	Mul32(make([]float32, 3), make([]float32, 6), make([]float32, 6), 2, 3, 2)
}
