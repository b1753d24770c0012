package rf

import (
	"fmt"
	"math"
	"math/cmplx"
	"testing"

	"github.com/mjibson/go-dsp/fft"

	"ntkrf/internal/fixture"
)

// randVec returns n standard normal numbers from stream seed.
func randVec(seed uint64, n int) []float64 {
	return gaussianRows(&gauss{r: newStream(seed, 0, 99)}, 1, n)
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// TestTensorSketchIsCountSketchOfProduct checks the FFT identity of Pham
// and Pagh: TensorSketch(u ⊗ v) equals the CountSketch of the explicit
// u ⊗ v with hash h1(i)+h2(j) mod out and sign s1(i)s2(j), for a
// power-of-two and a Bluestein length. Tolerance: FFT round-off, 1e-12
// relative to ‖u‖‖v‖.
func TestTensorSketchIsCountSketchOfProduct(t *testing.T) {
	t.Parallel()
	const tol = 1e-12
	for _, out := range []int{64, 45} {
		ts, err := NewTensorSketch(7, 11, out, 3)
		if err != nil {
			t.Fatal(err)
		}
		u, v := randVec(1, 7), randVec(2, 11)
		got := make([]float64, out)
		ts.Apply(got, u, v)
		want := make([]float64, out)
		for i := range u {
			for j := range v {
				h := (int(ts.c1.hash[i]) + int(ts.c2.hash[j])) % out
				want[h] += ts.c1.sign[i] * ts.c2.sign[j] * u[i] * v[j]
			}
		}
		scale := math.Sqrt(dot(u, u) * dot(v, v))
		for k := range got {
			if math.Abs(got[k]-want[k]) > tol*scale {
				t.Fatalf("out=%d entry %d: %v, explicit %v", out, k, got[k], want[k])
			}
		}
	}
}

// TestTensorSRHTFormula checks TensorSRHT against its definition with an
// explicit Sylvester–Hadamard matrix (non-power-of-two inputs, padded).
func TestTensorSRHTFormula(t *testing.T) {
	t.Parallel()
	const tol = 1e-12
	ts, err := NewTensorSRHT(5, 9, 20, 4)
	if err != nil {
		t.Fatal(err)
	}
	u, v := randVec(1, 5), randVec(2, 9)
	got := make([]float64, 20)
	ts.Apply(got, u, v)
	hadamard := func(i, j int) float64 { // (−1)^popcount(i&j)
		s := 1.0
		for x := i & j; x != 0; x &= x - 1 {
			s = -s
		}
		return s
	}
	for k := range got {
		var a, b float64
		for j := range u {
			a += hadamard(int(ts.r1[k]), j) * ts.d1[j] * u[j]
		}
		for j := range v {
			b += hadamard(int(ts.r2[k]), j) * ts.d2[j] * v[j]
		}
		if want := a * b / math.Sqrt(20); math.Abs(got[k]-want) > tol*math.Max(1, math.Abs(want)) {
			t.Fatalf("entry %d: %v, formula %v", k, got[k], want)
		}
	}
}

// TestSketchesPreserveInnerProducts checks E⟨Cu, Cu'⟩ = ⟨u,u'⟩ and
// E⟨S(u⊗v), S(u'⊗v')⟩ = ⟨u,u'⟩⟨v,v'⟩ over 20,000 seeds on tiny inputs,
// within nSE standard errors estimated from the same samples. The pairs are
// correlated so the targets sit far from 0: the standard error is about
// 0.3 % of the target, and the test insists that nSE of them stay below
// resolution, so a 3 % bias cannot pass (a 5 % error in the scale 1/√out
// biases by 9 %).
//
// The "u⊗u" cases sketch a vector with itself through sides of equal
// dimension: if both sides drew their signs and rows (or hashes) from one
// stream they would coincide, and for TensorSRHT the mean would be
// ‖u‖²‖u'‖² + 2⟨u,u'⟩² − 2Σⱼuⱼ²u'ⱼ² instead of ⟨u,u'⟩² (here 8.4
// against 3.8, some 200 standard errors).
func TestSketchesPreserveInnerProducts(t *testing.T) {
	t.Parallel()
	const (
		seeds      = 20000
		out        = 16
		nSE        = 4.5
		resolution = 0.03
	)
	u, u2 := []float64{1, 0.8, -0.6}, []float64{0.9, 1, -0.4}
	v, v2 := []float64{0.7, -1}, []float64{0.8, -0.7}
	type tensor interface {
		Apply(dst, u, v []float64)
	}
	tensorCase := func(draw func(in1, in2 int, seed uint64) tensor, x, x2, y, y2 []float64) func(uint64) float64 {
		a, b := make([]float64, out), make([]float64, out)
		return func(seed uint64) float64 {
			s := draw(len(x), len(y), seed)
			s.Apply(a, x, y)
			s.Apply(b, x2, y2)
			return dot(a, b)
		}
	}
	ts := func(in1, in2 int, seed uint64) tensor { s, _ := NewTensorSketch(in1, in2, out, seed); return s }
	srht := func(in1, in2 int, seed uint64) tensor { s, _ := NewTensorSRHT(in1, in2, out, seed); return s }
	cases := []struct {
		name string
		est  func(seed uint64) float64
		want float64
	}{
		{"countsketch", func() func(uint64) float64 {
			a, b := make([]float64, out), make([]float64, out)
			return func(seed uint64) float64 {
				c, _ := NewCountSketch(len(u), out, seed)
				c.Apply(a, u)
				c.Apply(b, u2)
				return dot(a, b)
			}
		}(), dot(u, u2)},
		{"tensorsketch u⊗v", tensorCase(ts, u, u2, v, v2), dot(u, u2) * dot(v, v2)},
		{"tensorsketch u⊗u", tensorCase(ts, u, u2, u, u2), dot(u, u2) * dot(u, u2)},
		{"tensorsrht u⊗v", tensorCase(srht, u, u2, v, v2), dot(u, u2) * dot(v, v2)},
		{"tensorsrht u⊗u", tensorCase(srht, u, u2, u, u2), dot(u, u2) * dot(u, u2)},
	}
	for _, c := range cases {
		est := make([]float64, seeds)
		for s := range est {
			est[s] = c.est(uint64(s))
		}
		mean, se := meanSE(est)
		if nSE*se > resolution*math.Abs(c.want) {
			t.Fatalf("%s: SE %.4f is too large to resolve a %g relative bias; use more seeds", c.name, se, resolution)
		}
		if math.Abs(mean-c.want) > nSE*se {
			t.Errorf("%s: mean %.5f, want %.5f: off by %.1f SE (SE %.5f)", c.name, mean, c.want, math.Abs(mean-c.want)/se, se)
		}
	}
}

// TestSketchesOfBasisVectors: every entry of a CountSketch is ±1 and every
// entry of a Hadamard matrix is ±1, so CountSketch keeps ‖eᵢ‖ = 1 and
// both tensor sketches keep ‖eᵢ ⊗ eⱼ‖ = 1 exactly, for every draw: any
// error in their scale shows without sampling noise.
func TestSketchesOfBasisVectors(t *testing.T) {
	t.Parallel()
	const tol = 1e-14 // a sum of out squares of ±1/√out
	basis := func(n, i int) []float64 {
		e := make([]float64, n)
		e[i] = 1
		return e
	}
	for _, out := range []int{1, 7, 16} {
		for seed := range uint64(4) {
			c, _ := NewCountSketch(5, out, seed)
			ts, _ := NewTensorSketch(5, 3, out, seed)
			srht, _ := NewTensorSRHT(5, 3, out, seed)
			dst := make([]float64, out)
			for i := range 5 {
				c.Apply(dst, basis(5, i))
				if got := dot(dst, dst); math.Abs(got-1) > tol {
					t.Errorf("out %d seed %d: ‖C e%d‖² = %v, want 1", out, seed, i, got)
				}
				for j := range 3 {
					for name, s := range map[string]interface{ Apply(dst, u, v []float64) }{"tensorsketch": ts, "tensorsrht": srht} {
						s.Apply(dst, basis(5, i), basis(3, j))
						if got := dot(dst, dst); math.Abs(got-1) > tol {
							t.Errorf("%s out %d seed %d: ‖S(e%d⊗e%d)‖² = %v, want 1", name, out, seed, i, j, got)
						}
					}
				}
			}
		}
	}
}

// TestFWHTBits: the fused transform gives the reference loop's bits at
// every length up to 2¹³ (odd and even numbers of levels).
func TestFWHTBits(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 1<<13; n *= 2 {
		x := randVec(uint64(n), n)
		got, want := append([]float64(nil), x...), append([]float64(nil), x...)
		fwht(got)
		fwhtRef(want)
		fixture.SameBits(t, fmt.Sprintf("fwht n = %d", n), got, want)
	}
}

// TestFWHT checks the fast transform against the Sylvester matrix.
func TestFWHT(t *testing.T) {
	t.Parallel()
	x := randVec(5, 16)
	got := append([]float64(nil), x...)
	fwht(got)
	for i := range 16 {
		var want float64
		for j := range 16 {
			s := 1.0
			for b := i & j; b != 0; b &= b - 1 {
				s = -s
			}
			want += s * x[j]
		}
		if math.Abs(got[i]-want) > 1e-12 {
			t.Fatalf("entry %d: %v, want %v", i, got[i], want)
		}
	}
}

func TestSketchErrors(t *testing.T) {
	t.Parallel()
	if _, err := NewCountSketch(0, 4, 1); err == nil {
		t.Error("NewCountSketch(0, 4) gave no error")
	}
	if _, err := NewTensorSketch(3, 3, -1, 1); err == nil {
		t.Error("NewTensorSketch(3, 3, -1) gave no error")
	}
	if _, err := NewTensorSRHT(3, MaxDim+1, 4, 1); err == nil {
		t.Error("NewTensorSRHT(3, MaxDim+1, 4) gave no error")
	}
}

func ExampleCountSketch() {
	c, err := NewCountSketch(4, 2, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	dst := make([]float64, 2)
	c.Apply(dst, []float64{1, 2, 3, 4})
	fmt.Println(dst)
	// Output:
	// [0 2]
}

func ExampleTensorSketch() {
	s, err := NewTensorSketch(2, 3, 4, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	dst := make([]float64, s.Out())
	s.Apply(dst, []float64{1, 2}, []float64{1, 0, -1})
	fmt.Printf("%.3g\n", dst)
	// Output:
	// [-1 2 1 -2]
}

func ExampleTensorSRHT() {
	s, err := NewTensorSRHT(2, 3, 4, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	dst := make([]float64, s.Out())
	s.Apply(dst, []float64{1, 2}, []float64{1, 2, 3})
	fmt.Printf("%.3g\n", dst)
	// Output:
	// [-9 -2 3 -3]
}

// TestFFTPlan checks the radix-2 and Bluestein transforms against go-dsp's
// FFT and IFFT to round-off (1e-12 relative to the input norm times n).
func TestFFTPlan(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 2, 8, 256, 3, 45, 1000} {
		re, im := randVec(1, n), randVec(2, n)
		x := make([]complex128, n)
		var norm float64
		for i := range x {
			x[i] = complex(re[i], im[i])
			norm += re[i]*re[i] + im[i]*im[i]
		}
		tol := 1e-12 * math.Sqrt(norm) * float64(n)
		want := fft.FFT(x)
		got := append([]complex128(nil), x...)
		p := newFFTPlan(n)
		p.transform(got, false, nil)
		for i := range got {
			if cmplx.Abs(got[i]-want[i]) > tol {
				t.Fatalf("n=%d: FFT entry %d %v, go-dsp %v", n, i, got[i], want[i])
			}
		}
		want = fft.IFFT(x)
		got = append(got[:0], x...)
		p.transform(got, true, nil)
		for i := range got {
			if cmplx.Abs(got[i]/complex(float64(n), 0)-want[i]) > tol {
				t.Fatalf("n=%d: inverse entry %d %v, go-dsp %v", n, i, got[i], want[i])
			}
		}
	}
}
