package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/fixture"
)

// TestEigSym checks the eigensolver through invariants that hold whatever
// basis it picks inside repeated eigenvalues: CV = VΛ, VᵀV = I, and for
// B = VᵀR, BᵀB = RᵀR and BᵀΛB = RᵀCR. Rounding is O(m·eps·‖C‖) for a
// backward-stable method, so 1e-12 relative leaves a wide margin at m ≤ 40.
func TestEigSym(t *testing.T) {
	t.Parallel()
	const tol = 1e-12
	r := rand.New(rand.NewPCG(1, 2))
	gauss := func(rows, cols int) *mat.Dense {
		a := mat.NewDense(rows, cols, nil)
		for i := range a.RawMatrix().Data {
			a.RawMatrix().Data[i] = r.NormFloat64()
		}
		return a
	}
	cases := map[string]*mat.Dense{}
	g := gauss(30, 30)
	var sym mat.Dense
	sym.Add(g, g.T())
	cases["indefinite"] = &sym
	low := gauss(40, 3)
	var psd mat.Dense
	psd.Mul(low, low.T())
	cases["rank 3 of 40"] = &psd
	diag := mat.NewDense(5, 5, nil)
	for i := 0; i < 5; i++ {
		diag.Set(i, i, float64(5-i%2)) // already diagonal, repeated values
	}
	cases["diagonal"] = diag
	cases["1×1"] = mat.NewDense(1, 1, []float64{-2})
	for name, C := range cases {
		m, _ := C.Dims()
		const l = 3
		R := gauss(m, l)
		vals, vt, err := EigSym(append([]float64(nil), C.RawMatrix().Data...), m, nil, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		vals2, b, err := EigSym(append([]float64(nil), C.RawMatrix().Data...), m, R.RawMatrix().Data, l, nil)
		if err != nil {
			t.Fatal(err)
		}
		scale := mat.Norm(C, 2)
		V := mat.NewDense(m, m, vt)
		var cv, vl, vtv mat.Dense
		cv.Mul(C, V.T())
		vl.Mul(V.T(), mat.NewDiagDense(m, vals))
		vtv.Mul(V, V.T())
		cv.Sub(&cv, &vl)
		if e := mat.Norm(&cv, 2); e > tol*scale {
			t.Errorf("%s: ‖CV − VΛ‖ = %g", name, e)
		}
		if e := mat.Norm(&vtv, 2) - math.Sqrt(float64(m)); math.Abs(e) > tol*float64(m) {
			t.Errorf("%s: VᵀV is not the identity (‖·‖_F off by %g)", name, e)
		}
		for i := range vals {
			if vals[i] != vals2[i] {
				t.Errorf("%s: eigenvalue %d is %g with vectors, %g without", name, i, vals[i], vals2[i])
			}
			if i > 0 && vals[i] < vals[i-1] {
				t.Errorf("%s: eigenvalues not ascending at %d", name, i)
			}
		}
		B := mat.NewDense(m, l, b)
		var btb, rtr, bl, btlb, cr, rtcr mat.Dense
		btb.Mul(B.T(), B)
		rtr.Mul(R.T(), R)
		bl.Mul(mat.NewDiagDense(m, vals), B)
		btlb.Mul(B.T(), &bl)
		cr.Mul(C, R)
		rtcr.Mul(R.T(), &cr)
		if e := fixture.RelDiff(&btb, &rtr); e > tol {
			t.Errorf("%s: BᵀB differs from RᵀR by %g", name, e)
		}
		if e := fixture.RelDiff(&btlb, &rtcr); e > tol {
			t.Errorf("%s: BᵀΛB differs from RᵀCR by %g", name, e)
		}
	}
}

var sinkVals []float64

func BenchmarkGCVReduce_M1024(b *testing.B)     { benchEigSym(b, 1024, true) }
func BenchmarkGCVReduce_M2048(b *testing.B)     { benchEigSym(b, 2048, true) }
func BenchmarkGCVReduce_M4096(b *testing.B)     { benchEigSym(b, 4096, true) }
func BenchmarkEigSymVectors_M1024(b *testing.B) { benchEigSym(b, 1024, false) }

// benchEigSym times, on the Gram matrix of m Gaussian features over m
// rows, the O(m³) part of the λ search: GCV's reduction to tridiagonal form
// with QᵀR for 10 outputs (Tridiagonalize) when gcv is set, else LOO's
// eigendecomposition with eigenvectors (EigSym).
func benchEigSym(b *testing.B, m int, gcv bool) {
	const l = 10
	r := rand.New(rand.NewPCG(1, 3))
	phi := make([]float64, m*m)
	for i := range phi {
		phi[i] = r.NormFloat64()
	}
	c := make([]float64, m*m)
	AddAtA(c, phi, m, m)
	rhs := phi[:m*l]
	if !gcv {
		rhs = nil
	}
	work := make([]float64, m*m)
	run := func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			copy(work, c)
			if gcv {
				sinkVals, _, _ = Tridiagonalize(work, m, rhs, l, nil)
				continue
			}
			vals, _, err := EigSym(work, m, nil, l, nil)
			if err != nil {
				b.Fatal(err)
			}
			sinkVals = vals
		}
	}
	if !gcv || m < twoStageMin {
		run(b)
		return
	}
	// The GCV path both ways, side by side.
	b.Run("twostage", run)
	b.Run("onestage", func(b *testing.B) {
		twoStage = false
		defer func() { twoStage = true }()
		run(b)
	})
}

