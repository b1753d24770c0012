package rf

import (
	"fmt"
	"math"
	"math/bits"

	"ntkrf/internal/check"
)

// CountSketch maps R^in to R^out by hashing coordinate j to bucket h(j)
// with sign s(j): [C x]_i = Σ_{h(j)=i} s(j) x_j, so E[⟨Cx, Cy⟩] = ⟨x, y⟩
// (paper Section 2.3). It is drawn once from a seed and is safe for
// concurrent use.
type CountSketch struct {
	in, out int
	hash    []int32
	sign    []float64
}

// NewCountSketch draws a CountSketch from R^in to R^out.
func NewCountSketch(in, out int, seed uint64) (*CountSketch, error) {
	if err := checkSeed(seed); err != nil {
		return nil, err
	}
	if err := checkSketchDims(in, out); err != nil {
		return nil, err
	}
	return newCountSketch(in, out, seed, 0, tagSk0), nil
}

func newCountSketch(in, out int, seed uint64, layer, tag int) *CountSketch {
	r := newStream(seed, layer, tag)
	c := &CountSketch{in: in, out: out, hash: make([]int32, in), sign: make([]float64, in)}
	for j := range in {
		c.hash[j] = int32(r.IntN(out))
		c.sign[j] = float64(1 - 2*int(r.Uint64()>>63))
	}
	return c
}

func checkSketchDims(in ...int) error {
	for _, n := range in {
		if n <= 0 || n > MaxDim {
			return check.New(check.Option, "", "rf: sketch dimension %d is out of range; use 1 … %d", n, MaxDim)
		}
	}
	return nil
}

// In returns the input dimension.
func (c *CountSketch) In() int { return c.in }

// Out returns the output dimension.
func (c *CountSketch) Out() int { return c.out }

// Apply sets dst (length Out) to the sketch of x (length In). It panics if
// the lengths differ.
func (c *CountSketch) Apply(dst, x []float64) {
	if len(x) != c.in || len(dst) != c.out {
		panic(fmt.Sprintf("rf: CountSketch.Apply lengths %d, %d; want %d, %d", len(dst), len(x), c.out, c.in))
	}
	clear(dst)
	for j, v := range x {
		dst[c.hash[j]] += c.sign[j] * v
	}
}

// tensorSketcher is a sketch of u ⊗ v; buf holds scratch reused by one
// goroutine.
type tensorSketcher interface {
	Out() int
	apply(dst, u, v []float64, buf *scratch)
}

