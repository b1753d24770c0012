package linalg

import (
	"math"
	"runtime"
	"sync"

	lapack "gonum.org/v1/gonum/lapack/gonum"
)

// Blocking of the reduction to tridiagonal form. Each panel of
// tridiagBlock columns ends in one rank-2·tridiagBlock update of the
// trailing matrix through AddAtA, whose passes over that matrix are
// memory bound, so wider panels make fewer passes; but the panel's own
// vector work grows with its width. 48, 64 and 96 measured alike at
// m = 4096 (6.4–6.8 s on two Zen 5 cores), 32 to 64 alike at m = 1024,
// where 96 was slower.
const tridiagBlock = 48

// tridiag reduces the symmetric m×m matrix A whose upper triangle is in a
// (row-major, stride m) to tridiagonal form T = QᵀAQ with diagonal d and
// off-diagonal e (e[i] couples i and i+1; e[m−1] is left alone), where
// Q = H₀H₁⋯H_{m−2} and H_i = I − τᵢvᵢvᵢᵀ. On return row i of a holds vᵢ
// in columns i+1 … m−1 (vᵢ[i+1] = 1; vᵢ is zero before), and tau[i] = τᵢ.
//
// It is LAPACK's blocked dsytrd for the lower triangle (dlatrd panels):
// a row-major upper triangle is a column-major lower one, so reflector i
// runs along row i, contiguous. Per panel, the product of the trailing
// matrix with each reflector (symv) is one fused pass over its upper
// triangle, and the closing rank-2k update runs on AddAtA.
func tridiag(a []float64, m int, d, e, tau []float64, progress Progress) (stopped bool) {
	nb := tridiagBlock
	t := &tridiagWork{
		w:  make([]float64, nb*m),
		t1: make([]float64, nb),
		t2: make([]float64, nb),
	}
	if m > nb {
		nt := m - nb
		t.pm = make([]float64, 3*nb*nt)
	}
	p := 0
	for ; m-p > nb; p += nb {
		t.panel(a, m, p, nb, d, e, tau)
		t.update(a, m, p, nb)
		if progress.stop(p+nb, m) {
			return true
		}
	}
	t.panel(a, m, p, m-p, d, e, tau)
	return false
}

// tridiagWork holds the workspace of tridiag.
type tridiagWork struct {
	w      []float64 // W of the panel: row k holds wₖ over the global indices
	t1, t2 []float64 // Wᵀv and Vᵀv within a panel
	pm     []float64 // the panel's rows V, W, V (rank2k's scratch)
	sv     symv
}

// panel reduces columns p … p+b−1 (dlatrd): it updates each with the
// reflectors already found in the panel, computes its reflector and the
// matching column of W, such that the trailing matrix after the panel is
// A − VWᵀ − WVᵀ with V the panel's reflectors. Rows from p+b on are not
// modified.
func (t *tridiagWork) panel(a []float64, m, p, b int, d, e, tau []float64) {
	for k := 0; k < b; k++ {
		i := p + k
		row := a[i*m+i : (i+1)*m]
		// Row i −= Σⱼ vⱼ·wⱼ[i] + wⱼ·vⱼ[i] over the panel's earlier reflectors.
		split(len(row), k, func(c0, c1 int) {
			for j := 0; j < k; j++ {
				vj := a[(p+j)*m+i : (p+j+1)*m]
				wj := t.w[j*m+i : (j+1)*m]
				f, g := wj[0], vj[0]
				sub2(row[c0:c1], vj[c0:c1], wj[c0:c1], f, g)
			}
		})
		d[i] = row[0]
		if i == m-1 {
			return
		}
		beta, ti := lapack.Implementation{}.Dlarfg(m-i-1, row[1], row[2:], 1)
		e[i], tau[i] = beta, ti
		row[1] = 1
		v := row[1:]
		y := t.w[k*m+i+1 : (k+1)*m]
		if ti == 0 {
			clear(y) // H_i = I: nothing to update
			continue
		}
		// y = τ(A₂₂v − V(Wᵀv) − W(Vᵀv)), A₂₂ the matrix at the panel start.
		t.sv.mul(y, a, m, i+1, v)
		split(k, len(v), func(j0, j1 int) {
			for j := j0; j < j1; j++ {
				t.t1[j] = dot(t.w[j*m+i+1:(j+1)*m], v)
				t.t2[j] = dot(a[(p+j)*m+i+1:(p+j+1)*m], v)
			}
		})
		split(len(y), k, func(c0, c1 int) {
			for j := 0; j < k; j++ {
				vj := a[(p+j)*m+i+1+c0 : (p+j)*m+i+1+c1]
				wj := t.w[j*m+i+1+c0 : j*m+i+1+c1]
				sub2(y[c0:c1], vj, wj, t.t1[j], t.t2[j])
			}
		})
		alpha := -0.5 * ti * ti * dot(y, v)
		for c := range y {
			y[c] = ti*y[c] + alpha*v[c]
		}
	}
}

