// Package core is the root of ntkrf's Go library; it holds no code. The
// work is done by its subpackages, each with one job:
//
//   - [ntkrf/core/pipeline]: a whole model — preprocessing, feature map or
//     exact kernel, ridge solution — fitted in one call, saved as versioned
//     JSON and loaded anywhere. Start here.
//   - [ntkrf/core/protocol]: the same fit split into steps for hosts with
//     several workers (plan, statistics, parts, merge, solve), each with a
//     binary form.
//   - [ntkrf/core/data]: CSV parsing, preprocessing (Scaler), splits.
//   - [ntkrf/core/kernel]: exact NTK, NNGP and RBF kernels.
//   - [ntkrf/core/rf]: random features (Algorithms 1 and 2 of Han et al.) and
//     the sketches they use.
//   - [ntkrf/core/krr]: kernel ridge regression, primal and dual, with λ
//     chosen by GCV or leave-one-out.
//   - [ntkrf/core/metrics]: kernel approximation errors and prediction scores.
//   - [ntkrf/core/active]: greedy active-learning designs.
//   - [ntkrf/core/errs]: the coded error type every package returns.
//   - [ntkrf/core/names]: the names of methods, kernels, sketches,
//     samplers, tasks and criteria, each written once.
//   - [ntkrf/core/linalg]: the dense linear algebra under all of them (Gram
//     products, Cholesky, tridiagonal reduction, eigensolver, parallel for).
//
// The coded error type every package returns is ntkrf/core/errs (read
// the code with errors.As or errs.CodeOf); the shared input checks live in
// ntkrf/internal/check. ARCHITECTURE.md at the repository
// root shows which package may import which.
//
// Matrices are row-major float64 [gonum.org/v1/gonum/mat.Dense] values, one
// data point per row. Inputs are never modified. Bad data is returned as an
// error with a code (see ntkrf/core/errs); a panic means a bug.
package core
