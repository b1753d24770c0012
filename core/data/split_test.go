package data

import (
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
)

// partition checks that the parts are sorted, disjoint and cover 0…n−1.
func partition(t *testing.T, n int, parts ...[]int) {
	t.Helper()
	var all []int
	for _, p := range parts {
		if !slices.IsSorted(p) {
			t.Errorf("part %v is not sorted", p)
		}
		all = append(all, p...)
	}
	slices.Sort(all)
	for i, v := range all {
		if v != i || len(all) != n {
			t.Fatalf("parts %v do not partition 0…%d", parts, n-1)
		}
	}
}

func TestSplit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n        int
		fraction float64
		test     int
	}{
		{2, 0.5, 1}, {10, 0.25, 3}, {10, 0.01, 1}, {10, 0.99, 9}, {150, 0.2, 30}, {1001, 0.5, 501},
	}
	for _, tc := range tests {
		train, test, err := Split(tc.n, tc.fraction, 7)
		if err != nil {
			t.Fatal(err)
		}
		if len(test) != tc.test {
			t.Errorf("Split(%d, %v): %d test rows, want %d", tc.n, tc.fraction, len(test), tc.test)
		}
		partition(t, tc.n, train, test)
		train2, test2, _ := Split(tc.n, tc.fraction, 7)
		if !slices.Equal(train, train2) || !slices.Equal(test, test2) {
			t.Errorf("Split(%d, %v) differs between calls with seed 7", tc.n, tc.fraction)
		}
	}
	// Any fixed seed pair gives different shuffles of 100 rows unless the
	// generator is broken (the chance of equal halves is 1/C(100,50)).
	_, a, _ := Split(100, 0.5, 1)
	_, b, _ := Split(100, 0.5, 2)
	if slices.Equal(a, b) {
		t.Error("seeds 1 and 2 give the same split")
	}
	for _, bad := range []struct {
		n int
		f float64
	}{{1, 0.5}, {10, 1}, {10, -0.1}, {10, nan()}} {
		_, _, err := Split(bad.n, bad.f, 1)
		checkErr(t, "Split", err, []string{"data: "})
	}
	// Zero means the default.
	_, d0, _ := Split(100, 0, 7)
	_, d1, _ := Split(100, DefaultTestFraction, 7)
	if !slices.Equal(d0, d1) {
		t.Error("Split with fraction 0 is not the default split")
	}
}

func TestKFold(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ n, k int }{{2, 2}, {10, 3}, {150, 4}, {7, 7}, {1000, 10}} {
		folds, err := KFold(tc.n, tc.k, 42)
		if err != nil {
			t.Fatal(err)
		}
		if len(folds) != tc.k {
			t.Fatalf("KFold(%d, %d): %d folds", tc.n, tc.k, len(folds))
		}
		partition(t, tc.n, folds...)
		lo, hi := tc.n, 0
		for _, f := range folds {
			lo, hi = min(lo, len(f)), max(hi, len(f))
			rest, err := Complement(tc.n, f)
			if err != nil {
				t.Fatal(err)
			}
			partition(t, tc.n, f, rest)
		}
		if hi-lo > 1 {
			t.Errorf("KFold(%d, %d): fold sizes %d…%d", tc.n, tc.k, lo, hi)
		}
		again, _ := KFold(tc.n, tc.k, 42)
		if !slices.EqualFunc(folds, again, slices.Equal) {
			t.Errorf("KFold(%d, %d) differs between calls with seed 42", tc.n, tc.k)
		}
	}
	for _, bad := range [][2]int{{5, 1}, {5, 6}, {0, 2}} {
		_, err := KFold(bad[0], bad[1], 1)
		checkErr(t, "KFold", err, []string{"cannot make"})
	}
}

