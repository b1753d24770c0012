package linalg

import (
	lapack "gonum.org/v1/gonum/lapack/gonum"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// Two-stage reduction to tridiagonal form (LAPACK's dsytrd_2stage: dsytrd_sy2sb,
// then dsytrd_sb2st). The one-stage reduction (tridiag) reads the whole
// trailing matrix once per reflector in a symmetric matrix–vector product,
// so its time is set by memory bandwidth. Reducing first to a band of
// half-width bandWidth needs one pass over the trailing matrix per panel
// of bandWidth reflectors, with matrix products (gemm) doing the work; the
// band, 2·bandWidth·m values, then stays in cache while bulge chasing
// brings it to tridiagonal form.

// bandWidth is the half-bandwidth of the intermediate band matrix. Wider
// bands make the products of the first stage more efficient and the bulge
// chasing of the second stage slower (its cost is 6·bandWidth·m² flops in
// short vector loops).
const bandWidth = 64

// twoStageMin is the order from which EigSym uses the two-stage reduction
// when only VᵀR is wanted.
const twoStageMin = 512

// twoStageReduce is Tridiagonalize for large m, through a band of
// half-width nb: it returns T's diagonal and off-diagonal and overwrites
// the m×l matrix R in w with Q₂ᵀQ₁ᵀR. a is left holding Q₁'s reflectors
// above the band (tau their τ), and, when keep is set, Q₂'s below the
// diagonal (tau2 their τ; see chaseLog) and ts the T of Q₁'s blocks.
func twoStageReduce(a []float64, m, nb int, w []float64, l int, keep bool, progress Progress) (d, e, tau, tau2, ts []float64) {
	ld := 2 * nb
	tau = make([]float64, m)
	band := make([]float64, m*ld)
	ts = make([]float64, tsLen(m, nb))
	given := sy2sb(a, m, nb, tau, band, ld, ts, progress)
	d = make([]float64, m)
	e = make([]float64, m)
	if given < 0 {
		return d, e, tau, nil, nil // stopped: the caller reads its context
	}
	if m-nb-1 > 0 {
		applyReflectors(a, m, nb, tau, w, l, true, ts, given)
	}
	if !keep {
		ts = nil
	}
	var log *chaseLog
	if keep {
		log = newChaseLog(a, m, nb)
		tau2 = log.tau
	}
	sb2st(band, ld, m, nb, d, e, w, l, log, runtime.GOMAXPROCS(0))
	progress.stop(m, m)
	return d, e, tau, tau2, ts
}

// sy2sb reduces the symmetric m×m matrix whose upper triangle is in a
// to the band matrix B = Q₁ᵀAQ₁ of half-bandwidth nb, written in upper-row
// storage to band (entry (r, r+t) at band[r·ld+t], t < ld, the rest zero).
// Q₁ = H₀H₁⋯ with Hᵢ = I − τᵢvᵢvᵢᵀ; on return row i of a holds vᵢ from
// column i+nb on (vᵢ[i+nb] = 1, zero before) and tau[i] = τᵢ.
//
// Panel by panel (nb rows at p), the rows' part right of the band is
// factored A[p:p+nb, q:] = L·Q̃ᵀ (q = p+nb) by Householder reflectors
// along the rows, and the trailing matrix A₂₂ = A[q:, q:] becomes
// (I − VTᵀVᵀ)A₂₂(I − VTVᵀ) = A₂₂ − VWᵀ − WVᵀ with X = A₂₂VT and
// W = X − ½V(TᵀVᵀX). Only the upper triangle of a is read and updated:
// VᵀA₂₂ and the rank-2nb update run on the Gram kernel, the nb-wide
// products on tileAtB (see panelOnTile) or gemm.
//
// Each panel's T holds on its diagonal the T of its blocks of
// reflectBlockFor(nb) reflectors (forward dlarft: column j of T depends on
// reflectors 0 … j only, and the recursion within a block reads only that
// block's entries; at nb = 64 the block is the panel), which
// applyReflectors would otherwise build again with m·64 dot products of up
// to m terms per block: where nb is a multiple of the block they are
// copied to ts in applyReflectors' layout, and sy2sb returns how many
// leading blocks of ts it filled, or −1 when progress told it to stop.
func sy2sb(a []float64, m, nb int, tau, band []float64, ld int, ts []float64, progress Progress) (given int) {
	impl := lapack.Implementation{}
	nmax := max(m-nb, 1)
	vt := make([]float64, nb*nmax)     // Vᵀ, explicit
	xt := make([]float64, nb*nmax)     // (VᵀA₂₂)
	wt := make([]float64, nb*nmax)     // Xᵀ, then Wᵀ
	left := make([]float64, nmax*2*nb) // V, row-major
	vwv := make([]float64, 3*nb*nmax)  // rows V, W, V
	sw := new(symmWork)
	tt := make([]float64, nb*nb) // Tᵀ
	tm := make([]float64, nb*nb) // T
	g := make([]float64, nb*nb)  // VᵀV, then VᵀA₂₂V
	s := make([]float64, nb*nb)  // −½·TᵀVᵀA₂₂VT
	tmp := make([]float64, nb*nb)
	beta := make([]float64, m)
	p := 0
	for ; m-p > nb+1; p += nb {
		q := p + nb
		n := m - q
		kr := min(nb, n)
		// LQ of the panel's rows right of the band.
		for j := 0; j < kr; j++ {
			r := p + j
			x := a[r*m+q+j : (r+1)*m]
			bt, t := impl.Dlarfg(len(x), x[0], x[1:], 1)
			beta[r], tau[r] = bt, t
			x[0] = 1
			if t == 0 {
				continue
			}
			split(nb-j-1, len(x), func(i0, i1 int) {
				for i := j + 1 + i0; i < j+1+i1; i++ {
					y := a[(p+i)*m+q+j : (p+i+1)*m]
					axpyFast(y, x, -t*dotFast(y, x))
				}
			})
		}
		// Band: the diagonal block and L.
		for j := 0; j < nb; j++ {
			r := p + j
			copy(band[r*ld:r*ld+nb-j], a[r*m+r:r*m+q])
			for c := 0; c <= j && c < n; c++ {
				v := a[r*m+q+c]
				if c == j {
					v = beta[r]
				}
				band[r*ld+nb-j+c] = v
			}
		}
		if progress.stop(q/2, m) {
			return -1
		}
		// Vᵀ and V.
		split(nb, n, func(j0, j1 int) {
			for j := j0; j < j1; j++ {
				row := vt[j*n : (j+1)*n]
				clear(row)
				if j < kr {
					copy(row[j:], a[(p+j)*m+q+j:(p+j+1)*m])
				}
			}
		})
		split(n, nb, func(c0, c1 int) {
			for c := c0; c < c1; c++ {
				lr := left[c*2*nb : c*2*nb+nb]
				for j := range nb {
					lr[j] = vt[j*n+c]
				}
			}
		})
		// T (dlarft, forward, columnwise) from G = VᵀV.
		onTile := applyOnTile && panelOnTile
		if onTile {
			clear(g)
			tileAtB(tile, g, nb, left, 2*nb, false, left, 2*nb, n, nb, nb, false)
		} else {
			gemm(g, nb, vt, n, left, 2*nb, nb, n, nb, false)
		}
		clear(tm)
		for j := 0; j < nb; j++ {
			tj := tau[p+j]
			if j >= kr {
				tj = 0
			}
			for i := 0; i < j; i++ {
				sum := 0.0
				for k := i; k < j; k++ {
					sum += tm[i*nb+k] * g[k*nb+j]
				}
				tm[i*nb+j] = -tj * sum
			}
			tm[j*nb+j] = tj
		}
		for i := range nb {
			for j := range nb {
				tt[j*nb+i] = tm[i*nb+j]
			}
		}
		if rb := reflectBlockFor(nb); ts != nil && nb%rb == 0 && given == p/rb {
			for b0 := 0; b0 < nb && (p+b0)/rb < len(ts)/(rb*rb); b0 += rb {
				t := ts[(p+b0)/rb*rb*rb:]
				for i := range rb {
					copy(t[i*rb:(i+1)*rb], tm[(b0+i)*nb+b0:(b0+i)*nb+b0+rb])
				}
				given++
			}
		}
		a22 := a[q*m+q:]
		symmLeft(xt, a22, m, n, nb, left, 2*nb, sw) // VᵀA₂₂
		if onTile {
			clear(g)
			tileAtB(tile, g, nb, xt, n, true, left, 2*nb, n, nb, nb, false) // VᵀA₂₂V
			clear(wt[:nb*n])
			tileAtB(tile, wt, n, tm, nb, false, xt, n, nb, nb, n, false) // Xᵀ = TᵀVᵀA₂₂
		} else {
			gemm(g, nb, xt, n, left, 2*nb, nb, n, nb, false) // VᵀA₂₂V
			gemm(wt, n, tt, nb, xt, n, nb, nb, n, false)     // Xᵀ = TᵀVᵀA₂₂
		}
		gemm(tmp, nb, tt, nb, g, nb, nb, nb, nb, false) // TᵀVᵀA₂₂V
		gemm(s, nb, tmp, nb, tm, nb, nb, nb, nb, false) // ·T
		for i := range s {
			s[i] *= -0.5
		}
		if onTile {
			tileAtB(tile, wt, n, s, nb, true, vt, n, nb, nb, n, false) // Wᵀ = Xᵀ − ½SVᵀ
		} else {
			gemm(wt, n, s, nb, vt, n, nb, nb, n, true)
		}
		rank2k(a22, m, vt, n, wt, n, nb, n, vwv)
	}
	// The last block is inside the band.
	for r := p; r < m; r++ {
		copy(band[r*ld:r*ld+m-r], a[r*m+r:(r+1)*m])
	}
	return given
}

// sb2st reduces the symmetric band matrix of half-bandwidth nb in band
// (upper-row storage, ld ≥ 2nb: the bulge needs the room) to tridiagonal
// form by Householder bulge chasing (LAPACK dsb2st_kernels): sweep s
// annihilates row s beyond the superdiagonal and chases the bulge it
// creates down the band, annihilating one row of it per block. Every
// reflector is also applied to the rows of the m×l matrix r. The diagonal
// goes to d, the off-diagonal to e (e[m−1] = 0).
//
// Block j of sweep s (see chaser.sweep) reads and writes only the rows
// s+1+j·nb … s+(j+1)·nb of band and r, so sweeps run concurrently on up to
// workers goroutines, sweep s+1 waiting before each block j until sweep s
// has finished block j+1 (LAPACK dsb2st's pipeline): every row then sees
// the same reflectors in the same order as in one sweep after the other,
// and the result has the same bits for any number of workers. A non-nil
// log records every reflector (see chaseLog).
func sb2st(band []float64, ld, m, nb int, d, e, r []float64, l int, log *chaseLog, workers int) {
	sweeps := max(m-2, 0)
	workers = max(1, min(workers, sweeps/2))
	done := make([]paddedCount, sweeps) // blocks finished, per sweep
	var ws waitSet
	ws.cond.L = &ws.mu
	run := func(w int) {
		c := newChaser(band, ld, m, nb, r, l)
		c.log = log
		if workers > 1 {
			c.ws = &ws
		}
		for s := w; s < sweeps; s += workers {
			c.prev, c.done = nil, &done[s].Int64
			if workers > 1 && s > 0 {
				c.prev = &done[s-1].Int64
			}
			c.sweep(s)
			c.publish(math.MaxInt64)
		}
	}
	if workers == 1 {
		run(0)
	} else {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() { run(w) })
		}
		wg.Wait()
	}
	for i := range m {
		d[i] = band[i*ld]
		e[i] = 0
		if i+1 < m {
			e[i] = band[i*ld+1]
		}
	}
}

