package rf

import (
	"fmt"
	"math"
	"math/bits"

	"ntkrf/internal/check"
)

// The split form of the NTK features (Config.Sketch "split") writes every
// arc-cosine feature as its mean part plus a zero-mean part:
//
//	ReLU(t) = t/2 + |t|/2      so  F1(x, y) = ⟨x, y⟩/2 + E|g·x||g·y|/2,
//	Step(t) = 1/2 + sign(t)/2  so  F0(x, y) = 1/2 + E[sign(g·x)·sign(g·y)]/2
//
// (the cross terms vanish: g and −g are equally likely). The recursion
// NNGP_l = F1(NNGP_{l−1}), NTK_l = NNGP_l + NTK_{l−1}·F0 then becomes
//
//	Ψ_l = [Ψ_{l−1}/√2, A_l/√2],  A_l = |U Ψ_{l−1}|·√(din/m1)
//	Φ_l = [Ψ_l, Φ_{l−1}/√2, G_l/√2],  G_l = TensorSketch(S_l ⊗ Φ_{l−1}),
//	S_l = sign(W Ψ_{l−1})/√m0
//
// from Ψ_0 = Φ_0 = x. Every block is a weighted copy of x, of some A_k or
// of some G_k, and copies of one block merge into one with the sum of the
// squared weights, so Φ_L = [w_x·x, w_1·A_1, w_1'·G_1, …, w_L·A_L,
// w_L'·G_L]. The part linear in x is then exact (no variance), and the
// random blocks estimate zero-mean kernels whose variance is several times
// smaller than that of the paper's features: at m = 4096 on held-out unit
// rows the relative Frobenius error falls from .07–.10 to .02–.05 (see
// the package documentation).

// splitPlan is the layout of the split form: component 0 is x, component
// 2l−1 is A_l and 2l is G_l (l = 1…L).
type splitPlan struct {
	width []int // columns of each component
	off   []int // first output column of each component
	// in[l][c] and phi[l][c]: the weight of component c in Ψ_l and Φ_l
	// (l = 0…L; 0 where c is not part of it). The output is Φ_L.
	psi, phi [][]float64
}

// newSplitPlan lays out d input columns and m output columns for depth L.
// The random blocks share the m − d columns in proportion to their squared
// weights in Φ_L (A_k: (L−k+1)·2^{k−1}, G_k: 2^{k−1}, in units of 2^{−L}),
// which minimizes the summed variance when every block's own variance per
// column is alike. A sketch's FFT is several times faster at a power of
// two than at other lengths (Bluestein), so each G_k is rounded to the
// nearest power of two (on a log scale: at most √2 off) and the A's, which
// cost the same at any width, absorb the difference (A_L what integer
// shares leave); since the A's hold at least half the weight, each keeps
// at least 1 − (√2 − 1) ≈ 0.59 of its share. The error barely depends on
// the split near the optimum (at depth 1, sketch shares of 0.4–0.6 differ
// by 5 %).
func newSplitPlan(d, m, L int) (*splitPlan, error) {
	if L > maxSplitDepth {
		return nil, check.New(check.Option, "depth", "rf: Config.Depth %d is too deep for the split form, whose blocks need 2^depth columns; use at most %d, or Config.Sketch \"tensorsketch\"", L, maxSplitDepth)
	}
	nc := 2*L + 1
	p := &splitPlan{width: make([]int, nc), off: make([]int, nc)}
	wt, total := splitWeights(L)
	free := m - d
	p.width[0] = d
	left, aw := free, 0
	for k := 1; k <= L; k++ {
		w := free * wt[2*k] / total
		if w > 0 {
			lo := 1 << (bits.Len(uint(w)) - 1)
			if w*w >= 2*lo*lo { // nearer 2·lo than lo on a log scale
				lo *= 2
			}
			w = lo
		}
		p.width[2*k] = w
		left -= w
		aw += wt[2*k-1]
	}
	used := 0
	for k := 1; k <= L; k++ {
		c := 2*k - 1
		p.width[c] = left * wt[c] / aw
		if k == L {
			p.width[c] = left - used
		}
		used += p.width[c]
	}
	for c := 1; c < nc; c++ {
		if p.width[c] < 1 {
			return nil, check.New(check.Option, "dim", "rf: Config.Dim %d is too small for the split form at depth %d with %d input columns; use at least %d, or Config.Sketch \"tensorsketch\"",
				m, L, d, d+total)
		}
		p.off[c] = p.off[c-1] + p.width[c-1]
	}
	// The recursion above, on squared weights.
	sq := func(c int, w []float64) float64 {
		if c < len(w) {
			return w[c]
		}
		return 0
	}
	psi := []float64{1}
	phi := []float64{1}
	p.psi, p.phi = [][]float64{psi}, [][]float64{phi}
	for l := 1; l <= L; l++ {
		np := make([]float64, 2*l+1)
		nf := make([]float64, 2*l+1)
		for c := range np {
			np[c] = sq(c, psi) / 2
		}
		np[2*l-1] = 0.5
		for c := range nf {
			nf[c] = np[c] + sq(c, phi)/2
		}
		nf[2*l] = 0.5
		psi, phi = np, nf
		p.psi, p.phi = append(p.psi, psi), append(p.phi, phi)
	}
	for _, ws := range [][][]float64{p.psi, p.phi} {
		for _, w := range ws {
			for c := range w {
				w[c] = math.Sqrt(w[c])
			}
		}
	}
	return p, nil
}

