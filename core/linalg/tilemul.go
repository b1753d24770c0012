package linalg

import (
	"runtime"
	"sync"
)

// applyOnTile sends ApplyQ's block products (the λ search applying Q₁ to
// its bracket) to tileAtB, on the AddAtA kernel with fused multiply-adds,
// where this CPU has one: the 4×8 Mul kernel they ran on (separate
// multiply and add, for bits that are the same on every host) reached
// 10–12 GFLOP/s there. The λ search's bits already differ between hosts
// (the float32 Gram blocks are fused natively and not in WebAssembly), so
// nothing asks these products for the same bits as WebAssembly; they keep
// the same bits for any number of cores and for any columns beside
// theirs. Set by init from the kernel chosen (not in WebAssembly and not
// in the portable build, where Mul's kernels are as fast).
var applyOnTile bool

// tileStrideFunc adds to the tileR×tileC block c (row stride ldc) the
// product of the left panel a (k ≥ 1 rows of tileR values) and the k×tileC
// block b whose rows are ldb apart: tileFunc on a right operand read in
// place, for products whose right operand is already row-major (the
// λ search's columns, applyChaseQWY), with the same operations in the
// same order as the packed kernel.
type tileStrideFunc func(k int, a, b []float64, ldb int, c []float64, ldc int)

// tileRowChunk is the number of rows of c one task of tileAtB covers: 32
// left panels, 256 KiB of A's packed block at kc inner rows.
const tileRowChunk = 32 * panelW

// tileScratch holds a task's packed panels.
type tileScratch struct{ a, b, t []float64 }

var tilePool = sync.Pool{New: func() any { return new(tileScratch) }}

// tileAtB adds AᵀB to the n×m block c (row stride ldc), or subtracts it
// when sub is set, for the k×m matrix b (row stride ldb) and the k×n
// matrix A: a row-major with row stride lda, or with at set its transpose
// (n×k, row i of a holding column i of A). Entry (i, j) is summed kc
// inner rows at a time, in increasing order of the blocks, each block's
// sum formed by the kernel from zero and then added to c (with sub, the
// sum of A's negated entries, the exact negation): the same operations
// whatever the cores, the split of the work and the columns beside j,
// so the bits depend on none of them. Tasks are up to 256 rows of c by
// whole groups of 24 columns, as few column groups per task as still
// gives every core two tasks: each task packs its rows of A and its
// columns of b, so wide tasks pack less for the same products.
func tileAtB(kern tileFunc, c []float64, ldc int, a []float64, lda int, at bool, b []float64, ldb int, k, n, m int, sub bool) {
	if k <= 0 || n <= 0 || m <= 0 {
		return
	}
	workers := 1
	if 2*k*n*m >= minParallel {
		workers = runtime.GOMAXPROCS(0)
	}
	rowTasks := (n + tileRowChunk - 1) / tileRowChunk
	groups := (m + tileC - 1) / tileC
	colTasks := min(groups, (2*workers+rowTasks-1)/rowTasks)
	task := func(t int) {
		i0 := (t / colTasks) * tileRowChunk
		g := t % colTasks
		j0, j1 := tileC*(groups*g/colTasks), min(tileC*(groups*(g+1)/colTasks), m)
		tileTask(kern, c, ldc, a, lda, at, b, ldb, k, i0, min(i0+tileRowChunk, n), j0, j1, sub)
	}
	if workers <= 1 {
		for t := range rowTasks * colTasks {
			task(t)
		}
		return
	}
	ParallelFor(rowTasks*colTasks, task)
}

// tileTask is tileAtB on rows [i0, i1) and columns [j0, j1) of c, j0 a
// multiple of tileC: A's columns i0 … i1−1 packed into left panels
// (negated with sub) and b's columns j0 … j1−1 into right panels, zero
// past the edges, kc inner rows at a time. Whole tiles go to the kernel
// in place; an edge tile is computed aside and its part in the block
// added, which is the kernel's own last step (c += the sums), so both
// give the same bits.
func tileTask(kern tileFunc, c []float64, ldc int, a []float64, lda int, at bool, b []float64, ldb int, k, i0, i1, j0, j1 int, sub bool) {
	s := tilePool.Get().(*tileScratch)
	defer tilePool.Put(s)
	kb := min(kc, k)
	np := (i1 - i0 + panelW - 1) / panelW
	nq := 3 * ((j1 - j0 + tileC - 1) / tileC) // right panels, whole tiles
	s.a = grow(s.a, np*kb*panelW)
	s.b = grow(s.b, nq*kb*panelW)
	s.t = grow(s.t, tileR*tileC)
	t := s.t
	for l0 := 0; l0 < k; l0 += kb {
		kl := min(kb, k-l0)
		ps := kl * panelW
		if at {
			packPanelsT(s.a[:np*ps], a, lda, l0, kl, i0, i1, np, sub)
		} else {
			packPanels(s.a[:np*ps], a[l0*lda:], lda, kl, i0, i1, np, sub)
		}
		packPanels(s.b[:nq*ps], b[l0*ldb:], ldb, kl, j0, j1, nq, false)
		for q := 0; q < nq; q += 3 {
			jq := j0 + q*panelW
			je := min(jq+tileC, j1)
			bq := s.b[q*ps : (q+3)*ps]
			for p := range np {
				r0 := i0 + p*panelW
				ap := s.a[p*ps : (p+1)*ps]
				if r0+tileR <= i1 && je-jq == tileC {
					kern(kl, ap, bq, ps, c[r0*ldc+jq:], ldc)
					continue
				}
				clear(t)
				kern(kl, ap, bq, ps, t, tileC)
				for r := range min(panelW, i1-r0) {
					ci := c[(r0+r)*ldc+jq : (r0+r)*ldc+je]
					for j, v := range t[r*tileC : r*tileC+len(ci)] {
						ci[j] += v
					}
				}
			}
		}
	}
}

// packPanelsT is packPanels for the transpose: inner rows
// l0 … l0+k−1 of the matrix whose column i is row i of x (row stride ldx),
// its columns [c0, c1) into np panels.
func packPanelsT(dst, x []float64, ldx, l0, k, c0, c1, np int, neg bool) {
	ps := k * panelW
	for p := range np {
		d := dst[p*ps : (p+1)*ps]
		j := c0 + p*panelW
		w := min(panelW, max(0, c1-j))
		if w < panelW {
			clear(d)
		}
		for q := range w {
			xq := x[(j+q)*ldx+l0 : (j+q)*ldx+l0+k]
			if neg {
				for r, v := range xq {
					d[r*panelW+q] = -v
				}
			} else {
				for r, v := range xq {
					d[r*panelW+q] = v
				}
			}
		}
	}
}