// paddedCount is a counter on a cache line of its own, so that the
// goroutines of sb2st, each writing its sweep's, do not slow each other.
type paddedCount struct {
	atomic.Int64
	_ [56]byte
}

// waitSet parks the goroutines of sb2st that caught up with the sweep
// before theirs: spinning would take the core from that sweep's goroutine
// when the machine is shared.
type waitSet struct {
	mu      sync.Mutex
	cond    sync.Cond
	waiting atomic.Int32
}

// chaser holds one goroutine's scratch and progress counters for sb2st.
type chaser struct {
	prev, done *atomic.Int64 // the previous sweep's count (nil: no wait) and this one's
	ws         *waitSet
	band       []float64
	ld, m, nb  int
	r          []float64
	l          int
	log        *chaseLog
	v, g, y, z []float64
}

func newChaser(band []float64, ld, m, nb int, r []float64, l int) *chaser {
	return &chaser{band: band, ld: ld, m: m, nb: nb, r: r, l: l,
		v: make([]float64, nb), g: make([]float64, nb), y: make([]float64, nb), z: make([]float64, max(nb, l))}
}

// publish sets this sweep's count of finished blocks and wakes the
// goroutines waiting for it.
func (c *chaser) publish(n int64) {
	c.done.Store(n)
	if ws := c.ws; ws != nil && ws.waiting.Load() > 0 {
		ws.mu.Lock()
		ws.cond.Broadcast()
		ws.mu.Unlock()
	}
}

