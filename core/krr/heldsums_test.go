package krr

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/linalg"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
	"ntkrf/internal/wire"
)

// keptAndHeld fills an accumulator with the rows HoldoutRows keeps in,
// over blocks of rows as a split fit's parts do, and returns it with the
// held-out rows' features and targets.
func keptAndHeld(t *testing.T, X *mat.Dense, y []float64, opt Options) (*Accumulator, *mat.Dense, []float64) {
	t.Helper()
	n, m := X.Dims()
	held := HoldoutRows(n)
	kept, err := NewAccumulator(m, opt)
	if err != nil {
		t.Fatal(err)
	}
	phiH := mat.NewDense(len(held), m, nil)
	for _, r := range [][2]int{{0, n / 3}, {n / 3, 2 * n / 3}, {2 * n / 3, n}} {
		out, at := heldIn(held, r[0], r[1])
		if err := kept.AddExcept(X.Slice(r[0], r[1], 0, m).(*mat.Dense), y[r[0]:r[1]], out, phiH, at); err != nil {
			t.Fatal(err)
		}
	}
	return kept, phiH, data.Take(y, held)
}

// TestSolveHeldOutHelper: the held-out rows summed by a helper (ServeHelper
// at the other end of Options.Helper) while the solver searches give the
// model of the solve alone, bit for bit, for classification and regression,
// with the search and with λ fixed, in float64 and float32 arithmetic,
// and with a factorization shared after (m ≥ linalg.ShareMin).
func TestSolveHeldOutHelper(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		m    int
		opt  Options
	}{
		{"classification, λ searched", 24, Options{Classes: 3}},
		{"regression, λ searched", 24, Options{Task: Regression, Criterion: Holdout}},
		{"classification, λ fixed", 24, Options{Classes: 3, Lambda: 0.3}},
		{"classification, float32 Gram", 40, Options{Classes: 3, Gram: rf.Float32}},
		{"classification, shared factorization", linalg.ShareMin, Options{Classes: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			n := 160
			if tc.m >= linalg.ShareMin {
				n = 400
			}
			X, y := fixture.Data(n, tc.m, 3, 5)
			if tc.opt.Task == Regression {
				for i := range y {
					y[i] = X.At(i, 0) - 0.5*X.At(i, 1)
				}
			}
			kept, phiH, yh := keptAndHeld(t, X, y, tc.opt)
			alone, err := kept.SolveHeldOut(phiH, yh)
			if err != nil {
				t.Fatal(err)
			}
			if kept.Rows() != n {
				t.Errorf("the accumulator holds %d rows after the solve, want %d", kept.Rows(), n)
			}
			solver, helper := fixture.Pipes()
			done := make(chan error, 1)
			go func() { done <- ServeHelper(helper) }()
			opt := tc.opt
			opt.Helper = solver
			kept, phiH, yh = keptAndHeld(t, X, y, opt)
			helped, err := kept.SolveHeldOut(phiH, yh)
			if err != nil {
				t.Fatal(err)
			}
			_ = linalg.EndShare(solver)
			if err := <-done; err != nil {
				t.Fatalf("the helper: %v", err)
			}
			if sent := solver.Sent(); tc.opt.Lambda > 0 && sent != 1 || tc.opt.Lambda == 0 && sent < 3 {
				t.Errorf("the solver sent %d messages: the held-out rows %s", sent, map[bool]string{true: "went to the helper with λ fixed", false: "were summed here"}[tc.opt.Lambda > 0])
			}
			if helped.Lambda() != alone.Lambda() {
				t.Errorf("λ %v with the helper, %v alone", helped.Lambda(), alone.Lambda())
			}
			wa, ba := alone.Coefficients()
			wh, bh := helped.Coefficients()
			fixture.SameBits(t, "the coefficients with the helper", wh.RawMatrix().Data, wa.RawMatrix().Data)
			fixture.SameBits(t, "the intercepts with the helper", bh, ba)
			for i, p := range helped.Curve() {
				if p != alone.Curve()[i] {
					t.Errorf("curve point %d: %+v with the helper, %+v alone", i, p, alone.Curve()[i])
				}
			}
		})
	}
}

