package wire

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestFiniteF64s: the first NaN or ±Inf is named by its index wherever it
// lies (in the first span, on either side of a span's end, in the last
// one), finite values pass, and a tail shorter than a value is not read.
func TestFiniteF64s(t *testing.T) {
	t.Parallel()
	const n = 3*8192 + 5 // values: spans of 8,192, and some
	for _, tc := range []struct {
		at   int // -1: all finite
		bad  float64
		tail int // bytes past the last value
	}{
		{-1, 0, 0}, {-1, 0, 7}, {0, math.NaN(), 0}, {8191, math.Inf(1), 0}, {8192, math.Inf(-1), 3},
		{2 * 8192, math.NaN(), 0}, {n - 1, math.Inf(1), 0},
	} {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i) - 1e3
		}
		if tc.at >= 0 {
			v[tc.at] = tc.bad
			v[min(tc.at+1, n-1)] = math.NaN() // only the first is named
			if tc.at == n-1 {
				v[n-1] = tc.bad
			}
		}
		b := append(AppendF64s(nil, v...), make([]byte, tc.tail)...)
		r := &Reader{}
		r.FiniteF64s("x", b)
		err := r.Err()
		switch {
		case tc.at < 0 && err != nil:
			t.Errorf("all finite, tail %d: %v", tc.tail, err)
		case tc.at >= 0 && (err == nil || !strings.Contains(err.Error(), fmt.Sprintf("x[%d] is %v", tc.at, tc.bad))):
			t.Errorf("%v at %d: got %v", tc.bad, tc.at, err)
		}
	}
}
