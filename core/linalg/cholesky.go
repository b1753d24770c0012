package linalg

import (
	"errors"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// ErrNotPositiveDefinite is returned by Cholesky when a pivot is not
// positive: the matrix is not (numerically) positive definite.
var ErrNotPositiveDefinite = errors.New("gram: matrix is not positive definite")

// choleskyBlock is the panel width: the trailing update, which carries
// almost all of the m³/3 flops, runs on the AddAtA kernel in rank-256 steps.
const choleskyBlock = 256

// Cholesky factors the symmetric positive definite m×m row-major matrix
// whose upper triangle is in a as a = UᵀU, overwriting the upper triangle
// with U. The strict lower triangle is left as it was. It is a right-looking
// blocked factorization: each diagonal block is factored by plain loops,
// the rows right of it are solved in column chunks on all cores (the panel
// carries about as many flops as the update at m = 4096), and the trailing
// submatrix is updated in place with the AddAtA kernel.
func Cholesky(a []float64, m int) error {
	if m < 0 || len(a) < m*m {
		panic("gram: Cholesky needs an m×m matrix")
	}
	var panel []float64
	for j0 := 0; j0 < m; j0 += choleskyBlock {
		j1 := min(j0+choleskyBlock, m)
		nb := j1 - j0
		// U11 = chol(A11), unblocked (upper, row-major).
		for i := j0; i < j1; i++ {
			d := a[i*m+i]
			for k := j0; k < i; k++ {
				d -= a[k*m+i] * a[k*m+i]
			}
			if !(d > 0) || math.IsInf(d, 0) {
				return ErrNotPositiveDefinite
			}
			d = math.Sqrt(d)
			a[i*m+i] = d
			solveRows(a, m, j0, i, i+1, j1)
		}
		// U12 = U11⁻ᵀA12, in chunks of columns shared among the cores:
		// the nb×chunk block being solved stays in L2.
		var next atomic.Int64
		chunks := (m - j1 + cholChunk - 1) / cholChunk
		work := func() {
			for c := int(next.Add(1)) - 1; c < chunks; c = int(next.Add(1)) - 1 {
				c0 := j1 + c*cholChunk
				for i := j0; i < j1; i++ {
					solveRows(a, m, j0, i, c0, min(c0+cholChunk, m))
				}
			}
		}
		if workers := min(runtime.GOMAXPROCS(0), chunks); workers > 1 && nb*nb*(m-j1)/2 >= minParallel {
			var wg sync.WaitGroup
			for range workers {
				wg.Go(work)
			}
			wg.Wait()
		} else {
			work()
		}
		w := m - j1
		if w == 0 {
			break
		}
		// A22 −= U12ᵀU12 with U12 the nb×w block right of U11, in place.
		panel = grow(panel, nb*w)
		for r := 0; r < nb; r++ {
			copy(panel[r*w:(r+1)*w], a[(j0+r)*m+j1:(j0+r)*m+m])
		}
		addAtA(tile, a[j1*m+j1:], m, panel, nb, w, true)
	}
	return nil
}

// cholChunk is the number of columns of U12 solved together.
const cholChunk = 256

// solveRows sets columns [c0, c1) of row i of U from row i of A and the
// rows j0 … i−1 of U above it: u_ij = (a_ij − Σ_k u_ki·u_kj) / u_ii, with
// the sum over k in increasing order whatever the chunking.
func solveRows(a []float64, m, j0, i, c0, c1 int) {
	if c0 >= c1 {
		return
	}
	ri := a[i*m+c0 : i*m+c1]
	for k := j0; k < i; k++ {
		uki := a[k*m+i]
		rk := a[k*m+c0 : k*m+c1]
		for j := range ri {
			ri[j] -= uki * rk[j]
		}
	}
	inv := 1 / a[i*m+i]
	for j := range ri {
		ri[j] *= inv
	}
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
