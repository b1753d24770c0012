package krr

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"ntkrf/internal/fixture"
)

// TestMergeRowBits: merging sums (a part's C and the means' correction,
// one call of mergeRow per row) gives the bits of the loop over the whole
// upper triangle it replaced, for parts with and without C, and for an
// empty accumulator (no correction).
func TestMergeRowBits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		m, na, nb int
		withC     bool
	}{
		{1, 3, 2, true}, {7, 5, 9, true}, {33, 100, 7, true}, {33, 100, 7, false}, {20, 0, 4, true},
	} {
		r := rand.New(rand.NewPCG(uint64(c.m), uint64(c.nb)))
		a, err := NewAccumulator(c.m, Options{Task: Regression})
		if err != nil {
			t.Fatal(err)
		}
		a.n = c.na
		for i := range a.c {
			a.c[i] = r.NormFloat64()
		}
		for i := range a.mu {
			a.mu[i] = r.NormFloat64()
		}
		bmu := make([]float64, c.m)
		for i := range bmu {
			bmu[i] = r.NormFloat64()
		}
		bc := make([]float64, c.m*c.m)
		for i := range bc {
			bc[i] = r.NormFloat64()
		}
		// The former loop, on a copy of C.
		want := append([]float64(nil), a.c...)
		n := c.na + c.nb
		f := float64(c.na) * float64(c.nb) / float64(n)
		for i := 0; i < c.m; i++ {
			row := want[i*c.m : (i+1)*c.m]
			if c.withC {
				for j, v := range bc[i*c.m+i : (i+1)*c.m] {
					row[i+j] += v
				}
			}
			if f != 0 {
				fi := f * (bmu[i] - a.mu[i])
				for j := i; j < c.m; j++ {
					row[j] += fi * (bmu[j] - a.mu[j])
				}
			}
		}
		var cb func(i int) []float64
		if c.withC {
			cb = upper(bc, c.m)
		}
		a.mergeMoments(c.nb, bmu, make([]float64, a.k), cb, nil, nil)
		fixture.SameBits(t, fmt.Sprintf("%+v", c), a.c, want)
	}
}
