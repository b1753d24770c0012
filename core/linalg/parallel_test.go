package linalg

import (
	"runtime"
	"slices"
	"sync"
	"testing"
)

// TestSplitRange: the one even splitter of rows and columns (Mul, Mul32,
// Weights32.Mul, split, the eigensolver's rotations) covers [0, n) once,
// with p = min(workers, GOMAXPROCS, n/minLen) contiguous ranges [n·w/p,
// n·(w+1)/p), each of at least minLen indices, and one call on [0, n) when
// p ≤ 1. Not parallel: it sets GOMAXPROCS.
func TestSplitRange(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	for _, gp := range []int{1, 2, 3, 8} {
		runtime.GOMAXPROCS(gp)
		cores := runtime.GOMAXPROCS(0) // 1 in WebAssembly, whatever is set
		for _, n := range []int{0, 1, 2, 5, 7, 100, 1001} {
			for _, workers := range []int{0, 1, 2, 3, 16} {
				for _, minLen := range []int{0, 1, 2, 5} {
					var mu sync.Mutex
					var got [][2]int
					splitRange(n, workers, minLen, func(lo, hi int) {
						mu.Lock()
						got = append(got, [2]int{lo, hi})
						mu.Unlock()
					})
					slices.SortFunc(got, func(a, b [2]int) int { return a[0] - b[0] })
					p := min(workers, cores, n/max(1, minLen))
					var want [][2]int
					if p <= 1 {
						want = [][2]int{{0, n}}
					} else {
						for w := range p {
							want = append(want, [2]int{n * w / p, n * (w + 1) / p})
						}
					}
					if !slices.Equal(got, want) {
						t.Errorf("GOMAXPROCS %d, n %d, workers %d, minLen %d: ranges %v; want %v", gp, n, workers, minLen, got, want)
					}
					for _, r := range got {
						if p > 1 && r[1]-r[0] < max(1, minLen) {
							t.Errorf("GOMAXPROCS %d, n %d, workers %d, minLen %d: range %v shorter than %d", gp, n, workers, minLen, r, minLen)
						}
					}
				}
			}
		}
	}
}

// TestSplitPolicy: split and coresFor keep their thresholds: one range
// under minSplitWork multiply-adds or with fewer indices than cores, else
// one per core.
func TestSplitPolicy(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	runtime.GOMAXPROCS(4)
	cores := runtime.GOMAXPROCS(0) // 1 in WebAssembly
	for _, c := range []struct{ n, per, want int }{
		{128, minSplitWork / 128, cores},
		{128, minSplitWork/128 - 1, 1},
		{3, minSplitWork, 1},
		{4, minSplitWork, cores},
		{0, minSplitWork, 1},
	} {
		var mu sync.Mutex
		calls := 0
		split(c.n, c.per, func(lo, hi int) { mu.Lock(); calls++; mu.Unlock() })
		if calls != c.want {
			t.Errorf("split(%d, %d) on %d cores: %d ranges; want %d", c.n, c.per, cores, calls, c.want)
		}
	}
	if coresFor(minParallel-1, minParallel) != 1 || coresFor(minParallel, minParallel) != cores {
		t.Errorf("coresFor: %d below the threshold, %d at it; want 1 and %d", coresFor(minParallel-1, minParallel), coresFor(minParallel, minParallel), cores)
	}
}
