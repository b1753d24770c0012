package linalg

import (
	"math"
	"testing"
)

// TestDotAxpy checks DotAxpy and its portable version against a plain
// loop, on lengths around the unrolling (4 and 16) and offsets that break
// alignment. Each y entry is one multiply-add, off by at most
// 2ε·(|y|+|a·s|); the dot product of n terms by n·ε·Σ|aᵢxᵢ|.
func TestDotAxpy(t *testing.T) {
	t.Parallel()
	const eps = 0x1p-53
	impls := map[string]func(y, a, x []float64, s float64) float64{
		"DotAxpy": DotAxpy, "portable": dotAxpyPortable,
	}
	src := randSlice(3*1100, 4)
	for name, f := range impls {
		for _, n := range []int{0, 1, 3, 4, 5, 15, 16, 17, 33, 1000} {
			for _, off := range []int{0, 1, 3} {
				a, x := src[off:off+n], src[1100+off:1100+off+n]
				y := append([]float64(nil), src[2200:2200+n]...)
				s := -1.7
				got := f(y, a, x, s)
				want, bound := 0.0, 0.0
				for i := range a {
					want += a[i] * x[i]
					bound += math.Abs(a[i] * x[i])
					yi := src[2200+i]
					if d := math.Abs(y[i] - (yi + a[i]*s)); d > 2*eps*(math.Abs(yi)+math.Abs(a[i]*s)) {
						t.Fatalf("%s n=%d off=%d: y[%d] off by %g", name, n, off, i, d)
					}
				}
				if d := math.Abs(got - want); d > float64(n)*eps*bound {
					t.Errorf("%s n=%d off=%d: dot %g, want %g", name, n, off, got, want)
				}
			}
		}
	}
}

func TestDotAxpyPanics(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("DotAxpy with a short x did not panic")
		}
	}()
	DotAxpy(make([]float64, 3), make([]float64, 3), make([]float64, 2), 1)
}
