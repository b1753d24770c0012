package linalg

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"ntkrf/core/errs"
)

// ErrNotPositiveDefinite is returned by Cholesky when a pivot is not
// positive: the matrix is not (numerically) positive definite.
var ErrNotPositiveDefinite error = errs.New(errs.Data, "", "linalg: matrix is not positive definite")

// choleskyBlock is the panel width: the trailing update, which carries
// almost all of the m³/3 flops, runs on the AddAtA kernel in rank-256 steps.
const choleskyBlock = 256

// Cholesky factors the symmetric positive definite m×m row-major matrix
// whose upper triangle is in a as a = UᵀU, overwriting the upper triangle
// with U. The strict lower triangle is left as it was. It is a right-looking
// blocked factorization: each diagonal block is factored by plain loops,
// the rows right of it are solved in column chunks on all cores, mostly by
// gemm, and the trailing submatrix is updated in place with the AddAtA
// kernel.
func Cholesky(a []float64, m int) error {
	return cholesky(a, m, cholSub, nil)
}

// cholesky is Cholesky solving the rows right of each diagonal block in
// groups of sub rows (sub = choleskyBlock: by plain loops only, the
// reference the tests compare the bits with). With sh, the trailing
// updates of the helper's panels of columns are the helper's (see
// CholeskyShared).
func cholesky(a []float64, m, sub int, sh *shared) error {
	if m < 0 || len(a) < m*m {
		panic("linalg: Cholesky needs an m×m matrix")
	}
	var panel, negT []float64
	for j0 := 0; j0 < m; j0 += choleskyBlock {
		j1 := min(j0+choleskyBlock, m)
		nb := j1 - j0
		// A helper's diagonal block, as its last update left it.
		if err := sh.diag(a, m, j0); err != nil {
			return err
		}
		// U11 = chol(A11), unblocked (upper, row-major).
		for i := j0; i < j1; i++ {
			d := a[i*m+i]
			for k := j0; k < i; k++ {
				d -= a[k*m+i] * a[k*m+i]
			}
			if !(d > 0) || math.IsInf(d, 0) {
				sh.abandon()
				return ErrNotPositiveDefinite
			}
			d = math.Sqrt(d)
			a[i*m+i] = d
			solveRows(a, m, a[i+1:], m, j0, i, j1-i-1)
		}
		w := m - j1
		negT = buildNegT(negT, a[j0*m+j0:], m, nb, sub)
		// The helper solves its columns of U12 from U11 meanwhile.
		if w > 0 {
			if err := sh.begin(a, m, j0, nb); err != nil {
				return err
			}
		}
		// U12 = U11⁻ᵀA12, in chunks of columns shared among the cores
		// (solveU12); with a helper, the chunks of this side's panels.
		var next atomic.Int64
		chunks := (w + cholChunk - 1) / cholChunk
		work := func() {
			for c := int(next.Add(1)) - 1; c < chunks; c = int(next.Add(1)) - 1 {
				c0 := j1 + c*cholChunk
				if sh != nil && helps(c0/choleskyBlock) {
					continue
				}
				c1 := min(c0+cholChunk, m)
				solveU12(a[j0*m+j0:], m, negT, nb, sub, a[j0*m+c0:], m, c1-c0)
			}
		}
		if workers := min(runtime.GOMAXPROCS(0), chunks); workers > 1 && nb*nb*w/2 >= minParallel {
			var wg sync.WaitGroup
			for range workers {
				wg.Go(work)
			}
			wg.Wait()
		} else {
			work()
		}
		if w == 0 {
			break
		}
		// Each side's columns of U12 to the other.
		if err := sh.exchange(a, m, j0, nb); err != nil {
			return err
		}
		// A22 −= U12ᵀU12 with U12 the nb×w block right of U11, in place.
		panel = grow(panel, nb*w)
		for r := 0; r < nb; r++ {
			copy(panel[r*w:(r+1)*w], a[(j0+r)*m+j1:(j0+r)*m+m])
		}
		if sh == nil {
			addAtA(tile, a[j1*m+j1:], m, panel, nb, w, true)
			continue
		}
		// The helper updates its panels while this one updates the others.
		sh.update(a, m, j1, panel, nb, w)
	}
	return nil
}

// buildNegT writes into negT (grown to nb²) the negated columns of U11
// (upper, row stride ldu) that solveU12's products take: for each group of
// sub rows from g0, the g0 rows above it, group row r's at
// negT[g0·nb + r·g0 …].
func buildNegT(negT, u []float64, ldu, nb, sub int) []float64 {
	negT = grow(negT, nb*nb)
	for g0 := sub; g0 < nb; g0 += sub {
		g1 := min(g0+sub, nb)
		t := negT[g0*nb:]
		for r := g0; r < g1; r++ {
			for k := range g0 {
				t[(r-g0)*g0+k] = -u[k*ldu+r]
			}
		}
	}
	return negT
}

// solveU12 solves U11ᵀX = A for the nb×cols block x (row stride ldx) in
// place, U11 upper with row stride ldu: rows in groups of sub, the terms
// from the rows of earlier groups one product on gemm, −U11[<g, g]ᵀ·X[<g]
// added to X[g] (negT from buildNegT), then the group solved by plain
// loops. gemm adds the negated products one at a time in increasing k, so
// every entry gets the bits of solveRows over the whole panel, and each
// column's bits depend on nothing beside it.
func solveU12(u []float64, ldu int, negT []float64, nb, sub int, x []float64, ldx, cols int) {
	for g0 := 0; g0 < nb; g0 += sub {
		g1 := min(g0+sub, nb)
		if g0 > 0 {
			gemmHere(x[g0*ldx:], ldx, negT[g0*nb:], g0, x, ldx, g1-g0, g0, cols, true)
		}
		for i := g0; i < g1; i++ {
			solveRows(u, ldu, x, ldx, g0, i, cols)
		}
	}
}

// solveRows sets row i of the block x (row stride ldx, cols values) of U
// from row i of A there and the rows k0 … i−1 of U above it, with U's
// column i in u (row stride ldu; u's and x's rows are the same rows):
// u_ij = (a_ij − Σ_k u_ki·u_kj) / u_ii, with the sum over k in increasing
// order whatever the chunking (rows before k0 are already subtracted).
// Each term is axpy's r + (−u)·x, the bits of r − u·x (negation is exact)
// on every build, on the vector kernel in WebAssembly (the plain loop was
// a quarter of the factorization there).
func solveRows(u []float64, ldu int, x []float64, ldx, k0, i, cols int) {
	if cols <= 0 {
		return
	}
	ri := x[i*ldx : i*ldx+cols]
	for k := k0; k < i; k++ {
		axpy(ri, x[k*ldx:k*ldx+cols], -u[k*ldu+i])
	}
	inv := 1 / u[i*ldu+i]
	for j := range ri {
		ri[j] *= inv
	}
}

// cholChunk is the number of columns of U12 solved together.
const cholChunk = 256

// cholSub is the number of rows of U12 solved by plain loops after one
// product on gemm: the loops then carry cholSub/choleskyBlock of the
// panel's flops (they carried all, as many as the update's at m = 4096, in
// scalar code: 25 % of the standard job's time natively).
const cholSub = 32

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
