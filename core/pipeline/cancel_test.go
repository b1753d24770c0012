package pipeline

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"ntkrf/core/errs"
	"ntkrf/core/krr"
	"ntkrf/core/rf"
	"ntkrf/internal/fixture"
)

// TestCancelIsPrompt: a long fit ('auto' scoring exact kernels on 2,500
// rows, seconds per candidate) cancelled at random points returns the
// context's error within 100 ms (the median of the cancels), and reports
// no progress after it returned.
func TestCancelIsPrompt(t *testing.T) {
	if testing.Short() {
		t.Skip("a long fit, cancelled several times")
	}
	X, y := fixture.Data(2500, 8, 3, 7)
	r := rand.New(rand.NewPCG(3, 3))
	var lat []time.Duration
	for trial := range 5 {
		ctx, cancel := context.WithCancel(context.Background())
		var returned, late atomic.Bool
		cfg := Config{Features: rf.Config{Dim: 64}, Search: Search{Rows: 2500}, Ridge: krr.Options{Task: krr.Classification}}
		cfg.Ridge.Progress = func(done, total int, stage string) {
			if returned.Load() {
				late.Store(true)
			}
		}
		at := time.Duration(r.IntN(1500)) * time.Millisecond
		done := make(chan error, 1)
		var back time.Time
		go func() {
			_, err := Fit(ctx, X, y, cfg)
			back = time.Now()
			returned.Store(true)
			done <- err
		}()
		time.Sleep(at)
		t0 := time.Now()
		cancel()
		err := <-done
		lat = append(lat, back.Sub(t0))
		if !errors.Is(err, context.Canceled) || errs.CodeOf(err) != errs.Aborted {
			t.Fatalf("trial %d, cancelled after %v: %v", trial, at, err)
		}
		time.Sleep(50 * time.Millisecond)
		if late.Load() {
			t.Errorf("trial %d: progress reported after Fit returned", trial)
		}
	}
	slices.Sort(lat)
	if med := lat[len(lat)/2]; med > 100*time.Millisecond {
		t.Errorf("Fit returned %v after the cancel (median of %v); want within 100 ms", med, lat)
	}
	t.Logf("returned after the cancel in %v", lat)
}
