package gram

import (
	"errors"
	"math"
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
// blocked factorization: each panel is factored and solved by plain loops,
// and the trailing submatrix is updated with AddAtA, so it runs at the speed
// of the Gram kernel.
func Cholesky(a []float64, m int) error {
	if m < 0 || len(a) < m*m {
		panic("gram: Cholesky needs an m×m matrix")
	}
	var panel, upd []float64
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
			inv := 1 / d
			// Row i of U11 and of U12: u_ij = (a_ij − Σ_k u_ki·u_kj) / u_ii.
			ri := a[i*m+i+1 : i*m+m]
			for k := j0; k < i; k++ {
				uki := a[k*m+i]
				rk := a[k*m+i+1 : k*m+m]
				for j := range ri {
					ri[j] -= uki * rk[j]
				}
			}
			for j := range ri {
				ri[j] *= inv
			}
		}
		w := m - j1
		if w == 0 {
			break
		}
		// A22 −= U12ᵀU12 with U12 the nb×w block right of U11.
		panel = grow(panel, nb*w)
		for r := 0; r < nb; r++ {
			copy(panel[r*w:(r+1)*w], a[(j0+r)*m+j1:(j0+r)*m+m])
		}
		upd = grow(upd, w*w)
		clear(upd[:w*w])
		AddAtA(upd, panel, nb, w)
		for i := 0; i < w; i++ {
			row := a[(j1+i)*m+j1+i : (j1+i)*m+m]
			for j, v := range upd[i*w+i : (i+1)*w] {
				row[j] -= v
			}
		}
	}
	return nil
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