// update subtracts VWᵀ + WVᵀ from the trailing matrix (rows and columns
// from p+b on) after the panel at p (see rank2k).
func (t *tridiagWork) update(a []float64, m, p, b int) {
	q := p + b
	rank2k(a[q*m+q:], m, a[p*m+q:], m, t.w[q:], m, b, m-q, t.pm)
}

// symvChunks is the number of row ranges a large symmetric
// matrix–vector product is cut into, each with its own partial result.
// It is fixed, not the number of cores, so that the sums, merged in chunk
// order, do not depend on GOMAXPROCS.
const symvChunks = 8

// symv computes products of a symmetric matrix, stored as the upper
// triangle of a row-major array, with vectors; it keeps the partial
// results between calls.
type symv struct {
	parts [symvChunks][]float64
}

// mul sets y = S·x for the symmetric matrix S of rows and columns lo … m−1
// of the m×m upper triangle a. Every row r is one pass over a[r, r:]: a
// dot product with x for y[r] and an axpy into y[r+1:], so S is read once.
func (s *symv) mul(y, a []float64, m, lo int, x []float64) {
	n := m - lo
	if n*n < 2*minParallelWork {
		clear(y)
		symvRows(y, a, m, lo, lo, m, x)
		return
	}
	var bounds [symvChunks + 1]int
	for c := range bounds {
		// Equal shares of the triangle: row r has n−r entries.
		bounds[c] = n - int(float64(n)*math.Sqrt(1-float64(c)/symvChunks))
	}
	workers := min(runtime.GOMAXPROCS(0), symvChunks)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for c := w; c < symvChunks; c += workers {
				if cap(s.parts[c]) < n {
					s.parts[c] = make([]float64, n)
				}
				part := s.parts[c][:n]
				clear(part[bounds[c]:])
				symvRows(part, a, m, lo, lo+bounds[c], lo+bounds[c+1], x)
			}
		})
	}
	wg.Wait()
	copy(y, s.parts[0][:n])
	for c := 1; c < symvChunks; c++ {
		part := s.parts[c][bounds[c]:n]
		for i, v := range part {
			y[bounds[c]+i] += v
		}
	}
}

// symvRows adds to y (indexed from lo) the contributions of rows r0 … r1−1
// of the upper triangle a to S·x: on the host's kernel where one is
// installed (SetSymv64Host) and the rows are worth a call, else on this
// build's (symvRowsNative, symvRowsGo's bits) or in Go.
func symvRows(y, a []float64, m, lo, r0, r1 int, x []float64) {
	if symv64Host != nil && (r1-r0)*(m-r0) >= symvHostMin {
		symv64Host(y, a, m, lo, r0, r1, x)
		return
	}
	if symvRowsNative != nil && lo <= r0 && r0 < r1 {
		_, _, _ = a[(r1-1)*m+m-1], y[m-1-lo], x[m-1-lo]
		symvRowsNative(y, a, m, lo, r0, r1, x)
		return
	}
	symvRowsGo(y, a, m, lo, r0, r1, x)
}

// symvRowsNative is symvRowsGo in assembly where this build has it (all
// rows in one call, the same bits), else nil.
var symvRowsNative func(y, a []float64, m, lo, r0, r1 int, x []float64)

// symvRowsGo is symvRows in Go.
func symvRowsGo(y, a []float64, m, lo, r0, r1 int, x []float64) {
	for r := r0; r < r1; r++ {
		row := a[r*m+r : (r+1)*m]
		xs := x[r-lo:]
		ys := y[r-lo:]
		xr := xs[0]
		d := DotAxpy(ys[1:], row[1:], xs[1:], xr)
		ys[0] += float64(row[0]*xr) + d // not fused: symvRowsNative's bits
	}
}

