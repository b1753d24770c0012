package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"
)

// syntheticChase fills a chaseLog for an m×m matrix and band half-width
// nb with random reflectors (v[0] = 1, τ = 2/‖v‖², every seventh τ zero),
// as sb2st would: what applyChaseQ reads, without running a chase.
func syntheticChase(r *rand.Rand, m, nb int) (a, tau2 []float64) {
	a = make([]float64, m*m)
	g := newChaseLog(a, m, nb)
	for s := range max(m-2, 0) {
		n1 := min(nb, m-1-s)
		i0, n := s+1, n1
		for j := range g.blocks[s] {
			v := randFloats(r, n)
			v[0] = 1
			tau := 2 / dot(v, v)
			if (s+j)%7 == 3 {
				tau = 0
			}
			g.put(s, j, i0, v, tau)
			i0 += n
			n = min(nb, m-i0)
		}
	}
	return a, g.tau
}

// TestChaseQWY checks applyChaseQWY, the chase's reflectors grouped in
// compact WY blocks on the in-place tile kernel, against applyChaseQEach
// (one reflector at a time, the definition), on every in-place kernel of
// the build and on tileStrideRef:
// for band half-widths below, at and above chaseWY and orders that leave
// a partial window and short blocks at the end, on reflectors logged by a
// real reduction (Reduce at m = 600) and synthetic ones with zero τ.
// Orthogonal products of m²/(2nb) reflectors: the two agree to a few
// hundred ε of ‖x‖ (a dropped or misplaced reflector, a wrong τ or T is
// off by O(1)). And its bits do not depend on GOMAXPROCS (1, 2, 3) nor
// on the columns beside a column. Not parallel: it sets GOMAXPROCS.
func TestChaseQWY(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	type chase struct {
		name   string
		m, nb  int
		a, tau []float64
	}
	var cases []chase
	for _, c := range []struct{ m, nb int }{{3, 2}, {20, 4}, {50, 8}, {90, 16}, {130, 24}, {301, 64}} {
		a, tau := syntheticChase(r, c.m, c.nb)
		cases = append(cases, chase{fmt.Sprintf("synthetic_m%d_nb%d", c.m, c.nb), c.m, c.nb, a, tau})
	}
	{
		const m = 600
		phi := randFloats(r, (m+5)*m)
		g := make([]float64, m*m)
		AddAtA(g, phi, m+5, m)
		red, _ := Reduce(g, m, randFloats(r, m), 1, nil)
		cases = append(cases, chase{"reduce_m600", m, red.nb, red.a, red.tau2})
	}
	for _, ks := range strideKernels() {
		for _, c := range cases {
			for _, l := range []int{1, 5, 24, 50, 112} {
				t.Run(fmt.Sprintf("%s_%s_l%d", ks.name, c.name, l), func(t *testing.T) {
					x0 := randFloats(r, c.m*l)
					want := slices.Clone(x0)
					applyChaseQEach(c.a, c.m, c.nb, c.tau, want, l)
					run := func(p int) []float64 {
						runtime.GOMAXPROCS(p)
						got := slices.Clone(x0)
						applyChaseQWY(ks.kern, c.a, c.m, c.nb, c.tau, got, l)
						return got
					}
					got := run(1)
					for j := range l {
						norm := 0.0
						for i := range c.m {
							norm = math.Hypot(norm, x0[i*l+j])
						}
						for i := range c.m {
							if d := math.Abs(got[i*l+j] - want[i*l+j]); d > 500*0x1p-52*norm {
								t.Fatalf("(%d, %d) = %.17g, one at a time %.17g", i, j, got[i*l+j], want[i*l+j])
							}
						}
					}
					for _, p := range []int{2, 3} {
						if !slices.Equal(run(p), got) {
							t.Errorf("GOMAXPROCS %d and 1 give different bits", p)
						}
					}
					runtime.GOMAXPROCS(procs)
					for _, j := range []int{0, l / 2, l - 1} {
						xj := make([]float64, c.m)
						for i := range c.m {
							xj[i] = x0[i*l+j]
						}
						applyChaseQWY(ks.kern, c.a, c.m, c.nb, c.tau, xj, 1)
						for i := range c.m {
							if math.Float64bits(xj[i]) != math.Float64bits(got[i*l+j]) {
								t.Fatalf("column %d alone: (%d) = %.17g, among all %.17g", j, i, xj[i], got[i*l+j])
							}
						}
					}
				})
			}
		}
	}
}