// wait returns once the previous sweep has finished block j+1 (or all of
// its blocks): a spin of some 10–30 µs (a block takes about 5 µs at
// nb = 64), then parked until a publish.
func (c *chaser) wait(j int) {
	if c.prev == nil {
		return
	}
	want := int64(j + 2)
	for range 1 << 15 {
		if c.prev.Load() >= want {
			return
		}
	}
	ws := c.ws
	ws.waiting.Add(1)
	ws.mu.Lock()
	for c.prev.Load() < want {
		ws.cond.Wait()
	}
	ws.mu.Unlock()
	ws.waiting.Add(-1)
}

// sweep runs sweep s of sb2st block by block, publishing the count of
// finished blocks; before block j it waits for block j+1 of the previous
// sweep.
func (c *chaser) sweep(s int) {
	impl := lapack.Implementation{}
	band, ld, m, nb := c.band, c.ld, c.m, c.nb
	v, g := c.v, c.g
	c.wait(0)
	n1 := min(nb, m-1-s)
	x := band[s*ld+1 : s*ld+1+n1]
	beta, tau := impl.Dlarfg(n1, x[0], x[1:], 1)
	v[0] = 1
	copy(v[1:n1], x[1:])
	x[0] = beta
	clear(x[1:])
	i0, nI := s+1, n1
	for j := 0; ; j++ {
		if j > 0 {
			c.wait(j)
		}
		if tau != 0 {
			symReflect(band, ld, i0, nI, v[:nI], tau, c.y)
			reflectRows(c.r, c.l, c.l, i0, nI, v[:nI], tau, c.z)
		}
		if c.log != nil {
			c.log.put(s, j, i0, v[:nI], tau)
		}
		j0 := i0 + nI
		nJ := min(nb, m-j0)
		if nJ <= 0 {
			return
		}
		// C = A[I, J] ← H·C, then the reflector that annihilates its
		// first row past the band, applied from the right.
		if tau != 0 {
			reflectRows(band[i0*ld+nI:], ld-1, nJ, 0, nI, v[:nI], tau, c.z)
		}
		c0 := band[i0*ld+nI : i0*ld+nI+nJ]
		beta, t2 := impl.Dlarfg(nJ, c0[0], c0[1:], 1)
		g[0] = 1
		copy(g[1:nJ], c0[1:])
		c0[0] = beta
		clear(c0[1:])
		if t2 != 0 {
			// Rows i0+1 … i0+nI−1 of the block, each one left of the last.
			reflectEach(band[(i0+1)*ld+nI-1:], ld-1, nI-1, g[:nJ], t2)
		}
		v, g = g, v
		tau = t2
		i0, nI = j0, nJ
		c.publish(int64(j + 1))
	}
}

