package data

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
)

// Stream constants make Split and KFold draw different permutations from
// the same seed.
const (
	splitStream = 0x5eed_5917
	kfoldStream = 0x5eed_f01d
)

// DefaultTestFraction and DefaultFolds are what Split and KFold use for a
// zero testFraction or k.
const (
	DefaultTestFraction = 0.25
	DefaultFolds        = 4
)

// MinFolds is the fewest folds KFold makes: every row is tested once and
// trained on in the other folds.
const MinFolds = 2

// MaxIndices bounds the indices one call returns: n for Split, KFold and
// Complement, k·n for Folds (every fold's training and test part). Indices
// are cheap in Go (8 bytes) but cost about 100 bytes each in a JavaScript
// host that receives them as a JSON array, so ten million is about a
// gigabyte there; a data set of more rows does not fit a browser tab anyway.
// Sizes are checked before anything is allocated.
const MaxIndices = 10_000_000

// checkCount refuses a row count n that is negative or whose indices (n,
// times the folds for Folds) would exceed MaxIndices.
func checkCount(n, times int) error {
	if n < 0 {
		return check.New(check.Option, "n", "data: the row count %d is negative; give the number of rows", n)
	}
	if float64(n)*float64(times) > MaxIndices {
		if times > 1 {
			return check.New(check.TooLarge, "k", "data: %d folds of %d rows return %d indices (every fold lists its training and test rows), over the limit of %d; use fewer folds or rows",
				times, n, int64(n)*int64(times), MaxIndices)
		}
		return check.New(check.TooLarge, "n", "data: %d rows is over the limit of %d indices one call returns; use fewer rows", n, MaxIndices)
	}
	return nil
}

// Split shuffles 0…n−1 with the seed and returns the training and test
// indices, each sorted. The test part has round(n·testFraction) indices,
// at least one, and at least one index is left for training; testFraction
// 0 means DefaultTestFraction.
func Split(n int, testFraction float64, seed uint64) (train, test []int, err error) {
	if err := check.Seed("data", "seed", seed); err != nil {
		return nil, nil, err
	}
	if testFraction == 0 {
		testFraction = DefaultTestFraction
	}
	if err := checkCount(n, 1); err != nil {
		return nil, nil, err
	}
	if n < 2 {
		return nil, nil, check.New(check.Option, "n", "data: cannot split %d rows; a split needs at least 2", n)
	}
	if !(testFraction > 0 && testFraction < 1) {
		return nil, nil, check.New(check.Option, "testFraction", "data: test fraction %v is out of range; use a value strictly between 0 and 1", testFraction)
	}
	m := min(max(int(math.Round(float64(n)*testFraction)), 1), n-1)
	perm := rand.New(rand.NewPCG(seed, splitStream)).Perm(n)
	test, train = perm[:m], perm[m:]
	slices.Sort(test)
	slices.Sort(train)
	return train, test, nil
}

// KFold shuffles 0…n−1 with the seed and deals it into k folds whose
// sizes differ by at most one; each fold (sorted) is the test part of one
// round, its Complement the training part. k 0 means DefaultFolds.
func KFold(n, k int, seed uint64) ([][]int, error) {
	if err := check.Seed("data", "seed", seed); err != nil {
		return nil, err
	}
	if k == 0 {
		k = DefaultFolds
	}
	if err := checkFolds(n, k, 1); err != nil {
		return nil, err
	}
	perm := rand.New(rand.NewPCG(seed, kfoldStream)).Perm(n)
	folds := make([][]int, k)
	start := 0
	for f := range folds {
		size := n / k
		if f < n%k {
			size++
		}
		folds[f] = perm[start : start+size : start+size]
		slices.Sort(folds[f])
		start += size
	}
	return folds, nil
}

// checkFolds refuses k folds of n rows unless 2 ≤ k ≤ n and the call
// returns at most MaxIndices indices (n·times).
func checkFolds(n, k, times int) error {
	if err := checkCount(n, 1); err != nil {
		return err
	}
	if k < MinFolds || k > n {
		return check.New(check.Option, "k", "data: cannot make %d folds of %d rows; use 2 ≤ k ≤ rows", k, n)
	}
	return checkCount(n, times)
}

// Fold is one round of k-fold cross-validation: the rows it trains on and
// the rows it tests on, each sorted.
type Fold struct {
	Train []int `json:"train"`
	Test  []int `json:"test"`
}

// Folds is KFold with each fold's training part: k rounds that list all n
// rows each, so k·n indices in all (at most MaxIndices).
func Folds(n, k int, seed uint64) ([]Fold, error) {
	if err := check.Seed("data", "seed", seed); err != nil {
		return nil, err
	}
	if k == 0 {
		k = DefaultFolds
	}
	if err := checkFolds(n, k, k); err != nil {
		return nil, err
	}
	tests, err := KFold(n, k, seed)
	if err != nil {
		return nil, err
	}
	out := make([]Fold, len(tests))
	for i, test := range tests {
		train, err := Complement(n, test)
		if err != nil {
			return nil, err
		}
		out[i] = Fold{train, test}
	}
	return out, nil
}

// Complement returns the indices in 0…n−1 that are not in idx, sorted.
// Indices out of range are ignored; n must be in 0…MaxIndices.
func Complement(n int, idx []int) ([]int, error) {
	if err := checkCount(n, 1); err != nil {
		return nil, err
	}
	in := make([]bool, n)
	for _, i := range idx {
		if i >= 0 && i < n {
			in[i] = true
		}
	}
	out := make([]int, 0, n)
	for i, ok := range in {
		if !ok {
			out = append(out, i)
		}
	}
	return out, nil
}

// Rows returns a new matrix holding the rows idx of X, in that order. It
// panics if idx is empty or an index is out of range.
func Rows(X *mat.Dense, idx []int) *mat.Dense {
	_, c := X.Dims()
	dst := mat.NewDense(len(idx), c, nil)
	for r, i := range idx {
		dst.SetRow(r, X.RawRowView(i))
	}
	return dst
}

// Take returns y[idx[0]], y[idx[1]], … in a new slice. It panics if an
// index is out of range.
func Take(y []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for r, i := range idx {
		out[r] = y[i]
	}
	return out
}
