//go:build js && wasm

package jsbridge

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"ntkrf/core/linalg"
	"ntkrf/internal/fixture"
)

// installedKernels installs the hand-written kernels of the host, as the
// package's worker does; under Go's test runner they are there when
// ./build.sh preloads them (wasm/kernels/node-preload.cjs, which sets
// NTKRF_KERNELS_WASM), else the test is skipped. The Go kernels come back
// when the test ends.
func installedKernels(t *testing.T) (linalg.Gram32Host, linalg.Gram64Host) {
	t.Helper()
	h, h64, _ := installedKernels3(t)
	return h, h64
}

// strips32, mul64, symv64, chase64 and gemm64 are the kernels of those names
// installedKernels3 found last.
var (
	strips32 linalg.Strips32Host
	mul64    linalg.Mul64Host
	symv64   linalg.Symv64Host
	chase64  linalg.Chase64Host
	gemm64   linalg.Gemm64Host
)

// noHosts uninstalls every host kernel and returns the function that puts
// them back.
func noHosts() (restore func()) {
	o32, o64, or, ost, om, osy := linalg.SetGram32Host(nil), linalg.SetGram64Host(nil), linalg.SetRect64Host(nil),
		linalg.SetStrips32Host(nil), linalg.SetMul64Host(nil), linalg.SetSymv64Host(nil)
	och, oge := linalg.SetChase64Host(nil), linalg.SetGemm64Host(nil)
	return func() {
		linalg.SetChase64Host(och)
		linalg.SetGemm64Host(oge)
		linalg.SetGram32Host(o32)
		linalg.SetGram64Host(o64)
		linalg.SetRect64Host(or)
		linalg.SetStrips32Host(ost)
		linalg.SetMul64Host(om)
		linalg.SetSymv64Host(osy)
	}
}

// installedKernels3 is installedKernels with the rect64 kernel too (and
// strips32, mul64, symv64, chase64 and gemm64 in the variables of those
// names).
func installedKernels3(t *testing.T) (linalg.Gram32Host, linalg.Gram64Host, linalg.Rect64Host) {
	t.Helper()
	restore := noHosts()
	names := InstallKernels()
	h, h64, hr := linalg.SetGram32Host(nil), linalg.SetGram64Host(nil), linalg.SetRect64Host(nil)
	strips32, mul64, symv64 = linalg.SetStrips32Host(nil), linalg.SetMul64Host(nil), linalg.SetSymv64Host(nil)
	chase64, gemm64 = linalg.SetChase64Host(nil), linalg.SetGemm64Host(nil)
	restore()
	if len(names) == 0 || h == nil || h64 == nil || hr == nil || strips32 == nil || mul64 == nil || symv64 == nil || chase64 == nil || gemm64 == nil {
		if os.Getenv("NTKRF_KERNELS_WASM") != "" {
			t.Fatalf("NTKRF_KERNELS_WASM is set but globalThis.%s lacks a kernel (installed: %v)", KernelsGlobal, names)
		}
		t.Skipf("no globalThis.%s: run under ./build.sh's wasm tests (NTKRF_KERNELS_WASM)", KernelsGlobal)
	}
	return h, h64, hr
}