// symReflect applies H = I − τvvᵀ on both sides of the symmetric n×n block
// of band (upper-row storage) whose diagonal starts at row i0:
// D ← HDH = D − vwᵀ − wvᵀ with w = τDv − ½τ²(vᵀDv)v. y is scratch.
func symReflect(band []float64, ld, i0, n int, v []float64, tau float64, y []float64) {
	y = y[:n]
	clear(y)
	for q := range n {
		row := band[(i0+q)*ld : (i0+q)*ld+n-q]
		y[q] += row[0]*v[q] + dotAxpy(y[q+1:], row[1:], v[q+1:], v[q])
	}
	for q := range y {
		y[q] *= tau
	}
	alpha := -0.5 * tau * dot(y, v)
	for q := range y {
		y[q] += alpha * v[q]
	}
	for q := range n {
		row := band[(i0+q)*ld : (i0+q)*ld+n-q]
		sub2Fast(row, v[q:], y[q:], y[q], v[q])
	}
}

// reflectRows applies H = I − τvvᵀ from the left to rows i0 … i0+n−1 of
// the matrix c with row stride ldc, on its first cols columns:
// C ← C − τv(vᵀC). z is scratch of length ≥ cols.
func reflectRows(c []float64, ldc, cols, i0, n int, v []float64, tau float64, z []float64) {
	if cols == 64 && narrowReflect && reflectLeft64(c[i0*ldc:], ldc, n, v, tau) {
		return
	}
	if cols < 16 && narrowReflect && reflectNarrow(c, ldc, cols, i0, n, v, tau) {
		return
	}
	reflectRowsAxpy(c, ldc, cols, i0, n, v, tau, z)
}

