// Package krr fits kernel ridge regression on random features (primal) and
// on exact kernels (dual) and chooses the ridge λ automatically. Scores
// live in package metrics, active learning in package active, and the
// dense linear algebra (eigensolver, Cholesky) in package linalg.
//
// # Model
//
// Every fit is a ridge regression with an unpenalized intercept:
//
//	minimize  Σᵢ ‖yᵢ − b − Wᵀφ(xᵢ)‖² + λ‖W‖²
//
// which is the same as centering both the features and the targets, fitting
// a ridge without intercept, and predicting ȳ + Wᵀ(φ(x) − μ). The primal
// (FitFeatures) solves (Φcᵀ Φc + λI)W = ΦcᵀYc by Cholesky, m×m; the dual
// (FitKernel) solves (Kc + λI)α = Yc with Kc = HKH, n×n. The two agree for
// K = ΦΦᵀ (tested), so features and exact kernels are compared on the same
// footing.
//
// Why center: a ridge without a bias shrinks predictions toward 0, not
// toward the mean, so an offset in y (a price in thousands, or the 1/k base
// rate of a one-hot column) is paid for with weight norm and biases every
// prediction. Centering makes the fit invariant to shifting y, and with the
// intercept unpenalized the leave-one-out shortcut below stays exact.
//
// Regression: one output, y centered (the mean is fitted). Classification
// with k classes: y holds class indices 0…k−1, the targets are one-hot
// columns, centered by the class frequencies, and the predicted label is the
// argmax of the k scores. With centering, 0/1 and ±1 (or 1−1/k, −1/k) codes
// are affine images of each other and give the same labels, so the plain
// one-hot is kept: Predict's scores then read as class-membership estimates
// that sum to 1.
//
// # Choosing λ
//
// With Options.Lambda = 0, λ is picked from a grid (default: 30 points,
// log-spaced over 1e-6…1e2 × the mean eigenvalue, tr(Gc)/m in the primal,
// tr(Kc)/n in the dual, including FitFeatures' dual path; see
// Options.Grid) from ONE eigendecomposition, with no refits. Model.Curve
// reports the scores, estimates of the mean squared error per output.
//
//   - GCV (the default): from Gc = VΛVᵀ, B = VᵀΦcᵀYc and E = ‖Yc‖²,
//     RSS(λ) = E − Σⱼ‖Bⱼ‖²(λⱼ+2λ)/(λⱼ+λ)², tr P = 1 + Σⱼ λⱼ/(λⱼ+λ) and
//     GCV = RSS/(n·k)/(1 − tr P/n)², O(m·k) per λ (dual: the same with Kc).
//     It needs Λ and B but not V: the QL iteration rotates the k target
//     columns instead of an m×m basis, so the eigensolve costs about the
//     reduction to tridiagonal form (4/3·m³) instead of ~4× that, and the
//     primal needs a single pass over the rows, which matters because
//     featurizing dominates.
//   - LOO: the exact leave-one-out error Σᵢ‖eᵢ‖²/(1 − Pᵢᵢ)², exact for
//     penalized least squares with an unpenalized intercept, with
//     Pᵢᵢ = 1/n + leverage. In the dual they come from Kc = QTQᵀ with Q
//     formed (no eigenvectors: 1 − Pᵢᵢ = λ·q̃ᵢᵀ(T+λI)⁻¹q̃ᵢ, q̃ᵢ row i of
//     Q with its columns centered, one LDLᵀ sweep of O(n²) per λ; the
//     residuals a tridiagonal solve per λ and a product by Q̃, O(n²·k),
//     k counting only the classes some row has, at most n), and T's
//     eigenvalues only set the grid; in the primal they need
//     z = Vᵀ(φᵢ − μ) for every row, a second featurization pass, and the
//     eigenvectors. Prefer it for small n, where GCV's averaging of the
//     leverages is crudest.
//   - Holdout (primal, classification's default there): HoldoutRows are
//     taken back out of the co-moments, the rest's Gc is reduced once to
//     Gc = QTQᵀ keeping Q (linalg.Reduce), GCV on T centres a bracket of
//     11 λ, and each λ's W = Q(T+λI)⁻¹QᵀΦcᵀYc is a tridiagonal solve
//     plus one application of Q to all λ's columns together, O(m²·k)
//     instead of a Cholesky each; the held-out rows score them, and the
//     model is the Cholesky fit on all rows at the winner. The held-out
//     rows are summed in an accumulator of their own and merged after the
//     search: by a helper instance while the solver searches
//     (Options.Helper, ServeHelper) or by the solver, with the same bits.
//
// The tests check LOO against brute-force refits (1e-9 relative), GCV
// against its definition with the hat matrix formed explicitly, and fits
// at a fixed λ against the normal equations with an explicit intercept.
//
// # Splitting rows over workers
//
// FitFeatures is built from exported pieces so that a caller (the JS layer
// running several WebAssembly workers) can featurize row ranges separately:
// each worker fills an Accumulator with Add, the parts are combined with
// Merge, and Accumulator.Solve (fixed λ or GCV) returns the model. For LOO,
// Accumulator.Spectrum diagonalizes once, each worker returns
// Spectrum.LOOSums for its rows, the sums are added, and Spectrum.LOOCurve
// and Spectrum.Solve finish. The accumulator keeps centered co-moments
// merged pairwise (Chan, Golub and LeVeque), so splits differ only by the
// order of floating-point sums: results are not bitwise identical across
// splits; the tests hold predictions to 1e-10 relative. An accumulator
// travels as a versioned binary form (AppendBinary, DecodeAccumulator,
// MergeBinary: the upper triangle of ΦᵀΦ, every length checked before
// anything is allocated), and criterion Holdout's rows are picked by
// HoldoutCut, which each part applies to the keys of its own rows.
// core/pipeline's Plan runs the whole protocol.
//
// # Cost and limits
//
// FitFeatures: O(n·m² + m³) time, O(m² + BlockRows·m) memory; Φ is never
// held for all rows. The eigensolver (linalg.EigSym) is a Householder reduction to
// tridiagonal form followed by an implicit QL iteration
// (EISPACK tql2), whose rotations act on contiguous rows and are split over
// the cores; gonum's EigenSym walks columns of a row-major matrix and was
// 9× slower on a 1024×1024 Gram matrix. GCV stops at the tridiagonal form
// (linalg.Tridiagonalize): each λ is then a tridiagonal solve, O(m·k). FitKernel: O(n³) time, O(n²) memory. Buffers are
// checked with check.Alloc before they are allocated; an error
// suggests random features with a smaller dimension.
//
// # Errors
//
// Bad input (shape mismatches, NaN or ±Inf, fewer than 2 rows, class
// indices out of range, a single class, λ ≤ 0 or NaN, buffers over the
// memory limit) returns an error starting with "krr: " that says what to
// change. So do results that would not be finite: a fit whose coefficients
// overflow, and a prediction whose score does (naming the row); no model
// or score holds NaN or ±Inf. A panic is a bug in this
// package.
package krr
