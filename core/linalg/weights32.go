package linalg

import "fmt"

// Weights32 is a k×m float32 matrix b laid out for many products a·b with
// the same b, as random features project every block of rows onto the
// same weights: where this build has a panel kernel b is stored in packed
// panels, which the kernel streams from cache (AVX2: panels of 16
// columns, 1.7× the rate of Mul32 on row-major b on Zen 3,
// BenchmarkMul32Ratio; WebAssembly SIMD: strips of 8 columns for Mul32's
// own 4×8 kernel, BenchmarkWeights32Strips); elsewhere it is b's rows. The
// product has Mul32's bits either way. It holds k·m values (up to 15 more
// columns of zeros when packed) and is safe for concurrent use.
type Weights32 struct {
	k, m   int
	data   []float32
	packed bool
}

// mul32Panel is the panel micro-kernel Weights32 uses (the first of
// mul32PanelKernels), the zero set (row-major weights) where this build
// has none.
var mul32Panel = firstTile(mul32PanelKernels())

func firstTile(ks []mul32TileSet) mul32TileSet {
	if len(ks) == 0 {
		return mul32TileSet{}
	}
	return ks[0]
}

// NewWeights32 returns the k×m row-major b, each value rounded to
// float32 (float64 weights need no float32 copy first), laid out for
// Weights32.Mul; b is not kept. It panics if the length does not match.
func NewWeights32[T float32 | float64](b []T, k, m int) *Weights32 {
	return newWeights32(mul32Panel, b, k, m)
}

// newWeights32 is NewWeights32 with the panel kernel as a parameter (the
// zero set: row-major), so tests can pack for every kernel of this build.
func newWeights32[T float32 | float64](kern mul32TileSet, b []T, k, m int) *Weights32 {
	if k < 0 || m < 0 || len(b) < k*m {
		panic(fmt.Sprintf("linalg: NewWeights32 length %d does not fit k=%d, m=%d", len(b), k, m))
	}
	switch {
	case kern.tile != nil:
		return &Weights32{k: k, m: m, data: packPanels32(b, k, m), packed: true}
	case kern.strip != nil:
		return &Weights32{k: k, m: m, data: packStrips32(b, k, m), packed: true}
	default:
		rows := make([]float32, k*m)
		for i, v := range b[:k*m] {
			rows[i] = float32(v)
		}
		return &Weights32{k: k, m: m, data: rows}
	}
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

// mul is Mul with the kernel w was packed for.
func (w *Weights32) mul(kern mul32TileSet, c, a []float32, n, workers int) {
	k, m := w.k, w.m
	if n < 0 || len(a) < n*k || len(c) < n*m {
		panic(fmt.Sprintf("linalg: Weights32.Mul lengths %d, %d do not fit n=%d, k=%d, m=%d", len(c), len(a), n, k, m))
	}
	rows := func(i0, i1 int) {
		switch {
		case !w.packed:
			mul32Rows(c, a, w.data, i0, i1, k, m)
		case kern.tile != nil:
			mul32Panels(kern.tile, c, a, w.data, i0, i1, k, m)
		default:
			mul32StripPanels(kern.strip, c, a, w.data, i0, i1, k, m)
		}
	}
	splitRange(n, min(workers, coresFor(n*k*m, minParallel)), 1, rows)
}
