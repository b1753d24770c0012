package check

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestMatrixNonFinite: Matrix names the first non-finite value in row
// order (its row and column) wherever it lies, including the first and
// last entries of a row and of a strided view, and accepts finite input.
func TestMatrixNonFinite(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		name     string
		r, c     int
		at       [][2]int // non-finite entries (row, column)
		v        float64
		want     string // "" when valid
		viewCols int    // > 0: check a view of the first viewCols columns
	}{
		{"finite", 3, 5, nil, 0, "", 0},
		{"nan first", 3, 5, [][2]int{{0, 0}}, math.NaN(), "at row 0, column 0", 0},
		{"inf last", 3, 5, [][2]int{{2, 4}}, inf, "at row 2, column 4", 0},
		{"-inf mid", 4, 7, [][2]int{{1, 3}}, -inf, "at row 1, column 3", 0},
		{"first in row order", 4, 7, [][2]int{{2, 1}, {1, 6}, {3, 0}}, inf, "at row 1, column 6", 0},
		{"past the view", 3, 6, [][2]int{{1, 5}}, inf, "", 5},
		{"view's last column", 3, 6, [][2]int{{2, 4}}, math.NaN(), "at row 2, column 4", 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			X := mat.NewDense(tc.r, tc.c, nil)
			for i := range tc.r {
				for j := range tc.c {
					X.Set(i, j, float64(i*tc.c+j)/7)
				}
			}
			for _, a := range tc.at {
				X.Set(a[0], a[1], tc.v)
			}
			var Y *mat.Dense = X
			if tc.viewCols > 0 {
				Y = X.Slice(0, tc.r, 0, tc.viewCols).(*mat.Dense)
			}
			err := Matrix("X", Y)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Matrix: %v, want nil", err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != NonFinite || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Matrix: %v, want %s %q", err, NonFinite, tc.want)
			}
		})
	}
}
