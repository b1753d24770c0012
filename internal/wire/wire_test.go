package wire

import (
	"bytes"
	"encoding/binary"
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

// TestAppendF64s: the values' little-endian IEEE bits after what b holds,
// the buffer grown at most once whatever the count (it grew per value
// before), none when b has room.
func TestAppendF64s(t *testing.T) {
	vals := []float64{0, -0.0, 1.5, math.MaxFloat64, math.SmallestNonzeroFloat64, -3}
	for _, c := range []struct {
		name   string
		prefix []byte
		room   int
		allocs float64
	}{
		{"empty, no room", nil, 0, 1},
		{"a prefix, no room", []byte{7, 8, 9}, 0, 1},
		{"a prefix and room", []byte{7, 8, 9}, 8 * len(vals), 0},
	} {
		fresh := func() []byte { return append(make([]byte, 0, len(c.prefix)+c.room), c.prefix...) }
		b := AppendF64s(fresh(), vals...)
		if len(b) != len(c.prefix)+8*len(vals) || !bytes.Equal(b[:len(c.prefix)], c.prefix) {
			t.Fatalf("%s: %d bytes %v", c.name, len(b), b)
		}
		for i, v := range vals {
			if got := binary.LittleEndian.Uint64(b[len(c.prefix)+8*i:]); got != math.Float64bits(v) {
				t.Errorf("%s: value %d has bits %#x, want %#x", c.name, i, got, math.Float64bits(v))
			}
		}
		base := testing.AllocsPerRun(5, func() { fresh() })
		if allocs := testing.AllocsPerRun(5, func() { AppendF64s(fresh(), vals...) }) - base; allocs != c.allocs {
			t.Errorf("%s: %v allocations, want %v", c.name, allocs, c.allocs)
		}
	}
}
