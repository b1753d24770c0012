//go:build js && wasm

package jsbridge

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"ntkrf/core/linalg"
)

// installedKernels installs the hand-written kernels of the host, as the
// package's worker does; under Go's test runner they are there when
// ./build.sh preloads them (wasm/kernels/node-preload.cjs, which sets
// NTKRF_KERNELS_WASM), else the test is skipped. The Go kernels come back
// when the test ends.
func installedKernels(t *testing.T) linalg.Gram32Host {
	t.Helper()
	old := linalg.SetGram32Host(nil)
	names := InstallKernels()
	h := linalg.SetGram32Host(old)
	if len(names) == 0 || h == nil {
		if os.Getenv("NTKRF_KERNELS_WASM") != "" {
			t.Fatalf("NTKRF_KERNELS_WASM is set but globalThis.%s has no gram32", KernelsGlobal)
		}
		t.Skipf("no globalThis.%s: run under ./build.sh's wasm tests (NTKRF_KERNELS_WASM)", KernelsGlobal)
	}
	return h
}

// TestKernelsGram32 holds kernels.wasm's gram32 to its oracle in Go,
// linalg.Gram32HostGo, bit for bit, on blocks of every height from 1 to
// 256 rows and widths around its tiles (48 columns) and items (64 rows,
// 384 columns), with and without a start value in g.
func TestKernelsGram32(t *testing.T) {
	host := installedKernels(t)
	r := rand.New(rand.NewPCG(1, 1))
	for _, s := range []struct{ k, m int }{
		{1, 1}, {1, 7}, {2, 16}, {3, 47}, {4, 48}, {5, 49}, {7, 64}, {8, 95}, {13, 96},
		{31, 130}, {64, 383}, {100, 384}, {255, 385}, {256, 449}, {256, 1024}, {17, 768},
	} {
		t.Run(fmt.Sprintf("k=%d,m=%d", s.k, s.m), func(t *testing.T) {
			np := 3 * ((s.m + 47) / 48)
			pack := make([]float32, np*s.k*16)
			for p := range np {
				for l := range s.k {
					for c := range 16 {
						if p*16+c < s.m { // zero past column m, as pack32 leaves it
							pack[(p*s.k+l)*16+c] = float32(r.NormFloat64())
						}
					}
				}
			}
			got := make([]float64, s.m*s.m)
			for i := range got {
				got[i] = r.NormFloat64()
			}
			want := append([]float64(nil), got...)
			host(s.k, s.m, pack, got, make([]float64, 384))
			linalg.Gram32HostGo(s.k, s.m, pack, want, make([]float64, 384))
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("g[%d, %d] = %v, want %v", i/s.m, i%s.m, got[i], want[i])
				}
			}
		})
	}
}

// TestKernelsAddAtA32: linalg.AddAtA32 with the kernels installed hands
// them every block and gives the bits of the Go SIMD kernel.
func TestKernelsAddAtA32(t *testing.T) {
	host := installedKernels(t)
	if !linalg.Float32() {
		t.Skip("no float32 kernel in this build (GOEXPERIMENT=simd): AddAtA32 is AddAtA")
	}
	r := rand.New(rand.NewPCG(2, 2))
	for _, s := range []struct{ n, m int }{{1, 1}, {300, 5}, {600, 130}, {1000, 449}, {513, 768}} {
		a := make([]float64, s.n*s.m)
		for i := range a {
			a[i] = r.NormFloat64()
		}
		want := make([]float64, s.m*s.m)
		got := make([]float64, s.m*s.m)
		linalg.AddAtA32(want, a, s.n, s.m)
		calls := 0
		old := linalg.SetGram32Host(func(k, m int, pack []float32, g, scratch []float64) {
			calls++
			host(k, m, pack, g, scratch)
		})
		linalg.AddAtA32(got, a, s.n, s.m)
		linalg.SetGram32Host(old)
		if want := (s.n + 255) / 256; calls != want {
			t.Errorf("n=%d, m=%d: %d calls of the kernel, want one a block (%d)", s.n, s.m, calls, want)
		}
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("n=%d, m=%d: g[%d, %d] = %v, want %v", s.n, s.m, i/s.m, i%s.m, got[i], want[i])
			}
		}
	}
}
