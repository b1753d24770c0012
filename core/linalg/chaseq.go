package linalg

import "runtime"

// chaseWY is the number of consecutive sweeps whose reflectors
// applyChaseQWY groups into one compact WY block per block position.
const chaseWY = 16

// chaseBatch is the number of windows applyChaseQWY builds, then applies,
// per pair of fork-joins: one pair per window (256 at m = 4096) cost a
// third of the gain at load 7, where every join waits for a descheduled
// goroutine; 8 windows' blocks are about 10 MiB.
const chaseBatch = 8

// applyChaseQWY is applyChaseQ on the AddAtA kernel read in place
// (tileStride): the chase's reflectors grouped into compact WY blocks, so
// that Q₂x is a sequence of small matrix products instead of one
// reflector at a time (dormtr on dsytrd_2stage's HOUS2).
//
// Block j of sweep s acts on rows s+1+j·nb … s+(j+1)·nb (fewer at the
// end), so within a sweep the blocks commute, and block j of sweep s
// overlaps only blocks j and j−1 of the next nb−1 sweeps. For a window
// W of chaseWY ≤ nb sweeps, sweep-major order is therefore the same
// product as G(W, J)⋯G(W, 1)G(W, 0) with G(W, j) = Π_{s∈W} H(s, j) in
// increasing s: the moves past each other are of blocks that touch
// disjoint rows. Q₂x applies the windows from the last, and within one
// G(W, 0) first. G = I − VTVᵀ (dlarft, forward): x ← x − Y(Vᵀx) with
// Y = VT, two products of at most nb+chaseWY−1 and chaseWY inner terms.
//
// The groups of chaseBatch windows are built on every core, V and Yᵀ
// packed as left panels; then the cores take ranges of whole tiles of x's columns,
// copied into a matrix padded with zeros to whole tiles, which the kernel
// reads and writes in place (no packing of x per group). Every entry of x
// is summed over the same inner terms in the same order by the same
// kernel whatever the range, so the bits depend neither on the cores nor
// on the columns beside.
func applyChaseQWY(kern tileStrideFunc, a []float64, m, nb int, tau2 []float64, x []float64, l int) {
	sweeps := max(m-2, 0)
	if sweeps == 0 || l == 0 {
		return
	}
	kw := min(chaseWY, nb)
	starts := chaseStarts(m, nb)
	blocks := func(s int) int { return starts[s+1] - starts[s] }
	maxRows := nb + kw - 1
	kp := (kw + panelW - 1) / panelW * panelW      // kw, whole panels
	rp := (maxRows + panelW - 1) / panelW * panelW // rows, whole panels
	// Per group of a batch of windows (slot bi·maxGroups+j): Vᵀ
	// (kw×maxRows), Yᵀ, V packed (kp/8 left panels of maxRows inner rows)
	// and Yᵀ packed, negated (rp/8 panels of kw).
	maxGroups := blocks(0)
	slots := chaseBatch * maxGroups
	vt := make([]float64, slots*kw*maxRows)
	yt := make([]float64, slots*kw*maxRows)
	vp := make([]float64, slots*kp*maxRows)
	yp := make([]float64, slots*rp*kw)
	type group struct{ r0, rows, k int }
	gs := make([]group, slots)

	// x's columns in ranges of whole tiles (the last one padded with
	// zeros), one or more per core; 8 spare rows for the last row panel
	// of a group.
	tiles := (l + tileC - 1) / tileC
	ranges := min(runtime.GOMAXPROCS(0), tiles)
	ldx := tiles * tileC
	xp := make([]float64, (m+panelW)*ldx)
	for i := range m {
		copy(xp[i*ldx:], x[i*l:(i+1)*l])
	}
	zs := make([][]float64, ranges)

	var wins []int // window starts, in the order Q₂x applies them
	for w0 := (sweeps - 1) / kw * kw; w0 >= 0; w0 -= kw {
		wins = append(wins, w0)
	}
	for b0 := 0; b0 < len(wins); b0 += chaseBatch {
		bw := wins[b0:min(b0+chaseBatch, len(wins))]
		first := make([]int, len(bw)+1) // first build task of each window
		for bi, w0 := range bw {
			first[bi+1] = first[bi] + blocks(w0)
		}
		ParallelFor(first[len(bw)], func(task int) {
			bi := 0
			for first[bi+1] <= task {
				bi++
			}
			w0, j := bw[bi], task-first[bi]
			w1 := min(w0+kw, sweeps)
			slot := bi*maxGroups + j
			// Members: the sweeps of the window that reach block j (a
			// prefix: later sweeps have no more blocks).
			k := 0
			for s := w0; s < w1 && blocks(s) > j; s++ {
				k++
			}
			r0 := w0 + 1 + j*nb
			rows := min(nb, m-(r0+k-1)) + k - 1
			gs[slot] = group{r0, rows, k}
			v := vt[slot*kw*maxRows : slot*kw*maxRows+k*rows]
			y := yt[slot*kw*maxRows : slot*kw*maxRows+k*rows]
			clear(v)
			clear(y)
			var t [chaseWY * chaseWY]float64 // T, row-major kw×kw
			for c := range k {
				s := w0 + c
				n := min(nb, m-(r0+c))
				copy(v[c*rows+c:c*rows+c+n], a[(m-1-s)*m+j*nb:])
				tc := tau2[starts[s]+j]
				// T[0:c, c] = −τ_c T[0:c, 0:c] (Vᵀ[0:c] v_c), T[c, c] = τ_c.
				if tc != 0 {
					var g [chaseWY]float64
					vc := v[c*rows+c : c*rows+c+n]
					for i := range c {
						g[i] = dotFast(v[i*rows+c:i*rows+c+n], vc)
					}
					for i := range c {
						sum := 0.0
						for q := i; q < c; q++ {
							sum += t[i*kw+q] * g[q]
						}
						t[i*kw+c] = -tc * sum
					}
				}
				t[c*kw+c] = tc
			}
			// Yᵀ = TᵀVᵀ: row c of Yᵀ is Σ_{i ≤ c} T[i, c]·(row i of Vᵀ),
			// whose entries lie in i … i+nb−1.
			for c := range k {
				yc := y[c*rows : (c+1)*rows]
				for i := 0; i <= c; i++ {
					if f := t[i*kw+c]; f != 0 {
						hi := min(rows, i+nb)
						axpyFast(yc[i:hi], v[i*rows+i:i*rows+hi], f)
					}
				}
			}
			// V as left panels for Z = Vᵀx (panel p: V's columns 8p…8p+7,
			// row after row), Yᵀ negated as left panels for x −= YZ.
			nvp := (k + panelW - 1) / panelW
			packPanelsT(vp[slot*kp*maxRows:slot*kp*maxRows+nvp*rows*panelW], v, rows, 0, rows, 0, k, nvp, false)
			nyp := (rows + panelW - 1) / panelW
			packPanels(yp[slot*rp*kw:slot*rp*kw+nyp*k*panelW], y, rows, k, 0, rows, nyp, true)
		})
		ParallelFor(ranges, func(r int) {
			c0 := tileC * (tiles * r / ranges)
			w := tileC*(tiles*(r+1)/ranges) - c0
			z := grow(zs[r], kp*w)
			zs[r] = z
			xs := xp[c0:]
			for bi, w0 := range bw {
				for j := range blocks(w0) {
					slot := bi*maxGroups + j
					g := gs[slot]
					nvp := (g.k + panelW - 1) / panelW
					nyp := (g.rows + panelW - 1) / panelW
					vj := vp[slot*kp*maxRows:]
					yj := yp[slot*rp*kw:]
					xr := xs[g.r0*ldx:]
					// Z = Vᵀx on the group's rows, then x ← x − YZ.
					clear(z[:nvp*panelW*w])
					for p := range nvp {
						ap := vj[p*g.rows*panelW : (p+1)*g.rows*panelW]
						for c := 0; c < w; c += tileC {
							kern(g.rows, ap, xr[c:], ldx, z[p*panelW*w+c:], w)
						}
					}
					for p := range nyp {
						ap := yj[p*g.k*panelW : (p+1)*g.k*panelW]
						for c := 0; c < w; c += tileC {
							kern(g.k, ap, z[c:], w, xr[p*panelW*ldx+c:], ldx)
						}
					}
				}
			}
		})
	}
	for i := range m {
		copy(x[i*l:(i+1)*l], xp[i*ldx:])
	}
}