// narrowReflect lets reflectRows take its kernels, reflectLeft64's and
// reflectNarrow's (benchmarks turn it off to time the axpyFast calls
// they replaced).
var narrowReflect = true

// reflectRowsAxpy is reflectRows on axpyFast, two calls per row.
func reflectRowsAxpy(c []float64, ldc, cols, i0, n int, v []float64, tau float64, z []float64) {
	z = z[:cols]
	clear(z)
	for q := range n {
		axpyFast(z, c[(i0+q)*ldc:(i0+q)*ldc+cols], v[q])
	}
	for q := range n {
		axpyFast(c[(i0+q)*ldc:(i0+q)*ldc+cols], z, -tau*v[q])
	}
}

// reflectEach sets each of the n rows r (length len(u), stride ldc) of c
// to r − τ(r·u)u: H = I − τuuᵀ applied from the right.
func reflectEach(c []float64, ldc, n int, u []float64, tau float64) {
	if len(u) == 64 && reflectRight64(c, ldc, n, u, tau) {
		return
	}
	for q := range n {
		r := c[q*ldc : q*ldc+len(u)]
		axpyFast(r, u, -tau*dotFast(r, u))
	}
}

// twoStage switches EigSym's GCV path to the two-stage reduction for
// m ≥ twoStageMin (tests turn it off to compare with the one-stage path).
var twoStage = true

// panelOnTile sends sy2sb's four nb-wide products per panel (VᵀV,
// VᵀA₂₂V, TᵀVᵀA₂₂ and ½SVᵀ: 8·nb²·n flops, 4.3 GFLOP at m = 4096) to
// tileAtB, on the AddAtA kernel with fused multiply-adds, where Q₁'s
// products run there (applyOnTile): gemm keeps Mul's portable bits and
// its 4×8 kernel. Benchmarks turn it off to compare.
var panelOnTile = true

// symmKC is the inner block of symmLeft: every entry's sum is split every
// symmKC inner indices, counted from 0 (fixed, so the bits do not depend
// on the cores), and while a block runs its left panel (16 KiB) and three
// right panels (48 KiB) stay in cache, as in AddAtA.
const symmKC = kc

// symmStripMax is the widest column strip symmLeft hands out to the
// cores: 8 tiles of tileC columns, as wide as an item of AddAtA.
const symmStripMax = 8 * tileC

// symmStripWidth is the width of symmLeft's strips for n columns: the
// widest of 192, 96, 48, 24 that still gives every worker two strips
// (192 on two cores, 96 on 16 cores at n = 4096). A strip is an equal
// task (each reads V and a column strip of S once) and every strip is a
// whole number of tiles; the width does not change any sum.
func symmStripWidth(n, workers int) int {
	w := symmStripMax
	for w > tileC && (n+w-1)/w < 2*workers {
		w /= 2
	}
	return w
}

// symmWork is symmLeft's scratch, one per goroutine: V in left panels
// (the first goroutine's, shared), a block of S in right panels, and a
// tile for the edges; the first goroutine's also keeps the others' across
// the calls of one reduction (a call per panel: 64 at m = 4096).
type symmWork struct {
	vp, bp, t []float64
	others    []*symmWork
}