// sub2Portable sets x[c] −= v[c]·f + w[c]·g over the length of x. sub2 is
// this function, or its SIMD twin (WebAssembly, amd64). The conversions
// forbid fusing into an FMA (GOAMD64=v3 would), here and in the loops
// below: their twins and WebAssembly round every product.
func sub2Portable(x, v, w []float64, f, g float64) {
	v, w = v[:len(x)], w[:len(x)]
	for c, xc := range x {
		x[c] = xc - (float64(v[c]*f) + float64(w[c]*g))
	}
}

// axpyPortable sets y[i] += s·x[i] over the length of y. axpy is this
// function, or its SIMD twin (WebAssembly, amd64).
func axpyPortable(y, x []float64, s float64) {
	x = x[:len(y)]
	for i, v := range x {
		y[i] += float64(s * v)
	}
}

// dotPortable returns Σ x[i]·y[i] over the length of x, in four partial
// sums. dot is this function, or its SIMD twin (WebAssembly, amd64).
func dotPortable(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += float64(x[i] * y[i])
		s1 += float64(x[i+1] * y[i+1])
		s2 += float64(x[i+2] * y[i+2])
		s3 += float64(x[i+3] * y[i+3])
	}
	for ; i < len(x); i++ {
		s0 += float64(x[i] * y[i])
	}
	return (s0 + s1) + (s2 + s3)
}

// reflectBlock is the number of reflectors applyQt applies at once.
const reflectBlock = 32

// reflectBlockFor is the number of reflectors applyReflectors applies at
// once for reflectors off columns right of the diagonal: reflectBlock for
// the one-stage reduction's, twice that for the band reduction's (off is
// its half-width, 64), whose panels' T then serve whole (see sy2sb) and
// whose products on the λ search's bracket pass over R half as often.
func reflectBlockFor(off int) int {
	if off > 1 && wideBlocks {
		return 2 * reflectBlock
	}
	return reflectBlock
}

// wideBlocks lets reflectBlockFor widen the band reduction's blocks;
// benchmarks turn it off to compare.
var wideBlocks = true

// tsLen is the length of the T matrices applyReflectors keeps.
func tsLen(m, off int) int {
	rb := reflectBlockFor(off)
	return (max(m-off, 0) + rb - 1) / rb * rb * rb
}

// applyQt overwrites the m×l row-major r with QᵀR, Q = H₀H₁⋯H_{m−2} as
// left by tridiag in a and tau. Reflectors are applied reflectBlock at a
// time in compact WY form: Hₖ₊ᵦ₋₁⋯Hₖ = I − VTᵀVᵀ (LAPACK dlarft, forward),
// so the work is two matrix products per block on Mul.
func applyQt(a []float64, m int, tau, r []float64, l int) {
	applyQtOff(a, m, 1, tau, r, l)
}

// applyQtOff is applyQt for reflectors that start off columns right of the
// diagonal: reflector i, for i < m−off−1, is in row i of a from column
// i+off on (1 there) and acts on rows i+off … m−1 of r. tridiag leaves
// off = 1, sy2sb the half-bandwidth.
func applyQtOff(a []float64, m, off int, tau, r []float64, l int) {
	applyReflectors(a, m, off, tau, r, l, true, nil, 0)
}

