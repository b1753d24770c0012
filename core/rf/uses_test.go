package rf

import (
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestUses: every method's features change with each option Uses names,
// and keep their bits when any other of UsedOptions changes.
func TestUses(t *testing.T) {
	X := mat.NewDense(5, 3, []float64{0.3, -0.2, 0.9, 0.5, 0.1, -0.4, -0.7, 0.6, 0.2, 0.1, 0.1, 0.1, -0.3, -0.8, 0.4})
	change := map[string]func(*Config){
		"depth":   func(c *Config) { c.Depth = 3 },
		"sketch":  func(c *Config) { c.Sketch = "tensorsrht" },
		"sampler": func(c *Config) { c.Sampler = "orthogonal" },
		"gamma":   func(c *Config) { c.Gamma = 2 },
	}
	if len(change) != len(UsedOptions) {
		t.Fatalf("the test changes %d options; UsedOptions has %d", len(change), len(UsedOptions))
	}
	if len(Uses) != len(Methods) {
		t.Errorf("Uses has %d methods; rf has %d", len(Uses), len(Methods))
	}
	features := func(c Config) []float64 {
		f, err := New(c, X.RawMatrix().Cols)
		if err != nil {
			t.Fatal(c, err)
		}
		P, err := f.Transform(nil, X)
		if err != nil {
			t.Fatal(c, err)
		}
		return P.RawMatrix().Data
	}
	for _, m := range Methods {
		// The base: depth 2, the paper's sketch, the exact sampler, γ = 1/2.
		base := Config{Method: m, Depth: 2, Dim: 64, Sketch: "tensorsketch", Sampler: "exact", Gamma: 0.5, Seed: 7}
		if m == "arccos0" || m == "arccos1" || m == "rff" {
			base.Depth = 0
		}
		want := features(base)
		for _, o := range UsedOptions {
			c := base
			change[o](&c)
			same := slices.Equal(features(c), want)
			if used := slices.Contains(Uses[m], o); used == same {
				t.Errorf("%s: changing %s %s the features; Uses says it is used: %v", m, o, map[bool]string{true: "keeps", false: "changes"}[same], used)
			}
		}
	}
}
