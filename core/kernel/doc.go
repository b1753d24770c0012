// Package kernel computes the exact kernels of infinitely wide ReLU
// networks (the Neural Tangent Kernel and the NNGP kernel) and the RBF
// kernel.
//
// # Kernels
//
// For a fully connected ReLU network of depth L ≥ 0 (Han et al., "Random
// Features for the Neural Tangent Kernel", Section 2), with K0 = XZᵀ:
//
//	c      = NNGP_{l-1}(x,z) / (‖x‖‖z‖)           (clipped to [-1, 1])
//	F0(c)  = 1 − arccos(c)/π
//	NNGP_l = ‖x‖‖z‖ · (√(1−c²) + (π − arccos c)·c) / π
//	NTK_l  = NNGP_l + NTK_{l−1} · F0(c)
//
// so NNGP_l(x,x) = ‖x‖² and NTK_L(x,x) = (L+1)‖x‖²; both kernels are
// positively homogeneous of degree one in each argument, and a zero row has
// kernel zero with every row (the limit as the row goes to zero).
//
// The angle θ = arccos c is carried from layer to layer together with 1−c
// computed without cancellation, and nearly parallel rows get their first
// angle from ‖x̂−ẑ‖ and ‖x̂+ẑ‖ (Kahan's formula) rather than from arccos of a
// rounded cosine, so duplicate and near-duplicate rows come out to full
// precision and the diagonal of a Gram matrix is exact.
//
// # Matrices
//
// Matrices are row-major float64 [gonum.org/v1/gonum/mat.Dense] values, one
// data point per row. Inputs are never modified. Spec.Depths returns the
// Gram matrices of several depths from one pass of the recursion (it
// passes through every shallower depth), each with the bits of its own.
//
// # Speed
//
// The inner products come from linalg's product kernels; the map from
// them to kernel values runs one call per row, with arccos and (in
// WebAssembly) exp written out in this package as Go's math package
// computes them, so the bits are math.Acos's and math.Exp's. In SIMD
// WebAssembly two entries go through the recursion at once, every branch
// on both lanes and each lane's own kept, which gives the scalar bits;
// TestKernelsKeepTheRecursionsBits holds every path, natively and in
// WebAssembly, to the per-entry recursion bit for bit.
//
// # Errors and panics
//
// Bad data (an empty matrix, NaN or ±Inf, mismatched columns, a depth out of
// range, a result too large for memory) is returned as an error whose text
// starts with "core: " (shared checks) or "kernel: " and says what to change. A panic means a bug in this
// package.
package kernel
