//go:build js && wasm

package jsbridge

import (
	"runtime"
	"unsafe"

	"github.com/hack-pad/safejs"

	"ntkrf/core/linalg"
)

// KernelsGlobal is where the host puts the exports of the hand-written
// WebAssembly kernels (www/pkg/worker.js: kernels.wasm, assembled from
// wasm/kernels/*.wat, instantiated on this instance's own memory) before
// the Go program starts.
const KernelsGlobal = "ntkrfKernels"

// InstallKernels installs the kernels found at globalThis.ntkrfKernels in
// the core (linalg.SetGram32Host, SetGram64Host, SetRect64Host,
// SetStrips32Host, SetMul64Host, SetSymv64Host, SetGemm64Host,
// SetChase64Host) and returns the names of those it installed; without them (an engine or a host that has none, Go's test
// runner) the core keeps its Go kernels, which give the same bits. The
// kernels are called with linear-memory addresses of Go slices, once per
// block of up to 256 rows, so the call through JavaScript (microseconds)
// is paid per block: the Gram of a 256-row block at m = 2048 is about half
// a GFLOP.
func InstallKernels() []string {
	ks, err := safejs.Global().Get(KernelsGlobal)
	if err != nil || ks.Type() != safejs.TypeObject {
		return nil
	}
	var names []string
	if fn, err := ks.Get("gram32"); err == nil && fn.Type() == safejs.TypeFunction {
		linalg.SetGram32Host(gram32Host(fn))
		names = append(names, "gram32")
	}
	if fn, err := ks.Get("gram64"); err == nil && fn.Type() == safejs.TypeFunction {
		linalg.SetGram64Host(gram64Host(fn))
		names = append(names, "gram64")
	}
	if fn, err := ks.Get("rect64"); err == nil && fn.Type() == safejs.TypeFunction {
		linalg.SetRect64Host(rect64Host(fn))
		names = append(names, "rect64")
	}
	if fn, err := ks.Get("strips32"); err == nil && fn.Type() == safejs.TypeFunction {
		linalg.SetStrips32Host(strips32Host(fn))
		names = append(names, "strips32")
	}
	if fn, err := ks.Get("mul64"); err == nil && fn.Type() == safejs.TypeFunction {
		linalg.SetMul64Host(mul64Host(fn))
		names = append(names, "mul64")
	}
	if fn, err := ks.Get("symv64"); err == nil && fn.Type() == safejs.TypeFunction {
		linalg.SetSymv64Host(symv64Host(fn))
		names = append(names, "symv64")
	}
	if fn, err := ks.Get("gemm64"); err == nil && fn.Type() == safejs.TypeFunction {
		linalg.SetGemm64Host(gemm64Host(fn))
		names = append(names, "gemm64")
	}
	if fn, err := ks.Get("chase64"); err == nil && fn.Type() == safejs.TypeFunction {
		linalg.SetChase64Host(chase64Host(fn))
		names = append(names, "chase64")
	}
	return names
}

// gemm64Host is the linalg.Gemm64Host that calls fn, kernels.wasm's
// gemm64(n, k, m, a, lda, b, ldb, c, ldc, add), as gram32Host does.
func gemm64Host(fn safejs.Value) linalg.Gemm64Host {
	return func(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, n, k, m int, add bool) {
		if n < 1 || k < 1 || m < 1 || lda < k || ldb < m || ldc < m || len(a) < (n-1)*lda+k || len(b) < (k-1)*ldb+m || len(c) < (n-1)*ldc+m {
			panic("jsbridge: gemm64 kernel called with bad shapes")
		}
		if _, err := fn.Invoke(n, k, m, addr(a), lda, addr(b), ldb, addr(c), ldc, add); err != nil {
			panic("jsbridge: gemm64 kernel: " + err.Error())
		}
		runtime.KeepAlive(a)
		runtime.KeepAlive(b)
		runtime.KeepAlive(c)
	}
}

// chase64Host is the linalg.Chase64Host that calls fn, kernels.wasm's
// chase64(m, nb, a, tau2, xt, rows), as gram32Host does: one call per
// group of columns, every reflector of the chase in it.
func chase64Host(fn safejs.Value) linalg.Chase64Host {
	return func(m, nb int, a, tau2, xt []float64, rows int) {
		if m < 3 || nb < 1 || rows < 1 || len(a) < m*m || len(xt) < rows*m || len(tau2) < linalg.ChaseTaus(m, nb) {
			panic("jsbridge: chase64 kernel called with bad shapes")
		}
		if _, err := fn.Invoke(m, nb, addr(a), addr(tau2), addr(xt), rows); err != nil {
			panic("jsbridge: chase64 kernel: " + err.Error())
		}
		runtime.KeepAlive(a)
		runtime.KeepAlive(tau2)
		runtime.KeepAlive(xt)
	}
}

// symv64Host is the linalg.Symv64Host that calls fn, kernels.wasm's
// symv64(m, lo, r0, r1, a, x, y), as gram32Host does.
func symv64Host(fn safejs.Value) linalg.Symv64Host {
	return func(y, a []float64, m, lo, r0, r1 int, x []float64) {
		if lo < 0 || r0 < lo || r1 <= r0 || m < r1 || len(a) < m*m || len(x) < m-lo || len(y) < m-lo {
			panic("jsbridge: symv64 kernel called with bad shapes")
		}
		if _, err := fn.Invoke(m, lo, r0, r1, addr(a), addr(x), addr(y)); err != nil {
			panic("jsbridge: symv64 kernel: " + err.Error())
		}
		runtime.KeepAlive(a)
		runtime.KeepAlive(x)
		runtime.KeepAlive(y)
	}
}

