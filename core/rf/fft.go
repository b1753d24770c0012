package rf

import (
	"math"
	"math/bits"
)

// fftPlan is a complex FFT of one length with precomputed twiddles:
// iterative radix 2 for powers of two, Bluestein's chirp-z algorithm on a
// radix-2 plan of length ≥ 2n−1 otherwise. TensorSketch uses it rather
// than go-dsp's FFT, which allocates and starts GOMAXPROCS goroutines on
// every call (7× slower per row at 2048, 10× at 2000); the tests use go-dsp
// as the reference. Butterflies round every product before adding, and the
// twiddles come from math.Sincos (pure Go), so results are the same on
// every platform.
type fftPlan struct {
	n    int
	tw   []complex128 // radix 2: e^{−2πik/n}, k < n/2
	swap []int32      // radix 2: the bit-reversal permutation's swaps, pairs i < j
	// Bluestein: chirp w_k = e^{−iπk²/n}, the radix-2 plan of length M
	// and the transform of the conjugate chirp, wrapped to length M.
	chirp []complex128
	inner *fftPlan
	bHat  []complex128
}

func newFFTPlan(n int) *fftPlan {
	if n&(n-1) != 0 {
		return newBluestein(n)
	}
	p := &fftPlan{n: n, tw: make([]complex128, n/2)}
	for k := range p.tw {
		s, c := math.Sincos(-2 * math.Pi * float64(k) / float64(n))
		p.tw[k] = complex(c, s)
	}
	if n > 1 {
		shift := 64 - bits.Len(uint(n-1))
		// The pairs themselves, not the permutation: which entries swap
		// follows no pattern a branch predictor learns. Fewer than n/2
		// pairs: the 4n bytes of the permutation it replaces.
		p.swap = make([]int32, 0, n)
		for i := range n {
			if j := int(bits.Reverse64(uint64(i)) >> shift); j > i {
				p.swap = append(p.swap, int32(i), int32(j))
			}
		}
	}
	return p
}

func newBluestein(n int) *fftPlan {
	m := nextPow2(2*n - 1)
	p := &fftPlan{n: n, chirp: make([]complex128, n), inner: newFFTPlan(m), bHat: make([]complex128, m)}
	for k := range p.chirp {
		// k² mod 2n keeps the angle exact and small.
		t := int64(k) * int64(k) % int64(2*n)
		s, c := math.Sincos(-math.Pi * float64(t) / float64(n))
		p.chirp[k] = complex(c, s)
	}
	for k, w := range p.chirp {
		p.bHat[k] = complex(real(w), -imag(w))
		if k > 0 {
			p.bHat[m-k] = p.bHat[k]
		}
	}
	p.inner.transform(p.bHat, false, nil)
	return p
}

// transform replaces x (length n) by its DFT, or by n times its inverse DFT
// when inverse is set. work is scratch for Bluestein plans (grown as
// needed; nil allocates) and is returned for reuse.
func (p *fftPlan) transform(x []complex128, inverse bool, work []complex128) []complex128 {
	x = x[:p.n]
	if p.inner != nil {
		return p.bluestein(x, inverse, work)
	}
	for k := 0; k+1 < len(p.swap); k += 2 {
		i, j := p.swap[k], p.swap[k+1]
		x[i], x[j] = x[j], x[i]
	}
	radix2(x, p.tw, inverse)
	return work
}

// radix2Portable does the butterflies of a radix-2 FFT of the
// bit-reversed x of length n = 2·len(tw), with twiddles tw (conjugated
// when inverse is set). radix2 is this function, or its SIMD twin in
// WebAssembly.
func radix2Portable(x, tw []complex128, inverse bool) { radix2Sizes(x, tw, inverse, 2, len(x)) }

// radix2Sizes does the levels of radix2Portable whose butterflies span
// lo … hi entries.
func radix2Sizes(x, tw []complex128, inverse bool, lo, hi int) {
	n := len(x)
	if lo == 2 && hi >= 2 {
		radix2Pairs(x, tw[0], inverse)
		lo = 4
	}
	for size := lo; size <= hi; size <<= 1 {
		half, step := size/2, n/size
		for start := 0; start < n; start += size {
			a, b := x[start:start+half], x[start+half:start+size]
			for j := range a {
				w := tw[j*step]
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

// radix2Pairs is radix2Sizes's first level, butterflies of neighbours
// with the one twiddle w: the same operations without two slices per
// butterfly (half the FFT's time went to this level in Go).
func radix2Pairs(x []complex128, w complex128, inverse bool) {
	wr, wi := real(w), imag(w)
	if inverse {
		wi = -wi
	}
	for s := 0; s+1 < len(x); s += 2 {
		p := x[s : s+2 : s+2]
		br, bi := real(p[1]), imag(p[1])
		tr := float64(wr*br) - float64(wi*bi)
		ti := float64(wr*bi) + float64(wi*br)
		ar, ai := real(p[0]), imag(p[0])
		p[0] = complex(ar+tr, ai+ti)
		p[1] = complex(ar-tr, ai-ti)
	}
}

// cmul returns a·b with every product rounded before the additions.
func cmul(a, b complex128) complex128 {
	ar, ai, br, bi := real(a), imag(a), real(b), imag(b)
	return complex(float64(ar*br)-float64(ai*bi), float64(ar*bi)+float64(ai*br))
}

func conj(a complex128) complex128 { return complex(real(a), -imag(a)) }

// bluestein computes X_k = w_k Σ_j (x_j w_j) conj(w_{k−j}) as a circular
// convolution of length M; the inverse uses IDFT(x) = conj(DFT(conj x)).
func (p *fftPlan) bluestein(x []complex128, inverse bool, work []complex128) []complex128 {
	m := p.inner.n
	work = grow(work, m)
	for k, v := range x {
		if inverse {
			v = conj(v)
		}
		work[k] = cmul(v, p.chirp[k])
	}
	clear(work[p.n:])
	p.inner.transform(work, false, nil)
	for k := range work {
		work[k] = cmul(work[k], p.bHat[k])
	}
	p.inner.transform(work, true, nil)
	inv := 1 / float64(m) // a power of two: exact
	for k := range x {
		v := cmul(work[k], p.chirp[k])
		v = complex(real(v)*inv, imag(v)*inv)
		if inverse {
			v = conj(v)
		}
		x[k] = v
	}
	return work
}
