package metrics

import (
	"math"
	"ntkrf/core/kernel"
	"ntkrf/internal/fixture"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestKernelMetrics(t *testing.T) {
	t.Parallel()
	X, _ := fixture.Data(12, 4, 0, 1)
	K, err := kernel.Spec{Name: "linear"}.Gram(X, nil) // XXᵀ, exactly featurized by X
	if err != nil {
		t.Fatal(err)
	}
	var es mat.EigenSym
	es.Factorize(mat.NewSymDense(12, K.RawMatrix().Data), false)
	kappa := es.Values(nil)
	meanK2 := 0.0
	for _, v := range K.RawMatrix().Data {
		meanK2 += v * v / 144
	}
	lam := 1e-4 * 12
	for _, s := range []float64{1, 1.5, 0.5} {
		var phi mat.Dense
		phi.Scale(s, X)
		// ΦΦᵀ = s²K: each metric has a closed form.
		s2 := s * s
		ratio := func(k float64) float64 { return (s2*k + lam) / (k + lam) } // monotone in κ
		lo, hi := ratio(kappa[0]), ratio(kappa[11])
		wantSpec := math.Max(lo, hi) / math.Min(lo, hi)
		rel, err := RelFrobenius(K, &phi)
		if err != nil {
			t.Fatal(err)
		}
		mse, _ := EntryMSE(K, &phi)
		spec, err := Spectral(K, &phi, 0)
		if err != nil {
			t.Fatal(err)
		}
		// Rounding of n·m-term sums and an O(n³) eigensolve: ~1e-14.
		const tol = 1e-10
		if math.Abs(rel-math.Abs(s2-1)) > tol {
			t.Errorf("s=%g: RelFrobenius %g, want %g", s, rel, math.Abs(s2-1))
		}
		if want := (s2 - 1) * (s2 - 1) * meanK2; math.Abs(mse-want) > tol*(meanK2+want) {
			t.Errorf("s=%g: EntryMSE %g, want %g", s, mse, want)
		}
		if math.Abs(spec-wantSpec) > tol*wantSpec {
			t.Errorf("s=%g: Spectral %g, want %g", s, spec, wantSpec)
		}
	}
}

func TestKernelMetricErrors(t *testing.T) {
	t.Parallel()
	K := mat.NewDense(3, 3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1})
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"rows", func() error { _, err := RelFrobenius(K, mat.NewDense(2, 2, []float64{1, 0, 0, 1})); return err }(), "Phi has 2 rows"},
		{"square", func() error { _, err := EntryMSE(mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6}), K); return err }(), "must be square"},
		{"zero K", func() error {
			_, err := RelFrobenius(mat.NewDense(1, 1, []float64{0}), K.Slice(0, 1, 0, 1).(*mat.Dense))
			return err
		}(), "K is zero"},
		{"λ", func() error { _, err := Spectral(K, K, -1); return err }(), "lambda -1 is invalid"},
		{"not PSD", func() error {
			_, err := Spectral(mat.NewDense(1, 1, []float64{-1}), K.Slice(0, 1, 0, 1).(*mat.Dense), 0.5)
			return err
		}(), "not positive definite"},
	} {
		if tc.err == nil || !strings.HasPrefix(tc.err.Error(), "metrics: ") || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want metrics: …%s…", tc.name, tc.err, tc.want)
		}
	}
}

func TestPredictionMetrics(t *testing.T) {
	t.Parallel()
	yt := []float64{0, 1, 2, 1}
	yp := []float64{0, 2, 2, 1}
	acc, _ := Accuracy(yt, yp)
	mse, _ := MSE(yt, yp)
	r2, _ := R2(yt, yp)
	// Mean 1, SStot = 1+0+1+0 = 2, SSres = 1.
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"accuracy", acc, 0.75}, {"mse", mse, 0.25}, {"r2", r2, 0.5}} {
		if c.got != c.want {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	conf, err := Confusion(yt, yp, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{{1, 0, 0}, {0, 1, 1}, {0, 0, 1}}
	for i := range want {
		for j := range want[i] {
			if conf[i][j] != want[i][j] {
				t.Fatalf("confusion %v, want %v", conf, want)
			}
		}
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"lengths", func() error { _, err := Accuracy(yt, yp[:3]); return err }(), "4 true labels but 3 predictions"},
		{"empty", func() error { _, err := MSE(nil, nil); return err }(), "no labels"},
		{"NaN", func() error { _, err := MSE([]float64{math.NaN()}, []float64{1}); return err }(), "label NaN at row 0"},
		{"Inf prediction", func() error { _, err := Accuracy([]float64{0, 1}, []float64{0, math.Inf(1)}); return err }(), "label +Inf at row 1"},
		// Accuracy of regression values or scores would silently be 0.
		{"fractional prediction", func() error { _, err := Accuracy([]float64{0, 1, 2}, []float64{0, 0.5, 2}); return err }(), "yPred[1] = 0.5 is not a class label"},
		{"fractional truth", func() error { _, err := Accuracy([]float64{0, 1.25}, []float64{0, 1}); return err }(), "yTrue[1] = 1.25 is not a class label"},
		{"constant", func() error { _, err := R2([]float64{1, 1}, []float64{1, 2}); return err }(), "R² is undefined"},
		{"class range", func() error { _, err := Confusion(yt, yp, 2); return err }(), "label 2 at row 1 is not a class index in 0…1"},
		{"classes", func() error { _, err := Confusion(yt, yp, 0); return err }(), "0 classes"},
	} {
		if tc.err == nil || !strings.HasPrefix(tc.err.Error(), "metrics: ") || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want metrics: …%s…", tc.name, tc.err, tc.want)
		}
	}
}
