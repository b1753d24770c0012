package linalg

import "runtime"

// Gram32Host is one packed block of AddAtA32 done by a kernel the host
// provides instead of the Go micro-kernel: the WebAssembly package's
// hand-written SIMD module, which runs on the Go instance's own memory
// (jsbridge installs it). It adds to the upper triangle of the m×m g (row
// stride m) the products of the block's k rows as addAtA32 does on one
// worker: pack holds them as pack32 writes them (float32 panels of 16
// columns, 3·⌈m/48⌉ panels of k rows), scratch holds Gram32HostScratch
// values for the kernel's own use (an 8×48 tile aside, a copy of a left
// panel).
// Every entry must get the bits tile32Portable gives it: a float32 sum from
// zero over the rows in increasing order, each product and sum rounded
// (no fused multiply-add), added to g in float64. A host kernel is given
// the whole block in one call, so the cost of reaching it is paid per
// block of up to 256 rows, not per tile.
type Gram32Host func(k, m int, pack []float32, g, scratch []float64)

// Gram32HostScratch is the length of the scratch a Gram32Host is given:
// one 8×48 float64 tile and a half-panel of up to 256 rows of 8 float32.
const Gram32HostScratch = tile32R*tile32C + kc*tile32R/2

// gram32Host is the installed host kernel, or nil (the Go kernels).
var gram32Host Gram32Host

// SetGram32Host installs f as AddAtA32's kernel for its packed blocks and
// returns the one it replaces; nil restores the Go kernels. It is for a
// host's start-up (and tests), before any AddAtA32 runs: it is not safe
// to call while one does. AddAtA32 uses the host kernel only where its own
// arithmetic is that of the unfused Go kernel (a float32 kernel that does
// not fuse: WebAssembly SIMD) and it runs on one goroutine, as it always
// does in WebAssembly; elsewhere the host kernel is ignored.
func SetGram32Host(f Gram32Host) Gram32Host {
	old := gram32Host
	gram32Host = f
	return old
}

// Gram32HostGo is a Gram32Host in Go, tile32Portable under the host
// kernels' loop: the oracle that tests hold a host kernel to, and the
// order of work any host kernel follows (addAtA32's items on one worker).
func Gram32HostGo(k, m int, pack []float32, g, scratch []float64) {
	ps := k * panel32
	if k < 1 || m < 1 || len(pack) < 3*((m+tile32C-1)/tile32C)*ps || len(g) < m*m || len(scratch) < Gram32HostScratch {
		panic("linalg: Gram32HostGo called with bad shapes")
	}
	for _, it := range upperItems(m, item32R, item32C) {
		gram32Item(tile32Portable, it, k, m, pack, g, scratch)
	}
}

// gram32Item does one work item of addAtA32's block: its tiles inside the
// upper triangle straight into g, the others aside in scratch, added
// where they lie in the upper triangle.
func gram32Item(kern tile32Func, it item, k, m int, pack []float32, g, scratch []float64) {
	ps := k * panel32
	for i := it.i0; i < min(it.i0+item32R, m); i += tile32R {
		ap := pack[(i/panel32)*ps+i%panel32:]
		for j := max(it.j0, i/tile32C*tile32C); j < min(it.j0+item32C, m); j += tile32C {
			bp := pack[(j/panel32)*ps:]
			if j >= i+tile32R && j+tile32C <= m && i+tile32R <= m {
				kern(k, ap, bp, ps, g[i*m+j:], m)
				continue
			}
			// Diagonal or edge tile: compute aside, add the part in
			// the upper triangle of g.
			c := scratch[:tile32R*tile32C]
			clear(c)
			kern(k, ap, bp, ps, c, tile32C)
			addUpper(g, m, c, i, j, tile32R, tile32C, m)
		}
	}
}

// Gram64Host is one packed block of addAtB (AddAtA, SubAtAStride, the
// Cholesky's trailing updates, the band reduction's rank-2k updates) done
// by a kernel the host provides: it adds to the upper triangle of the m×m
// block of g whose rows are ldg values apart the products of the left and
// right panels of the block's k rows, as addAtB does on one worker. left
// and right hold ⌈m/8⌉+2 panels of 8 columns, k rows each (the left ones
// negated for a subtraction; right may be left); scratch holds
// tileR·tileC values. Every entry must get the bits of the WebAssembly
// kernels (tilePortable, tileSIMD): a sum from zero over the rows in
// increasing order, each product and sum rounded, added to g.
type Gram64Host func(k, m, ldg int, left, right, g, scratch []float64)

// gram64Host is the installed float64 host kernel, or nil.
var gram64Host Gram64Host

