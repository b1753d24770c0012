package linalg

import (
	"sync"
	"unsafe"
)

// Blocking of the float32 product on packed weights (Weights32 with a
// panel kernel): a micro-tile is mr32 rows of c by nr32 columns, summed
// over a block of at most kc32 inner indices from a copy of a's rows
// packed mr32 at a time (interleaved) and b's panel of nr32 columns (one
// row of the panel after the other, packed once by NewWeights32). A block
// of up to mc32 rows of a passes over every panel of b; a panel (up to
// 1024 × 16 × 4 bytes) stays in L2 while the block's row groups pass over
// it. The unpacked kernels read b's rows 7 KB apart at m = 1776, a new
// page per inner index; packing the panels of b for each call cost a third
// of the kernel's time (a cache miss per 64 bytes), hence once, with the
// weights. Inner blocks of 1024 rather than 256 (the tiles' sums stored
// and reloaded once at k = 1672 instead of six times) ran 1.15–1.2× faster
// on Zen 3 (medians, thread CPU time), and row blocks of 264 rather than
// 96 or 48 (which keep a's block in L2) 1.1–1.3×.
const (
	mr32 = 6
	nr32 = 16
	kc32 = 1024
	mc32 = 44 * mr32
)

// mul32Tile sets the mr32×nr32 block at c (rows ldc floats apart) to the
// sums over l < k of a[mr32·l+r]·b[nr32·l+j], or adds them to it if add
// is set, each entry summed in increasing l with a rounded float32
// product and sum, as mul32Portable does.
type mul32Tile func(k int, a, b, c *float32, ldc int, add bool)

// mul32TileSet is one implementation of the panel micro-kernel: a
// mr32×nr32 tile on panels packed by packPanels32, or (WebAssembly SIMD)
// a 4×nr8 strip kernel on strips packed by packStrips32; neither is
// row-major weights.
type mul32TileSet struct {
	name  string
	tile  mul32Tile
	strip mul32Strip
}

// panelBlock32 is the number of inner indices per packed block for an
// inner dimension k: blocks of equal size (2100 = 3 × 700, not 2 × 1024 +
// 52), so that no short block pays the tiles' loads and stores for few
// inner indices.
func panelBlock32(k int) int {
	nk := (k + kc32 - 1) / kc32
	return (k + nk - 1) / nk
}

// packPanels32 returns b (k×m, row-major), rounded to float32, in the layout mul32Panels reads:
// for each block of panelBlock32(k) inner indices, the panels of nr32
// columns one after the other, each its block's rows of nr32 values (zeros
// past column m). Block l0 starts at l0·np·nr32 (np panels); b is read row
// by row, in order.
func packPanels32[T float32 | float64](b []T, k, m int) []float32 {
	np := (m + nr32 - 1) / nr32
	p := make([]float32, k*np*nr32)
	if k == 0 {
		return p
	}
	kc := panelBlock32(k)
	for l0 := 0; l0 < k; l0 += kc {
		kl := min(kc, k-l0)
		blk := p[l0*np*nr32 : (l0+kl)*np*nr32]
		for l := range kl {
			row := b[(l0+l)*m : (l0+l+1)*m]
			for q := range np {
				d := blk[(q*kl+l)*nr32 : (q*kl+l+1)*nr32]
				for j, v := range row[q*nr32 : min((q+1)*nr32, m)] {
					d[j] = float32(v) // the one rounding of a float64 weight
				}
			}
		}
	}
	return p
}

// mul32Scratch holds mul32Panels's packed rows of a and its edge tile,
// reused across calls.
type mul32Scratch struct {
	a []float32
	c [mr32 * nr32]float32
}

var mul32Pool = sync.Pool{New: func() any { return new(mul32Scratch) }}

