package rf

import (
	"fmt"
	"math"
	"runtime"
	"testing"
	"time"
)

// orthonormalizeMGS is the textbook modified Gram–Schmidt loop that
// orthonormalize reschedules: its bits are the reference.
func orthonormalizeMGS(b []float64, d int) {
	k := len(b) / d
	for i := 0; i < k; i++ {
		vi := b[i*d : (i+1)*d]
		for j := 0; j < i; j++ {
			vj := b[j*d : (j+1)*d]
			var p float64
			for t := range vi {
				p += float64(vi[t] * vj[t])
			}
			for t := range vi {
				vi[t] -= float64(p * vj[t])
			}
		}
		normalize(vi)
	}
}

// TestOrthonormalizeBits checks that the blocked, parallel orthonormalize
// gives the bits of the textbook loop for blocks of k ≤ d rows — fewer
// than one panel, partial groups, whole groups only, square blocks, and sizes large
// enough to run on several goroutines — on one core and on four; and that
// the rows are orthonormal. Modified Gram–Schmidt loses orthogonality in
// proportion to ε·κ, and a square Gaussian block has κ of order d with a
// heavy tail, so the bound is 1e-10 (measured 2e-16 … 1e-12 here).
func TestOrthonormalizeBits(t *testing.T) {
	shapes := []struct{ k, d int }{{1, 5}, {3, 3}, {31, 40}, {37, 40}, {50, 60}, {64, 64}, {100, 100}, {130, 301}, {257, 257}, {301, 310}}
	for _, s := range shapes {
		t.Run(fmt.Sprintf("k%d_d%d", s.k, s.d), func(t *testing.T) {
			want := gaussianRows(&gauss{r: newStream(uint64(s.k), s.d, 0)}, s.k, s.d)
			in := append([]float64(nil), want...)
			orthonormalizeMGS(want, s.d)
			for _, procs := range []int{1, 4} {
				got := append([]float64(nil), in...)
				old := runtime.GOMAXPROCS(procs)
				orthonormalize(got, s.d)
				runtime.GOMAXPROCS(old)
				for i := range got {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("GOMAXPROCS %d: entry %d (row %d) is %v, the textbook loop gives %v", procs, i, i/s.d, got[i], want[i])
					}
				}
			}
			if e := orthoError(want, s.k, s.d); e > 1e-10 {
				t.Errorf("max |QQᵀ − I| = %.3g, above 1e-10", e)
			} else {
				t.Logf("max |QQᵀ − I| = %.3g", e)
			}
		})
	}
}

// TestOrthogonalDirectionsBlocks checks that the "orthogonal" sampler's
// rows are orthonormal within each block of d and that the blocks are
// drawn independently (the first rows of two blocks are not orthogonal),
// at the shapes of a depth-2 split layer (rows over several blocks, a
// last partial block).
func TestOrthogonalDirectionsBlocks(t *testing.T) {
	for _, s := range []struct{ m, d int }{{100, 40}, {333, 150}} {
		w := directions("orthogonal", newStream(7, 1, tagA1), s.m, s.d, 0)
		for lo := 0; lo < s.m; lo += s.d {
			hi := min(lo+s.d, s.m)
			if e := orthoError(w[lo*s.d:hi*s.d], hi-lo, s.d); e > 1e-10 {
				t.Errorf("m %d, d %d: block at row %d has max |QQᵀ − I| = %.3g", s.m, s.d, lo, e)
			}
		}
		var p float64
		for t := range s.d {
			p += w[t] * w[s.d*s.d+t]
		}
		if math.Abs(p) < 1e-6 {
			t.Errorf("m %d, d %d: rows 0 and %d of different blocks have dot %.3g: blocks not independent", s.m, s.d, s.d, p)
		}
	}
}

// orthoError returns max |QQᵀ − I| over the k rows of q (k×d).
func orthoError(q []float64, k, d int) float64 {
	var e float64
	for i := range k {
		for j := range i + 1 {
			var p float64
			for t := range d {
				p += q[i*d+t] * q[j*d+t]
			}
			if i == j {
				p--
			}
			e = math.Max(e, math.Abs(p))
		}
	}
	return e
}

// BenchmarkOrthonormalize times the textbook loop and orthonormalize in
// the same run on the largest block of a depth-2 split map at d = 784,
// m = 4096 (888 rows of 784 + 888 inputs), and reports the ratio.
func BenchmarkOrthonormalize(b *testing.B) {
	const k, d = 888, 1672
	in := gaussianRows(&gauss{r: newStream(1, 2, tagA1)}, k, d)
	w := make([]float64, len(in))
	var plain, blocked time.Duration
	for b.Loop() {
		copy(w, in)
		t0 := time.Now()
		orthonormalizeMGS(w, d)
		t1 := time.Now()
		copy(w, in)
		orthonormalize(w, d)
		plain, blocked = plain+t1.Sub(t0), blocked+time.Since(t1)
	}
	b.ReportMetric(plain.Seconds()/float64(b.N), "textbook-s/op")
	b.ReportMetric(blocked.Seconds()/float64(b.N), "blocked-s/op")
	b.ReportMetric(plain.Seconds()/blocked.Seconds(), "speedup")
}
