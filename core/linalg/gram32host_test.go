package linalg

import (
	"fmt"
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
