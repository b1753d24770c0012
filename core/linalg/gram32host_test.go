package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"ntkrf/internal/fixture"
)

// A host kernel (SetGram32Host) does each packed block of AddAtA32 in one
// call; Gram32HostGo, its loop in Go, is the oracle the WebAssembly
// kernels are held to (jsbridge's TestKernelsGram32, test/simd.test.js),
// and must itself give addAtA32's bits.
func TestGram32HostBits(t *testing.T) {
	t.Parallel()
	for _, s := range append(shapes, struct{ n, m int }{600, 130}, struct{ n, m int }{513, 449}, struct{ n, m int }{300, 48}) {
		t.Run(fmt.Sprintf("n=%d,m=%d", s.n, s.m), func(t *testing.T) {
			t.Parallel()
			if s.n == 0 || s.m == 0 {
				return
			}
			a := randSlice(s.n*s.m, 5)
			got := randSlice(s.m*s.m, 6)
			want := append([]float64(nil), got...)
			addAtA32Host(tile32Portable, Gram32HostGo, got, a, s.n, s.m)
			addAtA32(tile32Portable, want, a, s.n, s.m)
			fixture.SameBits(t, "g", got, want)
		})
	}
}

// TestAddAtA32UsesHost: AddAtA32 hands its blocks to an installed host
// kernel where its own kernel does not fuse (WebAssembly SIMD) and keeps
// its bits; elsewhere (x86's fused kernels, no float32 kernel) it ignores
// the host. Not parallel: it installs a kernel for the whole package.
func TestAddAtA32UsesHost(t *testing.T) {
	const n, m = 700, 200
	a := randSlice(n*m, 7)
	want := randSlice(m*m, 8)
	got := append([]float64(nil), want...)
	AddAtA32(want, a, n, m)
	calls := 0
	old := SetGram32Host(func(k, m int, pack []float32, g, scratch []float64) {
		calls++
		Gram32HostGo(k, m, pack, g, scratch)
	})
	defer SetGram32Host(old)
	AddAtA32(got, a, n, m)
	fixture.SameBits(t, "g", got, want)
	wantCalls := 0
	if tile32 != nil && !tile32Fused && workersFor(n, m, len(upperItems(m, item32R, item32C))) == 1 {
		wantCalls = (n + kc - 1) / kc
	}
	if calls != wantCalls {
		t.Errorf("host kernel called %d times, want %d (float32 kernel %v, fused %v)", calls, wantCalls, tile32 != nil, tile32Fused)
	}
}

// TestAddAtBUsesHost: in WebAssembly, AddAtA, SubAtAStride and addAtB of
// two blocks hand each packed block to an installed float64 host kernel
// and keep their bits, with Gram64HostGo as the host; natively (fused
// kernels) the host is ignored. Not parallel: it installs a kernel for
// the whole package.
func TestAddAtBUsesHost(t *testing.T) {
	for _, s := range []struct{ n, m int }{{1, 1}, {9, 9}, {40, 24}, {300, 130}, {513, 200}} {
		a := randSlice(s.n*s.m, 9)
		b := randSlice(s.n*s.m, 10)
		ldg := s.m + 3
		g0 := randSlice(s.m*ldg, 11)
		runAll := func() [][]float64 {
			var out [][]float64
			for _, op := range []func(g []float64){
				func(g []float64) { AddAtA(g[:s.m*s.m], a, s.n, s.m) },
				func(g []float64) { SubAtAStride(g, ldg, a, s.n, s.m) },
				func(g []float64) { addAtB(tile, g, ldg, a, b, s.n, s.m, false) },
				func(g []float64) { addAtB(tile, g, ldg, a, b, s.n, s.m, true) },
			} {
				g := append([]float64(nil), g0...)
				op(g)
				out = append(out, g)
			}
			return out
		}
		want := runAll()
		calls := 0
		old := SetGram64Host(func(k, m, ldg int, left, right, g, scratch []float64) {
			calls++
			Gram64HostGo(k, m, ldg, left, right, g, scratch)
		})
		got := runAll()
		SetGram64Host(old)
		for i := range got {
			fixture.SameBits(t, fmt.Sprintf("n=%d m=%d op %d", s.n, s.m, i), got[i], want[i])
		}
		wantCalls := 0
		if runtime.GOARCH == "wasm" && workersFor(s.n, s.m, len(upperItems(s.m, itemR, itemC))) == 1 {
			wantCalls = 4 * ((s.n + kc - 1) / kc)
		}
		if calls != wantCalls {
			t.Errorf("n=%d m=%d: host kernel called %d times, want %d", s.n, s.m, calls, wantCalls)
		}
	}
}

