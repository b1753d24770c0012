package krr

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/linalg"
	"ntkrf/internal/fixture"
)

// TestFloat32Gram: with Float32Gram the centered Gram matrix of one block
// (≤ 256 rows, one float32 block) is within the bound of linalg.AddAtA32,
// (r + 3)·2⁻²⁴·Σ_i |φc_ij·φc_il| per entry, of the float64 one; everything
// else is the same, and the fixed-λ predictions agree closely.
func TestFloat32Gram(t *testing.T) {
	t.Parallel()
	const r, m = 200, 96
	X, y := fixture.Data(r, 8, 3, 5)
	Phi, _ := fixture.NewReLU(8, m, 6).Transform(nil, X)
	fit := func(f32 bool) (*Accumulator, *Model) {
		acc, err := NewAccumulator(m, Options{Classes: 3, Lambda: 0.5, Float32Gram: f32})
		if err != nil {
			t.Fatal(err)
		}
		if err := acc.Add(Phi, y); err != nil {
			t.Fatal(err)
		}
		model, err := acc.Solve()
		if err != nil {
			t.Fatal(err)
		}
		return acc, model
	}
	a64, m64 := fit(false)
	a32, m32 := fit(true)
	p64, p32 := a64.Parts(), a32.Parts()
	pc := mat.DenseCopyOf(Phi)
	for j := range m {
		mu := mat.Sum(pc.ColView(j)) / r
		for i := range r {
			pc.Set(i, j, pc.At(i, j)-mu)
		}
	}
	differs := false
	for j := range m {
		for l := j; l < m; l++ {
			abs := 0.0
			for i := range r {
				abs += math.Abs(pc.At(i, j) * pc.At(i, l))
			}
			d := math.Abs(p32.C[j*m+l] - p64.C[j*m+l])
			if tol := float64(r+3) * 0x1p-24 * abs; d > tol {
				t.Fatalf("C[%d,%d] differs by %g > %g", j, l, d, tol)
			}
			differs = differs || d > 0
		}
	}
	if !differs && linalg.Float32() {
		t.Error("Float32Gram gave the float64 Gram matrix bit for bit; the float32 kernel did not run")
	}
	for i, v := range p64.D {
		if p32.D[i] != v {
			t.Fatalf("ΦᵀY differs at %d; only ΦᵀΦ should", i)
		}
	}
	s64, _ := m64.Predict(Phi)
	s32, _ := m32.Predict(Phi)
	diff := mat.NewDense(r, 3, nil)
	diff.Sub(s64, s32)
	if rel := mat.Norm(diff, 2) / mat.Norm(s64, 2); rel > 1e-5 {
		t.Errorf("scores differ by %.2g relative", rel)
	}
}
