// WebAssembly runs a fit on the caller's goroutine (nothing could answer a
// cancel while it runs); the package ends a cancelled call's worker.

//go:build !js

package pipeline

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"ntkrf/core/data"
	"ntkrf/core/errs"
	"ntkrf/core/krr"
	"ntkrf/core/rf"
	"ntkrf/internal/fixture"
)

// TestCancelIsPrompt: a long fit ('auto' scoring exact kernels on 2,500
// rows, seconds per candidate; or 20,000 rows at m = 1024, features, sums
// and the solve) cancelled at random points returns the
// context's error within 100 ms (the median of the cancels), reports no
// progress after it returned, and the abandoned work stops soon after (at
// its next row block or reduction panel).
func TestCancelIsPrompt(t *testing.T) {
	if testing.Short() {
		t.Skip("a long fit, cancelled several times")
	}
	small, ys := fixture.Data(2500, 8, 3, 7)
	big, yb := fixture.Data(20000, 8, 3, 7)
	r := rand.New(rand.NewPCG(3, 3))
	var lat, stopped []time.Duration
	for trial, tries := 0, 0; trial < 6; tries++ {
		if tries == 30 {
			t.Fatalf("%d of 30 fits were cancelled; the rest finished first", trial)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var returned, late atomic.Bool
		X, y := small, ys
		cfg := Config{Features: rf.Config{Dim: 64}, Search: Search{Rows: 2500}, Ridge: krr.Options{Task: krr.Classification}}
		if trial%2 == 1 {
			X, y = big, yb
			cfg = Config{Features: rf.Config{Dim: 1024, Depth: 2}, Preprocess: &data.Prep{}, Ridge: krr.Options{Task: krr.Classification}}
		}
		// The cancel comes from a report of the fit's own progress at or
		// after a random time, so it lands while the fit is running
		// however fast the machine (a timer alone can fire after a quick
		// machine has finished).
		at := time.Duration(r.IntN(1500)) * time.Millisecond
		start := time.Now()
		now := make(chan struct{})
		var once sync.Once
		cfg.Ridge.Progress = func(done, total int, stage string) {
			if returned.Load() {
				late.Store(true)
			}
			if time.Since(start) >= at {
				once.Do(func() { close(now) })
			}
		}
		done := make(chan error, 1)
		var back time.Time
		go func() {
			_, err := Fit(ctx, X, y, cfg)
			back = time.Now()
			returned.Store(true)
			done <- err
		}()
		var t0 time.Time
		select {
		case <-now:
			t0 = time.Now()
			cancel()
		case err := <-done:
			// Finished before the fit reported past at: nothing was
			// cancelled; try again with another time.
			cancel()
			running.Wait()
			if err != nil {
				t.Fatalf("trial %d, not cancelled: %v", trial, err)
			}
			continue
		}
		err := <-done
		if err == nil {
			// The report that triggered the cancel was the fit's last.
			continue
		}
		lat = append(lat, back.Sub(t0))
		if !errors.Is(err, context.Canceled) || errs.CodeOf(err) != errs.Aborted {
			t.Fatalf("trial %d, cancelled after %v: %v", trial, at, err)
		}
		running.Wait()
		stopped = append(stopped, time.Since(back))
		if late.Load() {
			t.Errorf("trial %d: progress reported after Fit returned", trial)
		}
		trial++
	}
	slices.Sort(stopped)
	if med := stopped[len(stopped)/2]; med > 2*time.Second {
		t.Errorf("the abandoned work stopped %v after Fit returned (median of %v)", med, stopped)
	}
	t.Logf("the abandoned work stopped %v after", stopped)
	slices.Sort(lat)
	if med := lat[len(lat)/2]; med > 100*time.Millisecond {
		t.Errorf("Fit returned %v after the cancel (median of %v); want within 100 ms", med, lat)
	}
	t.Logf("returned after the cancel in %v", lat)
}