// applyReflectors overwrites r with QᵀR (transpose set) or QR for the Q of
// applyQtOff. A block of reflectors is I − VTVᵀ, so QᵀR takes the blocks
// in order with Tᵀ and QR in reverse order with T. A non-nil ts (of
// tsLen(m, off) values) keeps the blocks' T: QᵀR writes them, QR reads
// them instead of computing them again (O(reflectBlock·m²) per call);
// QᵀR reads the first given blocks' from ts too (sy2sb's, see there).
func applyReflectors(a []float64, m, off int, tau, r []float64, l int, transpose bool, ts []float64, given int) {
	nb := reflectBlockFor(off)
	const zRows = 256 // rows of V·Y per task
	vt := make([]float64, nb*m)
	vc := make([]float64, m*nb)
	scratch := make([]float64, nb*nb) // T, where not in ts
	g := make([]float64, nb*nb)       // VᵀV, upper
	x := make([]float64, nb*l)
	y := make([]float64, nb*l)
	z := make([]float64, m*l)
	nr := m - off // reflectors, the last ones possibly empty
	for blk := range (nr + nb - 1) / nb {
		if !transpose {
			blk = (nr+nb-1)/nb - 1 - blk
		}
		k0 := blk * nb
		b := min(nb, nr-k0)
		n1 := m - k0 - off
		// Vᵀ (b×n1): reflector k0+j starts at column k0+off+j.
		for j := 0; j < b; j++ {
			i := k0 + j
			row := vt[j*n1 : (j+1)*n1]
			clear(row[:j])
			copy(row[j:], a[i*m+i+off:(i+1)*m])
		}
		// T, upper triangular: T[0:j, j] = −τⱼ·T[0:j, 0:j]·V[:, 0:j]ᵀvⱼ.
		tm := scratch
		if ts != nil && (!transpose || blk < given) {
			tm = ts[blk*nb*nb : (blk+1)*nb*nb]
		}
		if ts == nil || transpose && blk >= given {
			// G[i, j] = vᵢ·vⱼ (i < j) on all cores, each dot as it is
			// on one, then the recursion for T's columns.
			if b*n1 >= minSplitWork {
				ParallelFor(b, func(j int) {
					vj := vt[j*n1+j : (j+1)*n1]
					for i := 0; i < j; i++ {
						g[i*nb+j] = dot(vj, vt[i*n1+j:(i+1)*n1])
					}
				})
			} else {
				for j := 0; j < b; j++ {
					vj := vt[j*n1+j : (j+1)*n1]
					for i := 0; i < j; i++ {
						g[i*nb+j] = dot(vj, vt[i*n1+j:(i+1)*n1])
					}
				}
			}
			for j := 0; j < b; j++ {
				tj := tau[k0+j]
				for i := 0; i < j; i++ {
					s := 0.0
					for k := i; k < j; k++ {
						s += tm[i*nb+k] * g[k*nb+j]
					}
					tm[i*nb+j] = -tj * s
				}
				tm[j*nb+j] = tj
			}
		}
		if ts != nil && transpose && blk >= given {
			copy(ts[blk*nb*nb:], tm)
		}
		// X = VᵀR, Y = TᵀX (or TX), R −= VY on rows k0+off … m−1.
		rs := r[(k0+off)*l : m*l]
		onTile := applyOnTile && !transpose
		if onTile {
			clear(x[:b*l])
			tileAtB(tile, x, l, vt, n1, true, rs, l, n1, b, l, false)
		} else {
			Mul(x[:b*l], vt[:b*n1], rs, b, n1, l)
		}
		for j := 0; j < b; j++ {
			yj := y[j*l : (j+1)*l]
			clear(yj)
			lo, hi := 0, j
			if !transpose {
				lo, hi = j, b-1
			}
			for i := lo; i <= hi; i++ {
				f := tm[i*nb+j]
				if !transpose {
					f = tm[j*nb+i]
				}
				// yj += f·xᵢ, on SIMD in WebAssembly (the same bits).
				axpy(yj, x[i*l:(i+1)*l], f)
			}
		}
		if onTile {
			tileAtB(tile, rs, l, vt, n1, false, y, l, b, n1, l, true)
			continue
		}
		// R −= VY by chunks of zRows rows on all cores, each chunk's
		// transpose of V, product and subtraction on one goroutine (rows
		// are independent: the split changes no bit).
		ParallelFor((n1+zRows-1)/zRows, func(c int) {
			r0 := c * zRows
			nr := min(zRows, n1-r0)
			for i := r0; i < r0+nr; i++ {
				for j := 0; j < b; j++ {
					vc[i*b+j] = vt[j*n1+i]
				}
			}
			zc := z[r0*l : (r0+nr)*l]
			mulRows(zc, vc[r0*b:(r0+nr)*b], y[:b*l], 0, nr, b, l)
			// rs −= zc: adding (−1)·v is subtracting v, bit for bit.
			axpy(rs[r0*l:(r0+nr)*l], zc, -1)
		})
	}
}
