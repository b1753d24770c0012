package kernel

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
)

// TestDepthsAreGrams: Depths' matrices are GramContext's at each depth,
// bit for bit, for the NTK and the NNGP, on rows that take every branch
// of the recursion (nearly parallel and opposite rows, small angles, a
// zero row).
func TestDepthsAreGrams(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(4, 2))
	X := mat.NewDense(40, 5, nil)
	for i := range 40 {
		for j := range 5 {
			X.Set(i, j, r.NormFloat64())
		}
	}
	for j := range 5 {
		X.Set(1, j, X.At(0, j)*(1+1e-9*float64(j)))  // nearly parallel
		X.Set(2, j, -X.At(0, j)*(1+1e-9*float64(j))) // nearly opposite
		X.Set(3, j, X.At(0, j)+0.01*r.NormFloat64()) // a small angle
		X.Set(4, j, 0)
	}
	depths := []int{3, 1, 2, 5, 3}
	for _, name := range []Name{NameNTK, NameNNGP} {
		got, err := Spec{Name: name, Depth: 4}.Depths(context.Background(), X, depths)
		if err != nil {
			t.Fatal(err)
		}
		for o, l := range depths {
			want, err := Spec{Name: name, Depth: l}.Gram(X, nil)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := got[o].RawMatrix().Data, want.RawMatrix().Data; !slices.EqualFunc(g, w, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
				t.Errorf("%s depth %d: Depths differs from Gram", name, l)
			}
		}
	}
}

func TestDepthsRefuses(t *testing.T) {
	t.Parallel()
	X := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name   string
		k      Spec
		X      *mat.Dense
		depths []int
		ctx    context.Context
		code   check.Code
	}{
		{"rbf", Spec{Name: NameRBF}, X, []int{1}, context.Background(), check.Option},
		{"no depths", Spec{}, X, nil, context.Background(), check.Option},
		{"depth 0", Spec{}, X, []int{1, 0}, context.Background(), check.Option},
		{"too deep", Spec{}, X, []int{MaxDepth + 1}, context.Background(), check.Option},
		{"NaN", Spec{}, mat.NewDense(1, 2, []float64{1, math.NaN()}), []int{1}, context.Background(), check.NonFinite},
		{"cancelled", Spec{}, X, []int{1}, ctx, check.Aborted},
	} {
		_, err := tc.k.Depths(tc.ctx, tc.X, tc.depths)
		var e *check.Error
		if !errors.As(err, &e) || e.Code != tc.code {
			t.Errorf("%s: %v; want %s", tc.name, err, tc.code)
		}
	}
}
