package data

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"ntkrf/internal/check"
)

// TestSampleIsPermsRows: the sample (the fit's search sample, the CLI's
// subsets), drawn by a shuffle of int32 (half of Perm's memory), picks the
// rows Perm(n)[:k] picked, for several n, k and seeds, n near k included,
// in both element widths; the rows of SearchRows (and every checksum of a
// selection) stay as they were. Draw gives them in Perm's order.
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
		for _, seed := range []uint64{0, 1, 42, check.MaxSeed} {
			want := perm(c.n, c.k, seed)
			if got, err := Sample(c.n, c.k, seed); err != nil || !slices.Equal(got, want) {
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
	if got, err := Sample(5, 7, 1); err != nil || !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Errorf("Sample(5, 7) = %v, %v", got, err)
	}
}

// TestNarrowRows: the int32 shuffle holds every index below n up to
// MaxInt32 rows; beyond, draw shuffles ints (the same draws) rather than
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
	idx, err := Sample(n, k, 7)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 5*n {
		t.Errorf("sample(%d, %d) allocated %d bytes (%.1f per row); want at most 5 per row", n, k, got, float64(got)/n)
	}
	if len(idx) != k {
		t.Errorf("%d rows; want %d", len(idx), k)
	}
}

// TestDraw: Draw gives Perm(n)[:k] in its order, so designs of growing
// size are nested (each the first rows of the next), and Sample is Draw
// sorted; k ≥ n draws the whole shuffle.
func TestDraw(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ n, k int }{{1, 1}, {5, 2}, {100, 10}, {1000, 300}, {7, 7}, {7, 9}, {0, 3}} {
		for _, seed := range []uint64{1, 29} {
			want := rand.New(rand.NewPCG(seed, sampleStream)).Perm(c.n)[:min(c.k, c.n)]
			got, err := Draw(c.n, c.k, seed)
			if err != nil || !slices.Equal(got, want) {
				t.Errorf("Draw(%d, %d, %d) = %v, %v; want Perm's order %v", c.n, c.k, seed, got, err, want)
			}
			for j := range min(c.k, c.n) {
				if small, _ := Draw(c.n, j, seed); !slices.Equal(small, got[:j]) {
					t.Errorf("Draw(%d, %d, %d) is not the start of Draw(%d, %d)", c.n, j, seed, c.n, c.k)
				}
			}
			sorted, _ := Sample(c.n, c.k, seed)
			slices.Sort(got)
			if !slices.Equal(sorted, got) {
				t.Errorf("Sample(%d, %d, %d) = %v; want Draw's rows sorted %v", c.n, c.k, seed, sorted, got)
			}
		}
	}
}

// TestSampleRefuses: a negative count or size, or a seed no host carries,
// is a coded error, not a panic in make.
func TestSampleRefuses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n, k   int
		seed   uint64
		option string
	}{{-1, 2, 1, "n"}, {5, -1, 1, "k"}, {5, 2, check.MaxSeed + 1, "seed"}} {
		for name, f := range map[string]func(int, int, uint64) ([]int, error){"Sample": Sample, "Draw": Draw} {
			_, err := f(c.n, c.k, c.seed)
			var e *check.Error
			if !errors.As(err, &e) || e.Code != check.Option || e.Option != c.option {
				t.Errorf("%s(%d, %d, %d): %v; want an option error on %s", name, c.n, c.k, c.seed, err, c.option)
			}
		}
	}
}
