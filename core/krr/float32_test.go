package krr

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/linalg"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
)

// TestFloat32Gram: with Gram float32 the centered Gram matrix of one block
// (≤ 256 rows, one float32 block) is within the bound of linalg.AddAtA32,
// (r + 3)·2⁻²⁴·Σ_i |φc_ij·φc_il| per entry, of the float64 one; everything
// else is the same, and the fixed-λ predictions agree closely.
func TestFloat32Gram(t *testing.T) {
	t.Parallel()
	const r, m = 200, 96
	X, y := fixture.Data(r, 8, 3, 5)
	Phi, _ := fixture.NewReLU(8, m, 6).Transform(nil, X)
	fit := func(f32 bool) (*Accumulator, *Model) {
		gram := rf.Float64
		if f32 {
			gram = rf.Float32
		}
		acc, err := NewAccumulator(m, Options{Classes: 3, Lambda: 0.5, Gram: gram})
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
		t.Error("Gram float32 gave the float64 Gram matrix bit for bit; the float32 kernel did not run")
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

// precisionFeaturizer is a Featurizer that says whether its features are
// float32, as *rf.Map does.
type precisionFeaturizer struct {
	Featurizer
	f32 bool
}

func (p precisionFeaturizer) Float32() bool { return p.f32 }

// TestDefaultGram checks the rule of an empty Options.Gram through
// FitFeatures: float32 blocks for a classification on float32 features
// with at least Float32GramRows rows per feature, float64 for regression,
// fewer rows and float64 features (or a featurizer that does not say), an
// explicit Gram kept. A fit with the default must give
// the bits of the same fit with the rule's Gram given explicitly (and, with
// a float32 kernel, not those of the other).
func TestDefaultGram(t *testing.T) {
	t.Parallel()
	const r = 300
	X, labels := fixture.Data(r, 8, 3, 5)
	values := make([]float64, r)
	for i := range values {
		values[i] = math.Sin(X.At(i, 0)) + 0.5*X.At(i, 1)
	}
	for _, c := range []struct {
		task     Task
		m        int
		f32      bool
		sayPrec  bool
		explicit rf.Precision
		want     rf.Precision
	}{
		{Classification, 96, true, true, "", rf.Float32},
		{Classification, r / Float32GramRows, true, true, "", rf.Float32},
		{Classification, r/Float32GramRows + 1, true, true, "", rf.Float64},
		{Classification, 96, false, true, "", rf.Float64},
		{Classification, 96, true, false, "", rf.Float64},
		{Regression, 96, true, true, "", rf.Float64},
		{Regression, 96, true, true, rf.Float32, rf.Float32},
		{Classification, 96, true, true, rf.Float64, rf.Float64},
		{Classification, 200, true, true, rf.Float32, rf.Float32},
	} {
		t.Run(fmt.Sprintf("%s/m=%d/f32=%v/says=%v/explicit=%q", c.task, c.m, c.f32, c.sayPrec, c.explicit), func(t *testing.T) {
			t.Parallel()
			if got := (Options{Task: c.task, Gram: c.explicit}).GramFor(c.f32 && c.sayPrec, r, c.m).Gram; got != c.want {
				t.Fatalf("GramFor: %q, want %q", got, c.want)
			}
			var f Featurizer = fixture.NewReLU(8, c.m, 6)
			if c.sayPrec {
				f = precisionFeaturizer{f, c.f32}
			}
			y := labels
			if c.task == Regression {
				y = values
			}
			fit := func(gram rf.Precision) []float64 {
				model, err := FitFeatures(f, X, y, Options{Task: c.task, Lambda: 1e-3, Gram: gram})
				if err != nil {
					t.Fatal(err)
				}
				s, err := model.Predict(X)
				if err != nil {
					t.Fatal(err)
				}
				return s.RawMatrix().Data
			}
			other := rf.Float64
			if c.want == rf.Float64 {
				other = rf.Float32
			}
			got, want, not := fit(c.explicit), fit(c.want), fit(other)
			if !slices.Equal(got, want) {
				t.Errorf("the fit is not the fit with Gram %q", c.want)
			}
			if linalg.Float32() && slices.Equal(got, not) {
				t.Errorf("the fit with Gram %q gave the bits of Gram %q: the Gram option had no effect", c.want, other)
			}
		})
	}
}

// TestGramOption refuses an unknown Gram arithmetic with a coded error.
func TestGramOption(t *testing.T) {
	t.Parallel()
	_, err := NewAccumulator(4, Options{Task: Regression, Gram: "float16"})
	var ce *check.Error
	if !errors.As(err, &ce) || ce.Code != check.Option || ce.Option != "gram" {
		t.Errorf("Gram float16: %v, want a coded option error on gram", err)
	}
}
