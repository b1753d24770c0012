package krr

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/kernel"
	"ntkrf/core/linalg"
	"ntkrf/internal/check"
)

// EnsembleVariance returns, for each row z of Z, the variance of the
// prediction at z over an infinitely wide ensemble of ReLU networks of the
// given depth, each initialized at random and trained by gradient descent
// on the squared loss (with ridge λ) to convergence on the rows of X: the
// Gaussian process of Lee et al. (2019, "Wide neural networks of any depth
// evolve as linear models under gradient descent", eq. 16 at t → ∞),
//
//	σ²(z) = K(z,z) + aᵀ K(X,X) a − 2 aᵀ K(X,z),  a = (Θ(X,X) + λI)⁻¹ Θ(X,z),
//
// with Θ the NTK and K the NNGP kernel of that depth. Its mean is the NTK
// ridge regression (FitKernel with the ntk kernel): a band of ±2σ around it
// shows where the ensemble disagrees. At a training row with λ → 0 the
// variance is 0 (every network interpolates). λ must be > 0 and finite;
// variances below 0 by rounding come back as 0.
func EnsembleVariance(depth int, X, Z *mat.Dense, lambda float64) ([]float64, error) {
	if err := check.Matrix("X", X); err != nil {
		return nil, wrap(err)
	}
	if err := check.Matrix("Z", Z); err != nil {
		return nil, wrap(err)
	}
	n, d := X.Dims()
	q, dz := Z.Dims()
	if dz != d {
		return nil, check.New(check.Shape, "Z", "krr: Z has %d columns and X %d; give rows of the same width", dz, d)
	}
	if !(lambda > 0) || math.IsInf(lambda, 1) {
		return nil, check.New(check.Option, "lambda", "krr: λ %v is invalid; use a positive finite number", lambda)
	}
	spec, err := kernel.Spec{Name: kernel.NameNTK, Depth: depth}.Filled(d)
	if err != nil {
		return nil, wrap(err)
	}
	// Θ and K of X, Θ and K of X against Z: two n×n and two n×q matrices.
	if err := check.Alloc("kernel matrices", 2*n+2*q, n); err != nil {
		return nil, wrap(err)
	}
	theta, err := kernel.NTK(X, spec.Depth)
	if err != nil {
		return nil, wrap(err)
	}
	K, err := kernel.NNGP(X, spec.Depth)
	if err != nil {
		return nil, wrap(err)
	}
	thetaZ, err := kernel.NTKCross(X, Z, spec.Depth)
	if err != nil {
		return nil, wrap(err)
	}
	KZ, err := kernel.NNGPCross(X, Z, spec.Depth)
	if err != nil {
		return nil, wrap(err)
	}
	a := append([]float64(nil), theta.RawMatrix().Data...)
	for i := range n {
		a[i*n+i] += lambda
	}
	A, ok := linalg.CholSolve(a, n, append([]float64(nil), thetaZ.RawMatrix().Data...), q)
	if !ok {
		return nil, check.New(check.Data, "lambda", "krr: Θ + λI is not numerically positive definite at λ = %v; use a larger λ", lambda)
	}
	var KA mat.Dense
	KA.Mul(K, A) // n×q
	out := make([]float64, q)
	for j := range q {
		z := Z.RawRowView(j)
		kzz, err := kernel.NNGPCross(mat.NewDense(1, d, z), mat.NewDense(1, d, z), spec.Depth)
		if err != nil {
			return nil, wrap(err)
		}
		v := kzz.At(0, 0)
		for i := range n {
			aij := A.At(i, j)
			v += aij*KA.At(i, j) - 2*aij*KZ.At(i, j)
		}
		out[j] = max(v, 0)
	}
	return out, nil
}