// mul64Host is the linalg.Mul64Host that calls fn, kernels.wasm's
// mul64(rows, k, m, a, b, c) on the rows' parts of a and c, as gram32Host
// does.
func mul64Host(fn safejs.Value) linalg.Mul64Host {
	return func(c, a, b []float64, i0, i1, k, m int) {
		if i0 < 0 || i1 <= i0 || k < 1 || m < 1 || len(a) < i1*k || len(b) < k*m || len(c) < i1*m {
			panic("jsbridge: mul64 kernel called with bad shapes")
		}
		if _, err := fn.Invoke(i1-i0, k, m, addr(a[i0*k:]), addr(b), addr(c[i0*m:])); err != nil {
			panic("jsbridge: mul64 kernel: " + err.Error())
		}
		runtime.KeepAlive(a)
		runtime.KeepAlive(b)
		runtime.KeepAlive(c)
	}
}

// strips32Host is the linalg.Strips32Host that calls fn, kernels.wasm's
// strips32(k, m, rows, a, bp, c, scratch), as gram32Host does.
func strips32Host(fn safejs.Value) linalg.Strips32Host {
	return func(k, m, rows int, a, bp, c, scratch []float32) {
		if k < 1 || m < 1 || rows < 4 || rows%4 != 0 || len(a) < rows*k || len(bp) < (m+7)/8*k*8 || len(c) < rows*m || len(scratch) < 32 {
			panic("jsbridge: strips32 kernel called with bad shapes")
		}
		if _, err := fn.Invoke(k, m, rows, addr(a), addr(bp), addr(c), addr(scratch)); err != nil {
			panic("jsbridge: strips32 kernel: " + err.Error())
		}
		runtime.KeepAlive(a)
		runtime.KeepAlive(bp)
		runtime.KeepAlive(c)
		runtime.KeepAlive(scratch)
	}
}

// rect64Host is the linalg.Rect64Host that calls fn, kernels.wasm's
// rect64(k, rows, cols, left, ps, right, x, ldx, scratch) (ps in bytes),
// as gram32Host does.
func rect64Host(fn safejs.Value) linalg.Rect64Host {
	return func(k, rows, cols int, left []float64, ps int, right, x []float64, ldx int, scratch []float64) {
		np := (rows + 7) / 8
		if k < 1 || rows < 1 || cols < 1 || ldx < cols || ps < k*8 || len(left) < (np-1)*ps+k*8 ||
			len(right) < (cols+23)/24*3*k*8 || len(x) < (rows-1)*ldx+cols || len(scratch) < 8*24 {
			panic("jsbridge: rect64 kernel called with bad shapes")
		}
		if _, err := fn.Invoke(k, rows, cols, addr(left), 8*ps, addr(right), addr(x), ldx, addr(scratch)); err != nil {
			panic("jsbridge: rect64 kernel: " + err.Error())
		}
		runtime.KeepAlive(left)
		runtime.KeepAlive(right)
		runtime.KeepAlive(x)
		runtime.KeepAlive(scratch)
	}
}

// gram64Host is the linalg.Gram64Host that calls fn, kernels.wasm's
// gram64(k, m, ldg, left, right, g, scratch), as gram32Host does.
func gram64Host(fn safejs.Value) linalg.Gram64Host {
	return func(k, m, ldg int, left, right, g, scratch []float64) {
		np := (m + 7) / 8
		if k < 1 || m < 1 || ldg < m || len(left) < (np+2)*k*8 || len(right) < (np+2)*k*8 ||
			len(g) < (m-1)*ldg+m || len(scratch) < 8*24 {
			panic("jsbridge: gram64 kernel called with bad shapes")
		}
		if _, err := fn.Invoke(k, m, ldg, addr(left), addr(right), addr(g), addr(scratch)); err != nil {
			panic("jsbridge: gram64 kernel: " + err.Error())
		}
		runtime.KeepAlive(left)
		runtime.KeepAlive(right)
		runtime.KeepAlive(g)
		runtime.KeepAlive(scratch)
	}
}

// gram32Host is the linalg.Gram32Host that calls fn, kernels.wasm's
// gram32(k, m, pack, g, scratch), with the slices' addresses. The kernel
// checks nothing: the lengths are checked here, and a failed call panics
// (a bug, recovered at the bridge's boundary).
func gram32Host(fn safejs.Value) linalg.Gram32Host {
	return func(k, m int, pack []float32, g, scratch []float64) {
		if k < 1 || m < 1 || len(pack) < 3*((m+47)/48)*k*16 || len(g) < m*m || len(scratch) < linalg.Gram32HostScratch {
			panic("jsbridge: gram32 kernel called with bad shapes")
		}
		if _, err := fn.Invoke(k, m, addr(pack), addr(g), addr(scratch)); err != nil {
			panic("jsbridge: gram32 kernel: " + err.Error())
		}
		runtime.KeepAlive(pack)
		runtime.KeepAlive(g)
		runtime.KeepAlive(scratch)
	}
}

// addr is the linear-memory address of s's first element: in WebAssembly
// a Go pointer is an offset into the instance's memory.
func addr[T any](s []T) int { return int(uintptr(unsafe.Pointer(unsafe.SliceData(s)))) }
