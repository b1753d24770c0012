package rf

import (
	"math"
	"math/bits"
)

// fftPlan is an in-place radix-2 complex FFT of one power-of-two length
// with precomputed twiddles. TensorSketch uses it instead of go-dsp's
// radix-2 code, which allocates and starts GOMAXPROCS goroutines on every
// call (about 10× slower per row); go-dsp still serves other lengths.
// Butterflies round every product before adding, so results are the same
// on every platform.
type fftPlan struct {
	n   int
	tw  []complex128 // e^{−2πik/n}, k < n/2
	rev []int32      // bit-reversal permutation
}

func newFFTPlan(n int) *fftPlan {
	p := &fftPlan{n: n, tw: make([]complex128, n/2), rev: make([]int32, n)}
	for k := range p.tw {
		s, c := math.Sincos(-2 * math.Pi * float64(k) / float64(n))
		p.tw[k] = complex(c, s)
	}
	shift := 64 - bits.Len(uint(n-1))
	for i := range p.rev {
		if n > 1 {
			p.rev[i] = int32(bits.Reverse64(uint64(i)) >> shift)
		}
	}
	return p
}

// transform replaces x (length n) by its DFT, or by n times its inverse DFT
// when inverse is set.
func (p *fftPlan) transform(x []complex128, inverse bool) {
	x = x[:p.n]
	for i, r := range p.rev {
		if int(r) > i {
			x[i], x[r] = x[r], x[i]
		}
	}
	for size := 2; size <= p.n; size <<= 1 {
		half, step := size/2, p.n/size
		for start := 0; start < p.n; start += size {
			a, b := x[start:start+half], x[start+half:start+size]
			for j := range a {
				w := p.tw[j*step]
				wr, wi := real(w), imag(w)
				if inverse {
					wi = -wi
				}
				br, bi := real(b[j]), imag(b[j])
				tr := float64(wr*br) - float64(wi*bi)
				ti := float64(wr*bi) + float64(wi*br)
				ar, ai := real(a[j]), imag(a[j])
				a[j] = complex(ar+tr, ai+ti)
				b[j] = complex(ar-tr, ai-ti)
			}
		}
	}
}
