package data

import (
	"math"
	"math/rand/v2"
	"slices"

	"ntkrf/internal/check"
)

// sampleStream separates a sample's draws from the other draws of a seed
// (Split's, KFold's, the features'). It was the search sample's
// (pipeline), so the rows a fit's search scores are the same as before.
const sampleStream = 0x5e1ec7

// Sample returns min(n, k) of the rows 0…n−1, sorted: all of them when
// k ≥ n, else the rows Draw(n, k, seed) draws. It is the one rule every
// host and tool samples rows by (the fit's search sample, the CLI's
// subsets).
func Sample(n, k int, seed uint64) ([]int, error) {
	if err := checkSample(n, k, seed); err != nil {
		return nil, err
	}
	if k >= n {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx, nil
	}
	idx := draw(n, k, seed)
	slices.Sort(idx)
	return idx, nil
}

// Draw returns the first min(n, k) rows of a shuffle of 0…n−1 drawn with
// seed, in the order drawn: Draw(n, k) begins with Draw(n, j) for j < k
// (the shuffle's draws do not depend on k), so designs of growing size
// are nested. Sample gives the same rows sorted.
func Draw(n, k int, seed uint64) ([]int, error) {
	if err := checkSample(n, k, seed); err != nil {
		return nil, err
	}
	return draw(n, min(k, n), seed), nil
}

// checkSample refuses a negative count or size and a seed not every host
// carries. n is not bounded by MaxIndices: the shuffle holds 4 bytes a row
// (narrowRows), and a sample of a cluster's rows may be drawn from more.
func checkSample(n, k int, seed uint64) error {
	if n < 0 {
		return check.New(check.Option, "n", "data: the row count %d is negative; give the number of rows", n)
	}
	if k < 0 {
		return check.New(check.Option, "k", "data: the sample size %d is negative; give the number of rows to draw", k)
	}
	return check.Seed("data", "seed", seed)
}

// draw is r.Perm(n)[:k] for the sample's stream, in a shuffle of n
// int32 (half of Perm's memory) while the indices fit one.
func draw(n, k int, seed uint64) []int {
	r := rand.New(rand.NewPCG(seed, sampleStream))
	if narrowRows(n) {
		return shuffledPrefix[int32](r, n, k)
	}
	return shuffledPrefix[int](r, n, k)
}

// narrowRows says whether row indices below n fit in an int32, the
// shuffle's element: beyond, draw shuffles ints (the same draws, twice
// the memory) rather than refuse rows a cluster host can hold.
func narrowRows(n int) bool { return n <= math.MaxInt32 }

// shuffledPrefix is r.Perm(n)[:k], the same draws and the same rows (Perm
// is Shuffle on 0…n−1, whose draws do not depend on the element type), in
// a shuffle of n elements of T: an int32 shuffle holds half of Perm's
// memory, 0.4 GB rather than 0.8 GB at 100 M rows (a Beam plan's
// SearchRows).
func shuffledPrefix[T int32 | int](r *rand.Rand, n, k int) []int {
	p := make([]T, n)
	for i := range p {
		p[i] = T(i)
	}
	r.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	idx := make([]int, k)
	for i := range idx {
		idx[i] = int(p[i])
	}
	return idx
}
