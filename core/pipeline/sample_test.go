package pipeline

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// TestSampleIsPermsRows: the search sample, now drawn by a shuffle of
// int32 (half of Perm's memory), picks the rows Perm(n)[:k] picked, for
// several n, k and seeds, n near k included, in both element widths; the
// rows of SearchRows (and every checksum of a selection) stay as they were.
func TestSampleIsPermsRows(t *testing.T) {
	t.Parallel()
	perm := func(n, k int, seed uint64) []int {
		idx := rand.New(rand.NewPCG(seed, sampleStream)).Perm(n)[:k]
		slices.Sort(idx)
		return idx
	}
	for _, c := range []struct{ n, k int }{
		{2, 1}, {3, 2}, {10, 9}, {10, 8}, {100, 99}, {100, 1}, {257, 256},
		{1000, 100}, {4096, 4095}, {100_000, 4096}, {1 << 20, 4096},
	} {
		for _, seed := range []uint64{0, 1, 42, math.MaxUint64} {
			want := perm(c.n, c.k, seed)
			if got := sample(c.n, c.k, seed); !slices.Equal(got, want) {
				t.Errorf("sample(%d, %d, %d) differs from Perm's rows (first %v, want %v)", c.n, c.k, seed, got[:min(5, len(got))], want[:min(5, len(want))])
			}
			for _, got := range [][]int{
				shuffledPrefix[int32](rand.New(rand.NewPCG(seed, sampleStream)), c.n, c.k),
				shuffledPrefix[int](rand.New(rand.NewPCG(seed, sampleStream)), c.n, c.k),
			} {
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("shuffledPrefix(%d, %d) with seed %d differs from Perm's rows", c.n, c.k, seed)
				}
			}
		}
	}
	// k ≥ n: every row, in order.
	if got := sample(5, 7, 1); !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Errorf("sample(5, 7) = %v", got)
	}
}

// TestNarrowRows: the int32 shuffle holds every index below n up to
// MaxInt32 rows; beyond, sample shuffles ints (the same draws) rather than
// wrap an index.
func TestNarrowRows(t *testing.T) {
	for _, c := range []struct {
		n    int
		want bool
	}{{0, true}, {100_000_000, true}, {math.MaxInt32, true}, {math.MaxInt32 + 1, false}, {1 << 40, false}} {
		if got := narrowRows(c.n); got != c.want {
			t.Errorf("narrowRows(%d) = %v; want %v", c.n, got, c.want)
		}
	}
}

// TestSampleMemory: drawing k of n rows holds a shuffle of 4-byte
// indices, not Perm's 8-byte ints (0.8 GB at 100 M rows, now 0.4 GB).
// Not parallel: the heap's total allocation is the process's.
func TestSampleMemory(t *testing.T) {
	const n, k = 1 << 22, 64
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	idx := sample(n, k, 7)
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 5*n {
		t.Errorf("sample(%d, %d) allocated %d bytes (%.1f per row); want at most 5 per row", n, k, got, float64(got)/n)
	}
	if len(idx) != k {
		t.Errorf("%d rows; want %d", len(idx), k)
	}
}