// SetGram64Host installs f as addAtB's kernel for its packed blocks and
// returns the one it replaces; nil restores the Go kernels. As
// SetGram32Host, for a host's start-up and tests. It is used only in
// WebAssembly, where Go never fuses a multiply and an add, so that every
// Go tile kernel has the host kernel's bits, and on one goroutine.
func SetGram64Host(f Gram64Host) Gram64Host {
	old := gram64Host
	gram64Host = f
	return old
}

// Gram64HostGo is a Gram64Host in Go, tilePortable under addAtB's loop on
// one worker: the oracle the host kernels are held to.
func Gram64HostGo(k, m, ldg int, left, right, g, scratch []float64) {
	np := (m + panelW - 1) / panelW
	if k < 1 || m < 1 || ldg < m || len(left) < (np+2)*k*panelW || len(right) < (np+2)*k*panelW ||
		len(g) < (m-1)*ldg+m || len(scratch) < tileR*tileC {
		panic("linalg: Gram64HostGo called with bad shapes")
	}
	gram64Items(tilePortable, k, m, ldg, left, right, g, scratch)
}

// gram64Items is addAtB's block on one worker with the kernel kern: its
// work items in order.
func gram64Items(kern tileFunc, k, m, ldg int, left, right, g, scratch []float64) {
	np := (m + panelW - 1) / panelW
	for _, it := range upperItems(m, itemR, itemC) {
		gram64Item(kern, it, k, m, ldg, np, left, right, g, scratch)
	}
}

// gram64Item does one work item of addAtB's block.
func gram64Item(kern tileFunc, it item, k, m, ldg, np int, left, right, g, scratch []float64) {
	ps := k * panelW
	pEnd := min((it.i0+itemR)/panelW, np)
	qEnd := min((it.j0+itemC)/panelW, np)
	for p := it.i0 / panelW; p < pEnd; p++ {
		ap := left[p*ps : (p+1)*ps]
		for q := it.j0 / panelW; q < qEnd; q += 3 {
			if q+2 < p {
				continue // tile entirely below the diagonal
			}
			bp := right[q*ps:]
			i, j := p*panelW, q*panelW
			if j >= i+tileR && j+tileC <= m && i+tileR <= m {
				kern(k, ap, bp, ps, g[i*ldg+j:], ldg)
				continue
			}
			// Diagonal or edge tile: compute aside, add the part in
			// the upper triangle of g.
			c := scratch[:tileR*tileC]
			clear(c)
			kern(k, ap, bp, ps, c, tileC)
			addUpper(g, ldg, c, i, j, tileR, tileC, m)
		}
	}
}

// Rect64Host is one block of symmLeft's product (the band reduction's
// VᵀA₂₂) done by a kernel the host provides: it adds to the rows×cols
// block of x (rows ldx values apart) the products of the k rows of the
// left panels (⌈rows/8⌉ panels of 8 columns, ps values apart) and the
// right panels (three per 24 columns, k·8 values apart), tile by tile as
// rect64 does, with the WebAssembly kernels' bits; scratch holds
// tileR·tileC values. Used, as Gram64Host, only in WebAssembly on one
// goroutine.
type Rect64Host func(k, rows, cols int, left []float64, ps int, right, x []float64, ldx int, scratch []float64)

// rect64Host is the installed host kernel for symmLeft, or nil.
var rect64Host Rect64Host

// SetRect64Host installs f as symmLeft's kernel for its blocks and
// returns the one it replaces; nil restores the Go kernels.
func SetRect64Host(f Rect64Host) Rect64Host {
	old := rect64Host
	rect64Host = f
	return old
}

// Rect64HostGo is a Rect64Host in Go, tilePortable under symmLeft's loop:
// the oracle the host kernels are held to.
func Rect64HostGo(k, rows, cols int, left []float64, ps int, right, x []float64, ldx int, scratch []float64) {
	np := (rows + panelW - 1) / panelW
	if k < 1 || rows < 1 || cols < 1 || ldx < cols || ps < k*panelW || len(left) < (np-1)*ps+k*panelW ||
		len(right) < (cols+tileC-1)/tileC*3*k*panelW || len(x) < (rows-1)*ldx+cols || len(scratch) < tileR*tileC {
		panic("linalg: Rect64HostGo called with bad shapes")
	}
	rect64(tilePortable, k, rows, cols, left, ps, right, x, ldx, scratch)
}

