package linalg

import (
	"fmt"
	"math"
)

// TridiagQ is the tridiagonal form C = QTQᵀ of a symmetric matrix with Q
// formed explicitly, for functions of C whose every row is wanted: the
// diagonal of λ(C+λI)⁻¹ is, row by row, λ·qᵢᵀ(T+λI)⁻¹qᵢ (qᵢ row i of Q),
// one forward sweep of an LDLᵀ factorization of T+λI over the rows of Qᵀ:
// O(m²) per λ, where diagonalizing T (EigSym) applies O(m³) rotations to
// Qᵀ. T is kept scaled as EigSym scales the matrix (scaleUpper); λ(T+λI)⁻¹
// does not change when T and λ are scaled together, so the methods taking
// λ scale it alike and their results are those of the unscaled T.
type TridiagQ struct {
	d, e  []float64 // T·2^−scale: diagonal, off-diagonal (e[m−1] = 0)
	scale int
	// Qt is Qᵀ (m×m, row-major): row j is the j-th column of Q, so the
	// sweeps along T's index run over contiguous rows.
	Qt []float64
}

// ReduceQ reduces the symmetric m×m matrix whose upper triangle is in a
// (row-major, stride m; overwritten) as EigSym(a, m, nil, …) does and
// forms Qᵀ alike (applyQt on I): its Eig is that EigSym, bit for bit.
func ReduceQ(a []float64, m int, progress Progress) *TridiagQ {
	if m < 1 || len(a) < m*m {
		panic(fmt.Sprintf("linalg: ReduceQ length %d does not fit m=%d", len(a), m))
	}
	s := scaleUpper(a, m)
	d := make([]float64, m)
	e := make([]float64, m) // e[m-1] = 0 ends the off-diagonal
	tau := make([]float64, max(m-1, 1))
	qt := make([]float64, m*m)
	if tridiag(a, m, d, e, tau, progress) {
		return &TridiagQ{d: d, e: e, scale: s, Qt: qt} // stopped: the caller reads its context
	}
	for i := range m {
		qt[i*m+i] = 1
	}
	applyQt(a, m, tau, qt, m)
	return &TridiagQ{d: d, e: e, scale: s, Qt: qt}
}

// Eigenvalues returns T's eigenvalues in ascending order, the bits of
// EigSym's (QL's iteration does not depend on the vectors it rotates),
// without the O(m³) rotations. The TridiagQ is not modified.
func (r *TridiagQ) Eigenvalues() ([]float64, error) {
	d := append([]float64(nil), r.d...)
	e := append([]float64(nil), r.e...)
	if err := tql(d, e, nil, 0); err != nil {
		return nil, err
	}
	sortEig(d, nil, 0)
	unscale(r.scale, d)
	return d, finite(d)
}

// Trace returns tr T, the sum of T's eigenvalues (unscaled), in O(m):
// where T is known to be positive semidefinite up to rounding it stands
// for the sum of the clamped eigenvalues without diagonalizing T.
func (r *TridiagQ) Trace() float64 {
	tr := 0.0
	for _, v := range r.d {
		tr += v
	}
	return math.Ldexp(tr, r.scale)
}

// Eig diagonalizes T, finishing EigSym(a, m, nil, …) with its bits: it
// returns the eigenvalues ascending and Vᵀ, the eigenvectors as rows (Qt,
// rotated in place). The TridiagQ is spent.
func (r *TridiagQ) Eig() (vals, vt []float64, err error) {
	m := len(r.d)
	if err := tql(r.d, r.e, r.Qt, m); err != nil {
		return nil, nil, err
	}
	sortEig(r.d, r.Qt, m)
	unscale(r.scale, r.d)
	if err := finite(r.d); err != nil {
		return nil, nil, err
	}
	return r.d, r.Qt, nil
}

// ShiftedLDL is the LDLᵀ factorization of T+λI for each λ of a list: L
// unit lower bidiagonal, D diagonal, both without pivoting, which is
// backward stable when T+λI is positive definite (every pivot positive).
type ShiftedLDL struct {
	lambdas []float64 // λ·2^−scale
	inv     []float64 // 1/D, λ by λ (m each)
	mult    []float64 // L's subdiagonal, λ by λ (m each; the last 0)
	m       int
}

// Factor factors T+λI for every λ of lambdas. ok is false when a pivot
// is not positive and finite: T+λI is not numerically positive definite
// at some λ (by Sylvester's law the count of pivots ≤ 0 is the count of
// T's eigenvalues ≤ −λ), and the sweeps would be meaningless.
func (r *TridiagQ) Factor(lambdas []float64) (f *ShiftedLDL, ok bool) {
	m, nl := len(r.d), len(lambdas)
	f = &ShiftedLDL{lambdas: make([]float64, nl), inv: make([]float64, nl*m), mult: make([]float64, nl*m), m: m}
	for t, lam := range lambdas {
		lam = math.Ldexp(lam, -r.scale)
		f.lambdas[t] = lam
		inv, mult := f.inv[t*m:(t+1)*m], f.mult[t*m:(t+1)*m]
		p := r.d[0] + lam
		for j := range m {
			if !(p > 0) || p > math.MaxFloat64 {
				return nil, false
			}
			inv[j] = 1 / p
			if j == m-1 {
				break
			}
			mult[j] = r.e[j] * inv[j]
			p = r.d[j+1] + lam - mult[j]*r.e[j]
		}
	}
	return f, true
}