func TestRowsTakeComplement(t *testing.T) {
	t.Parallel()
	X := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	if got := Rows(X, []int{2, 0}); !mat.Equal(got, mat.NewDense(2, 2, []float64{5, 6, 1, 2})) {
		t.Errorf("Rows = %v", got.RawMatrix().Data)
	}
	if got := Take([]float64{7, 8, 9}, []int{1, 1, 2}); !slices.Equal(got, []float64{8, 8, 9}) {
		t.Errorf("Take = %v", got)
	}
	if got, err := Complement(5, []int{3, 0, 3, 9, -1}); err != nil || !slices.Equal(got, []int{1, 2, 4}) {
		t.Errorf("Complement = %v, %v", got, err)
	}
}

// Sizes are checked before anything is allocated: a count past MaxIndices
// (or folds × rows past it for Folds) is ERR_TOO_LARGE at once, never an
// out-of-memory crash, and a negative count an option error, never a panic.
func TestSplitSizesAreCheckedBeforeAllocating(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		call func() error
		code check.Code
	}{
		{"Split 2^40", func() error { _, _, err := Split(1<<40, 0.25, 1); return err }, check.TooLarge},
		{"Split 2^31", func() error { _, _, err := Split(1<<31, 0.25, 1); return err }, check.TooLarge},
		{"Split MaxIndices+1", func() error { _, _, err := Split(MaxIndices+1, 0.25, 1); return err }, check.TooLarge},
		{"Split -1", func() error { _, _, err := Split(-1, 0.25, 1); return err }, check.Option},
		{"KFold 2^31", func() error { _, err := KFold(1<<31, 4, 1); return err }, check.TooLarge},
		{"KFold -5", func() error { _, err := KFold(-5, 4, 1); return err }, check.Option},
		{"Folds 2^31", func() error { _, err := Folds(1<<31, 4, 1); return err }, check.TooLarge},
		{"Folds leave-one-out of 10^5", func() error { _, err := Folds(100_000, 100_000, 1); return err }, check.TooLarge},
		{"Folds k > n", func() error { _, err := Folds(5, 6, 1); return err }, check.Option},
		{"Complement -1", func() error { _, err := Complement(-1, nil); return err }, check.Option},
		{"Complement 2^40", func() error { _, err := Complement(1<<40, nil); return err }, check.TooLarge},
	} {
		err := tc.call()
		if check.CodeOf(err) != tc.code {
			t.Errorf("%s: %v (code %q), want %s", tc.name, err, check.CodeOf(err), tc.code)
		}
	}
	if _, err := Folds(MaxIndices/10, 10, 1); err != nil {
		t.Errorf("Folds at the limit: %v", err)
	}
}

func TestFoldsPairEachTestPartWithItsComplement(t *testing.T) {
	t.Parallel()
	folds, err := Folds(10, 3, 42)
	if err != nil {
		t.Fatal(err)
	}
	tests, _ := KFold(10, 3, 42)
	for i, f := range folds {
		if !slices.Equal(f.Test, tests[i]) {
			t.Errorf("fold %d tests %v, KFold says %v", i, f.Test, tests[i])
		}
		partition(t, 10, f.Train, f.Test)
	}
}

// TestSplitSeedsEveryHostCarries: a seed above 2^53−1 would become
// another seed in a JavaScript host, so Go refuses it too, as rf does.
func TestSplitSeedsEveryHostCarries(t *testing.T) {
	t.Parallel()
	const past = check.MaxSeed + 1
	for name, call := range map[string]func(seed uint64) error{
		"Split": func(s uint64) error { _, _, err := Split(10, 0.3, s); return err },
		"KFold": func(s uint64) error { _, err := KFold(10, 3, s); return err },
		"Folds": func(s uint64) error { _, err := Folds(10, 3, s); return err },
	} {
		if err := call(check.MaxSeed); err != nil {
			t.Errorf("%s with seed 2^53−1: %v", name, err)
		}
		if err := call(past); check.CodeOf(err) != check.Option || !strings.Contains(err.Error(), "2^53−1") {
			t.Errorf("%s with seed 2^53: %v; want ERR_OPTION naming 2^53−1", name, err)
		}
	}
}
