package linalg

import (
	"runtime"
	"sync"
	"sync/atomic"
)

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