// quadChunk is the number of columns one task of Quad sweeps: its
// running vectors for all λ stay in the first-level cache.
const quadChunk = 32

// Quad sets out[c·nλ + t] = λₜ·vᵀ(T+λₜI)⁻¹v for every column v (c) of the
// m×l row-major x and every λₜ factored: with z = L⁻¹v, the sum over j of
// zⱼ²/Dⱼ, positive terms without cancellation. Columns are independent and
// each is summed in the same order on any number of cores.
func (f *ShiftedLDL) Quad(out, x []float64, l int) {
	m, nl := f.m, len(f.lambdas)
	if l < 0 || len(x) < m*l || len(out) < l*nl {
		panic(fmt.Sprintf("linalg: Quad lengths %d, %d do not fit m=%d, l=%d, %d λ", len(out), len(x), m, l, nl))
	}
	chunks := (l + quadChunk - 1) / quadChunk
	ParallelFor(chunks, func(ch int) {
		quadCols(f, out, x, l, ch*quadChunk, min(ch*quadChunk+quadChunk, l))
	})
}

// quadColsPortable is Quad for the columns [c0, c1) of x: row by row, the
// sweeps of every λ, so that each row is read once. Each entry's
// operations are z ← v − l·z, acc += (z·z)·(1/D) in increasing row
// order, and any order of the loops over λ and columns gives its bits.
func quadColsPortable(f *ShiftedLDL, out, x []float64, l, c0, c1 int) {
	m, nl := f.m, len(f.lambdas)
	w := c1 - c0
	z := make([]float64, nl*w)
	acc := make([]float64, nl*w)
	row := x[c0:c1]
	for t := range nl {
		zt, at := z[t*w:(t+1)*w], acc[t*w:(t+1)*w]
		inv := f.inv[t*m]
		for c, v := range row {
			zt[c] = v
			at[c] = v * v * inv
		}
	}
	for j := 1; j < m; j++ {
		row := x[j*l+c0 : j*l+c1]
		for t := range nl {
			lj, inv := f.mult[t*m+j-1], f.inv[t*m+j]
			quadStep(z[t*w:(t+1)*w], acc[t*w:(t+1)*w], row, lj, inv)
		}
	}
	for t, lam := range f.lambdas {
		for c, a := range acc[t*w : (t+1)*w] {
			out[(c0+c)*nl+t] = lam * a
		}
	}
}

// quadStep advances Quad's sweep by one row v: z ← v − l·z, acc += z²/D.
func quadStep(z, acc, v []float64, l, inv float64) {
	acc, v = acc[:len(z)], v[:len(z)]
	for c, zc := range z {
		zc = v[c] - float64(l*zc) // the conversions forbid FMAs, as in WebAssembly
		z[c] = zc
		acc[c] += float64(zc * zc * inv)
	}
}

// Solve overwrites the m×l row-major b with λₜ(T+λₜI)⁻¹b, λₜ the t-th λ
// factored.
func (f *ShiftedLDL) Solve(t int, b []float64, l int) {
	m := f.m
	if t < 0 || t >= len(f.lambdas) || l < 0 || len(b) < m*l {
		panic(fmt.Sprintf("linalg: Solve λ %d of %d, length %d do not fit m=%d, l=%d", t, len(f.lambdas), len(b), m, l))
	}
	inv, mult, lam := f.inv[t*m:(t+1)*m], f.mult[t*m:(t+1)*m], f.lambdas[t]
	for j := 1; j < m; j++ {
		lj := mult[j-1]
		prev, cur := b[(j-1)*l:j*l], b[j*l:(j+1)*l]
		for c := range cur {
			cur[c] -= lj * prev[c]
		}
	}
	// Back substitution in λ's scale: λx_j = λ/D_j·z_j − l_j·λx_{j+1}.
	last := b[(m-1)*l : m*l]
	sl := lam * inv[m-1]
	for c := range last {
		last[c] *= sl
	}
	for j := m - 2; j >= 0; j-- {
		cur, next := b[j*l:(j+1)*l], b[(j+1)*l:(j+2)*l]
		sj, lj := lam*inv[j], mult[j]
		next = next[:len(cur)]
		for c := range cur {
			cur[c] = cur[c]*sj - lj*next[c]
		}
	}
}
