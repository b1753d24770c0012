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
		bl := b[l*k : l*k+k]
		for i, v := range a[l*m : l*m+m] {
			if v != 0 {
				ci := c[i*k : i*k+k]
				for j, x := range bl {
					ci[j] += float64(v * x) // rounded, never fused
				}
			}
		}
	}
}