// symmLeft sets xt (b×n, stride n) = VᵀS for the n×b matrix V in v (row
// stride ldv) and the symmetric n×n matrix S whose upper triangle is in s
// (stride lds), on the Gram kernel (tile), with fused multiply-adds where
// the CPU has them: V is packed into left panels, and S, a block of symmKC
// rows and tileC columns at a time, into three right panels, each entry
// from the upper triangle (S[l, c] = s[c·lds+l] below the diagonal). So
// the product reads only the upper triangle and runs at the Gram step's
// rate; the 4×8 product kernel it ran on before (separate multiply and
// add, for gemm's portable bits) read S in power-of-two strides and ran at
// about half that rate on AVX2. Strips of columns (symmStripWidth) are
// independent tasks shared among the cores; each entry is summed over the
// same blocks in the same order whatever the strip, so the bits do not
// depend on the cores.
func symmLeft(xt, s []float64, lds, n, b int, v []float64, ldv int, w *symmWork) {
	if n <= 0 || b <= 0 {
		return
	}
	np := (b + panelW - 1) / panelW
	ps := n * panelW // stride of the left panels
	w.vp = grow(w.vp, np*ps)
	vp := w.vp
	split(n, b, func(l0, l1 int) {
		for l := l0; l < l1; l++ {
			row := v[l*ldv : l*ldv+b]
			for p := range np {
				d := vp[p*ps+l*panelW : p*ps+(l+1)*panelW]
				clear(d[copy(d, row[p*panelW:]):])
			}
		}
	})
	workers := 1
	if n*n*b >= minParallel {
		workers = runtime.GOMAXPROCS(0)
	}
	sw := symmStripWidth(n, workers)
	strips := (n + sw - 1) / sw
	workers = min(workers, strips)
	host := rect64Host
	if workers > 1 || runtime.GOARCH != "wasm" {
		host = nil
	}
	strip := func(sc *symmWork, c0 int) {
		c1 := min(c0+sw, n)
		for k := range b {
			clear(xt[k*n+c0 : k*n+c1])
		}
		// Right panels: the strip's columns in whole tiles.
		nq := (c1 - c0 + tileC - 1) / tileC * 3
		sc.bp = grow(sc.bp, nq*min(symmKC, n)*panelW)
		sc.t = grow(sc.t, tileR*tileC)
		for l0 := 0; l0 < n; l0 += symmKC {
			k := min(symmKC, n-l0)
			bs := k * panelW // stride of the right panels
			bp := sc.bp[:nq*bs]
			packSymm(bp, bs, s, lds, l0, k, c0, c1)
			if host != nil {
				host(k, b, c1-c0, vp[l0*panelW:], ps, bp, xt[c0:], n, sc.t)
				continue
			}
			rect64(tile, k, b, c1-c0, vp[l0*panelW:], ps, bp, xt[c0:], n, sc.t)
		}
	}
	if workers <= 1 {
		for i := range strips {
			strip(w, i*sw)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for len(w.others) < workers-1 {
		w.others = append(w.others, new(symmWork))
	}
	for g := range workers {
		sc := w // strip touches only bp and t
		if g > 0 {
			sc = w.others[g-1]
		}
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= strips {
					return
				}
				strip(sc, i*sw)
			}
		})
	}
	wg.Wait()
}

