package linalg

import "fmt"

// mul32Func sets rows [i0, i1) of c = a·b in float32 (the shapes of Mul32).
// Every implementation sums each entry from zero in increasing inner index,
// one rounded float32 product and one rounded float32 sum at a time, so all
// give the same bits.
type mul32Func func(c, a, b []float32, i0, i1, k, m int)

// mul32Set is one implementation of Mul32.
type mul32Set struct {
	name string
	mul  mul32Func
}

// mul32Rows is the implementation Mul32 uses: the first of mul32Kernels.
var mul32Rows = mul32Kernels()[0].mul

// Mul32 sets c = a·b for row-major float32 a (n×k), b (k×m) and c (n×m),
// the float32 twin of Mul: every entry is summed in float32 in increasing
// order of the inner index with a separately rounded multiply and add (no
// fused multiply-add), so the result is bit-for-bit the same with AVX-512,
// AVX2, WebAssembly SIMD and plain Go, and for any blocking of the rows of
// a. Each entry is within k·2⁻²⁴·Σ_l |a_il·b_lj| (to first order) of the
// exact sum. It panics if the lengths do not match.
func Mul32(c, a, b []float32, n, k, m int) {
	if n < 0 || k < 0 || m < 0 || len(a) < n*k || len(b) < k*m || len(c) < n*m {
		panic(fmt.Sprintf("linalg: Mul32 lengths %d, %d, %d do not fit n=%d, k=%d, m=%d", len(c), len(a), len(b), n, k, m))
	}
	mul(mul32Rows, c, a, b, n, k, m)
}

// mul32Portable is the mul32Func in plain Go: the reference order of sums.
func mul32Portable(c, a, b []float32, i0, i1, k, m int) {
	for i := i0; i < i1; i++ {
		ci := c[i*m : (i+1)*m]
		clear(ci)
		for l, av := range a[i*k : (i+1)*k] {
			bl := b[l*m : (l+1)*m]
			bl = bl[:len(ci)]
			for j := range ci {
				// The conversion forbids fusing into an FMA.
				ci[j] += float32(av * bl[j])
			}
		}
	}
}

// mul32Tail does what the 4-row kernels leave, in the portable order: the
// last i1−i0 mod 4 rows, and columns [j0, m) of the others.
func mul32Tail(c, a, b []float32, i0, i1, j0, k, m int) {
	r := i1 - (i1-i0)%4
	mul32Portable(c, a, b, r, i1, k, m)
	if j0 == m {
		return
	}
	for i := i0; i < r; i++ {
		ci := c[i*m+j0 : (i+1)*m]
		clear(ci)
		for l, av := range a[i*k : (i+1)*k] {
			bl := b[l*m+j0 : (l+1)*m]
			for j := range ci {
				ci[j] += float32(av * bl[j])
			}
		}
	}
}
