package linalg

import "fmt"

// AddAtBRows adds AᵀB to the m×k row-major c, where A (r×m) and B (r×k)
// are row-major: entry (i, j) adds a_li·b_lj for l = 0 … r−1 in turn, each
// product rounded before it is added, and skips the rows where a_li is 0.
// That is the order and rounding of gonum's Dgemm(Trans, NoTrans, 1, A, B,
// 1, C) (row after row of A, an axpy per nonzero entry), which krr used for
// ΦᵀY: the sums keep their bits. Meant for a narrow B (k: the classes),
// where Dgemm's call per entry of A dominated (a fifth of a part's time in
// WebAssembly). It panics if the lengths do not match.
func AddAtBRows(c, a, b []float64, r, m, k int) {
	if r < 0 || m < 0 || k < 0 || len(a) < r*m || len(b) < r*k || len(c) < m*k {
		panic(fmt.Sprintf("linalg: AddAtBRows lengths %d, %d, %d do not fit r=%d, m=%d, k=%d", len(a), len(b), len(c), r, m, k))
	}
	for l := range r {
		addRowAtB(c, a[l*m:l*m+m], b[l*k:l*k+k])
	}
}

// addRowAtBPortable adds the outer product of a's row al and b's row bl
// to c (len(al)×len(bl)), an axpy per nonzero entry of al, in plain Go;
// addRowAtB is this build's form of it (Float64x2 in WebAssembly SIMD,
// the same bits). Both are called once per row and never inlined,
// because WebAssembly engines swap optimized code in only at a
// function's next call, and a loop over all the rows in one call ran to
// its end in baseline code (V8's Liftoff).
//
//go:noinline
func addRowAtBPortable(c, al, bl []float64) {
	k := len(bl)
	for i, v := range al {
		if v != 0 {
			ci := c[i*k : i*k+k]
			for j, x := range bl {
				ci[j] += float64(v * x) // rounded, never fused
			}
		}
	}
}

// MulRows sets the n×k block c (rows ldc apart) to AB, where A is n×m
// (rows lda apart) and B is m×k (rows ldb apart): entry (i, j) starts from
// 0 and adds a_il·b_lj for l = 0 … m−1 in turn, each product rounded, and
// skips the l where a_il is 0: the order and rounding of gonum's
// Dgemm(NoTrans, NoTrans, 1, A, B, 0, C) (mat.Dense.Mul), which krr's
// predictions used, without its call per entry of A. Meant for a narrow B
// (k: the classes). It panics if the lengths do not match.
func MulRows(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, n, m, k int) {
	if n < 0 || m < 0 || k < 0 || lda < m || ldb < k || ldc < k ||
		(n > 0 && (len(a) < (n-1)*lda+m || len(c) < (n-1)*ldc+k)) || (m > 0 && len(b) < (m-1)*ldb+k) {
		panic(fmt.Sprintf("linalg: MulRows lengths %d, %d, %d do not fit n=%d, m=%d, k=%d", len(a), len(b), len(c), n, m, k))
	}
	for i := range n {
		mulRow(c[i*ldc:i*ldc+k], a[i*lda:i*lda+m], b, ldb)
	}
}

// mulRowPortable sets ci to the row ai times B (rows ldb apart) in
// MulRows' order, in plain Go; mulRow is this build's form of it, a (not
// inlined) call per row as addRowAtB for the same reason.
//
//go:noinline
func mulRowPortable(ci, ai, b []float64, ldb int) {
	k := len(ci)
	if k == 1 || k == 2 {
		// The sums in locals, not in ci (a load and a store per entry of ai).
		s0, s1 := 0.0, 0.0
		for l, v := range ai {
			if v != 0 {
				s0 += float64(v * b[l*ldb]) // rounded, never fused
				if k == 2 {
					s1 += float64(v * b[l*ldb+1])
				}
			}
		}
		ci[0] = s0
		if k == 2 {
			ci[1] = s1
		}
		return
	}
	clear(ci)
	for l, v := range ai {
		if v != 0 {
			for j, x := range b[l*ldb : l*ldb+k] {
				ci[j] += float64(v * x) // rounded, never fused
			}
		}
	}
}
