package active

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ntkrf/core/linalg"
	"ntkrf/internal/check"
)

// DefaultLambda is the design criterion's λ when none is given.
const DefaultLambda = 1.0

// SelectActive chooses k rows of the pool Phi (n×m features) to label, by
// greedy minimization of the experimental-design criterion of Shoham and
// Avron used in the paper's appendix,
//
//	J(S) = −tr(K_{:,S}(K_{S,S} + λI)⁻¹K_{:,S}ᵀ),  K = ΦΦᵀ.
//
// It returns the row indices in the order picked. With G = ΦᵀΦ and
// A = Φ_SᵀΦ_S + λI, the push-through identity gives
// J(S) = −tr(G) + λ·tr(A⁻¹G), and adding a row φ (Sherman–Morrison) changes
// it by −λ·φᵀA⁻¹GA⁻¹φ/(1 + φᵀA⁻¹φ). Both quadratic forms are kept for every
// candidate and updated by rank-one terms after each pick, so a greedy step
// costs O(n·m + m²) and the whole selection O(n·m² + k·n·m), against the
// paper's O(n·m·(k³ + m)). Ties go to the lower index. lambda 0 means
// DefaultLambda.
func SelectActive(Phi *mat.Dense, k int, lambda float64) ([]int, error) {
	if lambda == 0 {
		lambda = DefaultLambda
	}
	if err := check.Matrix("Phi", Phi); err != nil {
		return nil, wrap(err)
	}
	n, m := Phi.Dims()
	if k < 1 || k > n {
		return nil, check.New(check.Option, "k", "active: cannot select %d rows from a pool of %d; use 1 ≤ k ≤ %d", k, n, n)
	}
	if err := check.Lambda("active", "lambda", lambda); err != nil {
		return nil, err
	}
	if err := check.Alloc("Gram matrix ΦᵀΦ", m, m); err != nil {
		return nil, wrap(err)
	}
	phi := mat.DenseCopyOf(Phi).RawMatrix() // contiguous, stride m
	G := make([]float64, m*m)
	linalg.AddAtA(G, phi.Data, n, m)
	for i := 1; i < m; i++ {
		for j := 0; j < i; j++ {
			G[i*m+j] = G[j*m+i]
		}
	}
	gm := blas64.General{Rows: m, Cols: m, Stride: m, Data: G}
	// Start from S = ∅: A⁻¹ = I/λ, u = φᵀA⁻¹φ = ‖φ‖²/λ, w = φᵀA⁻¹GA⁻¹φ = φᵀGφ/λ².
	ainv := make([]float64, m*m)
	for i := 0; i < m; i++ {
		ainv[i*m+i] = 1 / lambda
	}
	am := blas64.General{Rows: m, Cols: m, Stride: m, Data: ainv}
	u := make([]float64, n)
	w := make([]float64, n)
	const block = 256
	pg := make([]float64, min(block, n)*m)
	for lo := 0; lo < n; lo += block {
		hi := min(lo+block, n)
		rows := blas64.General{Rows: hi - lo, Cols: m, Stride: m, Data: phi.Data[lo*m : hi*m]}
		out := blas64.General{Rows: hi - lo, Cols: m, Stride: m, Data: pg[:(hi-lo)*m]}
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, rows, gm, 0, out)
		for i := lo; i < hi; i++ {
			x := phi.Data[i*m : (i+1)*m]
			y := pg[(i-lo)*m : (i-lo+1)*m]
			var s, q float64
			for j, v := range x {
				s += v * v
				q += v * y[j]
			}
			u[i] = s / lambda
			w[i] = q / (lambda * lambda)
		}
	}
	vec := func(d []float64) blas64.Vector { return blas64.Vector{N: len(d), Inc: 1, Data: d} }
	a, g, r := make([]float64, m), make([]float64, m), make([]float64, m)

	picked := make([]bool, n)
	sel := make([]int, 0, k)
	for len(sel) < k {
		best, bi := math.Inf(-1), -1
		for i := range w {
			if !picked[i] {
				if s := w[i] / (1 + u[i]); s > best {
					best, bi = s, i
				}
			}
		}
		picked[bi] = true
		sel = append(sel, bi)
		if len(sel) == k {
			break
		}
		// a = A⁻¹φ, c = 1 + φᵀa, r = A⁻¹Ga; then
		// A⁻¹ ← A⁻¹ − aaᵀ/c and A⁻¹GA⁻¹ ← A⁻¹GA⁻¹ − (raᵀ + arᵀ)/c + (aᵀGa)aaᵀ/c².
		x := phi.Data[bi*m : (bi+1)*m]
		blas64.Gemv(blas.NoTrans, 1, am, vec(x), 0, vec(a))
		c := 1 + blas64.Dot(vec(x), vec(a))
		blas64.Gemv(blas.NoTrans, 1, gm, vec(a), 0, vec(g))
		blas64.Gemv(blas.NoTrans, 1, am, vec(g), 0, vec(r))
		ag := blas64.Dot(vec(a), vec(g))
		// φᵢᵀa and φᵢᵀr row by row: the row is still in cache for the
		// second product, so Φ is streamed from memory once per step.
		va, vr := vec(a), vec(r)
		for i := range u {
			x := vec(phi.Data[i*m : (i+1)*m])
			p, q := blas64.Dot(x, va), blas64.Dot(x, vr)
			u[i] -= p * p / c
			w[i] += (ag*p/c - 2*q) * p / c
		}
		blas64.Ger(-1/c, vec(a), vec(a), am)
	}
	return sel, nil
}

func wrap(err error) error { return check.Wrap("active", err) }
