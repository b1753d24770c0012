package krr

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
)

// TestSolveHeldOutSums: the held-out rows summed where they are featurized
// (a second accumulator, block by block, as a split fit's parts do) give
// SolveHeldOut's choice and model, to rounding, and wrong sums are refused.
func TestSolveHeldOutSums(t *testing.T) {
	t.Parallel()
	const n, m = 160, 24
	X, y := fixture.Data(n, m, 3, 5)
	held := HoldoutRows(n)
	// split fills a kept and a held-out accumulator over blocks of rows,
	// as the pipeline's parts do, and returns them with the held-out
	// rows' features.
	split := func(opt Options) (kept, sums *Accumulator, phiH *mat.Dense) {
		kept, _ = NewAccumulator(m, opt)
		sums, _ = NewAccumulator(m, opt)
		phiH = mat.NewDense(len(held), m, nil)
		for _, r := range [][2]int{{0, 50}, {50, 110}, {110, n}} {
			out, at := heldIn(held, r[0], r[1])
			if err := kept.AddExcept(X.Slice(r[0], r[1], 0, m).(*mat.Dense), y[r[0]:r[1]], out, phiH, at); err != nil {
				t.Fatal(err)
			}
			if len(out) > 0 {
				if err := sums.Add(phiH.Slice(at, at+len(out), 0, m).(*mat.Dense), data.Take(y[r[0]:r[1]], out)); err != nil {
					t.Fatal(err)
				}
			}
		}
		return kept, sums, phiH
	}
	yh := data.Take(y, held)
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"classification, λ searched", Options{Classes: 3}},
		{"regression, λ searched", Options{Task: Regression, Criterion: Holdout}},
		{"classification, λ fixed", Options{Classes: 3, Lambda: 0.3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ref, _, phiH := split(tc.opt)
			want, err := ref.SolveHeldOut(phiH, yh)
			if err != nil {
				t.Fatal(err)
			}
			kept, sums, _ := split(tc.opt)
			before := sums.AppendBinary(nil)
			got, err := kept.SolveHeldOutSums(context.Background(), phiH, yh, sums)
			if err != nil {
				t.Fatal(err)
			}
			if kept.Rows() != n {
				t.Errorf("the accumulator holds %d rows after the solve, want %d", kept.Rows(), n)
			}
			if string(sums.AppendBinary(nil)) != string(before) {
				t.Error("the held-out sums were modified")
			}
			if got.Lambda() != want.Lambda() {
				t.Errorf("λ %v, SolveHeldOut's %v", got.Lambda(), want.Lambda())
			}
			gc, wc := got.Curve(), want.Curve()
			if len(gc) != len(wc) {
				t.Fatalf("%d curve points, want %d", len(gc), len(wc))
			}
			for i := range gc {
				if gc[i] != wc[i] {
					t.Errorf("curve point %d: %+v, want %+v (the search is on the kept rows alone)", i, gc[i], wc[i])
				}
			}
			pg, _ := got.Predict(X)
			pw, _ := want.Predict(X)
			if d := fixture.RelDiff(pg, pw); d > 1e-12 {
				t.Errorf("predictions %g away from SolveHeldOut's", d)
			}
		})
	}
	other, _ := NewAccumulator(m+1, Options{Classes: 3})
	for _, tc := range []struct {
		name string
		sums func(sums *Accumulator) *Accumulator
		code check.Code
	}{
		{"nil", func(*Accumulator) *Accumulator { return nil }, check.Type},
		{"a row short", func(*Accumulator) *Accumulator {
			s, _ := NewAccumulator(m, Options{Classes: 3})
			_ = s.Add(mat.NewDense(len(held)-1, m, nil), make([]float64, len(held)-1))
			return s
		}, check.Shape},
		{"other features", func(*Accumulator) *Accumulator { return other }, check.Shape},
	} {
		t.Run("refuses "+tc.name, func(t *testing.T) {
			kept, sums, phiH := split(Options{Classes: 3})
			rows := kept.Rows()
			_, err := kept.SolveHeldOutSums(context.Background(), phiH, yh, tc.sums(sums))
			if check.CodeOf(err) != tc.code {
				t.Errorf("error %v, want code %s", err, tc.code)
			}
			if kept.Rows() != rows {
				t.Errorf("refused, yet the accumulator holds %d rows, not %d", kept.Rows(), rows)
			}
		})
	}
}
