package kernel

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/linalg"
	"ntkrf/internal/check"
)

// Depths returns the NTK (or NNGP, as k names) of the rows of X with
// themselves at each of depths (each 1 … MaxDepth), in one pass of the
// recursion to the deepest: it passes through every shallower depth, so
// each matrix is GramContext's at its depth, bit for bit, for the work of
// the deepest alone. A selection that scores several depths of one
// preprocessing takes them from here. k's own Depth is not used; it
// returns ctx's error (ERR_ABORTED) once ctx is cancelled.
func (k Spec) Depths(ctx context.Context, X *mat.Dense, depths []int) ([]*mat.Dense, error) {
	k.Depth = 0
	d := 0
	if X != nil {
		_, d = X.Dims()
	}
	k, err := k.Filled(d)
	if err != nil {
		return nil, err
	}
	if k.Name != NameNTK && k.Name != NameNNGP {
		return nil, check.New(check.Option, "kernel", "kernel: %s has no depth; Depths takes the ntk or nngp kernel", check.Quote(k.Name))
	}
	deepest := 0
	for _, l := range depths {
		if err := depthArg(l); err != nil {
			return nil, err
		}
		deepest = max(deepest, l)
	}
	if deepest == 0 {
		return nil, check.New(check.Option, "depth", "kernel: no depths given; give at least one of 1 … %d", MaxDepth)
	}
	if err := check.Matrix("X", X); err != nil {
		return nil, check.Wrap("kernel", err)
	}
	n, _ := X.Dims()
	if err := check.Alloc("kernel matrices", len(depths)*n, n); err != nil {
		return nil, check.Wrap("kernel", err)
	}
	sx, err := rowSquares("X", X)
	if err != nil {
		return nil, err
	}
	ntk := k.Name == NameNTK
	G := innerProducts(X, X, true)
	gd := G.RawMatrix().Data
	out := make([]*mat.Dense, len(depths))
	od := make([][]float64, len(depths))
	for i := range out {
		out[i] = mat.NewDense(n, n, nil)
		od[i] = out[i].RawMatrix().Data
	}
	norms := make([]float64, n)
	for i, s := range sx {
		norms[i] = math.Sqrt(s)
	}
	linalg.ParallelFor(n, func(i int) {
		if ctx.Err() != nil {
			return // the call returns the context's error
		}
		var layers [MaxDepth]float64
		var two [2][MaxDepth]float64
		x := X.RawRowView(i)
		a := norms[i]
		for o, l := range depths {
			if ntk {
				od[o][i*n+i] = float64(l+1) * sx[i]
			} else {
				od[o][i*n+i] = sx[i]
			}
		}
		for j := i + 1; j < n; j++ {
			if simdPairs && j+1 < n && layersPair((*[2]float64)(gd[i*n+j:i*n+j+2]), (*[2]float64)(norms[j:j+2]), a, ntk, &two, deepest) {
				for o, l := range depths {
					od[o][i*n+j], od[o][i*n+j+1] = two[0][l-1], two[1][l-1]
				}
				j++
				continue
			}
			reluLayers(gd[i*n+j], a, norms[j], x, X.RawRowView(j), ntk, layers[:deepest])
			for o, l := range depths {
				od[o][i*n+j] = layers[l-1]
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, check.Stopped("kernel: kernel matrix", err)
	}
	for _, kd := range od {
		for i := 1; i < n; i++ {
			for j := 0; j < i; j++ {
				kd[i*n+j] = kd[j*n+i]
			}
		}
	}
	return out, nil
}
