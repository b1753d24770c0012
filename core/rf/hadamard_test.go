package rf

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// hadamardDense builds the st×din matrix of directions hadamardProj
// applies, from explicit Hadamard and sign matrices: M = p^{−3/2}·H·D3·H·D2·H·D1
// per block, rows stacked, first din columns.
func hadamardDense(h *hadamardProj) []float64 {
	p := h.p
	H := make([]float64, p*p)
	for i := range p {
		for j := range p {
			s := 1.0
			for v := i & j; v != 0; v &= v - 1 {
				s = -s
			}
			H[i*p+j] = s
		}
	}
	mul := func(a, b []float64) []float64 {
		c := make([]float64, p*p)
		for i := range p {
			for l := range p {
				for j := range p {
					c[i*p+j] += a[i*p+l] * b[l*p+j]
				}
			}
		}
		return c
	}
	diag := func(d []float64) []float64 {
		m := make([]float64, p*p)
		for i, v := range d {
			m[i*p+i] = v
		}
		return m
	}
	out := make([]float64, h.st*h.din)
	for t, sg := range h.signs {
		M := mul(mul(mul(mul(mul(H, diag(sg[2])), H), diag(sg[1])), H), diag(sg[0]))
		for r := range p {
			row := t*p + r
			if row >= h.st {
				break
			}
			for j := range h.din {
				out[row*h.din+j] = M[r*p+j] * h.scale
			}
		}
	}
	return out
}

// TestHadamardMatchesDense: the fast transform applies the structured
// matrix it describes, for input sizes below, at and above a power of two
// and output sizes that cut a block.
func TestHadamardMatchesDense(t *testing.T) {
	t.Parallel()
	for _, s := range []struct{ din, st int }{{1, 3}, {5, 8}, {8, 8}, {13, 40}, {16, 37}, {33, 70}} {
		t.Run(fmt.Sprintf("din=%d,st=%d", s.din, s.st), func(t *testing.T) {
			h := newHadamardProj(s.din, s.st, newStream(3, 1, tagHadamard))
			W := hadamardDense(h)
			const b = 3
			x := gaussianRows(&gauss{r: newStream(4, 0, 0)}, b, s.din)
			out := make([]float64, b*s.st)
			h.apply(out, x, b, nil)
			for r := range b {
				for i := range s.st {
					want := 0.0
					for j := range s.din {
						want += W[i*s.din+j] * x[r*s.din+j]
					}
					// log₂p·3 rounded additions of terms of size ‖x‖/√p.
					if got := out[r*s.st+i]; math.Abs(got-want) > 1e-13*float64(s.din) {
						t.Fatalf("row %d, output %d: %g, want %g", r, i, got, want)
					}
				}
			}
		})
	}
}

// TestHadamardOrthogonal: within a block the directions are orthonormal
// (for din a power of two they are the rows of an orthogonal matrix), and
// over the first din coordinates every row keeps E‖u‖² = din/p, which the
// ReLU scale √(2p/m1) relies on.
func TestHadamardOrthogonal(t *testing.T) {
	t.Parallel()
	const p = hadamardMinOrder
	h := newHadamardProj(p, 2*p, newStream(5, 1, tagHadamard))
	W := hadamardDense(h)
	for blk := range 2 {
		for i := range p {
			for j := range p {
				dot := 0.0
				for k := range p {
					dot += W[(blk*p+i)*p+k] * W[(blk*p+j)*p+k]
				}
				want := 0.0
				if i == j {
					want = 1
				}
				if math.Abs(dot-want) > 1e-13 {
					t.Fatalf("block %d rows %d, %d: dot %g, want %g", blk, i, j, dot, want)
				}
			}
		}
	}
	// Restricted to din = 100 of p = 128 coordinates: the mean squared norm
	// over 1024 rows is din/p up to its sampling error (each row's norm²
	// lies in [0, 1], so its SE is below 0.5/√1024 ≈ 0.016).
	const din = 100
	h = newHadamardProj(din, 1024, newStream(6, 1, tagHadamard))
	W = hadamardDense(h)
	sum := 0.0
	for _, v := range W {
		sum += v * v
	}
	if mean, want := sum/1024, float64(din)/float64(h.p); math.Abs(mean-want) > 4*0.016 {
		t.Errorf("mean ‖u‖² over the first %d coordinates = %.4f, want %.4f", din, mean, want)
	}
}

// TestHadamardSmallInputs: at d = 2 the mean of Φ(x)·Φ(y) over 1024 seeds
// is within 4 standard errors of the exact kernel for arccos0, arccos1 and
// ntk, on pairs at several angles. With blocks of order 16, 32 or 64
// instead of 128 some pairs are off by 5–11 standard errors (11, 5 and 1
// failing checks), so the test fails.
func TestHadamardSmallInputs(t *testing.T) {
	t.Parallel()
	const seeds, nSE = 1024, 4.0
	X := mat.NewDense(4, 2, []float64{0.3, -1.2, 1.1, 0.4, -0.7, -0.9, 1, 0.9})
	for _, cfg := range []Config{{Method: "arccos0", Dim: 64}, {Method: "arccos1", Dim: 64}, {Method: "ntk", Depth: 1, Dim: 128}} {
		cfg.Sampler = "hadamard"
		K := exactKernel(t, cfg, X)
		for _, p := range [][2]int{{0, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3}, {2, 3}} {
			est := make([]float64, seeds)
			for s := range seeds {
				cfg.Seed = uint64(500 + s)
				f, err := New(cfg, 2)
				if err != nil {
					t.Fatal(err)
				}
				F, err := f.Transform(nil, X)
				if err != nil {
					t.Fatal(err)
				}
				est[s] = mat.Dot(F.RowView(p[0]), F.RowView(p[1]))
			}
			mean, se := meanSE(est)
			if want := K.At(p[0], p[1]); math.Abs(mean-want) > nSE*se {
				t.Errorf("%s, pair %v: mean %.5f, kernel %.5f: off by %.1f SE", cfg.Method, p, mean, want, math.Abs(mean-want)/se)
			}
		}
	}
}

func BenchmarkTransform_NTKHadamard_L2_N2000_D784_M4096(b *testing.B) {
	benchTransform(b, Config{Depth: 2, Dim: 4096, Sampler: "hadamard"}, 2000, 784)
}