// maxSplitDepth is the deepest split form: its blocks need more than
// 2^L columns in all, so deeper ones exceed MaxDim (and their integer
// weights would overflow).
const maxSplitDepth = 23

// splitWeights returns the squared weights of the components in Φ_L in
// units of 2^{−L} (x's entry unused) and the sum of those of the random
// blocks, the fewest columns they need.
func splitWeights(L int) (wt []int, total int) {
	wt = make([]int, 2*L+1)
	for k := 1; k <= L; k++ {
		wt[2*k-1] = (L - k + 1) << (k - 1)
		wt[2*k] = 1 << (k - 1)
		total += wt[2*k-1] + wt[2*k]
	}
	return wt, total
}

// fitsSplit reports whether the split form is the default for d input
// columns, m outputs and depth L: it holds x exactly, so it needs d < m; it
// was measured better than the paper's form up to d ≈ 0.77·m (Fashion-MNIST
// at m = 1024) and is used up to d = 3m/4.
func fitsSplit(d, m, L int) bool {
	if L > maxSplitDepth {
		return false
	}
	_, total := splitWeights(L)
	return 4*d <= 3*m && m-d >= total
}

// SketchRule says in words, for the hosts' documentation, what
// Config.Sketch "auto" means (defaultSketch, fitsSplit).
var SketchRule = fmt.Sprintf("%s for %s features where the input has at most 3/4 as many columns as the output (and at depth ≤ %d) and no ReLU or sketch width is given, else %s",
	SketchSplit, NTK, maxSplitDepth, SketchTensorSketch)

// defaultSketch is what Config.Sketch "auto" (or unset) means: the split
// form for ntk where it fits and no widths are given, else TensorSketch
// (also for the methods that take no sketch, as before the split form).
func defaultSketch(c *Config, d int) Sketch {
	if c.Method == NTK && c.M1 == 0 && c.SketchDim == 0 && c.Dim > 0 && fitsSplit(d, c.Dim, c.Depth) {
		return SketchSplit
	}
	return SketchTensorSketch
}

// sizeSplit sizes the layers of the split form (Config.Sketch "split"):
// layer l projects Ψ_{l−1} = [x, A_1 … A_{l−1}] onto m0 signs and |A_l|
// ReLU magnitudes, and sketches the signs ⊗ Φ_{l−1} into G_l.
func (p *mapPlan) sizeSplit(d int) error {
	c := &p.cfg
	if c.M1 != 0 || c.SketchDim != 0 {
		return check.New(check.Option, "sketch", "rf: Config.M1 and Config.SketchDim do not apply to Config.Sketch \"split\", which divides Config.Dim itself; give Config.Dim alone, or Config.Sketch \"tensorsketch\" for explicit widths")
	}
	if err := needDim(c); err != nil {
		return err
	}
	L := c.Depth
	sp, err := newSplitPlan(d, c.Dim, L)
	if err != nil {
		return err
	}
	m0 := orDefault(c.M0, sp.width[2*L-1])
	din := d
	for l := 1; l <= L; l++ {
		m1 := sp.width[2*l-1]
		p.layers = append(p.layers, layerPlan{din: din, m0: m0, m1: m1, phiDim: sp.off[2*l-1], mcs: sp.width[2*l], gain: 1})
		din += m1
	}
	c.M0 = m0
	p.split = sp
	return nil
}

