package krr

import (
	"context"
	"errors"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/kernel"
	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
)

// TestContextStopsEveryFit: a fit takes its context as an argument (not in
// Options) and every entry point returns the context's error once it is
// cancelled: the primal (each criterion), the dual, the kernel and the
// accumulator's solves.
func TestContextStopsEveryFit(t *testing.T) {
	X, y := fixture.Data(60, 4, 2, 7)
	wide := identity{d: 4}
	opt := func(criterion Criterion) Options {
		return Options{Task: Classification, Classes: 2, Criterion: criterion, BlockRows: 16}
	}
	acc := func(t *testing.T, out []int) (*Accumulator, *mat.Dense, []float64) {
		a, err := NewAccumulator(4, opt(""))
		if err != nil {
			t.Fatal(err)
		}
		held := mat.NewDense(max(len(out), 1), 4, nil)
		if err := a.AddExcept(X, y, out, held, 0); err != nil {
			t.Fatal(err)
		}
		return a, held, []float64{y[0]}
	}
	cases := []struct {
		name string
		fit  func(ctx context.Context) error
	}{
		{"primal, gcv", func(ctx context.Context) error {
			_, err := FitFeaturesContext(ctx, wide, X, y, opt(GCV))
			return err
		}},
		{"primal, held out", func(ctx context.Context) error {
			_, err := FitFeaturesContext(ctx, wide, X, y, opt(Holdout))
			return err
		}},
		{"primal, loo", func(ctx context.Context) error {
			_, err := FitFeaturesContext(ctx, wide, X, y, opt(LOO))
			return err
		}},
		{"dual", func(ctx context.Context) error {
			_, err := FitFeaturesContext(ctx, wide, X.Slice(0, 3, 0, 4).(*mat.Dense), []float64{0, 1, 0}, opt(""))
			return err
		}},
		{"kernel", func(ctx context.Context) error {
			_, err := FitKernelContext(ctx, kernel.Spec{Name: "ntk", Depth: 1}, X, y, opt(""))
			return err
		}},
		{"accumulator, gcv", func(ctx context.Context) error {
			a, _, _ := acc(t, nil)
			_, err := a.SolveContext(ctx)
			return err
		}},
		{"accumulator, held out", func(ctx context.Context) error {
			a, held, yh := acc(t, []int{0})
			_, err := a.SolveHeldOutContext(ctx, held, yh)
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.fit(context.Background()); err != nil {
				t.Fatalf("not cancelled: %v", err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if err := tc.fit(ctx); !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled: got %v, want context.Canceled", err)
			}
		})
	}
}

// TestKernelCurveStopsItsReduction: cancelled during the reduction, the
// curve's reduction stops at its next panel and the call returns
// ERR_ABORTED.
func TestKernelCurveStopsItsReduction(t *testing.T) {
	const n = 600
	X, y := fixture.Data(n, 5, 3, 4)
	K, err := kernel.NTK(X, 2)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls, after := 0, 0
	opt := Options{Classes: 3, Progress: func(done, total int, stage string) {
		if stage != "eigen" {
			return
		}
		if calls++; calls == 2 {
			cancel()
		} else if calls > 2 {
			after++
		}
	}}
	_, _, err = KernelCurveContext(ctx, K, y, opt)
	if !errors.Is(err, context.Canceled) || check.CodeOf(err) != check.Aborted {
		t.Fatalf("cancelled: %v", err)
	}
	if after > 0 {
		t.Errorf("the reduction went on for %d panels after the cancel", after)
	}
	// Not cancelled: more panels than that.
	calls = 0
	if _, _, err := KernelCurveContext(context.Background(), K, y, Options{Classes: 3, Progress: opt.Progress}); err != nil || calls < 4 {
		t.Fatalf("uncancelled: %v after %d panels", err, calls)
	}
}
