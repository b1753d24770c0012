package linalg

import (
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

var sink float64

func BenchmarkAddAtA_N2000_M1024(b *testing.B) { benchAddAtA(b, 2000, 1024, true) }
func BenchmarkAddAtA_N8000_M1024(b *testing.B) { benchAddAtA(b, 8000, 1024, true) }

// BenchmarkAddAtA_N20000_M4096 is the Gram step of the REFERENCE.md
// pipeline; gonum would take minutes per call here, so it is left out.
// Note -bench=AddAtA_N2000 matches this one too; use AddAtA_N2000_.
func BenchmarkAddAtA_N20000_M4096(b *testing.B) { benchAddAtA(b, 20000, 4096, false) }

// benchAddAtA times every kernel this build has and, with gonum set,
// gonum's Syrk and Gemm on the same A. Two rates are reported from the same
// time:
// GFLOP/s-tri counts the useful flops of the upper triangle, n·m·(m+1);
// GFLOP/s-gemm credits a full AᵀA product, 2·n·m², the convention of the
// PyTorch and gonum Gemm figures in REFERENCE.md.
func benchAddAtA(b *testing.B, n, m int, gonum bool) {
	a := randSlice(n*m, 1)
	g := make([]float64, m*m)
	report := func(b *testing.B) {
		s := b.Elapsed().Seconds() / float64(b.N)
		b.ReportMetric(float64(n)*float64(m)*float64(m+1)/s/1e9, "GFLOP/s-tri")
		b.ReportMetric(2*float64(n)*float64(m)*float64(m)/s/1e9, "GFLOP/s-gemm")
		sink = g[m-1]
	}
	for _, k := range kernels() {
		b.Run(k.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				addAtA(k.tile, g, m, a, n, m, false)
			}
			report(b)
		})
	}
	for _, k := range kernels32() {
		b.Run("float32-"+k.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				addAtA32(k.tile, g, a, n, m)
			}
			report(b)
		})
	}
	if !gonum {
		return
	}
	am := blas64.General{Rows: n, Cols: m, Stride: m, Data: a}
	b.Run("gonumSyrk", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			blas64.Syrk(blas.Trans, 1, am, 1, blas64.Symmetric{Uplo: blas.Upper, N: m, Stride: m, Data: g})
		}
		report(b)
	})
	b.Run("gonumGemm", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			blas64.Gemm(blas.Trans, blas.NoTrans, 1, am, am, 1, blas64.General{Rows: m, Cols: m, Stride: m, Data: g})
		}
		report(b)
	})
}

func BenchmarkMul_N2000_K784_M2048(b *testing.B) { benchMul(b, 2000, 784, 2048) }

// benchMul times every Mul implementation and gonum's Gemm; GFLOP/s counts
// 2·n·k·m.
func benchMul(b *testing.B, n, k, m int) {
	a, bm := randSlice(n*k, 1), randSlice(k*m, 2)
	c := make([]float64, n*m)
	report := func(b *testing.B) {
		b.ReportMetric(2*float64(n)*float64(k)*float64(m)/(b.Elapsed().Seconds()/float64(b.N))/1e9, "GFLOP/s")
		sink = c[n*m-1]
	}
	for _, ks := range kernels() {
		b.Run(ks.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				mul(ks.mul, c, a, bm, n, k, m)
			}
			report(b)
		})
	}
	b.Run("gonumGemm", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
				blas64.General{Rows: n, Cols: k, Stride: k, Data: a},
				blas64.General{Rows: k, Cols: m, Stride: m, Data: bm},
				0, blas64.General{Rows: n, Cols: m, Stride: m, Data: c})
		}
		report(b)
	})
}

// BenchmarkPrecisionRatio times, side by side and alternating five times,
// the float64 and float32 forms of the two products of a feature fit: the
// projection (Mul against Mul32, 256 rows of 784 onto 1504 columns, the
// split form's layer at m = 2048) and the Gram step (AddAtA against
// AddAtA32, 512 rows, m = 2048), and logs the median ratios: in
// WebAssembly (GOEXPERIMENT=simd) they say what Float32x4 buys.
func BenchmarkPrecisionRatio(b *testing.B) {
	const n, k, m, gn, gm = 256, 784, 1504, 512, 2048
	a, w := randSlice(n*k, 1), randSlice(k*m, 2)
	a32, w32 := make([]float32, len(a)), make([]float32, len(w))
	for i, v := range a {
		a32[i] = float32(v)
	}
	for i, v := range w {
		w32[i] = float32(v)
	}
	c, c32 := make([]float64, n*m), make([]float32, n*m)
	phi, g := randSlice(gn*gm, 3), make([]float64, gm*gm)
	var t [4][]float64
	timed := func(i int, f func()) {
		start := time.Now()
		f()
		t[i] = append(t[i], time.Since(start).Seconds())
	}
	for b.Loop() {
		for range 5 {
			timed(0, func() { Mul(c, a, w, n, k, m) })
			timed(1, func() { Mul32(c32, a32, w32, n, k, m) })
			timed(2, func() { AddAtA(g, phi, gn, gm) })
			timed(3, func() { AddAtA32(g, phi, gn, gm) })
		}
	}
	med := func(x []float64) float64 { s := slices.Clone(x); slices.Sort(s); return s[len(s)/2] }
	b.Logf("projection %d×%d·%d×%d: float64 %.1f ms, float32 %.1f ms (%.2f×); Gram %d×%d: float64 %.1f ms, float32 blocks %.1f ms (%.2f×, float32 kernel %v)",
		n, k, k, m, 1e3*med(t[0]), 1e3*med(t[1]), med(t[0])/med(t[1]), gn, gm, 1e3*med(t[2]), 1e3*med(t[3]), med(t[2])/med(t[3]), Float32())
}

