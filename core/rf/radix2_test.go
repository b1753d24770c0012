package rf

import (
	"math"
	"testing"
)

// TestRadix2Bits: this build's butterflies (AVX on amd64, SIMD in
// WebAssembly) give radix2Portable's bits, forward and inverse, at every
// power of two up to 2¹², signed zeros included (TestFWHTBits does the
// same for fwht against fwhtRef).
func TestRadix2Bits(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 1<<12; n *= 2 {
		p := newFFTPlan(n)
		re, im := randVec(uint64(n), n), randVec(uint64(n)+1, n)
		for _, inverse := range []bool{false, true} {
			got, want := make([]complex128, n), make([]complex128, n)
			for i := range got {
				got[i] = complex(re[i], im[i])
			}
			if n >= 8 {
				got[1], got[2], got[5] = complex(0, math.Copysign(0, -1)), complex(math.Copysign(0, -1), 0), 0
			}
			copy(want, got)
			radix2(got, p.tw, inverse)
			radix2Portable(want, p.tw, inverse)
			for i := range got {
				g, w := got[i], want[i]
				if math.Float64bits(real(g)) != math.Float64bits(real(w)) || math.Float64bits(imag(g)) != math.Float64bits(imag(w)) {
					t.Fatalf("n = %d, inverse %v, entry %d: %v, portable %v", n, inverse, i, g, w)
				}
			}
		}
	}
}