// scratch is per-goroutine memory for the sketches.
type scratch struct {
	a, b []float64
	z, w []complex128 // FFT data and Bluestein scratch
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// TensorSketch maps u ⊗ v (u in R^in1, v in R^in2) to R^out without forming
// the tensor product: iFFT(FFT(C1 u) ⊙ FFT(C2 v)) with independent
// CountSketches C1, C2 (Pham and Pagh), which is the CountSketch of u ⊗ v
// with hash h1+h2 mod out and sign s1·s2, so
// E⟨S(u⊗v), S(u'⊗v')⟩ = ⟨u,u'⟩⟨v,v'⟩. The two real FFTs share one complex
// FFT (of C1u + i·C2v). Any out works (radix 2 for powers of two,
// Bluestein otherwise). Safe for concurrent use.
type TensorSketch struct {
	c1, c2 *CountSketch
	plan   *fftPlan
}

// NewTensorSketch draws a TensorSketch from R^in1 ⊗ R^in2 to R^out.
func NewTensorSketch(in1, in2, out int, seed uint64) (*TensorSketch, error) {
	if err := checkSeed(seed); err != nil {
		return nil, err
	}
	if err := checkSketchDims(in1, in2, out); err != nil {
		return nil, err
	}
	return newTensorSketch(in1, in2, out, seed, 0), nil
}

func newTensorSketch(in1, in2, out int, seed uint64, layer int) *TensorSketch {
	t := &TensorSketch{
		c1: newCountSketch(in1, out, seed, layer, tagSk0),
		c2: newCountSketch(in2, out, seed, layer, tagSk1),
	}
	t.plan = newFFTPlan(out)
	return t
}

// Out returns the output dimension.
func (t *TensorSketch) Out() int { return t.c1.out }

// Apply sets dst (length Out) to the sketch of u ⊗ v. It panics if a length
// differs from the sketch's dimensions.
func (t *TensorSketch) Apply(dst, u, v []float64) {
	t.apply(dst, u, v, new(scratch))
}

func (t *TensorSketch) apply(dst, u, v []float64, buf *scratch) {
	n := t.c1.out
	buf.a, buf.b = grow(buf.a, n), grow(buf.b, n)
	t.c1.Apply(buf.a, u)
	t.c2.Apply(buf.b, v)
	t.convolve(dst, buf)
}

// applyParts is apply with v given as parts: v[j] = w[c]·x[j] for j in
// [off[c], off[c]+width[c]), the parts together covering v's indices in
// order (the split form's weighted Φ). The products are those apply
// would read from a weighted copy, added in the same order: the same bits
// without the copy.
func (t *TensorSketch) applyParts(dst, u, x []float64, off, width []int, w []float64, buf *scratch) {
	n := t.c1.out
	buf.a, buf.b = grow(buf.a, n), grow(buf.b, n)
	t.c1.Apply(buf.a, u)
	c2, b := t.c2, buf.b
	clear(b)
	for c, wc := range w {
		lo, hi := off[c], off[c]+width[c]
		hash, sign := c2.hash[lo:hi], c2.sign[lo:hi]
		for j, v := range x[lo:hi] {
			b[hash[j]] += sign[j] * (wc * v)
		}
	}
	t.convolve(dst, buf)
}

// convolve sets dst to the circular convolution of buf.a and buf.b, the
// two CountSketches, through one complex FFT.
func (t *TensorSketch) convolve(dst []float64, buf *scratch) {
	n := t.c1.out
	buf.z = grow(buf.z, n)
	for k := range n {
		buf.z[k] = complex(buf.a[k], buf.b[k])
	}
	buf.w = t.plan.transform(buf.z, false, buf.w)
	// With Z = FFT(a + ib): FFT(a)_k·FFT(b)_k = (Z_k² − conj(Z_{−k})²)/(4i).
	// Every pair (k, n−k) is read before either is written.
	Z := buf.z
	for k := 0; 2*k <= n; k++ {
		j := (n - k) % n
		zk, zj := Z[k], Z[j]
		Z[k] = convolved(zk, zj)
		Z[j] = convolved(zj, zk)
	}
	buf.w = t.plan.transform(Z, true, buf.w)
	inv := 1 / float64(n)
	for k := range dst {
		dst[k] = real(Z[k]) * inv
	}
}

// convolved returns (zk² − conj(zj)²)/(4i), the product of the transforms
// of the real and imaginary parts at frequency k, given zj = Z_{n−k}.
func convolved(zk, zj complex128) complex128 {
	kr, ki := real(zk), imag(zk)
	jr, ji := real(zj), -imag(zj)
	pr := (float64(kr*kr) - float64(ki*ki)) - (float64(jr*jr) - float64(ji*ji))
	pi := 2*float64(kr*ki) - 2*float64(jr*ji)
	return complex(pi/4, -pr/4)
}

// TensorSRHT maps u ⊗ v to R^out with Rademacher signs and subsampled
// randomized Hadamard transforms (Ahle et al.): with H the ±1 Hadamard
// matrix of the padded length,
// S(u⊗v)_i = (H D1 u)_{r1(i)} · (H D2 v)_{r2(i)} / √out, rows r1, r2 drawn
// uniformly, so E⟨S(u⊗v), S(u'⊗v')⟩ = ⟨u,u'⟩⟨v,v'⟩. Inputs are zero-padded
// to powers of two. Safe for concurrent use.
type TensorSRHT struct {
	in1, in2, out int
	p1, p2        int
	d1, d2        []float64
	r1, r2        []int32
	scale         float64
}

// NewTensorSRHT draws a TensorSRHT from R^in1 ⊗ R^in2 to R^out.
func NewTensorSRHT(in1, in2, out int, seed uint64) (*TensorSRHT, error) {
	if err := checkSeed(seed); err != nil {
		return nil, err
	}
	if err := checkSketchDims(in1, in2, out); err != nil {
		return nil, err
	}
	return newTensorSRHT(in1, in2, out, seed, 0), nil
}

func nextPow2(n int) int { return 1 << bits.Len(uint(n-1)) }

func newTensorSRHT(in1, in2, out int, seed uint64, layer int) *TensorSRHT {
	t := &TensorSRHT{in1: in1, in2: in2, out: out, p1: nextPow2(in1), p2: nextPow2(in2),
		scale: 1 / math.Sqrt(float64(out))}
	draw := func(tag, in, p int) ([]float64, []int32) {
		r := newStream(seed, layer, tag)
		d := make([]float64, in)
		for j := range d {
			d[j] = float64(1 - 2*int(r.Uint64()>>63))
		}
		rows := make([]int32, out)
		for i := range rows {
			rows[i] = int32(r.IntN(p))
		}
		return d, rows
	}
	t.d1, t.r1 = draw(tagSk0, in1, t.p1)
	t.d2, t.r2 = draw(tagSk1, in2, t.p2)
	return t
}

// Out returns the output dimension.
func (t *TensorSRHT) Out() int { return t.out }

// Apply sets dst (length Out) to the sketch of u ⊗ v. It panics if a length
// differs from the sketch's dimensions.
func (t *TensorSRHT) Apply(dst, u, v []float64) {
	t.apply(dst, u, v, new(scratch))
}

func (t *TensorSRHT) apply(dst, u, v []float64, buf *scratch) {
	if len(u) != t.in1 || len(v) != t.in2 || len(dst) != t.out {
		panic(fmt.Sprintf("rf: TensorSRHT.Apply lengths %d, %d, %d; want %d, %d, %d", len(dst), len(u), len(v), t.out, t.in1, t.in2))
	}
	buf.a, buf.b = grow(buf.a, t.p1), grow(buf.b, t.p2)
	clear(buf.a)
	clear(buf.b)
	for j, x := range u {
		buf.a[j] = t.d1[j] * x
	}
	for j, x := range v {
		buf.b[j] = t.d2[j] * x
	}
	fwht(buf.a)
	fwht(buf.b)
	for i := range dst {
		dst[i] = float64(buf.a[t.r1[i]]*buf.b[t.r2[i]]) * t.scale
	}
}

// fwhtPortable applies the unnormalized Walsh–Hadamard transform (entries
// ±1) in place; len(x) must be a power of two. It does the butterflies of
// fwhtRef, the textbook loop, in the same order per entry, so the bits are
// the same; it fuses the first three levels into one pass over blocks of 8
// and the others two at a time, which halves the passes over x and drops
// the short inner loops of the first levels (2.4× faster at 1024). fwht
// is this function, or its SIMD twin in WebAssembly.
func fwhtPortable(x []float64) {
	n := len(x)
	if n < 8 {
		fwhtRef(x)
		return
	}
	fwht8(x)
	h := 8
	for ; 4*h <= n; h *= 4 {
		// Levels h and 2h on the quadruples (j, j+h, j+2h, j+3h).
		for i := 0; i < n; i += 4 * h {
			q0 := x[i : i+h]
			q1 := x[i+h : i+2*h]
			q2 := x[i+2*h : i+3*h]
			q3 := x[i+3*h : i+4*h]
			for j := range q0 {
				u0, u1 := q0[j]+q1[j], q0[j]-q1[j]
				u2, u3 := q2[j]+q3[j], q2[j]-q3[j]
				q0[j], q2[j] = u0+u2, u0-u2
				q1[j], q3[j] = u1+u3, u1-u3
			}
		}
	}
	if h < n { // one level left
		a, b := x[:h], x[h:2*h]
		for j := range a {
			a[j], b[j] = a[j]+b[j], a[j]-b[j]
		}
	}
}

// fwht8 does the first three levels of fwhtPortable, on each block of 8.
func fwht8(x []float64) {
	n := len(x)
	for i := 0; i+8 <= n; i += 8 {
		v := x[i : i+8 : i+8]
		a0, a1 := v[0]+v[1], v[0]-v[1]
		a2, a3 := v[2]+v[3], v[2]-v[3]
		a4, a5 := v[4]+v[5], v[4]-v[5]
		a6, a7 := v[6]+v[7], v[6]-v[7]
		b0, b2 := a0+a2, a0-a2
		b1, b3 := a1+a3, a1-a3
		b4, b6 := a4+a6, a4-a6
		b5, b7 := a5+a7, a5-a7
		v[0], v[4] = b0+b4, b0-b4
		v[1], v[5] = b1+b5, b1-b5
		v[2], v[6] = b2+b6, b2-b6
		v[3], v[7] = b3+b7, b3-b7
	}
}

// fwhtRef is the Walsh–Hadamard transform as the textbook loop: the
// reference for fwht.
func fwhtRef(x []float64) {
	n := len(x)
	for h := 1; h < n; h <<= 1 {
		for i := 0; i < n; i += h << 1 {
			a, b := x[i:i+h], x[i+h:i+2*h]
			for j := range a {
				a[j], b[j] = a[j]+b[j], a[j]-b[j]
			}
		}
	}
}