// rect64 is symmLeft's block: for each 24 columns g0 of the right panels
// and each left panel p, a tile into x, or aside in scratch from zero and
// its part inside the rows×cols block added.
func rect64(kern tileFunc, k, rows, cols int, left []float64, ps int, right, x []float64, ldx int, scratch []float64) {
	bs := k * panelW
	np := (rows + panelW - 1) / panelW
	for g0 := 0; g0 < cols; g0 += tileC {
		g1 := min(g0+tileC, cols)
		gp := right[g0/panelW*bs:]
		for p := range np {
			ap := left[p*ps:]
			r0 := p * panelW
			if r0+tileR <= rows && g1-g0 == tileC {
				kern(k, ap, gp, bs, x[r0*ldx+g0:], ldx)
				continue
			}
			// Edge: the tile sums from zero and adds, so computing
			// it aside gives the same bits.
			t := scratch[:tileR*tileC]
			clear(t)
			kern(k, ap, gp, bs, t, tileC)
			for r := 0; r < tileR && r0+r < rows; r++ {
				row := x[(r0+r)*ldx+g0 : (r0+r)*ldx+g1]
				for j := range row {
					row[j] += t[r*tileC+j]
				}
			}
		}
	}
}

// Strips32Host is the row groups of mul32StripPanels (Weights32.Mul on
// strip-packed weights: the features' projections) done by a kernel the
// host provides: it sets the rows (a multiple of 4) rows of c (m values a
// row) to a·B, a's rows k values apart and B packed in strips of 8 columns
// (packStrips32), with the WebAssembly kernels' bits (each entry from zero
// in increasing l, a rounded float32 product and sum); scratch holds 32
// values. Used, as Gram64Host, only in WebAssembly.
type Strips32Host func(k, m, rows int, a, bp, c, scratch []float32)

// strips32Host is the installed host kernel for mul32StripPanels, or nil.
var strips32Host Strips32Host

// SetStrips32Host installs f as mul32StripPanels' kernel and returns the
// one it replaces; nil restores the Go kernels.
func SetStrips32Host(f Strips32Host) Strips32Host {
	old := strips32Host
	strips32Host = f
	return old
}

// Strips32HostGo is a Strips32Host in Go, mul4x8Portable under
// mul32StripPanels' loop: the oracle the host kernels are held to.
func Strips32HostGo(k, m, rows int, a, bp, c, scratch []float32) {
	ns := (m + nr8 - 1) / nr8
	if k < 1 || m < 1 || rows < 4 || rows%4 != 0 || len(a) < rows*k || len(bp) < ns*k*nr8 || len(c) < rows*m || len(scratch) < 4*nr8 {
		panic("linalg: Strips32HostGo called with bad shapes")
	}
	stripRows(mul4x8Portable, c, a, bp, 0, rows, k, m)
}

// Mul64Host is Mul's rows done by a kernel the host provides (the
// WebAssembly package's mul64, which reads a and b in place where the Go
// kernels pack them): it sets rows [i0, i1) of c = a·b, the shapes of
// Mul, with mulPortable's bits (each entry from zero in increasing inner
// index, a rounded product and sum). Used, as Gram64Host, only in
// WebAssembly.
type Mul64Host func(c, a, b []float64, i0, i1, k, m int)

// mul64Host is the installed host kernel for Mul, or nil.
var mul64Host Mul64Host

// SetMul64Host installs f as Mul's kernel (and applyReflectors') and
// returns the one it replaces; nil restores the Go kernels. As
// SetGram32Host, for a host's start-up and tests.
func SetMul64Host(f Mul64Host) Mul64Host {
	old := mul64Host
	mul64Host = f
	mulRows = mulGo
	if f != nil && runtime.GOARCH == "wasm" {
		mulRows = mulHost
	}
	return old
}

// mulHostMin is the least product (multiply-adds) handed to the host
// kernel: a call through JavaScript costs microseconds, as much as Go's
// kernels take for a product this size.
const mulHostMin = 1 << 14

// mulHost is the mulFunc of an installed Mul64Host.
func mulHost(c, a, b []float64, i0, i1, k, m int) {
	if (i1-i0)*k*m < mulHostMin {
		mulGo(c, a, b, i0, i1, k, m)
		return
	}
	mul64Host(c, a, b, i0, i1, k, m)
}

// Mul64HostGo is a Mul64Host in Go, mulPortable: the oracle the host
// kernels are held to.
func Mul64HostGo(c, a, b []float64, i0, i1, k, m int) {
	if i0 < 0 || i1 < i0 || k < 0 || m < 0 || len(a) < i1*k || len(b) < k*m || len(c) < i1*m {
		panic("linalg: Mul64HostGo called with bad shapes")
	}
	mulPortable(c, a, b, i0, i1, k, m)
}

// Symv64Host is symvRows (the one-stage reduction's symmetric products,
// rows r0 … r1−1 of the upper triangle a added to y, x and y indexed from
// lo) done by a kernel the host provides, with the bits of symvRowsGo on
// the WebAssembly DotAxpy (its partial sums and their order). Used only in
// WebAssembly.
type Symv64Host func(y, a []float64, m, lo, r0, r1 int, x []float64)