// BenchmarkChaseQWY_M4096_L112 times Q₂ (the chase's reflectors, as the
// λ search applies them to its bracket's 112 padded columns at m = 4096)
// one reflector at a time (applyChaseQEach) and in compact WY blocks on
// the AddAtA kernel (applyChaseQWY), alternately on the same synthetic
// reflectors (the order swapped every round): s-each, s-wy, their CPU
// seconds and the ratios wy/each.
func BenchmarkChaseQWY_M4096_L112(b *testing.B) {
	m, l := envInt("NTKRF_BENCH_M", 4096), 112
	r := rand.New(rand.NewPCG(5, 6))
	a, tau := syntheticChase(r, m, bandWidth)
	x0 := randFloats(r, m*l)
	x := make([]float64, len(x0))
	// Without an in-place kernel (noasm, WebAssembly) applyChaseQ runs one
	// reflector at a time: the reference kernel then stands in.
	kern := tileStride
	if kern == nil {
		kern = tileStrideRef
	}
	wy := func(a []float64, m, nb int, tau2 []float64, x []float64, l int) {
		applyChaseQWY(kern, a, m, nb, tau2, x, l)
	}
	var wall, cpu [2]float64
	fs := []func(a []float64, m, nb int, tau2 []float64, x []float64, l int){applyChaseQEach, wy}
	for it := 0; b.Loop(); it++ {
		for o := range 2 { // the order swapped every round
			v := o ^ it&1
			f := fs[v]
			copy(x, x0)
			t0, u0 := time.Now(), cpuSeconds()
			f(a, m, bandWidth, tau, x, l)
			wall[v] += time.Since(t0).Seconds()
			cpu[v] += cpuSeconds() - u0
		}
	}
	n := float64(b.N)
	b.ReportMetric(wall[0]/n, "s-each")
	b.ReportMetric(wall[1]/n, "s-wy")
	b.ReportMetric(cpu[0]/n, "cpu-each")
	b.ReportMetric(cpu[1]/n, "cpu-wy")
	b.ReportMetric(wall[1]/wall[0], "wy/each")
	if cpu[0] > 0 {
		b.ReportMetric(cpu[1]/cpu[0], "cpu-wy/each")
	}
}

// tileStrideRef is tileStrideFunc by its definition: each entry's k
// products summed from zero in order, then added to c.
func tileStrideRef(k int, a, b []float64, ldb int, c []float64, ldc int) {
	for r := range tileR {
		for j := range tileC {
			s := 0.0
			for l := range k {
				s += a[l*panelW+r] * b[l*ldb+j]
			}
			c[r*ldc+j] += s
		}
	}
}

type strideKernel struct {
	name string
	kern tileStrideFunc
}

// strideKernels lists the in-place tile kernels of this build and the
// reference.
func strideKernels() []strideKernel {
	ks := []strideKernel{{"ref", tileStrideRef}}
	if tileStride != nil {
		ks = append(ks, strideKernel{"asm", tileStride})
	}
	return ks
}

// TestTileStride checks the in-place tile kernel: on b read in place
// (rows ldb apart) it gives the bits the packed kernel of the same CPU
// (tileAVX2) gives on b packed, for k from 1 to past kc and strides wider
// than the tile, and it writes nothing of c outside the tile; the
// reference against the definition to the rounding of k terms.
func TestTileStride(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	for _, ks := range strideKernels() {
		for _, k := range []int{1, 2, 7, 80, 300} {
			for _, ldb := range []int{tileC, 61, 144} {
				t.Run(fmt.Sprintf("%s_k%d_ldb%d", ks.name, k, ldb), func(t *testing.T) {
					const ldc = 31
					a := randFloats(r, k*panelW)
					b := randFloats(r, (k-1)*ldb+tileC)
					c0 := randFloats(r, tileR*ldc)
					got := slices.Clone(c0)
					ks.kern(k, a, b, ldb, got, ldc)
					// The same block packed: three right panels of k rows.
					bp := make([]float64, 3*k*panelW)
					packPanels(bp, b, ldb, k, 0, tileC, 3, false)
					want := slices.Clone(c0)
					packed := packedTwin(ks.name)
					packed(k, a, bp, k*panelW, want, ldc)
					for i := range got {
						r, j := i/ldc, i%ldc
						if j >= tileC || r >= tileR {
							if got[i] != c0[i] {
								t.Fatalf("c[%d][%d] outside the tile was written", r, j)
							}
							continue
						}
						if ks.name == "asm" {
							if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
								t.Fatalf("c[%d][%d] = %.17g, packed %.17g", r, j, got[i], want[i])
							}
							continue
						}
						bound := math.Abs(c0[i])
						for l := range k {
							bound += math.Abs(a[l*panelW+r] * b[l*ldb+j])
						}
						if d := math.Abs(got[i] - want[i]); d > 4*float64(k+2)*0x1p-53*bound {
							t.Fatalf("c[%d][%d] = %.17g, packed %.17g", r, j, got[i], want[i])
						}
					}
				})
			}
		}
	}
}
