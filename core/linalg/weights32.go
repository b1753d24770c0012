package linalg

import (
	"fmt"
	"runtime"
	"sync"
)

// Weights32 is a k×m float32 matrix b laid out for many products a·b with
// the same b, as random features project every block of rows onto the
// same weights: where this build has a panel kernel (AVX2) b is stored in
// packed panels, which that kernel streams from cache at 1.7× the rate of
// Mul32 on row-major b (Zen 3, BenchmarkMul32Ratio); elsewhere it is b's
// rows. The product has
// Mul32's bits either way. It holds k·m values (up to 15 more columns of
// zeros when packed) and is safe for concurrent use.
type Weights32 struct {
	k, m   int
	data   []float32
	packed bool
}

// mul32Panel is the panel micro-kernel Weights32 uses, or nil where this
// build has none (the first of mul32PanelKernels).
var mul32Panel = firstTile(mul32PanelKernels())

func firstTile(ks []mul32TileSet) mul32Tile {
	if len(ks) == 0 {
		return nil
	}
	return ks[0].tile
}

// NewWeights32 returns the k×m row-major b, each value rounded to
// float32 (float64 weights need no float32 copy first), laid out for
// Weights32.Mul; b is not kept. It panics if the length does not match.
func NewWeights32[T float32 | float64](b []T, k, m int) *Weights32 {
	return newWeights32(mul32Panel, b, k, m)
}

// newWeights32 is NewWeights32 with the panel kernel as a parameter (nil:
// row-major), so tests can pack for every kernel of this build.
func newWeights32[T float32 | float64](kern mul32Tile, b []T, k, m int) *Weights32 {
	if k < 0 || m < 0 || len(b) < k*m {
		panic(fmt.Sprintf("linalg: NewWeights32 length %d does not fit k=%d, m=%d", len(b), k, m))
	}
	if kern == nil {
		rows := make([]float32, k*m)
		for i, v := range b[:k*m] {
			rows[i] = float32(v)
		}
		return &Weights32{k: k, m: m, data: rows}
	}
	return &Weights32{k: k, m: m, data: packPanels32(b, k, m), packed: true}
}

// Dims returns k and m.
func (w *Weights32) Dims() (k, m int) { return w.k, w.m }

// Len returns the number of float32 values w holds.
func (w *Weights32) Len() int { return len(w.data) }

// Mul sets c = a·b for row-major float32 a (n×k) and c (n×m) with the bits
// of Mul32(c, a, b, n, k, m), splitting the rows among at most workers
// goroutines (a caller that already runs one product per core passes 1).
// It panics if the lengths do not match.
func (w *Weights32) Mul(c, a []float32, n, workers int) {
	w.mul(mul32Panel, c, a, n, workers)
}

func (w *Weights32) mul(kern mul32Tile, c, a []float32, n, workers int) {
	k, m := w.k, w.m
	if n < 0 || len(a) < n*k || len(c) < n*m {
		panic(fmt.Sprintf("linalg: Weights32.Mul lengths %d, %d do not fit n=%d, k=%d, m=%d", len(c), len(a), n, k, m))
	}
	rows := func(i0, i1 int) {
		if w.packed {
			mul32Panels(kern, c, a, w.data, i0, i1, k, m)
		} else {
			mul32Rows(c, a, w.data, i0, i1, k, m)
		}
	}
	if n*k*m < minParallel {
		workers = 1
	}
	workers = max(1, min(workers, n, runtime.GOMAXPROCS(0)))
	if workers == 1 {
		rows(0, n)
		return
	}
	var wg sync.WaitGroup
	for i := range workers {
		wg.Go(func() { rows(n*i/workers, n*(i+1)/workers) })
	}
	wg.Wait()
}
