package rf

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"ntkrf/core/linalg"
	"ntkrf/internal/check"
)

// blockRows is the number of rows projected together by one linalg.Mul;
// linalg.Mul sums every entry in a fixed order, so results do not depend on
// it. Every block streams the layer's weights (din×(m0+m1), 64 MiB for the
// second layer at m = 4096) from memory once: 256 rows made features at
// L = 2 1.23× faster than 64. A variable so that a test can put block
// boundaries inside small inputs.
var blockRows = 256

// workspaces keeps the per-goroutine workspaces (tens of MiB at m = 4096)
// from one Transform to the next, so a caller featurizing in blocks does
// not fault fresh pages in on every call.
var workspaces sync.Pool

// Transform sets dst to the n×Dim features of the n rows of X and returns
// it; a nil dst is allocated. Row i of the result depends only on row i of
// X, and rows are computed in parallel blocks whose size does not change
// the result. X is not modified.
func (f *Map) Transform(dst, X *mat.Dense) (*mat.Dense, error) {
	if err := check.Matrix("X", X); err != nil {
		return nil, check.Wrap("rf", err)
	}
	n, d := X.Dims()
	if d != f.inputDim {
		return nil, check.New(check.Shape, "", "rf: X has %d columns; this feature map was built for %d", d, f.inputDim)
	}
	if dst == nil {
		if err := check.Alloc("feature matrix", n, f.dim); err != nil {
			return nil, check.Wrap("rf", err)
		}
		dst = mat.NewDense(n, f.dim, nil)
	} else if r, c := dst.Dims(); r != n || c != f.dim {
		return nil, check.New(check.Shape, "", "rf: dst is %d×%d; Transform needs %d×%d (or nil)", r, c, n, f.dim)
	}
	xr, dr := X.RawMatrix(), dst.RawMatrix()
	blocks := (n + blockRows - 1) / blockRows
	workers := min(runtime.GOMAXPROCS(0), blocks)
	// Each block's projection splits its rows among the cores the blocks
	// leave idle: none when there are blocks for every core (nested
	// goroutines there only preempted each other).
	inner := max(1, runtime.GOMAXPROCS(0)/workers)
	var next atomic.Int64
	var bad atomic.Int64 // the first row whose features are not finite, or n
	bad.Store(int64(n))
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws, _ := workspaces.Get().(*workspace)
			if ws == nil {
				ws = new(workspace)
			}
			defer workspaces.Put(ws)
			ws.workers = inner
			for {
				blk := int(next.Add(1)) - 1
				if blk >= blocks {
					return
				}
				lo, hi := blk*blockRows, min((blk+1)*blockRows, n)
				b := hi - lo
				ws.x = grow(ws.x, b*d)
				for i := range b {
					copy(ws.x[i*d:(i+1)*d], xr.Data[(lo+i)*xr.Stride:])
				}
				// Where dst's rows are contiguous the block may write them
				// itself rather than through a copy of 8 MB.
				var into []float64
				if dr.Stride == f.dim {
					into = dr.Data[lo*f.dim : hi*f.dim]
				}
				out := f.block(ws, b, into)
				for i := range b {
					row := dr.Data[(lo+i)*dr.Stride : (lo+i)*dr.Stride+f.dim]
					if into == nil || &out[0] != &into[0] {
						copy(row, out[i*f.dim:(i+1)*f.dim])
					}
					if f.cfg.Normalize {
						normalize(row)
					}
					if !finite(row) {
						for j := bad.Load(); int64(lo+i) < j && !bad.CompareAndSwap(j, int64(lo+i)); j = bad.Load() {
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	// Enormous inputs overflow the projections (cos(Inf), Inf−Inf): say so
	// rather than hand back NaN features.
	if i := int(bad.Load()); i < n {
		return nil, check.New(check.Value, "", "rf: the features of row %d are not finite (its largest value is %.3g); rescale the data, e.g. standardize it",
			i, floats.Norm(xr.Data[i*xr.Stride:i*xr.Stride+d], math.Inf(1)))
	}
	return dst, nil
}

// finite reports whether every value of row is finite: v·0 is 0 for a
// finite v and NaN for ±Inf and NaN, and a sum with a NaN is NaN (four
// sums, to run at the adds' throughput rather than their latency; checked
// in the workers while the rows are in cache).
func finite(row []float64) bool {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(row); i += 4 {
		r := row[i : i+4 : i+4]
		s0 += r[0] * 0
		s1 += r[1] * 0
		s2 += r[2] * 0
		s3 += r[3] * 0
	}
	for _, v := range row[i:] {
		s0 += v * 0
	}
	s := s0 + s1 + s2 + s3
	return s == s
}

// project sets dst (b×(m0+m1)) to the layer's projections of the b rows
// of x (b×din).
func (ly *layer) project(ws *workspace, dst, x []float64, b int) {
	if ly.had != nil {
		ws.had = ly.had.apply(dst, x, b, ws.had)
		return
	}
	st := ly.m0 + ly.m1
	if ly.w32 != nil {
		// Precision "float32": the rows rounded once, the products summed
		// in float32 (the same bits on every host), widened exactly.
		ws.x32 = grow(ws.x32, b*ly.din)
		for i, v := range x[:b*ly.din] {
			ws.x32[i] = float32(v)
		}
		ws.p32 = grow(ws.p32, b*st)
		ly.w32.Mul(ws.p32, ws.x32, b, ws.workers)
		for i, v := range ws.p32 {
			dst[i] = float64(v)
		}
		return
	}
	linalg.Mul(dst, x, ly.w, b, ly.din, st)
}

// workspace is the memory one goroutine reuses across blocks.
type workspace struct {
	x, proj, lam, had []float64
	x32, p32          []float32 // Precision "float32": a block's rows and projections
	workers           int       // goroutines for one block's float32 projection
	psi, phi          [2][]float64
	hs, gs            [][]float64 // grad: activations and pre-activations per layer
	delta, back       []float64
	sc                scratch
}

// block computes the features of the b rows in ws.x and returns them as a
// row-major b×Dim slice: into where it is not nil and the method writes
// its output in place (the split form), else a slice owned by ws.
func (f *Map) block(ws *workspace, b int, into []float64) []float64 {
	switch f.cfg.Method {
	case NTK, NNGP, Naive:
		if f.split != nil {
			return f.blockSplit(ws, b, into)
		}
		return f.blockNTK(ws, b)
	case Grad:
		return f.blockGrad(ws, b)
	}
	// arccos0, arccos1, rff: one layer.
	ly := f.layers[0]
	st := ly.m0 + ly.m1
	ws.proj = grow(ws.proj, b*st)
	ly.project(ws, ws.proj, ws.x, b)
	p := ws.proj
	switch f.cfg.Method {
	case ArcCos0:
		for i, v := range p {
			p[i] = step(v) * ly.s0
		}
	case ArcCos1:
		for i, v := range p {
			p[i] = math.Max(v, 0) * ly.s1
		}
	case RFF:
		for r := range b {
			row := p[r*st : (r+1)*st]
			for i, v := range row {
				row[i] = ly.s1 * math.Cos(v+f.bias[i])
			}
		}
	}
	return p
}

func step(v float64) float64 {
	if v > 0 {
		return 1
	}
	return 0
}

// blockNTK runs Algorithm 1 (ntk), its Ψ chain (nngp) or the explicit
// tensor products (naive) on a block of rows.
func (f *Map) blockNTK(ws *workspace, b int) []float64 {
	psi, phi := ws.x, ws.x
	phiDim := f.inputDim
	for l, ly := range f.layers {
		st := ly.m0 + ly.m1
		ws.proj = grow(ws.proj, b*st)
		ly.project(ws, ws.proj, psi, b)
		k := l % 2
		ws.psi[k] = grow(ws.psi[k], b*ly.m1)
		np := ws.psi[k]
		var outDim int
		switch f.cfg.Method {
		case NTK:
			outDim = ly.m1 + ly.sk.Out()
		case Naive:
			outDim = ly.m1 + ly.m0*phiDim
		}
		ws.phi[k] = grow(ws.phi[k], b*outDim)
		nphi := ws.phi[k]
		ws.lam = grow(ws.lam, ly.m0)
		for r := range b {
			p := ws.proj[r*st : (r+1)*st]
			for i, v := range p[:ly.m0] {
				ws.lam[i] = step(v) * ly.s0
			}
			pr := np[r*ly.m1 : (r+1)*ly.m1]
			for i, v := range p[ly.m0:] {
				pr[i] = math.Max(v, 0) * ly.s1
			}
			if outDim == 0 {
				continue
			}
			o := nphi[r*outDim : (r+1)*outDim]
			copy(o, pr)
			prev := phi[r*phiDim : (r+1)*phiDim]
			if f.cfg.Method == NTK {
				ly.sk.apply(o[ly.m1:], ws.lam, prev, &ws.sc)
				continue
			}
			t := o[ly.m1:]
			for i, a := range ws.lam {
				dst := t[i*phiDim : (i+1)*phiDim]
				for j, v := range prev {
					dst[j] = a * v
				}
			}
		}
		psi, phi = np, nphi
		phiDim = outDim
	}
	if f.cfg.Method == NNGP || len(f.layers) == 0 {
		return psi
	}
	return phi
}

// blockGrad computes ∇_θ f(x) for f(x) = wᵀh_L, ordered as
// [∂f/∂w, ∂f/∂W_L, …, ∂f/∂W_1], each W_l flattened row-major (width × din).
func (f *Map) blockGrad(ws *workspace, b int) []float64 {
	L := len(f.layers)
	n := f.cfg.M1
	ws.hs = grow(ws.hs, L+1)
	ws.gs = grow(ws.gs, L+1)
	ws.hs[0] = ws.x
	din := f.inputDim
	for l, ly := range f.layers {
		ws.gs[l+1] = grow(ws.gs[l+1], b*n)
		linalg.Mul(ws.gs[l+1], ws.hs[l], ly.w, b, din, n)
		h := grow(ws.hs[l+1], b*n)
		for i, v := range ws.gs[l+1] {
			h[i] = math.Max(v, 0) * ly.s1
		}
		ws.hs[l+1] = h
		din = n
	}
	ws.proj = grow(ws.proj, b*f.dim)
	ws.delta, ws.back = grow(ws.delta, n), grow(ws.back, max(n, f.inputDim))
	s := f.layers[0].s1
	for r := range b {
		o := ws.proj[r*f.dim : (r+1)*f.dim]
		copy(o, ws.hs[L][r*n:(r+1)*n])
		o = o[n:]
		g := ws.gs[L][r*n : (r+1)*n]
		for i := range n {
			ws.delta[i] = step(g[i]) * s * f.head[i]
		}
		for l := L; l >= 1; l-- {
			ly := f.layers[l-1]
			h := ws.hs[l-1][r*ly.din : (r+1)*ly.din]
			for i, dv := range ws.delta {
				row := o[i*ly.din : (i+1)*ly.din]
				for j, hv := range h {
					row[j] = dv * hv
				}
			}
			o = o[n*ly.din:]
			if l == 1 {
				break
			}
			// ∂f/∂h_{l−1} = W_lᵀ δ_l, then through the ReLU of layer l−1.
			gp := ws.gs[l-1][r*n : (r+1)*n]
			for j := range n {
				var acc float64
				wj := ly.w[j*n : (j+1)*n]
				for i, dv := range ws.delta {
					acc += float64(wj[i] * dv)
				}
				ws.back[j] = acc
			}
			for j := range n {
				ws.delta[j] = step(gp[j]) * s * ws.back[j]
			}
		}
	}
	return ws.proj
}