// TestServeHelperFaults: a helper given a malformed message tells the
// solver why (linalg.Expect reads it) and stops; a solve whose helper
// failed returns the helper's error.
func TestServeHelperFaults(t *testing.T) {
	t.Parallel()
	const m = 8
	opts, _ := json.Marshal(heldOptions(Options{Classes: 2}))
	form := func(rows, cols int, phi, y []float64) []byte {
		b := wire.AppendHeader([]byte{msgHeld}, heldMagic, heldVersion)
		b = wire.AppendU64(b, uint64(len(opts)))
		b = append(b, opts...)
		b = wire.AppendU64(wire.AppendU64(b, uint64(rows)), uint64(cols))
		return wire.AppendF64s(wire.AppendF64s(b, phi...), y...)
	}
	good := form(2, m, make([]float64, 2*m), []float64{0, 1})
	nan := make([]float64, 2*m)
	nan[3] = math.NaN()
	for _, tc := range []struct {
		name string
		msgs [][]byte
		want string
	}{
		{"empty", [][]byte{{}}, "empty"},
		{"sums asked first", [][]byte{{msgWant}}, "before the held-out rows"},
		{"not the form", [][]byte{append([]byte{msgHeld}, "nonsense"...)}, "not held-out rows"},
		{"cut short", [][]byte{good[:len(good)-9]}, "held-out rows"},
		{"a NaN", [][]byte{form(2, m, nan, []float64{0, 1})}, "NaN"},
		{"no rows", [][]byte{form(0, m, nil, nil)}, "at least one row"},
		{"a class out of range", [][]byte{form(2, m, make([]float64, 2*m), []float64{0, 2})}, "class"},
		{"a factorization step first", [][]byte{{'S'}}, "before the factorization started"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			solver, helper := fixture.Pipes()
			done := make(chan error, 1)
			go func() { done <- ServeHelper(helper) }()
			for _, b := range tc.msgs {
				_ = solver.Send(b)
			}
			if len(tc.msgs[0]) > 0 && tc.msgs[0][0] == msgHeld {
				_ = solver.Send([]byte{msgWant})
			}
			reply, _ := solver.Recv()
			err := linalg.Expect(reply, msgSums)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("the solver read %v, want the helper's fault naming %q", err, tc.want)
			}
			if herr := <-done; herr == nil {
				t.Error("the helper returned nil after a fault")
			}
		})
	}
	t.Run("the solve returns the helper's error", func(t *testing.T) {
		t.Parallel()
		X, y := fixture.Data(160, m, 2, 7)
		solver, helper := fixture.Pipes()
		go func() {
			_, _ = helper.Recv() // the held-out rows
			_, _ = helper.Recv() // asked for their sums
			linalg.SendFault(helper, check.New(check.Internal, "", "out of memory"))
		}()
		kept, phiH, yh := keptAndHeld(t, X, y, Options{Classes: 2, Helper: solver})
		rows := kept.Rows()
		_, err := kept.SolveHeldOut(phiH, yh)
		if err == nil || !strings.Contains(err.Error(), "out of memory") {
			t.Errorf("SolveHeldOut: %v, want the helper's fault", err)
		}
		if kept.Rows() != rows {
			t.Errorf("failed, yet the accumulator holds %d rows, not %d", kept.Rows(), rows)
		}
	})
}

// TestHelpsHeld: a helper sums r held-out rows of m features from
// r·m² = 2²⁶ multiply-adds on (the figure ARCHITECTURE.md and the
// package's README give, with 400 rows of 512 features as their example).
func TestHelpsHeld(t *testing.T) {
	for _, tc := range []struct {
		r, m int
		want bool
	}{
		{256, 512, true}, {255, 512, false}, {400, 512, true}, {1 << 26, 1, true},
		{0, 2048, false}, {2000, 0, false}, {2000, 181, false},
	} {
		if got := HelpsHeld(tc.r, tc.m); got != tc.want {
			t.Errorf("HelpsHeld(%d, %d) = %v, want %v", tc.r, tc.m, got, tc.want)
		}
	}
}