// TestSymmLeftUsesHost: in WebAssembly symmLeft hands each block of its
// strips to an installed host kernel and keeps its bits, with
// Rect64HostGo as the host; natively the host is ignored. Not parallel:
// it installs a kernel for the whole package.
func TestSymmLeftUsesHost(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, c := range []struct{ n, b, lds int }{{1, 1, 1}, {31, 4, 40}, {256, 64, 256}, {300, 64, 310}, {777, 13, 800}} {
		n, b := c.n, c.b
		s := randFloats(r, (n-1)*c.lds+n)
		v := randFloats(r, n*2*b)
		x0 := randFloats(r, b*n) // stale values must not leak in
		want := append([]float64(nil), x0...)
		symmLeft(want, s, c.lds, n, b, v, 2*b, new(symmWork))
		calls := 0
		old := SetRect64Host(func(k, rows, cols int, left []float64, ps int, right, x []float64, ldx int, scratch []float64) {
			calls++
			Rect64HostGo(k, rows, cols, left, ps, right, x, ldx, scratch)
		})
		got := append([]float64(nil), x0...)
		symmLeft(got, s, c.lds, n, b, v, 2*b, new(symmWork))
		SetRect64Host(old)
		fixture.SameBits(t, fmt.Sprintf("n=%d b=%d", n, b), got, want)
		if runtime.GOARCH == "wasm" && n*n*b < minParallel && calls == 0 {
			t.Errorf("n=%d b=%d: the host kernel was not called", n, b)
		}
		if runtime.GOARCH != "wasm" && calls != 0 {
			t.Errorf("n=%d b=%d: the host kernel was called natively", n, b)
		}
	}
}

// TestWeights32UsesHost: in WebAssembly, Weights32.Mul on strip-packed
// weights hands its row groups to an installed host kernel and keeps its
// bits, with Strips32HostGo as the host; natively the host is ignored.
// Not parallel: it installs a kernel for the whole package.
func TestWeights32UsesHost(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, s := range []struct{ n, k, m int }{{1, 1, 1}, {4, 3, 8}, {9, 17, 23}, {64, 100, 130}, {130, 784, 257}} {
		b := make([]float32, s.k*s.m)
		for i := range b {
			b[i] = float32(r.NormFloat64())
		}
		a := make([]float32, s.n*s.k)
		for i := range a {
			a[i] = float32(r.NormFloat64())
		}
		w := NewWeights32(b, s.k, s.m)
		want := make([]float32, s.n*s.m)
		w.Mul(want, a, s.n, 1)
		calls := 0
		old := SetStrips32Host(func(k, m, rows int, a, bp, c, scratch []float32) {
			calls++
			Strips32HostGo(k, m, rows, a, bp, c, scratch)
		})
		got := make([]float32, s.n*s.m)
		w.Mul(got, a, s.n, 1)
		SetStrips32Host(old)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n=%d k=%d m=%d: c[%d] = %v, want %v", s.n, s.k, s.m, i, got[i], want[i])
			}
		}
		wantCalls := runtime.GOARCH == "wasm" && mul32Panel.strip != nil && s.n >= 4
		if (calls > 0) != wantCalls {
			t.Errorf("n=%d k=%d m=%d: host kernel called %d times (strip kernel %v)", s.n, s.k, s.m, calls, mul32Panel.strip != nil)
		}
	}
}
