package data

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// prepTol allows a few roundings in mean, variance and square root.
const prepTol = 1e-14

func TestScaler(t *testing.T) {
	t.Parallel()
	sd := math.Sqrt(8.0 / 3) // population sd of {1, 3, 5}
	cat := []Group{{Column: 0, Start: 0, Width: 1}, {Column: 1, Start: 1, Width: 3, Categorical: true}}
	tests := []struct {
		name   string
		train  []float64
		test   []float64
		cols   int
		groups []Group
		prep   Prep
		want   []float64 // Apply(test)
	}{
		{"train statistics on test rows; constant column centred", []float64{1, 10, 3, 10, 5, 10}, []float64{7, 12, 3, 10}, 2, nil,
			Prep{}, []float64{4 / sd, 2, 0, 0}},
		{"mean imputation from training rows", []float64{1, 0, nan(), 0, 5, 0, nan(), 0}, []float64{nan(), 1}, 2, nil,
			Prep{Raw: true}, []float64{3, 1}},
		{"imputation before standardizing", []float64{1, nan(), 5}, []float64{nan(), 5}, 1, nil,
			Prep{}, []float64{0, 2 / sd}},
		{"most frequent category; missing block filled whole", []float64{
			1, 0, 1, 0,
			2, 0, 0, 1,
			3, nan(), nan(), nan(),
			4, 0, 0, 1,
			nan(), 1, 0, 0,
		}, []float64{nan(), nan(), nan(), nan(), 9, 0, nan(), 0}, 4, cat, Prep{Raw: true}, []float64{2.5, 0, 0, 1, 9, 0, 0, 1}},
		{"category tie goes to the first", []float64{0, 1, 0, 0, 0, 0, 1, 0}, []float64{0, nan(), nan(), nan()}, 4, cat, Prep{Raw: true}, []float64{0, 1, 0, 0}},
		{"column without values imputes zero", []float64{nan(), 1, nan(), 2}, []float64{nan(), 3}, 2, nil, Prep{Raw: true}, []float64{0, 3}},
		{"unit norm keeps zero rows", []float64{3, 4, 0, 0}, []float64{3, 4, 0, 0, nan(), 1}, 2, nil, Prep{Raw: true, UnitNorm: true}, []float64{0.6, 0.8, 0, 0, 1.5 / math.Sqrt(3.25), 1 / math.Sqrt(3.25)}},
		{"extreme magnitudes stay finite", []float64{1e308, -1e308}, []float64{1e308, 0}, 1, nil, Prep{UnitNorm: true}, []float64{1, 0}},
		{"subnormal spread", []float64{0, 5e-324}, []float64{0, 5e-324}, 1, nil, Prep{}, []float64{-1, 1}},
		{"constant 0.1 centres exactly", []float64{0.1, 0.1, 0.1}, []float64{0.1}, 1, nil, Prep{}, []float64{0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			Xtr := mat.NewDense(len(tc.train)/tc.cols, tc.cols, slices.Clone(tc.train))
			Xte := mat.NewDense(len(tc.test)/tc.cols, tc.cols, slices.Clone(tc.test))
			s, err := Fit(Xtr, tc.groups, tc.prep)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Apply(nil, Xte)
			if err != nil {
				t.Fatal(err)
			}
			if !floats.EqualApprox(got.RawMatrix().Data, tc.want, prepTol) {
				t.Errorf("Apply = %v, want %v", got.RawMatrix().Data, tc.want)
			}
			if !sameFloats(Xtr.RawMatrix().Data, tc.train) || !sameFloats(Xte.RawMatrix().Data, tc.test) {
				t.Error("inputs modified")
			}
			if _, err := s.Apply(Xte, Xte); err != nil || !mat.Equal(Xte, got) {
				t.Errorf("in place: %v, %v", err, Xte.RawMatrix().Data)
			}
			tr, _ := s.Apply(nil, Xtr)
			for _, v := range tr.RawMatrix().Data {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("training rows transform to %v", tr.RawMatrix().Data)
				}
			}
		})
	}
}

func TestScalerStandardizedMoments(t *testing.T) {
	t.Parallel()
	d, err := Parse(readFile(t, "../../testdata/BostonHousing.csv"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Fit(d.X, d.Groups, Prep{})
	if err != nil {
		t.Fatal(err)
	}
	Z, _ := s.Apply(nil, d.X)
	n, p := Z.Dims()
	// Means are sums of n ≈ 500 rounded terms of size ≤ ~10: 1e-13 covers
	// them with a margin of ten.
	const momentTol = 1e-13
	for j := range p {
		col := mat.Col(nil, j, Z)
		mean := floats.Sum(col) / float64(n)
		ss := floats.Dot(col, col) / float64(n)
		if math.Abs(mean) > momentTol || math.Abs(ss-1) > momentTol {
			t.Errorf("column %d (%s): mean %g, mean square %g", j, d.FeatureNames[j], mean, ss)
		}
	}
}

func TestScalerErrors(t *testing.T) {
	t.Parallel()
	X := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	s, _ := Fit(X, nil, Prep{})
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"fit nil", func() error { _, err := Fit(nil, nil, Prep{Raw: true}); return err }, "empty matrix"},
		{"fit inf", func() error {
			_, err := Fit(mat.NewDense(1, 2, []float64{1, math.Inf(-1)}), nil, Prep{Raw: true})
			return err
		}, "X has -Inf at row 0, column 1"},
		{"gap in groups", func() error { _, err := Fit(X, []Group{{Start: 1, Width: 1}}, Prep{Raw: true}); return err }, "groups must tile the columns"},
		{"numeric group wider than 1", func() error { _, err := Fit(X, []Group{{Start: 0, Width: 2}}, Prep{Raw: true}); return err }, "groups must tile the columns"},
		{"groups short", func() error { _, err := Fit(X, []Group{{Start: 0, Width: 1}}, Prep{Raw: true}); return err }, "cover 1 columns but X has 2"},
		{"apply columns", func() error { _, err := s.Apply(nil, mat.NewDense(1, 3, nil)); return err }, "X has 3 columns but the scaler was fitted on 2"},
		{"apply inf", func() error { _, err := s.Apply(nil, mat.NewDense(1, 2, []float64{math.Inf(1), 0})); return err }, "+Inf"},
		{"apply dst", func() error { _, err := s.Apply(mat.NewDense(3, 2, nil), X); return err }, "dst is 3×2 but the scaled X is 2×2"},
		{"apply nil", func() error { _, err := s.Apply(nil, nil); return err }, "empty matrix"},
	}
	for _, tc := range tests {
		checkErr(t, tc.name, tc.err(), []string{tc.want})
	}
}

var sinkMatrix *mat.Dense

func benchmarkScaler(b *testing.B, n, p int) {
	X := mat.NewDense(n, p, nil)
	for i, raw := 0, X.RawMatrix().Data; i < len(raw); i++ {
		raw[i] = float64(i%97) - 0.5*float64(i%13)
	}
	b.ReportAllocs()
	for b.Loop() {
		s, err := Fit(X, nil, Prep{UnitNorm: true})
		if err != nil {
			b.Fatal(err)
		}
		sinkMatrix, _ = s.Apply(sinkMatrix, X)
	}
}

func BenchmarkScaler_N20000_P64(b *testing.B) { benchmarkScaler(b, 20000, 64) }
