package linalg

import (
	"math"

	"ntkrf/core/errs"
)

// errNoConvergence reports a tridiagonal QL iteration that did not settle.
var errNoConvergence error = errs.New(errs.Data, "", "linalg: the eigenvalue iteration did not converge")

// EigSym diagonalizes the symmetric m×m matrix whose upper triangle is in
// a (row-major, stride m; overwritten) as C = VΛVᵀ. It returns the
// eigenvalues in ascending order and, when rhs is nil, Vᵀ (the eigenvectors
// as rows, m×m); otherwise VᵀR for the m×l matrix R in rhs (not modified).
//
// C = QTQᵀ by tridiag, T = SΛSᵀ by tql, so Vᵀ = SᵀQᵀ: QᵀR (or Qᵀ) is formed
// from the reflectors, and the plane rotations of tql act on its rows,
// which are contiguous. When only VᵀR is needed (GCV), l is the number of
// outputs and the reduction to tridiagonal form (Tridiagonalize) is all
// that remains of the O(m³) cost.
func EigSym(a []float64, m int, rhs []float64, l int, progress Progress) (vals, w []float64, err error) {
	if rhs != nil {
		d, e, w := Tridiagonalize(a, m, rhs, l, progress)
		if err := TridiagEig(d, e, w, l); err != nil {
			return nil, nil, err
		}
		return d, w, nil
	}
	return ReduceQ(a, m, progress).Eig()
}

// errOverflow reports eigenvalues of a finite matrix beyond the float64
// range (entries near 1e308 whose sums overflow).
var errOverflow error = errs.New(errs.Data, "", "linalg: an eigenvalue is beyond the float64 range; rescale the matrix")

func finite(d []float64) error {
	for _, v := range d {
		if math.IsInf(v, 0) {
			return errOverflow
		}
	}
	return nil
}

// scaleUpper divides the upper triangle of the m×m matrix a by 4^k when
// its largest entry is beyond 2^±400, where the reduction's sums of
// squares would overflow (entries near 1e308 gave finite, wrong
// eigenvalues) or underflow, and returns the exponent 2k (0 when none).
// A power of four is exact, and so is every step of the reduction on the
// scaled matrix: T scales by it and Q does not change. Other matrices are
// not touched, so their bits are those of before.
func scaleUpper(a []float64, m int) int {
	// By chunks of 64 rows on all cores (max is exact and, NaN included,
	// associative).
	chunks := (m + 63) / 64
	tops := make([]float64, chunks)
	ParallelFor(chunks, func(c int) {
		top := 0.0
		for i := c * 64; i < min(c*64+64, m); i++ {
			for _, v := range a[i*m+i : i*m+m] {
				top = max(top, math.Abs(v))
			}
		}
		tops[c] = top
	})
	top := 0.0
	for _, t := range tops {
		top = max(top, t)
	}
	k := scaleExp(top)
	if k != 0 {
		ParallelFor(chunks, func(c int) {
			for i := c * 64; i < min(c*64+64, m); i++ {
				row := a[i*m+i : i*m+m]
				for j := range row {
					row[j] = math.Ldexp(row[j], -k)
				}
			}
		})
	}
	return k
}

// scaleFor is the exponent scaleUpper would scale the entries of xs by.
func scaleFor(xs ...[]float64) int {
	top := 0.0
	for _, x := range xs {
		for _, v := range x {
			top = max(top, math.Abs(v))
		}
	}
	return scaleExp(top)
}

// scaleExp returns 0 when top (the largest magnitude) is within 2^±400
// (or zero, or not finite: nothing to scale), else the even exponent that
// brings it to [1/4, 1).
func scaleExp(top float64) int {
	if top <= 0x1p400 && (top == 0 || top >= 0x1p-400) || math.IsInf(top, 0) || math.IsNaN(top) {
		return 0
	}
	_, exp := math.Frexp(top)
	return exp + exp&1
}

// unscale multiplies each slice by 2^k, undoing scaleUpper on T; values
// beyond the float64 range become ±Inf (see finite).
func unscale(k int, xs ...[]float64) {
	if k == 0 {
		return
	}
	for _, x := range xs {
		for i := range x {
			x[i] = math.Ldexp(x[i], k)
		}
	}
}

// Tridiagonalize reduces the symmetric m×m matrix whose upper triangle is
// in a (row-major, stride m; overwritten) to the tridiagonal T = QᵀCQ, Q
// orthogonal: it returns T's diagonal d, its off-diagonal e (e[i] couples
// i and i+1, e[m−1] = 0) and QᵀR for the m×l matrix R in rhs (not
// modified). Functions of C applied to R, such as Rᵀ(C+λI)⁻¹R, are then
// tridiagonal solves. Below twoStageMin the reduction is one-stage
// (tridiag); from there on it runs in two stages (twoStageReduce: a band by
// matrix products, then bulge chasing), which gives T's eigenvalues to
// about 1e-14 of the largest and is 2× faster at m = 4096. Entries beyond
// 2^±400 are scaled first (scaleUpper); T's entries beyond the float64
// range are then ±Inf.
func Tridiagonalize(a []float64, m int, rhs []float64, l int, progress Progress) (d, e, w []float64) {
	w = append([]float64(nil), rhs[:m*l]...)
	s := scaleUpper(a, m)
	if m >= twoStageMin && twoStage {
		d, e, _, _, _ = twoStageReduce(a, m, bandWidth, w, l, false, progress)
	} else {
		d, e, _, _ = oneStageReduce(a, m, w, l, false, progress)
	}
	unscale(s, d, e)
	return d, e, w
}

