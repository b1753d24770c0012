package rf

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/fixture"
)

// TestBadInputsAreErrors calls the functions of rf that return errors with
// nil, empty, negative, NaN and mismatched inputs: each returns a coded
// error, never a panic. (The sketches' Apply methods panic on wrong
// lengths, a documented programming error.)
func TestBadInputsAreErrors(t *testing.T) {
	t.Parallel()
	f, err := New(Config{Dim: 16, Seed: 1}, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"New input dim 0", func() error { _, err := New(Config{}, 0); return err }},
		{"New input dim -1", func() error { _, err := New(Config{}, -1); return err }},
		{"New negative dim", func() error { _, err := New(Config{Dim: -1}, 3); return err }},
		{"New depth -1", func() error { _, err := New(Config{Depth: -1}, 3); return err }},
		{"New depth 65", func() error { _, err := New(Config{Depth: 65}, 3); return err }},
		{"New unknown method", func() error { _, err := New(Config{Method: "nope"}, 3); return err }},
		{"New NaN γ", func() error { _, err := New(Config{Method: "rff", Gamma: math.NaN()}, 3); return err }},
		{"New ntk dim 1", func() error { _, err := New(Config{Dim: 1}, 3); return err }},
		{"New negative sweeps", func() error { _, err := New(Config{GibbsSweeps: -1}, 3); return err }},
		{"Transform nil", func() error { _, err := f.Transform(nil, nil); return err }},
		{"Transform empty", func() error { _, err := f.Transform(nil, &mat.Dense{}); return err }},
		{"Transform NaN", func() error { _, err := f.Transform(nil, mat.NewDense(1, 3, []float64{math.NaN(), 0, 0})); return err }},
		{"Transform width", func() error { _, err := f.Transform(nil, mat.NewDense(1, 2, nil)); return err }},
		{"Transform dst", func() error { _, err := f.Transform(mat.NewDense(1, 1, nil), mat.NewDense(1, 3, nil)); return err }},
		{"NewCountSketch 0", func() error { _, err := NewCountSketch(0, 4, 1); return err }},
		{"NewCountSketch negative", func() error { _, err := NewCountSketch(4, -1, 1); return err }},
		{"NewTensorSketch negative", func() error { _, err := NewTensorSketch(-1, 4, 4, 1); return err }},
		{"NewTensorSRHT 0", func() error { _, err := NewTensorSRHT(4, 4, 0, 1); return err }},
	} {
		fixture.Refuse(t, tc.name, tc.call)
	}
}