// packSymm writes rows l0 … l0+k−1 and columns c0 … c1−1 of the
// symmetric matrix S whose upper triangle is in s (stride lds) to the
// right panels bp, bs apart (panel q holds columns c0+8q … c0+8q+7 row
// after row), zero past c1 to the end of bp: entries on or above the
// diagonal from the rows of s, read along a row of the strip at a time (a
// tile's 24 columns a row at a time, 32 KiB apart at m = 4096, cost more
// than the product), those below it from its columns' rows.
func packSymm(bp []float64, bs int, s []float64, lds, l0, k, c0, c1 int) {
	w := c1 - c0
	nq := len(bp) / bs
	if w < nq*panelW {
		clear(bp[w/panelW*bs:])
	}
	for l := range k {
		r := l0 + l
		if r >= c1 {
			break
		}
		row := s[r*lds : r*lds+c1]
		c := max(c0, r)
		// Up to a panel's edge one by one, then whole panels.
		for ; c < c1 && (c-c0)%panelW != 0; c++ {
			cc := c - c0
			bp[cc/panelW*bs+l*panelW+cc%panelW] = row[c]
		}
		for ; c+panelW <= c1; c += panelW {
			// Element by element: an 8-value array or slice copy calls
			// memmove, which took two thirds of the packing.
			o := (c-c0)/panelW*bs + l*panelW
			d, x := bp[o:o+panelW], row[c:c+panelW]
			d[0], d[1], d[2], d[3] = x[0], x[1], x[2], x[3]
			d[4], d[5], d[6], d[7] = x[4], x[5], x[6], x[7]
		}
		for ; c < c1; c++ {
			cc := c - c0
			bp[cc/panelW*bs+l*panelW+cc%panelW] = row[c]
		}
	}
	packSymmBelow(bp, bs, s, lds, l0, k, c0, c1)
}

// packSymmBelow is packSymm's part below the diagonal, a panel's panelW
// columns at a time: row r of the panel is column r of their rows, read
// from panelW streams and written as one contiguous row (a column at a
// time wrote a value per cache line of bp).
func packSymmBelow(bp []float64, bs int, s []float64, lds, l0, k, c0, c1 int) {
	for p0 := c0; p0 < c1 && p0+1 < l0+k; p0 += panelW {
		p1 := min(p0+panelW, c1)
		d := bp[(p0-c0)/panelW*bs:]
		// Rows up to p1 hold the diagonal: column by column.
		for c := p0; c < p1; c++ {
			for r := max(l0, c+1); r < min(l0+k, p1); r++ {
				d[(r-l0)*panelW+c-p0] = s[c*lds+r]
			}
		}
		r0, r1 := max(l0, p1), l0+k
		if r0 >= r1 {
			continue
		}
		if p1-p0 < panelW {
			for c := p0; c < p1; c++ {
				for r, x := range s[c*lds+r0 : c*lds+r1] {
					d[(r0-l0+r)*panelW+c-p0] = x
				}
			}
			continue
		}
		s0 := s[p0*lds+r0 : p0*lds+r1]
		s1 := s[(p0+1)*lds+r0 : (p0+1)*lds+r1]
		s2 := s[(p0+2)*lds+r0 : (p0+2)*lds+r1]
		s3 := s[(p0+3)*lds+r0 : (p0+3)*lds+r1]
		s4 := s[(p0+4)*lds+r0 : (p0+4)*lds+r1]
		s5 := s[(p0+5)*lds+r0 : (p0+5)*lds+r1]
		s6 := s[(p0+6)*lds+r0 : (p0+6)*lds+r1]
		s7 := s[(p0+7)*lds+r0 : (p0+7)*lds+r1]
		dr := d[(r0-l0)*panelW : (r1-l0)*panelW]
		for i := range s0 {
			o := (*[panelW]float64)(dr[i*panelW : i*panelW+panelW])
			o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7] = s0[i], s1[i], s2[i], s3[i], s4[i], s5[i], s6[i], s7[i]
		}
	}
}

// rank2k subtracts VᵀW + WᵀV from the upper triangle of the n×n matrix s
// (stride lds), for the b rows of v and w (n values each, row strides ldv
// and ldw), in one pass over s: it is [V; W]ᵀ[W; V], a symmetric product
// of 2b inner terms on the Gram kernel. pk is scratch of 3·b·n values,
// which holds the rows V, W, V so that both factors are views of it.
func rank2k(s []float64, lds int, v []float64, ldv int, w []float64, ldw, b, n int, pk []float64) {
	pk = pk[:3*b*n]
	split(b, 3*n, func(j0, j1 int) {
		for j := j0; j < j1; j++ {
			vj, wj := v[j*ldv:j*ldv+n], w[j*ldw:j*ldw+n]
			copy(pk[j*n:], vj)
			copy(pk[(b+j)*n:], wj)
			copy(pk[(2*b+j)*n:], vj)
		}
	})
	addAtB(tile, s, lds, pk[:2*b*n], pk[b*n:], 2*b, n, true)
}
