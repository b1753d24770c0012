package krr

import (
	"cmp"
	"slices"
	"testing"
)

// holdoutBySort is HoldoutRows as first written: every index sorted by
// its hash, the first min(n/5, MaxHoldoutRows) kept.
func holdoutBySort(n int) []int {
	v := min(n/5, MaxHoldoutRows)
	if v < 1 {
		return nil
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(mix(uint64(a)), mix(uint64(b))) })
	out := idx[:v]
	slices.Sort(out)
	return out
}

// The cut holds out exactly the rows of the global sort, one row at a time.
func TestHoldoutCutIsTheSortedRule(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 4, 5, 9, 10, 97, 1000, 9999, 10000, 10004, 25000} {
		want := holdoutBySort(n)
		cut := NewHoldoutCut(n)
		if cut.Rows != len(want) {
			t.Errorf("n = %d: budget %d, want %d", n, cut.Rows, len(want))
		}
		var got []int
		for i := range n {
			if cut.Holds(uint64(i)) {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("n = %d: the cut holds %d rows out, not the %d of the sorted rule", n, len(got), len(want))
		}
	}
}