// TridiagEig diagonalizes the symmetric tridiagonal T (diagonal d,
// off-diagonal e with e[m−1] = 0, as Tridiagonalize returns them) as
// T = SΛSᵀ: on return d holds Λ in ascending order and the m×l matrix w is
// overwritten with Sᵀw; e is destroyed. An eigenvalue beyond the float64
// range is an error.
func TridiagEig(d, e, w []float64, l int) error {
	// T is scaled as scaleUpper scales a matrix: QL's shifts and rotations
	// square its entries.
	s := scaleFor(d, e)
	unscale(-s, d, e)
	if err := tql(d, e, w, l); err != nil {
		return err
	}
	sortEig(d, w, l)
	unscale(s, d)
	return finite(d)
}

// sortEig sorts the eigenvalues d ascending, moving the rows of the
// m×l matrix w along.
func sortEig(d, w []float64, l int) {
	m := len(d)
	for i := 0; i < m-1; i++ {
		k := i
		for j := i + 1; j < m; j++ {
			if d[j] < d[k] {
				k = j
			}
		}
		if k != i {
			d[i], d[k] = d[k], d[i]
			ri, rk := w[i*l:(i+1)*l], w[k*l:(k+1)*l]
			for c := range ri {
				ri[c], rk[c] = rk[c], ri[c]
			}
		}
	}
}

// tql finds the eigenvalues of the symmetric tridiagonal matrix with
// diagonal d and off-diagonal e (e[i] couples i and i+1; e[n−1] = 0) by the
// implicit QL method with Wilkinson shifts (EISPACK tql2). Each plane
// rotation of rows i, i+1 is applied to the rows of the n×l matrix w.
// On return d holds the eigenvalues, unsorted, and e is destroyed.
func tql(d, e, w []float64, l int) error {
	n := len(d)
	const eps = 0x1p-52
	// The rotations of a sweep are recorded and applied afterwards, so
	// that wide W can be split by columns over the cores.
	cs := make([]float64, n)
	sn := make([]float64, n)
	// Off-diagonals below eps·‖T‖ are negligible as well (EISPACK's tql2
	// test): the reduction to T is only norm-wise backward stable, and
	// without this floor a cluster of eigenvalues at rounding level (many
	// duplicate rows) never deflates.
	norm := 0.0
	for i := range d {
		norm = math.Max(norm, math.Abs(d[i])+math.Abs(e[i]))
	}
	for lo := 0; lo < n; lo++ {
		for iter := 0; ; iter++ {
			m := lo
			for ; m < n-1; m++ {
				if ae := math.Abs(e[m]); ae <= eps*(math.Abs(d[m])+math.Abs(d[m+1])) || ae <= eps*norm {
					break
				}
			}
			if m == lo {
				break
			}
			if iter == 60 {
				return errNoConvergence
			}
			g := (d[lo+1] - d[lo]) / (2 * e[lo])
			r := hypot(g, 1)
			g = d[m] - d[lo] + e[lo]/(g+math.Copysign(r, g))
			s, c, p := 1.0, 1.0, 0.0
			i := m - 1
			for ; i >= lo; i-- {
				f, b := s*e[i], c*e[i]
				r = hypot(f, g)
				e[i+1] = r
				if r == 0 {
					// Underflow: the matrix splits here; restart above it.
					d[i+1] -= p
					e[m] = 0
					break
				}
				s, c = f/r, g/r
				g = d[i+1] - p
				r = (d[i]-g)*s + 2*c*b
				p = s * r
				d[i+1] = g + p
				g = c*r - b
				cs[i], sn[i] = c, s
			}
			rotate(w, l, i+1, m, cs, sn)
			if r == 0 && i >= lo {
				continue
			}
			d[lo] -= p
			e[lo] = g
			e[m] = 0
		}
	}
	return nil
}

// hypot is math.Hypot for finite arguments, the same formula and so the
// same bits, in a form the compiler inlines: a call per rotation was a
// third of tql's time in WebAssembly.
func hypot(p, q float64) float64 {
	p, q = math.Abs(p), math.Abs(q)
	if p < q {
		p, q = q, p
	}
	if p == 0 {
		return 0
	}
	q /= p
	return p * math.Sqrt(1+q*q)
}

// rotSweepPortable applies, for i = hi−1 down to lo, the plane rotation
// (cs[i], sn[i]) to columns t0 … t1−1 of rows i and i+1 of the n×l matrix
// w: w[i+1] ← s·w[i] + c·w[i+1], w[i] ← c·w[i] − s·w[i+1]. rotSweep is
// this function, or its SIMD twin in WebAssembly.
func rotSweepPortable(w []float64, l, lo, hi int, cs, sn []float64, t0, t1 int) {
	for i := hi - 1; i >= lo; i-- {
		c, s := cs[i], sn[i]
		wi, wj := w[i*l+t0:i*l+t1], w[(i+1)*l+t0:(i+1)*l+t1]
		for t, x := range wi {
			y := wj[t]
			wj[t] = s*x + c*y
			wi[t] = c*x - s*y
		}
	}
}

// minParallelWork is the number of row updates (rotations × columns) below
// which a sweep is applied on one goroutine: spawning costs about as much
// as 1e4 of them.
const minParallelWork = 1 << 16

// rotate applies the rotations recorded for i = hi−1 down to lo to rows
// i, i+1 of the n×l matrix w, in that order, splitting the columns over
// GOMAXPROCS goroutines when the sweep is large enough.
func rotate(w []float64, l, lo, hi int, cs, sn []float64) {
	if l == 0 {
		return // eigenvalues only
	}
	// Columns are independent (rotSweep gives every entry the portable
	// bits), so ranges of at least 2 columns change no bit.
	splitRange(l, coresFor((hi-lo)*l, minParallelWork), 2, func(t0, t1 int) { rotSweep(w, l, lo, hi, cs, sn, t0, t1) })
}
