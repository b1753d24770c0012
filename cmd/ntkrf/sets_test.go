package main

import (
	"slices"
	"testing"
)

// sharedData is the shared CSV directory seen from this package.
const sharedData = "../../../shared/data"

func TestSubsample(t *testing.T) {
	tests := []struct{ n, k, want int }{{10, 0, 10}, {10, 10, 10}, {10, 20, 10}, {100, 7, 7}}
	for _, tc := range tests {
		idx := subsample(tc.n, tc.k, 3)
		if len(idx) != tc.want || !slices.IsSorted(idx) || len(slices.Compact(slices.Clone(idx))) != tc.want {
			t.Errorf("subsample(%d, %d) = %v: want %d distinct sorted indices", tc.n, tc.k, idx, tc.want)
		}
		if idx[0] < 0 || idx[len(idx)-1] >= tc.n {
			t.Errorf("subsample(%d, %d) = %v: index out of range", tc.n, tc.k, idx)
		}
		if !slices.Equal(idx, subsample(tc.n, tc.k, 3)) {
			t.Errorf("subsample(%d, %d) differs between calls with the same seed", tc.n, tc.k)
		}
	}
}
