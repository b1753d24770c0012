package linalg

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// splitRange calls f on contiguous ranges covering [0, n), concurrently:
// p ranges, p at most workers, GOMAXPROCS and n/minLen (so each range has
// at least minLen indices); range w is [n·w/p, n·(w+1)/p). With p ≤ 1 it
// calls f(0, n) on this goroutine. Every even split of rows or columns
// over goroutines goes through here: callers make each index's result
// independent of the range it falls in, so the split changes no bit.
func splitRange(n, workers, minLen int, f func(lo, hi int)) {
	p := min(workers, runtime.GOMAXPROCS(0), n/max(1, minLen))
	if p <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for w := range p {
		wg.Go(func() { f(n*w/p, n*(w+1)/p) })
	}
	wg.Wait()
}

// coresFor is how many goroutines a call of work multiply-adds may
// share: every core (GOMAXPROCS) from minWork on, else one.
func coresFor(work, minWork int) int {
	if work < minWork {
		return 1
	}
	return runtime.GOMAXPROCS(0)
}

// minSplitWork is the number of multiply-adds below which split stays on
// one goroutine: about 10 µs of work, a few times the cost of starting one.
const minSplitWork = 1 << 14

// split calls f on ranges covering [0, n) with n·per multiply-adds in all:
// on [0, n) itself when that is too little to share or there are fewer
// indices than cores, else on one range per core, concurrently (see
// splitRange).
func split(n, per int, f func(lo, hi int)) {
	workers := coresFor(n*per, minSplitWork)
	if n < runtime.GOMAXPROCS(0) {
		workers = 1
	}
	splitRange(n, workers, 1, f)
}

// ParallelFor calls f(i) for i in [0, n) on up to GOMAXPROCS goroutines.
// Rows are handed out in small chunks so that triangular work stays
// balanced, one at a time when there are few (a handful of large tasks).
// In WebAssembly there is one thread and this is a plain loop.
func ParallelFor(n int, f func(i int)) {
	workers := runtime.GOMAXPROCS(0)
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	chunk := max(1, min(4, n/(4*workers)))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= n {
					return
				}
				for i := lo; i < min(lo+chunk, n); i++ {
					f(i)
				}
			}
		}()
	}
	wg.Wait()
}

// Progress reports the work done of the total after each panel of a
// reduction, and answers whether to stop: a reduction told to stop
// returns at once with results that mean nothing, and the caller, which
// asked, returns its context's error. A nil Progress neither reports nor
// stops.
type Progress func(done, total int) (stop bool)

func (p Progress) stop(done, total int) bool { return p != nil && p(done, total) }