// mul32Panels sets rows [i0, i1) of c = a·b, b packed by packPanels32,
// with the micro-kernel kern. The inner indices go in blocks, each tile's
// sums stored in c and reloaded by the next block (a float32 store and
// load is exact), so every entry is still the one chain of rounded
// products and sums in increasing l from zero: the bits of mul32Portable.
// Rows past the last whole group are zeros in the packed copy of a, and
// tiles that cross row i1 or column m are computed in a scratch tile, of
// which only the real entries are copied to c.
func mul32Panels(kern mul32Tile, c, a, bp []float32, i0, i1, k, m int) {
	if i1 <= i0 || m == 0 {
		return
	}
	if k == 0 {
		clear(c[i0*m : i1*m])
		return
	}
	kc := panelBlock32(k)
	np := (m + nr32 - 1) / nr32
	s := mul32Pool.Get().(*mul32Scratch)
	defer mul32Pool.Put(s)
	s.a = grow32(s.a, (min(i1-i0, mc32)+mr32-1)/mr32*mr32*kc)
	_ = c[i1*m-1] // the full tiles write c up to row i1−1 through pointers
	for l0 := 0; l0 < k; l0 += kc {
		kl := min(kc, k-l0)
		add := l0 > 0
		blk := bp[l0*np*nr32 : (l0+kl)*np*nr32]
		for ic := i0; ic < i1; ic += mc32 {
			ie := min(ic+mc32, i1)
			ap := packRows32(s.a, a, ic, ie, k, l0, kl)
			for q := range np {
				j := q * nr32
				w := min(nr32, m-j)
				pb := &blk[q*kl*nr32]
				for i := ic; i < ie; i += mr32 {
					h := min(mr32, ie-i)
					pa := &ap[(i-ic)*kl]
					if h == mr32 && w == nr32 {
						kern(kl, pa, pb, &c[i*m+j], m, add)
						continue
					}
					t := s.c[:]
					if add {
						for r := range h {
							copy(t[r*nr32:r*nr32+w], c[(i+r)*m+j:])
						}
					}
					kern(kl, pa, pb, &t[0], nr32, add)
					for r := range h {
						copy(c[(i+r)*m+j:(i+r)*m+j+w], t[r*nr32:])
					}
				}
			}
		}
	}
}

// packRows32 copies a[i][l0 : l0+kl] for rows [i0, i1) into dst in groups
// of mr32 rows, interleaved (a group's values for one l together, the
// group's block at (i−i0)·kl), zeros after the last row, and returns the
// packed slice.
func packRows32(dst, a []float32, i0, i1, k, l0, kl int) []float32 {
	groups := (i1 - i0 + mr32 - 1) / mr32
	dst = dst[:groups*mr32*kl]
	var rows [mr32][]float32
	for g := range groups {
		p := dst[g*mr32*kl : (g+1)*mr32*kl]
		for r := range rows {
			i := i0 + g*mr32 + r
			rows[r] = nil
			if i < i1 {
				rows[r] = a[i*k+l0 : i*k+l0+kl]
			}
		}
		if g*mr32+mr32 <= i1-i0 {
			// A whole group: the six rows read together, dst in order.
			r0, r1, r2, r3, r4, r5 := rows[0], rows[1][:kl], rows[2][:kl], rows[3][:kl], rows[4][:kl], rows[5][:kl]
			for l, v := range r0 {
				q := p[l*mr32 : l*mr32+mr32 : l*mr32+mr32]
				q[0], q[1], q[2], q[3], q[4], q[5] = v, r1[l], r2[l], r3[l], r4[l], r5[l]
			}
			continue
		}
		for r, row := range rows {
			if row == nil {
				for l := range kl {
					p[l*mr32+r] = 0
				}
				continue
			}
			for l, v := range row {
				p[l*mr32+r] = v
			}
		}
	}
	return dst
}

// mul6x16Portable is the panel micro-kernel in plain Go, for the tests on
// every build: each entry summed in increasing l, a rounded product and a
// rounded sum at a time.
func mul6x16Portable(k int, a, b, c *float32, ldc int, add bool) {
	as := unsafe.Slice(a, k*mr32)
	bs := unsafe.Slice(b, k*nr32)
	cs := unsafe.Slice(c, (mr32-1)*ldc+nr32)
	for r := range mr32 {
		ci := cs[r*ldc : r*ldc+nr32]
		if !add {
			clear(ci)
		}
		for l := range k {
			av := as[l*mr32+r]
			bl := bs[l*nr32 : (l+1)*nr32]
			for j := range ci {
				// The conversion forbids fusing into an FMA.
				ci[j] += float32(av * bl[j])
			}
		}
	}
}

func grow32(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}