// symv64Host is the installed host kernel for symvRows, or nil.
var symv64Host Symv64Host

// symvHostMin is the least work (rows times row length) handed to the
// host kernel, a call through JavaScript costing microseconds.
const symvHostMin = 1 << 12

// SetSymv64Host installs f as symvRows' kernel and returns the one it
// replaces; nil restores the Go loop. As SetGram32Host, for a host's
// start-up and tests; it is ignored outside WebAssembly.
func SetSymv64Host(f Symv64Host) Symv64Host {
	old := symv64Host
	symv64Host = f
	if runtime.GOARCH != "wasm" {
		symv64Host = nil
	}
	return old
}

// Symv64HostGo is a Symv64Host in Go, symvRowsGo: the oracle the host
// kernels are held to.
func Symv64HostGo(y, a []float64, m, lo, r0, r1 int, x []float64) {
	if lo < 0 || r0 < lo || r1 < r0 || m < r1 || len(a) < m*m || len(x) < m-lo || len(y) < m-lo {
		panic("linalg: Symv64HostGo called with bad shapes")
	}
	symvRowsGo(y, a, m, lo, r0, r1, x)
}

// Chase64Host is applyChaseQ's reflectors applied one at a time to a
// group of columns (the WebAssembly path, applyChaseQEach): rows rows of
// xt, m values each (columns of x, transposed), with chaseRows' bits (its
// order of reflectors; each a dot product with the WebAssembly dot's
// partial sums, then its axpy). a and tau2 are the chase's record
// (chaseLog), nb its band. Used only in WebAssembly.
type Chase64Host func(m, nb int, a, tau2, xt []float64, rows int)

// chase64Host is the installed host kernel for applyChaseQEach, or nil.
var chase64Host Chase64Host

// SetChase64Host installs f as applyChaseQEach's kernel and returns the
// one it replaces; nil restores the Go loop. As SetGram32Host, for a
// host's start-up and tests; it is ignored outside WebAssembly.
func SetChase64Host(f Chase64Host) Chase64Host {
	old := chase64Host
	chase64Host = f
	if runtime.GOARCH != "wasm" {
		chase64Host = nil
	}
	return old
}

// ChaseTaus returns the number of τ the bulge chase of an m×m band of
// width nb records (tau2's length): ⌈(m−1−s)/nb⌉ for each sweep s < m−2.
func ChaseTaus(m, nb int) int {
	n := 0
	for s := 0; nb > 0 && s < m-2; s++ {
		n += (m - 1 - s + nb - 1) / nb
	}
	return n
}

// Chase64HostGo is a Chase64Host in Go, chaseRows: the oracle the host
// kernels are held to.
func Chase64HostGo(m, nb int, a, tau2, xt []float64, rows int) {
	if m < 0 || nb < 1 || rows < 0 || len(a) < m*m || len(tau2) < ChaseTaus(m, nb) || len(xt) < rows*m {
		panic("linalg: Chase64HostGo called with bad shapes")
	}
	starts := chaseStarts(m, nb)
	chaseRows(a, m, nb, tau2, starts, xt, rows)
}

// Gemm64Host is gemm (the band reduction's panel products, the
// Cholesky's off-diagonal blocks) done by a kernel the host provides, with
// gemmPortable's bits: each entry summed from zero, or from c when add is
// set, in increasing inner index, a rounded product and sum. Used only in
// WebAssembly.
type Gemm64Host func(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, n, k, m int, add bool)

// gemm64Host is the installed host kernel for gemm, or nil.
var gemm64Host Gemm64Host

// SetGemm64Host installs f as gemm's kernel for products of mulHostMin
// multiply-adds or more and returns the one it replaces; nil restores the
// Go kernels. As SetGram32Host, for a host's start-up and tests; it is
// ignored outside WebAssembly.
func SetGemm64Host(f Gemm64Host) Gemm64Host {
	old := gemm64Host
	gemm64Host = f
	if runtime.GOARCH != "wasm" {
		gemm64Host = nil
	}
	return old
}

// Gemm64HostGo is a Gemm64Host in Go, gemmPortable: the oracle the host
// kernels are held to.
func Gemm64HostGo(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, n, k, m int, add bool) {
	if n < 1 || k < 1 || m < 1 || lda < k || ldb < m || ldc < m || len(a) < (n-1)*lda+k || len(b) < (k-1)*ldb+m || len(c) < (n-1)*ldc+m {
		panic("linalg: Gemm64HostGo called with bad shapes")
	}
	gemmPortable(c, ldc, a, lda, b, ldb, 0, n, 0, m, k, add)
}
