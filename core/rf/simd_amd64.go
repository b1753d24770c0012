//go:build amd64 && !noasm

package rf

import (
	"math"

	"golang.org/x/sys/cpu"
)

// Implemented in simd_amd64.s.

//go:noescape
func radix2LevelAVX(x *complex128, n, half int, tw *complex128, step int, mask *[4]float64)

var hasAVX = cpu.X86.HasAVX

//go:noescape
func fwhtRadix4AVX(x *float64, n, h int)

//go:noescape
func fwhtRadix2AVX(x *float64, h int)

// fwht is fwhtPortable with its levels past the first three on AVX, four
// entries per vector: the same additions and subtractions, so the same
// bits.
func fwht(x []float64) {
	n := len(x)
	if !hasAVX || n < 32 {
		fwhtPortable(x)
		return
	}
	if n&(n-1) != 0 {
		panic("rf: fwht of a length that is not a power of two")
	}
	fwht8(x)
	h := 8
	for ; 4*h <= n; h *= 4 {
		fwhtRadix4AVX(&x[0], n, h)
	}
	if h < n {
		fwhtRadix2AVX(&x[0], h)
	}
}

// conjMasks flip the sign of every twiddle's imaginary part (inverse) or
// of nothing.
var conjMasks = [2][4]float64{{}, {0, negZero, 0, negZero}}

var negZero = math.Copysign(0, -1)

// radix2 is radix2Portable with two complex numbers per AVX vector from
// the second level on (the first pairs neighbours, and stays in Go). The
// lanes do the portable code's rounded products, then its sums, as
// radix2's WebAssembly twin argues: the bits are the same.
func radix2(x, tw []complex128, inverse bool) {
	n := len(x)
	if !hasAVX || n < 4 {
		radix2Portable(x, tw, inverse)
		return
	}
	_ = tw[n/2-1]
	radix2Sizes(x, tw, inverse, 2, 2)
	mask := &conjMasks[0]
	if inverse {
		mask = &conjMasks[1]
	}
	for size := 4; size <= n; size <<= 1 {
		radix2LevelAVX(&x[0], n, size/2, &tw[0], n/size, mask)
	}
}
