// Package linalg is the dense linear algebra of ntkrf: Gram products,
// matrix products, Cholesky, the reduction to tridiagonal form, the
// symmetric eigensolver and one parallel for. It accumulates Gram matrices G += AᵀA over row blocks of a
// feature matrix A: the step that decides the cost of kernel ridge regression
// on random features. It also has Mul, a matrix product whose bits do not
// depend on the platform, and AddAtBRows, the narrow ΦᵀY with gonum
// Dgemm's bits.
//
// # AddAtA
//
// Only the upper triangle of G is computed (half the flops of a general
// product). A is packed 256 rows at a time into panels of 8 columns; a
// micro-kernel adds an 8×24 tile of G from one panel and three neighbouring
// ones, and the tiles on or above the diagonal are shared among
// runtime.GOMAXPROCS(0) goroutines, each owning whole blocks of G, so no
// reduction is needed.
//
// The micro-kernel is chosen at start-up with golang.org/x/sys/cpu:
// AVX-512 (Z registers, fused multiply-add), else AVX2 with FMA, else plain
// Go (4×2 blocks of sums in local variables), which is also what
// builds with the noasm tag run and what the tests compare against.
// WebAssembly built with GOEXPERIMENT=simd runs 4×4 blocks of 128-bit
// simd/archsimd vectors whose lanes repeat the portable order of
// operations (wasm has no fused multiply-add), so they give the portable
// bits; without the experiment it runs the portable Go. The assembly
// kernels differ from these in the last bits; each is within
// n·ε·Σ_k |a_ki·a_kj| of the exact sum.
//
// AddAtA32 rounds A to float32 and sums each packed block in float32 with
// an AVX-512 kernel (8×48 tiles of 16 lanes), or in SIMD WebAssembly with
// Float32x4 lanes, adding the block sums to G in float64: 1.6× the
// throughput of AddAtA natively, 1.7× in WebAssembly, within
// (min(n, 256)+3)·2⁻²⁴·Σ_k |a_ki·a_kj| per entry. Float32 reports whether
// this build has such a kernel; without one AddAtA32 is AddAtA.
//
// Mul32 sets C = A·B in float32, every entry summed in increasing inner
// index with a rounded product and a rounded sum at a time (no fused
// multiply-add), so AVX-512, AVX2, WebAssembly SIMD and plain Go give the
// same bits. Weights32 holds a B that many products share (random
// features' weights): on AVX2 machines without AVX-512 it packs B once in
// panels of 16 columns for a 6×16 kernel that streams them from cache,
// 1.7× Mul32's rate on row-major B on Zen 3, with Mul32's bits (inner
// blocks of up to 1024, each tile's float32 sums stored and reloaded,
// which is exact); elsewhere it keeps B's rows for Mul32's kernels.
//
// SubAtAStride subtracts AᵀA from a block of a larger matrix (a row
// stride) by packing the left panels negated, in place, with no m×m
// scratch matrix; the trailing updates of Cholesky and of the tridiagonal
// reductions run on the same kernel, the latter as the two-operand
// product [V; W]ᵀ[W; V] in one pass.
//
// # Cholesky, DotAxpy
//
// Cholesky is a right-looking blocked factorization whose trailing updates
// run on the AddAtA kernel and whose panels are solved in column chunks on
// all cores, through the product kernel in groups of 32 rows (the same
// bits as plain loops). CholSolve's triangular solves run on the columns
// of the right-hand side, an axpy or a dot per row of U.
//
// CholeskyShared shares a factorization of order ShareMin or more with a
// helper in another instance (ServeCholesky at the other end of a Peer,
// whose bytes a host carries: WebAssembly workers share no memory). The
// panels of 256 columns are split between the two (the helper's are 1, 2,
// 5, 6, …); each step the solver factors U₁₁ and sends it, each side
// solves its columns of U₁₂ and sends them to the other, each updates its
// panels of the trailing matrix, and the helper sends back the next
// diagonal block when that panel is its own. Each entry's operations are
// those of Cholesky in the same order (the products summed from zero by
// the same micro-kernels and added), so the factor is Cholesky's bit for
// bit.
//
// # EigSym, Tridiagonalize
//
// EigSym diagonalizes by a Householder reduction to tridiagonal form and
// the implicit QL iteration. Tridiagonalize stops at T = QᵀCQ with QᵀR,
// all that GCV needs; from m = 512 it reduces in two stages, to a band on
// the Gram kernel (its symmetric product VᵀA₂₂ and its rank-2k updates,
// with fused multiply-adds where the CPU has them: the two-stage bits are
// not the portable ones), then by bulge chasing whose sweeps run
// concurrently with the bits of one sweep after the other (LAPACK
// dsb2st's pipeline; its 64-wide reflectors on AVX-512 or AVX2 kernels
// with the same bits). Every stage splits its work at places fixed by the
// shapes, never by the number of cores, so the bits are the same on any
// number: the band reduction's symmetric product (half its flops) hands
// out strips of whole tiles as equal tasks, each summed on one goroutine
// over fixed blocks, and Reduction.ApplyQ gives every core at least one
// group of columns; its first-stage blocks run on the Gram kernel too
// where the CPU has FMA (tileAtB: fixed inner blocks, whatever the split
// and the neighbouring columns), on Mul elsewhere. DotAxpy (y += s·a and a·x in one pass) is the memory-bound
// inner step of a symmetric matrix–vector product (AVX2 with FMA on amd64;
// in SIMD WebAssembly, vectors with the portable bits).
//
// # ReduceQ
//
// ReduceQ is EigSym's one-stage reduction with Qᵀ formed and T kept, for
// functions of C wanted row by row without its eigenvectors (exact
// leave-one-out): Eigenvalues runs QL on T alone (O(m²), EigSym's bits),
// Factor takes LDLᵀ of T+λI for a list of λ (refusing one that is not
// positive definite), and ShiftedLDL's Quad (λ·vᵀ(T+λI)⁻¹v for every
// column of Qᵀ, a sum of positive terms, O(m²) per λ) and Solve replace
// the O(m³) rotations of the eigenvectors. Eig finishes EigSym from it.
//
// # Mul
//
// Every entry of c = a·b is summed in increasing inner index with separately
// rounded products, so results are the same bits natively and in
// WebAssembly. The amd64 code and the SIMD WebAssembly code vectorize
// across columns with separate multiply and add instructions, which keeps
// that order.
//
// # Errors and panics
//
// The data faults it can meet (Cholesky of a matrix that is not positive
// definite, an eigensolve that does not converge or overflows) are returned
// as ntkrf/core/errs errors with code ERR_DATA and messages that start with
// "linalg: "; ErrNotPositiveDefinite is one value, for errors.Is.
//
// The functions panic if the slices are shorter than the shapes say or a
// dimension is negative: these are programming errors, not bad data.
package linalg