// TestKernelsGram32 holds kernels.wasm's gram32 to its oracle in Go,
// linalg.Gram32HostGo, bit for bit, on blocks of every height from 1 to
// 256 rows and widths around its tiles (48 columns) and items (64 rows,
// 384 columns), with and without a start value in g.
func TestKernelsGram32(t *testing.T) {
	host, _ := installedKernels(t)
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
			// g and the scratch have 16 values past their ends that the
			// kernel, which checks no bounds, must leave alone.
			got := make([]float64, s.m*s.m+16)
			for i := range got {
				got[i] = r.NormFloat64()
			}
			want := append([]float64(nil), got...)
			scratch := make([]float64, linalg.Gram32HostScratch+16)
			for i := range scratch {
				scratch[i] = -1
			}
			host(s.k, s.m, pack, got[:s.m*s.m], scratch[:linalg.Gram32HostScratch])
			linalg.Gram32HostGo(s.k, s.m, pack, want[:s.m*s.m], make([]float64, linalg.Gram32HostScratch))
			for i, v := range scratch[linalg.Gram32HostScratch:] {
				if v != -1 {
					t.Fatalf("the kernel wrote %v past its scratch (+%d)", v, i)
				}
			}
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
	host, _ := installedKernels(t)
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

// BenchmarkGram32_N2000_M1024 times linalg.AddAtA32 (n = 2000, m = 1024)
// on the Go SIMD kernel and on kernels.wasm's gram32, in one binary
// (bench/wasm-kernels.mjs runs it side by side), in GFLOP/s of the n·m·(m+1)
// flops of the upper triangle.
func BenchmarkGram32_N2000_M1024(b *testing.B) {
	const n, m = 2000, 1024
	host, old64 := linalg.SetGram32Host(nil), linalg.SetGram64Host(nil)
	defer linalg.SetRect64Host(linalg.SetRect64Host(nil))
	defer linalg.SetStrips32Host(linalg.SetStrips32Host(nil))
	defer linalg.SetMul64Host(linalg.SetMul64Host(nil))
	defer linalg.SetSymv64Host(linalg.SetSymv64Host(nil))
	if host == nil {
		if names := InstallKernels(); len(names) > 0 {
			host = linalg.SetGram32Host(nil)
		}
	}
	linalg.SetGram64Host(old64)
	defer linalg.SetGram32Host(host)
	r := rand.New(rand.NewPCG(3, 3))
	a := make([]float64, n*m)
	for i := range a {
		a[i] = r.NormFloat64()
	}
	g := make([]float64, m*m)
	for _, k := range []struct {
		name string
		host linalg.Gram32Host
	}{{"go-simd", nil}, {"wat", host}} {
		b.Run(k.name, func(b *testing.B) {
			if k.name == "wat" && host == nil {
				b.Skip("no kernels.wasm (NTKRF_KERNELS_WASM)")
			}
			linalg.SetGram32Host(k.host)
			defer linalg.SetGram32Host(nil)
			for b.Loop() {
				linalg.AddAtA32(g, a, n, m)
			}
			b.ReportMetric(float64(n)*m*(m+1)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// TestKernelsGram64 holds kernels.wasm's gram64 to linalg.Gram64HostGo
// bit for bit, on blocks of 1 to 256 rows, widths around its tiles (24
// columns) and items (64 rows, 192 columns), g a block of a wider matrix
// (ldg > m), and left and right panels apart or the same.
func TestKernelsGram64(t *testing.T) {
	_, host := installedKernels(t)
	r := rand.New(rand.NewPCG(4, 4))
	for _, s := range []struct{ k, m, ldg int }{
		{1, 1, 1}, {1, 7, 9}, {2, 8, 8}, {3, 23, 30}, {4, 24, 24}, {5, 25, 27}, {7, 64, 64}, {8, 95, 100},
		{13, 96, 96}, {31, 130, 131}, {64, 191, 200}, {100, 192, 192}, {255, 193, 193}, {256, 449, 451}, {256, 700, 700},
	} {
		for _, same := range []bool{true, false} {
			t.Run(fmt.Sprintf("k=%d,m=%d,ldg=%d,same=%v", s.k, s.m, s.ldg, same), func(t *testing.T) {
				np := (s.m + 7) / 8
				panels := func() []float64 {
					p := make([]float64, (np+2)*s.k*8)
					for q := range np {
						for l := range s.k {
							for c := range 8 {
								if q*8+c < s.m {
									p[(q*s.k+l)*8+c] = r.NormFloat64()
								}
							}
						}
					}
					return p
				}
				left := panels()
				right := left
				if !same {
					right = panels()
				}
				n := (s.m-1)*s.ldg + s.m
				got := make([]float64, n+16)
				for i := range got {
					got[i] = r.NormFloat64()
				}
				want := append([]float64(nil), got...)
				scratch := make([]float64, 192+16)
				for i := range scratch {
					scratch[i] = -1
				}
				host(s.k, s.m, s.ldg, left, right, got[:n], scratch[:192])
				linalg.Gram64HostGo(s.k, s.m, s.ldg, left, right, want[:n], make([]float64, 192))
				for i, v := range scratch[192:] {
					if v != -1 {
						t.Fatalf("the kernel wrote %v past its scratch (+%d)", v, i)
					}
				}
				for i := range got {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("g[%d] = %v, want %v", i, got[i], want[i])
					}
				}
			})
		}
	}
}

// BenchmarkGram64_N2000_M1024 times linalg.AddAtA (n = 2000, m = 1024) on
// the Go SIMD kernel and on kernels.wasm's gram64, as the float32 one.
func BenchmarkGram64_N2000_M1024(b *testing.B) {
	const n, m = 2000, 1024
	old32, host := linalg.SetGram32Host(nil), linalg.SetGram64Host(nil)
	defer linalg.SetRect64Host(linalg.SetRect64Host(nil))
	defer linalg.SetStrips32Host(linalg.SetStrips32Host(nil))
	defer linalg.SetMul64Host(linalg.SetMul64Host(nil))
	defer linalg.SetSymv64Host(linalg.SetSymv64Host(nil))
	if host == nil {
		if names := InstallKernels(); len(names) > 0 {
			host = linalg.SetGram64Host(nil)
		}
	}
	linalg.SetGram32Host(old32)
	defer linalg.SetGram64Host(host)
	r := rand.New(rand.NewPCG(3, 3))
	a := make([]float64, n*m)
	for i := range a {
		a[i] = r.NormFloat64()
	}
	g := make([]float64, m*m)
	for _, k := range []struct {
		name string
		host linalg.Gram64Host
	}{{"go-simd", nil}, {"wat", host}} {
		b.Run(k.name, func(b *testing.B) {
			if k.name == "wat" && host == nil {
				b.Skip("no kernels.wasm (NTKRF_KERNELS_WASM)")
			}
			linalg.SetGram64Host(k.host)
			defer linalg.SetGram64Host(nil)
			for b.Loop() {
				linalg.AddAtA(g, a, n, m)
			}
			b.ReportMetric(float64(n)*m*(m+1)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// TestKernelsRect64 holds kernels.wasm's rect64 to linalg.Rect64HostGo
// bit for bit, on blocks of 1 to 256 rows and shapes around its tiles (8
// rows, 24 columns), x a block of a wider matrix.
func TestKernelsRect64(t *testing.T) {
	_, _, host := installedKernels3(t)
	r := rand.New(rand.NewPCG(5, 5))
	for _, s := range []struct{ k, rows, cols, ldx, n int }{
		{1, 1, 1, 1, 1}, {3, 4, 23, 30, 5}, {7, 8, 24, 24, 9}, {13, 13, 25, 40, 13}, {64, 64, 96, 200, 70},
		{100, 17, 47, 47, 100}, {255, 64, 191, 300, 256}, {256, 63, 240, 240, 300},
	} {
		t.Run(fmt.Sprintf("k=%d,rows=%d,cols=%d", s.k, s.rows, s.cols), func(t *testing.T) {
			np := (s.rows + 7) / 8
			ps := s.n * 8 // left panels of n ≥ k rows, as symmLeft's
			left := make([]float64, np*ps)
			for i := range left {
				left[i] = r.NormFloat64()
			}
			right := make([]float64, (s.cols+23)/24*3*s.k*8)
			for i := range right {
				right[i] = r.NormFloat64()
			}
			n := (s.rows-1)*s.ldx + s.cols
			got := make([]float64, n+16)
			for i := range got {
				got[i] = r.NormFloat64()
			}
			want := append([]float64(nil), got...)
			scratch := make([]float64, 192+16)
			for i := range scratch {
				scratch[i] = -1
			}
			host(s.k, s.rows, s.cols, left, ps, right, got[:n], s.ldx, scratch[:192])
			linalg.Rect64HostGo(s.k, s.rows, s.cols, left, ps, right, want[:n], s.ldx, make([]float64, 192))
			for i, v := range scratch[192:] {
				if v != -1 {
					t.Fatalf("the kernel wrote %v past its scratch (+%d)", v, i)
				}
			}
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("x[%d] = %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}

// TestKernelsMul64 holds kernels.wasm's mul64 to linalg.Mul64HostGo bit
// for bit, on shapes around its blocks (4×4) and strips (128 columns),
// rows from an offset i0, and checks that it writes nothing outside its
// rows of c.
func TestKernelsMul64(t *testing.T) {
	installedKernels3(t)
	host := mul64
	r := rand.New(rand.NewPCG(9, 9))
	for _, s := range []struct{ i0, i1, k, m int }{
		{0, 1, 1, 1}, {0, 1, 1, 2}, {0, 3, 2, 3}, {0, 4, 1, 4}, {0, 4, 4, 4}, {1, 6, 5, 5}, {0, 7, 3, 6}, {2, 9, 8, 7},
		{0, 8, 9, 8}, {3, 16, 13, 17}, {0, 32, 634, 634}, {5, 263, 32, 634}, {0, 130, 130, 129}, {4, 40, 64, 131},
		{0, 12, 100, 256}, {0, 11, 7, 257},
	} {
		t.Run(fmt.Sprintf("i0=%d,i1=%d,k=%d,m=%d", s.i0, s.i1, s.k, s.m), func(t *testing.T) {
			a := make([]float64, s.i1*s.k)
			for i := range a {
				a[i] = r.NormFloat64()
			}
			a[len(a)/2] = math.Copysign(0, -1) // −0·x: the sums start from +0 as mulPortable's
			b := make([]float64, s.k*s.m)
			for i := range b {
				b[i] = r.NormFloat64() * math.Ldexp(1, r.IntN(60)-30)
			}
			n := s.i1*s.m + 16
			got := make([]float64, n)
			for i := range got {
				got[i] = r.NormFloat64()
			}
			want := append([]float64(nil), got...)
			host(got[:s.i1*s.m], a, b, s.i0, s.i1, s.k, s.m)
			linalg.Mul64HostGo(want[:s.i1*s.m], a, b, s.i0, s.i1, s.k, s.m)
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("c[%d, %d] = %v, want %v", i/s.m, i%s.m, got[i], want[i])
				}
			}
		})
	}
}

// TestKernelsMul: linalg.Mul with the kernels installed gives the bits of
// the Go kernels, products too small for a call through JavaScript
// included.
func TestKernelsMul(t *testing.T) {
	installedKernels3(t)
	r := rand.New(rand.NewPCG(10, 10))
	for _, s := range []struct{ n, k, m int }{{1, 1, 1}, {3, 5, 7}, {30, 30, 30}, {634, 634, 120}, {255, 32, 634}} {
		a := make([]float64, s.n*s.k)
		for i := range a {
			a[i] = r.NormFloat64()
		}
		b := make([]float64, s.k*s.m)
		for i := range b {
			b[i] = r.NormFloat64()
		}
		want := make([]float64, s.n*s.m)
		linalg.Mul(want, a, b, s.n, s.k, s.m)
		calls := 0
		old := linalg.SetMul64Host(func(c, a, b []float64, i0, i1, k, m int) {
			calls++
			mul64(c, a, b, i0, i1, k, m)
		})
		got := make([]float64, s.n*s.m)
		linalg.Mul(got, a, b, s.n, s.k, s.m)
		linalg.SetMul64Host(old)
		if big := s.n*s.k*s.m >= 1<<14; big != (calls > 0) {
			t.Errorf("n=%d, k=%d, m=%d: %d calls of the kernel", s.n, s.k, s.m, calls)
		}
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("n=%d, k=%d, m=%d: c[%d] = %v, want %v", s.n, s.k, s.m, i, got[i], want[i])
			}
		}
	}
}

// TestKernelsSymv64 holds kernels.wasm's symv64 to linalg.Symv64HostGo
// bit for bit, on row ranges of triangles whose rows' lengths pass through
// every remainder of its fours.
func TestKernelsSymv64(t *testing.T) {
	installedKernels3(t)
	host := symv64
	r := rand.New(rand.NewPCG(12, 12))
	for _, s := range []struct{ m, lo, r0, r1 int }{
		{1, 0, 0, 1}, {2, 0, 0, 2}, {5, 1, 1, 5}, {9, 2, 4, 9}, {13, 0, 0, 13}, {64, 3, 10, 40}, {300, 17, 17, 300}, {634, 0, 100, 634},
	} {
		t.Run(fmt.Sprintf("m=%d,lo=%d,r0=%d,r1=%d", s.m, s.lo, s.r0, s.r1), func(t *testing.T) {
			a := make([]float64, s.m*s.m)
			for i := range a {
				a[i] = r.NormFloat64()
			}
			n := s.m - s.lo
			x := make([]float64, n)
			for i := range x {
				x[i] = r.NormFloat64() * math.Ldexp(1, r.IntN(40)-20)
			}
			got := make([]float64, n+4)
			for i := range got {
				got[i] = r.NormFloat64()
			}
			want := append([]float64(nil), got...)
			host(got[:n], a, s.m, s.lo, s.r0, s.r1, x)
			linalg.Symv64HostGo(want[:n], a, s.m, s.lo, s.r0, s.r1, x)
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("y[%d] = %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}

// TestKernelsGemm64 holds kernels.wasm's gemm64 to linalg.Gemm64HostGo
// bit for bit: products set and added to c, strides wider than the rows,
// rows and columns of every remainder of its 4×4 blocks and past a strip
// of 128 columns.
func TestKernelsGemm64(t *testing.T) {
	installedKernels3(t)
	host := gemm64
	r := rand.New(rand.NewPCG(15, 15))
	for _, s := range []struct{ n, k, m, pad int }{
		{1, 1, 1, 0}, {2, 3, 3, 1}, {4, 4, 4, 0}, {5, 7, 6, 2}, {7, 64, 9, 3}, {64, 64, 256, 0}, {33, 17, 130, 5}, {256, 64, 64, 64},
	} {
		for _, add := range []bool{false, true} {
			t.Run(fmt.Sprintf("n=%d,k=%d,m=%d,pad=%d,add=%v", s.n, s.k, s.m, s.pad, add), func(t *testing.T) {
				lda, ldb, ldc := s.k+s.pad, s.m+2*s.pad, s.m+3*s.pad
				a := make([]float64, s.n*lda)
				b := make([]float64, s.k*ldb)
				for i := range a {
					a[i] = r.NormFloat64()
				}
				for i := range b {
					b[i] = r.NormFloat64() * math.Ldexp(1, r.IntN(40)-20)
				}
				got := make([]float64, s.n*ldc)
				for i := range got {
					got[i] = r.NormFloat64()
				}
				want := append([]float64(nil), got...)
				host(got, ldc, a, lda, b, ldb, s.n, s.k, s.m, add)
				linalg.Gemm64HostGo(want, ldc, a, lda, b, ldb, s.n, s.k, s.m, add)
				for i := range got {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("c[%d] = %v, want %v", i, got[i], want[i])
					}
				}
			})
		}
	}
}

// TestKernelsChase64 holds kernels.wasm's chase64 to linalg.Chase64HostGo
// bit for bit: bands of width 1 to 64 on orders where the last block of a
// sweep is full, short or a single entry, rows of every remainder of the
// dot product's fours, some τ zero (skipped), values across 2⁴⁰.
func TestKernelsChase64(t *testing.T) {
	installedKernels3(t)
	host := chase64
	r := rand.New(rand.NewPCG(13, 13))
	for _, s := range []struct{ m, nb, rows int }{
		{3, 1, 1}, {4, 2, 3}, {5, 3, 2}, {9, 4, 5}, {10, 8, 4}, {17, 16, 7}, {67, 16, 32}, {130, 64, 28}, {300, 64, 3}, {129, 5, 9},
	} {
		t.Run(fmt.Sprintf("m=%d,nb=%d,rows=%d", s.m, s.nb, s.rows), func(t *testing.T) {
			a := make([]float64, s.m*s.m)
			for i := range a {
				a[i] = r.NormFloat64()
			}
			tau := make([]float64, linalg.ChaseTaus(s.m, s.nb))
			for i := range tau {
				if r.IntN(5) > 0 {
					tau[i] = r.Float64() * 2
				}
			}
			got := make([]float64, s.rows*s.m+3) // a few values past the rows, which stay
			for i := range got {
				got[i] = r.NormFloat64() * math.Ldexp(1, r.IntN(40)-20)
			}
			want := append([]float64(nil), got...)
			host(s.m, s.nb, a, tau, got, s.rows)
			linalg.Chase64HostGo(s.m, s.nb, a, tau, want, s.rows)
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("xt[%d] = %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}

// TestKernelsApplyQ: the λ search's application of Q (linalg.Reduce's
// ApplyQ: Q₁'s panels on mul64, Q₂'s chase on chase64, in groups of
// columns) has with every kernel of kernels.wasm the bits of the Go
// kernels, at an order past the two-stage reduction's threshold and a
// number of columns that makes groups of unequal size.
func TestKernelsApplyQ(t *testing.T) {
	installedKernels3(t)
	defer noHosts()()
	const m, cols = 600, 45
	r := rand.New(rand.NewPCG(14, 14))
	x := make([]float64, 2*m*m)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	a := make([]float64, m*m)
	linalg.AddAtA(a, x, 2*m, m)
	for i := range m {
		for j := range i {
			a[i*m+j] = a[j*m+i]
		}
	}
	w := make([]float64, m*cols)
	for i := range w {
		w[i] = r.NormFloat64()
	}
	apply := func(hosts bool) []float64 {
		noHosts()
		if hosts {
			InstallKernels()
		}
		red, _ := linalg.Reduce(append([]float64(nil), a...), m, nil, 0, nil)
		out := append([]float64(nil), w...)
		red.ApplyQ(out, cols)
		return out
	}
	want, got := apply(false), apply(true)
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("Qx[%d] = %v with the kernels, %v without", i, got[i], want[i])
		}
	}
}

// BenchmarkReduceQ_M634 times linalg.ReduceQ (the exact leave-one-out's
// reduction with Q formed: its products on Mul) at the Vehicle table's
// 634 training rows, on the Go SIMD kernels and on kernels.wasm's.
func BenchmarkReduceQ_M634(b *testing.B) {
	benchKernels(b, 634, func(a []float64, m int) { linalg.ReduceQ(a, m, nil) }, 0)
}

// BenchmarkMul times linalg.Mul on the Go SIMD kernel and on
// kernels.wasm's mul64, in GFLOP/s, at the shapes of the exact
// leave-one-out at the Vehicle table's 634 training rows: looTridiag's
// residuals (Q̃ by 30 λ × 4 classes) and applyReflectors' VᵀR and V·Y.
func BenchmarkMul(b *testing.B) {
	for _, s := range []struct{ n, k, m int }{{634, 634, 120}, {32, 634, 634}, {256, 32, 634}} {
		b.Run(fmt.Sprintf("%dx%dx%d", s.n, s.k, s.m), func(b *testing.B) {
			r := rand.New(rand.NewPCG(11, 11))
			x := make([]float64, s.n*s.k+s.k*s.m)
			for i := range x {
				x[i] = r.NormFloat64()
			}
			c := make([]float64, s.n*s.m)
			benchKernels(b, 8, func([]float64, int) { linalg.Mul(c, x[:s.n*s.k], x[s.n*s.k:], s.n, s.k, s.m) }, float64(2*s.n*s.k*s.m))
		})
	}
}

// BenchmarkReduce_M1024 and BenchmarkCholesky_M1024 time the λ search's
// reduction (linalg.Reduce, two-stage: rank-2k updates on gram64, VᵀA₂₂
// on rect64) and the final Cholesky (trailing updates on gram64) of a
// 1024×1024 Gram-like matrix, on the Go SIMD kernels and with every
// kernel of kernels.wasm installed.
func BenchmarkReduce_M1024(b *testing.B) {
	benchKernels(b, 1024, func(a []float64, m int) { linalg.Reduce(a, m, nil, 0, nil) }, 0)
}

// BenchmarkApplyQ_M1024 times the λ search's application of Q
// (Reduction.ApplyQ: Q₁'s panels, then the bulge chase's reflectors) to
// the held-out bracket's 112 columns at m = 1024, on the Go kernels and
// with every kernel of kernels.wasm installed (mul64, chase64).
func BenchmarkApplyQ_M1024(b *testing.B) {
	const m, cols = 1024, 112
	defer noHosts()()
	r := rand.New(rand.NewPCG(16, 16))
	x := make([]float64, 2*m*m)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	a := make([]float64, m*m)
	linalg.AddAtA(a, x, 2*m, m)
	for i := range m {
		for j := range i {
			a[i*m+j] = a[j*m+i]
		}
	}
	red, _ := linalg.Reduce(a, m, nil, 0, nil)
	w0 := make([]float64, m*cols)
	for i := range w0 {
		w0[i] = r.NormFloat64()
	}
	w := make([]float64, m*cols)
	for _, name := range []string{"go-simd", "wat"} {
		b.Run(name, func(b *testing.B) {
			noHosts()
			if name == "wat" && len(InstallKernels()) == 0 {
				b.Skip("no kernels.wasm (NTKRF_KERNELS_WASM)")
			}
			for b.Loop() {
				copy(w, w0)
				red.ApplyQ(w, cols)
			}
		})
	}
}

func BenchmarkCholesky_M1024(b *testing.B) {
	benchKernels(b, 1024, func(a []float64, m int) {
		if err := linalg.Cholesky(a, m); err != nil {
			b.Fatal(err)
		}
	}, 0)
}

// benchKernels runs op on a copy of an m×m positive definite matrix, on
// the Go kernels and on kernels.wasm's, reporting GFLOP/s when flops > 0.
func benchKernels(b *testing.B, m int, op func(a []float64, m int), flops float64) {
	defer noHosts()()
	r := rand.New(rand.NewPCG(6, 6))
	x := make([]float64, 2*m*m)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	a0 := make([]float64, m*m)
	linalg.AddAtA(a0, x, 2*m, m) // upper triangle of XᵀX, positive definite
	for i := range m {
		for j := range i {
			a0[i*m+j] = a0[j*m+i]
		}
	}
	a := make([]float64, m*m)
	for _, name := range []string{"go-simd", "wat"} {
		b.Run(name, func(b *testing.B) {
			noHosts()
			if name == "wat" && len(InstallKernels()) == 0 {
				b.Skip("no kernels.wasm (NTKRF_KERNELS_WASM)")
			}
			for b.Loop() {
				copy(a, a0)
				op(a, m)
			}
			if flops > 0 {
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			}
		})
	}
}

// TestKernelsStrips32 holds kernels.wasm's strips32 to
// linalg.Strips32HostGo bit for bit, on widths around its strips (8
// columns) and depths 1 to 784.
func TestKernelsStrips32(t *testing.T) {
	installedKernels3(t)
	host := strips32
	r := rand.New(rand.NewPCG(7, 7))
	for _, s := range []struct{ k, m, rows int }{{1, 1, 4}, {3, 7, 4}, {5, 8, 8}, {13, 9, 12}, {100, 130, 16}, {784, 257, 8}} {
		t.Run(fmt.Sprintf("k=%d,m=%d,rows=%d", s.k, s.m, s.rows), func(t *testing.T) {
			a := make([]float32, s.rows*s.k)
			for i := range a {
				a[i] = float32(r.NormFloat64())
			}
			bp := make([]float32, (s.m+7)/8*s.k*8)
			for i := range bp {
				bp[i] = float32(r.NormFloat64())
			}
			got := make([]float32, s.rows*s.m+16)
			for i := range got {
				got[i] = -1
			}
			want := append([]float32(nil), got...)
			host(s.k, s.m, s.rows, a, bp, got[:s.rows*s.m], make([]float32, 32))
			linalg.Strips32HostGo(s.k, s.m, s.rows, a, bp, want[:s.rows*s.m], make([]float32, 32))
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("c[%d] = %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}

// BenchmarkWeights32_N1024_K784_M2048 times the features' projection
// (linalg.Weights32.Mul, Fashion-MNIST's 784 inputs to 2048 columns) on
// the Go SIMD kernel and with kernels.wasm, in GFLOP/s of 2·n·k·m.
func BenchmarkWeights32_N1024_K784_M2048(b *testing.B) {
	const n, k, m = 1024, 784, 2048
	r := rand.New(rand.NewPCG(8, 8))
	w := make([]float32, k*m)
	for i := range w {
		w[i] = float32(r.NormFloat64())
	}
	a := make([]float32, n*k)
	for i := range a {
		a[i] = float32(r.NormFloat64())
	}
	pw := linalg.NewWeights32(w, k, m)
	c := make([]float32, n*m)
	benchKernels(b, 8, func([]float64, int) { pw.Mul(c, a, n, 1) }, 2*n*k*m)
}

// BenchmarkSymv64 times one symmetric product of the one-stage reduction
// at m = 634 (all rows) in Go (dotAxpySIMD a row) and on kernels.wasm's
// symv64, in GFLOP/s of its m² multiply-adds.
func BenchmarkSymv64(b *testing.B) {
	const m = 634
	r := rand.New(rand.NewPCG(13, 13))
	a, x, y := make([]float64, m*m), make([]float64, m), make([]float64, m)
	for i := range a {
		a[i] = r.NormFloat64()
	}
	for i := range x {
		x[i] = r.NormFloat64()
	}
	var host linalg.Symv64Host
	func() {
		defer noHosts()()
		if len(InstallKernels()) > 0 {
			host = linalg.SetSymv64Host(nil)
		}
	}()
	for _, k := range []struct {
		name string
		f    linalg.Symv64Host
	}{{"go-simd", linalg.Symv64HostGo}, {"wat", host}} {
		b.Run(k.name, func(b *testing.B) {
			if k.f == nil {
				b.Skip("no kernels.wasm (NTKRF_KERNELS_WASM)")
			}
			for b.Loop() {
				k.f(y, a, m, 0, 0, m, x)
			}
			b.ReportMetric(2*m*m*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// TestKernelsCholeskyShared: the factorization shared with a helper
// (linalg.CholeskyShared: the helper's panels and this side's on
// kernels.wasm's rect64 and gram64) has the bits of one instance's
// (addAtA over the trailing matrix on gram64), and of the Go kernels'.
func TestKernelsCholeskyShared(t *testing.T) {
	installedKernels3(t)
	restore := noHosts()
	InstallKernels()
	defer restore()
	m := linalg.ShareMin + 293
	r := rand.New(rand.NewPCG(6, 6))
	x := make([]float64, (m+2)*m)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	a := make([]float64, m*m)
	linalg.AddAtA(a, x, m+2, m)
	for i := range m {
		a[i*m+i]++
	}
	one := append([]float64(nil), a...)
	if err := linalg.Cholesky(one, m); err != nil {
		t.Fatal(err)
	}
	solver, helper := fixture.Pipes()
	done := make(chan error, 1)
	go func() { done <- linalg.ServeCholesky(helper) }()
	shared := append([]float64(nil), a...)
	if err := linalg.CholeskyShared(shared, m, solver); err != nil {
		t.Fatal(err)
	}
	_ = linalg.EndShare(solver)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	goKernels := append([]float64(nil), a...)
	noHosts()
	if err := linalg.Cholesky(goKernels, m); err != nil {
		t.Fatal(err)
	}
	for i := range one {
		if math.Float64bits(shared[i]) != math.Float64bits(one[i]) {
			t.Fatalf("shared: a[%d] = %v, one instance %v", i, shared[i], one[i])
		}
		if math.Float64bits(goKernels[i]) != math.Float64bits(one[i]) {
			t.Fatalf("Go kernels: a[%d] = %v, kernels.wasm %v", i, goKernels[i], one[i])
		}
	}
}