// TestEigSymExtremeScales: a matrix with entries near 1e308 (or 1e-300)
// has the eigenvalues of the same matrix at scale 1, times the scale, in
// every entry point (EigSym with and without R, Tridiagonalize then
// TridiagEig, Reduce), and eigenvalues beyond the float64 range are an
// error, never a finite wrong number.
func TestEigSymExtremeScales(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for _, m := range []int{12, 600} { // one-stage and two-stage reductions
		base := make([]float64, m*m)
		for i := range m {
			for j := i; j < m; j++ {
				v := r.Float64()*2 - 1
				base[i*m+j], base[j*m+i] = v, v
			}
		}
		rhs := make([]float64, m)
		for i := range rhs {
			rhs[i] = r.NormFloat64()
		}
		want, _, err := EigSym(append([]float64(nil), base...), m, nil, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		top := 0.0
		for _, v := range want {
			top = max(top, math.Abs(v))
		}
		for _, scale := range []float64{1e308 / top / 2, 1e-300} {
			scaled := func() []float64 {
				a := make([]float64, m*m)
				for i, v := range base {
					a[i] = v * scale
				}
				return a
			}
			check := func(how string, got []float64) {
				t.Helper()
				sorted := append([]float64(nil), got...)
				slices.Sort(sorted)
				for i, v := range sorted {
					if d := math.Abs(v/scale - want[i]); !(d <= 1e-12*top) {
						t.Fatalf("m=%d scale %g, %s: eigenvalue %d is %g, want %g", m, scale, how, i, v/scale, want[i])
					}
				}
			}
			vals, _, err := EigSym(scaled(), m, nil, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			check("EigSym", vals)
			vals, _, err = EigSym(scaled(), m, rhs, 1, nil)
			if err != nil {
				t.Fatal(err)
			}
			check("EigSym with R", vals)
			d, e, w := Tridiagonalize(scaled(), m, rhs, 1, nil)
			if err := TridiagEig(d, e, w, 1); err != nil {
				t.Fatal(err)
			}
			check("Tridiagonalize", d)
			red, _ := Reduce(scaled(), m, rhs, 1, nil)
			d = append([]float64(nil), red.D...)
			if err := TridiagEig(d, append([]float64(nil), red.E...), make([]float64, m), 1); err != nil {
				t.Fatal(err)
			}
			check("Reduce", d)
		}
	}
	for _, tc := range []struct{ a, want []float64 }{
		{[]float64{1e308, 1e308, 1e308, -1e308}, []float64{-math.Sqrt2 * 1e308, math.Sqrt2 * 1e308}},
		{[]float64{1e308, 5e307, 5e307, 1e308}, []float64{5e307, 1.5e308}},
	} {
		vals, _, err := EigSym(append([]float64(nil), tc.a...), 2, nil, 0, nil)
		if err != nil || math.Abs(vals[0]-tc.want[0]) > 1e-14*1e308 || math.Abs(vals[1]-tc.want[1]) > 1e-14*1e308 {
			t.Errorf("eigenvalues of %v: %v (%v), want %v", tc.a, vals, err, tc.want)
		}
	}
	// All entries 1e308: the eigenvalue 3e308 is not a float64.
	big := []float64{1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308}
	if vals, _, err := EigSym(big, 3, nil, 0, nil); err == nil {
		t.Errorf("eigenvalues %v of a matrix of 1e308, want an error", vals)
	}
}
