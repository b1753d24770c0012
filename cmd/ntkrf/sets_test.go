package main

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
)

// sharedData is the shared CSV directory seen from this package.
const sharedData = "../../../shared/data"

// TestSubset: the CLI's subsets of rows are the core's sample
// (data.Sample, one stream and one rule), rows of X and entries of y
// alike, in file order; every row is X and y themselves, not a copy; a
// negative size is refused.
func TestSubset(t *testing.T) {
	const n, d = 50, 3
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		y[i] = float64(i)
		for j := range d {
			X.Set(i, j, float64(i*d+j))
		}
	}
	for _, tc := range []struct {
		k, want int
		seed    uint64
		whole   bool
	}{{0, n, 1, true}, {n, n, 1, true}, {n + 5, n, 3, true}, {7, 7, 3, false}, {7, 7, 29, false}, {49, 49, 1, false}, {1, 1, 1, false}} {
		Xs, ys, err := subset(X, y, tc.k, tc.seed)
		if err != nil {
			t.Fatalf("subset(k=%d): %v", tc.k, err)
		}
		if r, _ := Xs.Dims(); r != tc.want || len(ys) != tc.want {
			t.Errorf("subset(k=%d): %d rows, %d targets; want %d", tc.k, r, len(ys), tc.want)
			continue
		}
		if tc.whole {
			if Xs != X || &ys[0] != &y[0] {
				t.Errorf("subset(k=%d) copied every row; want X and y themselves", tc.k)
			}
			continue
		}
		idx, _ := data.Sample(n, tc.k, tc.seed)
		for i, r := range idx {
			if ys[i] != y[r] || Xs.At(i, 0) != X.At(r, 0) || Xs.At(i, d-1) != X.At(r, d-1) {
				t.Errorf("subset(k=%d, seed %d): row %d is not row %d of data.Sample's %v", tc.k, tc.seed, i, r, idx)
				break
			}
		}
		// Without targets, the same rows.
		if Xo, yo, _ := subset(X, nil, tc.k, tc.seed); yo != nil || !mat.Equal(Xo, Xs) {
			t.Errorf("subset(k=%d) without y: other rows, or targets made up", tc.k)
		}
	}
	if _, _, err := subset(X, y, -1, 1); err == nil {
		t.Error("subset(k=-1): no error")
	}
}
