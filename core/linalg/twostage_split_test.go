package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The band reduction's trailing update split between two WebAssembly
// workers (docs/PERFORMANCE.md, "The package's one-worker stages"): for a
// boundary c, the second worker holds columns [c, n) of the symmetric A₂₂
// whole — the upper triangle's entries (i, j) with j ≥ c — and the first
// its rows [0, c), the entries with i < c (the block [0, c) × [c, n) is on
// both). The split keeps the bits of one worker only if each worker's
// columns of VᵀA₂₂ (symmLeft) and its entries of A₂₂ − VWᵀ − WVᵀ (rank2k)
// come out of what it holds alone, with the same operations: these tests
// hold symmLeft and rank2k to that, with every entry a worker does not
// hold poisoned (NaN).

// heldBy reports whether upper-triangle entry (i, j) is held by the
// second worker (second) or the first, for the boundary c.
func heldBy(second bool, i, j, c int) bool {
	if second {
		return j >= c
	}
	return i < c
}

// poisoned returns a copy of the n×n upper triangle s (stride lds) with
// the strict lower triangle, and every upper entry that holds does not
// keep (nil: all kept), set to NaN.
func poisoned(s []float64, lds, n int, holds func(i, j int) bool) []float64 {
	out := append([]float64(nil), s...)
	for i := range n {
		for j := range n {
			if j < i || holds != nil && !holds(i, j) {
				out[i*lds+j] = math.NaN()
			}
		}
	}
	return out
}

// worker returns what one worker holds for the boundary c.
func worker(second bool, c int) func(i, j int) bool {
	return func(i, j int) bool { return heldBy(second, i, j, c) }
}

// sameColumns reports whether columns [c0, c1) of the b×n xt and want
// (stride n) have the same bits, naming the first that differs.
func sameColumns(xt, want []float64, b, n, c0, c1 int) (bool, string) {
	for k := range b {
		for j := c0; j < c1; j++ {
			if math.Float64bits(xt[k*n+j]) != math.Float64bits(want[k*n+j]) {
				return false, fmt.Sprintf("row %d column %d is %v, want %v", k, j, xt[k*n+j], want[k*n+j])
			}
		}
	}
	return true, ""
}

func splitCases() []struct{ n, b, c int } {
	return []struct{ n, b, c int }{
		{n: 40, b: 8, c: 20},
		{n: 131, b: 16, c: 64}, // the boundary on a panel's edge
		{n: 131, b: 16, c: 65}, // and either side of it
		{n: 131, b: 16, c: 63},
		{n: 300, b: 64, c: 150},
		{n: 300, b: 64, c: 257}, // past the first symmKC block of rows
	}
}

// TestSplitSymmLeftColumns: each worker's columns of VᵀA₂₂ have the bits
// of the whole product from the entries it holds, and a boundary off by
// one (a column computed by the worker that does not hold it) reads an
// entry the worker lacks.
func TestSplitSymmLeftColumns(t *testing.T) {
	t.Parallel()
	for _, tc := range splitCases() {
		n, b, c := tc.n, tc.b, tc.c
		lds, ldv := n+5, b+3
		r := rand.New(rand.NewPCG(uint64(n), uint64(c)))
		s := randFloats(r, n*lds)
		v := randFloats(r, n*ldv)
		want := make([]float64, b*n)
		symmLeft(want, poisoned(s, lds, n, nil), lds, n, b, v, ldv, new(symmWork))
		for _, w := range []struct {
			name   string
			second bool
			c0, c1 int // the columns it computes
			wrong  int // the column one past its boundary
		}{
			{"first worker, columns [0, c)", false, 0, c, c},
			{"second worker, columns [c, n)", true, c, n, c - 1},
		} {
			xt := make([]float64, b*n)
			symmLeft(xt, poisoned(s, lds, n, worker(w.second, c)), lds, n, b, v, ldv, new(symmWork))
			if ok, why := sameColumns(xt, want, b, n, w.c0, w.c1); !ok {
				t.Errorf("n=%d c=%d, %s: %s", n, c, w.name, why)
			}
			if ok, _ := sameColumns(xt, want, b, n, w.wrong, w.wrong+1); ok {
				t.Errorf("n=%d c=%d, %s: column %d (the other worker's) came out whole; the boundary is not where the poisoning says", n, c, w.name, w.wrong)
			}
		}
	}
}

// TestSplitRank2kEntries: each worker's entries of A₂₂ − VWᵀ − WVᵀ have
// the bits of the whole update from the entries it holds (rank2k reads no
// other entry of A₂₂ to update one).
func TestSplitRank2kEntries(t *testing.T) {
	t.Parallel()
	for _, tc := range splitCases() {
		n, b, c := tc.n, tc.b, tc.c
		lds := n + 5
		r := rand.New(rand.NewPCG(uint64(n), uint64(c)+1))
		s := randFloats(r, n*lds)
		vt := randFloats(r, b*n)
		wt := randFloats(r, b*n)
		want := poisoned(s, lds, n, nil)
		rank2k(want, lds, vt, n, wt, n, b, n, make([]float64, 3*b*n))
		for _, second := range []bool{false, true} {
			got := poisoned(s, lds, n, worker(second, c))
			rank2k(got, lds, vt, n, wt, n, b, n, make([]float64, 3*b*n))
			for i := range n {
				for j := i; j < n; j++ {
					if heldBy(second, i, j, c) && math.Float64bits(got[i*lds+j]) != math.Float64bits(want[i*lds+j]) {
						t.Fatalf("n=%d c=%d, second worker %v: entry (%d, %d) is %v, want %v", n, c, second, i, j, got[i*lds+j], want[i*lds+j])
					}
				}
			}
		}
	}
}
