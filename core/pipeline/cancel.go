package pipeline

import (
	"context"
	"runtime"
	"sync"

	"ntkrf/internal/check"
)

// running counts the work of promptly's calls still going, returned or
// not (tests wait for abandoned work to stop).
var running sync.WaitGroup

// promptly runs f and returns its result, or, as soon as ctx is
// cancelled, ctx's error (ERR_ABORTED), whatever f is doing: a reduction's
// panel or a kernel matrix can take seconds on many rows, and a caller who
// cancels wants the call back now (within 100 ms). f sees the same ctx and
// stops at its next check (a row block, a reduction's panel) after the
// call has returned; progress, f's reporter, is silenced from the moment
// the call returns, so the caller hears nothing of the abandoned work.
//
// In WebAssembly (one thread, no preemption) f runs on the caller's
// goroutine: nothing could answer a cancel while it runs, and the package
// stops a cancelled call by ending its worker.
func promptly[T any](ctx context.Context, what string, progress func(done, total int, stage string), f func(progress func(done, total int, stage string)) (T, error)) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, check.Stopped(what, err)
	}
	if ctx.Done() == nil || runtime.GOOS == "js" {
		return f(progress)
	}
	var mu sync.Mutex
	quiet := false
	var report func(done, total int, stage string)
	if progress != nil {
		report = func(done, total int, stage string) {
			mu.Lock()
			defer mu.Unlock()
			if !quiet {
				progress(done, total, stage)
			}
		}
	}
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	running.Add(1)
	go func() {
		defer running.Done()
		v, err := f(report)
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		mu.Lock()
		quiet = true
		mu.Unlock()
		return zero, check.Stopped(what, ctx.Err())
	}
}
