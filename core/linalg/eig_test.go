package linalg

import (
	"math"
	"math/rand/v2"
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
