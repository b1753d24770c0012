package data

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/fixture"
)

// TestBadInputsAreErrors calls the exported functions of data with nil,
// empty, negative, NaN and mismatched inputs: each returns a coded error.
// (Rows and Take panic on an index out of range, as slice indexing does:
// documented, and not called here.)
func TestBadInputsAreErrors(t *testing.T) {
	t.Parallel()
	X := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	s, err := Fit(X, nil, Prep{})
	if err != nil {
		t.Fatal(err)
	}
	nan := mat.NewDense(1, 2, []float64{math.Inf(1), 0})
	var zero Schema
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"Parse nil", func() error { _, err := Parse(nil, Options{}); return err }},
		{"Parse negative MaxBytes", func() error { _, err := Parse([]byte("a,b\n1,2\n"), Options{MaxBytes: -1}); return err }},
		{"Parse bad task", func() error { _, err := Parse([]byte("a,b\n1,2\n"), Options{Task: "x"}); return err }},
		{"Parse bad delimiter", func() error { _, err := Parse([]byte("a,b\n1,2\n"), Options{Delimiter: 'a'}); return err }},
		{"Parse negative target index", func() error { i := -1; _, err := Parse([]byte("a,b\n1,2\n"), Options{TargetIndex: &i}); return err }},
		{"Preview nil", func() error { _, err := Preview(nil, 3, Options{}); return err }},
		{"Preview 0 rows", func() error { _, err := Preview([]byte("a,b\n1,2\n"), 0, Options{}); return err }},
		{"Preview negative rows", func() error { _, err := Preview([]byte("a,b\n1,2\n"), -5, Options{}); return err }},
		{"Fit nil", func() error { _, err := Fit(nil, nil, Prep{}); return err }},
		{"Fit empty", func() error { _, err := Fit(&mat.Dense{}, nil, Prep{}); return err }},
		{"Fit Inf", func() error { _, err := Fit(nan, nil, Prep{}); return err }},
		{"Fit overlapping groups", func() error {
			_, err := Fit(X, []Group{{Start: 0, Width: 2, Categorical: true}, {Start: 1, Width: 1}}, Prep{})
			return err
		}},
		{"Fit negative width", func() error { _, err := Fit(X, []Group{{Start: 0, Width: -1, Categorical: true}}, Prep{}); return err }},
		{"Fit groups too short", func() error { _, err := Fit(X, []Group{{Start: 0, Width: 1}}, Prep{}); return err }},
		{"Prepare nil", func() error { _, err := Prepare(nil, nil, Prep{}); return err }},
		{"Apply nil", func() error { _, err := s.Apply(nil, nil); return err }},
		{"Apply wrong width", func() error { _, err := s.Apply(nil, mat.NewDense(1, 3, nil)); return err }},
		{"Apply wrong dst", func() error { _, err := s.Apply(mat.NewDense(1, 1, nil), X); return err }},
		{"Apply Inf", func() error { _, err := s.Apply(nil, nan); return err }},
		{"Schema.Check zero", func() error { return zero.Check() }},
		{"Schema.Read zero", func() error { _, err := zero.Read([]byte("a,b\n1,2\n"), 0); return err }},
		{"Split -1", func() error { _, _, err := Split(-1, 0.5, 1); return err }},
		{"Split NaN fraction", func() error { _, _, err := Split(10, math.NaN(), 1); return err }},
		{"Split 2^40", func() error { _, _, err := Split(1<<40, 0.5, 1); return err }},
		{"KFold negative k", func() error { _, err := KFold(10, -3, 1); return err }},
		{"KFold 2^31", func() error { _, err := KFold(1<<31, 4, 1); return err }},
		{"Folds 2^31 folds", func() error { _, err := Folds(1<<31, 1<<31, 1); return err }},
		{"Complement -1", func() error { _, err := Complement(-1, nil); return err }},
		{"Complement 2^40", func() error { _, err := Complement(1<<40, []int{1}); return err }},
	} {
		fixture.Refuse(t, tc.name, tc.call)
	}
}