func BenchmarkGram32Ratio_N8000_M2048(b *testing.B)  { benchGram32Ratio(b, 8000, 2048) }
func BenchmarkGram32Ratio_N20000_M4096(b *testing.B) { benchGram32Ratio(b, 20000, 4096) }

// benchGram32Ratio times AddAtA (this build's fastest kernel) and AddAtA32
// with every float32 kernel of this build, alternating three times on the
// same A, and reports each float32 kernel's median speed-up over AddAtA by
// wall time and by CPU time (steadier on a shared machine).
func benchGram32Ratio(b *testing.B, n, m int) {
	a, g := randSlice(n*m, 1), make([]float64, m*m)
	ks := kernels32()
	wall, cpu := make([][]float64, len(ks)+1), make([][]float64, len(ks)+1)
	timed := func(i int, f func()) {
		w, c := time.Now(), cpuSeconds()
		f()
		wall[i] = append(wall[i], time.Since(w).Seconds())
		cpu[i] = append(cpu[i], cpuSeconds()-c)
	}
	for b.Loop() {
		for range 3 {
			timed(0, func() { AddAtA(g, a, n, m) })
			for i, k := range ks {
				timed(i+1, func() { addAtA32(k.tile, g, a, n, m) })
			}
		}
	}
	med := func(x []float64) float64 { s := slices.Clone(x); slices.Sort(s); return s[len(s)/2] }
	b.ReportMetric(med(wall[0]), "s-float64")
	for i, k := range ks {
		b.ReportMetric(med(wall[i+1]), "s-"+k.name)
		b.ReportMetric(med(wall[0])/med(wall[i+1]), "x-wall-"+k.name)
		b.ReportMetric(med(cpu[0])/med(cpu[i+1]), "x-cpu-"+k.name)
	}
}

// BenchmarkMul32Ratio times, alternating five times, the split form's two
// float32 projections at L = 2, m = 4096, d = 784 (a block of 256 rows
// onto 1776 columns from 784 and from 1672 inner indices) with Mul32
// (row-major weights), with Weights32.Mul (the weights packed once where
// this build has a panel kernel), and AddAtA32 on a Gram block; it reports
// each one's rate in real flops per CPU second (2nkm for the products,
// n·m·(m+1) for the upper triangle: the convention `ntkrf bench` uses for
// the Gram step, 2nm², counts twice these) and the ratios Weights32 over
// Mul32 and over AddAtA32. CPU time, one goroutine per product: steadier
// on a shared machine than wall time.
func BenchmarkMul32Ratio(b *testing.B) {
	const n, m, gn, gm = 256, 1776, 2048, 2048
	shapes := []int{784, 1672}
	type prod struct {
		a, w, c []float32
		p       *Weights32
	}
	ps := make([]prod, len(shapes))
	for i, k := range shapes {
		a, w := randSlice(n*k, 1), randSlice(k*m, 2)
		p := prod{a: make([]float32, n*k), w: make([]float32, k*m), c: make([]float32, n*m)}
		for j, v := range a {
			p.a[j] = float32(v)
		}
		for j, v := range w {
			p.w[j] = float32(v)
		}
		p.p = NewWeights32(p.w, k, m)
		ps[i] = p
	}
	phi, g := randSlice(gn*gm, 3), make([]float64, gm*gm)
	var cpu [3][]float64
	timed := func(i int, f func()) {
		c := cpuSeconds()
		f()
		cpu[i] = append(cpu[i], cpuSeconds()-c)
	}
	for b.Loop() {
		for range 5 {
			timed(0, func() {
				for j, k := range shapes {
					mul32Rows(ps[j].c, ps[j].a, ps[j].w, 0, n, k, m)
				}
			})
			timed(1, func() {
				for _, p := range ps {
					p.p.Mul(p.c, p.a, n, 1)
				}
			})
			timed(2, func() { AddAtA32(g, phi, gn, gm) })
		}
	}
	med := func(x []float64) float64 { s := slices.Clone(x); slices.Sort(s); return s[len(s)/2] }
	var flops float64
	for _, k := range shapes {
		flops += 2 * float64(n) * float64(k) * float64(m)
	}
	rows, panels := flops/med(cpu[0])/1e9, flops/med(cpu[1])/1e9
	gram := float64(gn) * float64(gm) * float64(gm+1) / med(cpu[2]) / 1e9
	b.ReportMetric(rows, "GFLOP/cpu-s-Mul32")
	b.ReportMetric(panels, "GFLOP/cpu-s-Weights32")
	b.ReportMetric(gram, "GFLOP/cpu-s-AddAtA32")
	b.ReportMetric(panels/rows, "x-Mul32")
	b.ReportMetric(panels/gram, "x-AddAtA32")
	b.Logf("per CPU second: Mul32 %.1f GFLOP, Weights32 %.1f (%.2f× Mul32, packed %v), AddAtA32 %.1f (Weights32 %.2f× it); medians of %d",
		rows, panels, panels/rows, ps[0].p.packed, gram, panels/gram, len(cpu[0]))
}