// blockSplit computes the split-form features of the b rows in ws.x, in
// into (b×Dim) where it is not nil.
func (f *Map) blockSplit(ws *workspace, b int, into []float64) []float64 {
	p, d, m := f.split, f.inputDim, f.dim
	out := into
	if out == nil {
		out = grow(ws.phi[0], b*m)
		ws.phi[0] = out
	}
	for r := range b {
		copy(out[r*m:r*m+d], ws.x[r*d:(r+1)*d])
	}
	for l, ly := range f.layers {
		st := ly.m0 + ly.m1
		// Ψ_l = [w·x, w·A_1, …, w·A_l] for the projection: in float32 the
		// weighted values are rounded as they are written (the bits of
		// rounding the float64 ones after), and the projections are read
		// in float32 (widening is exact), two passes fewer over the block.
		psiW := p.psi[l]
		in32 := ly.w32 != nil && ly.had == nil
		var psi []float64
		if in32 {
			ws.x32 = grow(ws.x32, b*ly.din)
		} else {
			ws.psi[0] = grow(ws.psi[0], b*ly.din)
			psi = ws.psi[0]
		}
		for r := range b {
			row := out[r*m : (r+1)*m]
			at := r * ly.din
			for c := range psiW {
				if c > 0 && c%2 == 0 {
					continue // a G: not part of Ψ
				}
				src := row[p.off[c] : p.off[c]+p.width[c]]
				if in32 {
					scaleInto32(ws.x32[at:at+len(src)], src, psiW[c])
				} else {
					scaleInto(psi[at:at+len(src)], src, psiW[c])
				}
				at += len(src)
			}
		}
		var p32 []float32
		if in32 {
			ws.p32 = grow(ws.p32, b*st)
			ly.w32.Mul(ws.p32, ws.x32, b, ws.workers)
			p32 = ws.p32
		} else {
			ws.proj = grow(ws.proj, b*st)
			ly.project(ws, ws.proj, psi, b)
		}
		phiW := p.phi[l]
		dphi := p.off[2*l+1]
		if _, ok := ly.sk.(*TensorSketch); !ok {
			ws.psi[1] = grow(ws.psi[1], dphi)
		}
		ws.lam = grow(ws.lam, ly.m0)
		a, g := 2*l+1, 2*l+2
		for r := range b {
			row := out[r*m : (r+1)*m]
			av := row[p.off[a] : p.off[a]+p.width[a]]
			if in32 {
				pr := p32[r*st : (r+1)*st]
				signs32(ws.lam, pr[:ly.m0], ly.s0)
				absScale32(av, pr[ly.m0:], ly.s1)
			} else {
				pr := ws.proj[r*st : (r+1)*st]
				signs(ws.lam, pr[:ly.m0], ly.s0)
				absScale(av, pr[ly.m0:], ly.s1)
			}
			// Φ_l = [w·x, w·A_1, w·G_1, …, w·A_l, w·G_l] for the sketch
			// (TensorSketch weighs the parts as it hashes them).
			if ts, ok := ly.sk.(*TensorSketch); ok {
				ts.applyParts(row[p.off[g]:p.off[g]+p.width[g]], ws.lam, row[:dphi], p.off, p.width, phiW, &ws.sc)
				continue
			}
			for c := range phiW {
				scaleInto(ws.psi[1][p.off[c]:p.off[c]+p.width[c]], row[p.off[c]:p.off[c]+p.width[c]], phiW[c])
			}
			ly.sk.apply(row[p.off[g]:p.off[g]+p.width[g]], ws.lam, ws.psi[1], &ws.sc)
		}
	}
	outW := p.phi[len(f.layers)]
	for r := range b {
		row := out[r*m : (r+1)*m]
		for c, w := range outW {
			v := row[p.off[c] : p.off[c]+p.width[c]]
			scaleInto(v, v, w)
		}
	}
	return out
}

// The element-wise helpers below are called per row and never inlined:
// WebAssembly engines swap optimized code in only at a function's next
// call, so a loop over a whole block inside blockSplit ran to its end in
// baseline code (V8's Liftoff) at its first calls, which are most of a
// worker's calls (a block of 1,024 rows at a time).

// absScale sets dst to s·|v|, and absScale32 the same of float32 v
// (widening is exact).
//
//go:noinline
func absScale(dst, v []float64, s float64) {
	dst = dst[:len(v)]
	for i, x := range v {
		dst[i] = math.Abs(x) * s
	}
}

//go:noinline
func absScale32(dst []float64, v []float32, s float64) {
	dst = dst[:len(v)]
	for i, x := range v {
		dst[i] = math.Abs(float64(x)) * s
	}
}

// signs sets lam[i] to s·sign(v[i]), with sign(0) = 0, not −1: a zero row
// (where F0 is undefined and the NTK 0) then gets exactly zero features,
// as in the paper's form; any other row has v = 0 with probability 0 (and
// a NaN gives 0, as v > 0 and v < 0 are both false). Copysign rather than
// comparisons: the signs of random projections are coin flips, and a
// branch on each mispredicted half the time.
//
//go:noinline
func signs(lam, v []float64, s float64) {
	lam = lam[:len(v)]
	for i, x := range v {
		l := math.Copysign(s, x)
		if x == 0 || x != x {
			l = 0
		}
		lam[i] = l
	}
}

// signs32 is signs on float32 projections.
//
//go:noinline
func signs32(lam []float64, v []float32, s float64) {
	lam = lam[:len(v)]
	for i, x := range v {
		l := math.Copysign(s, float64(x))
		if x == 0 || x != x {
			l = 0
		}
		lam[i] = l
	}
}

// scaleInto sets dst to w·src.
//
//go:noinline
func scaleInto(dst, src []float64, w float64) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = w * v
	}
}

// scaleInto32 sets dst to w·src rounded to float32, the bits of scaleInto
// then a rounding.
//
//go:noinline
func scaleInto32(dst []float32, src []float64, w float64) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = float32(w * v)
	}
}
