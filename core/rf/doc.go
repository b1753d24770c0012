// Package rf computes random features Φ with E[Φ(x)·Φ(y)] equal to (or, at
// depth ≥ 2, converging to) the NTK, NNGP, arc-cosine and RBF kernels of
// package core, following Han et al., "Random Features for the Neural
// Tangent Kernel" (Algorithms 1 and 2), with the paper's baselines.
//
// # Methods
//
// A [Map] is drawn once by [New] from a [Config] and a seed, then applied
// to any number of rows with [Map.Transform]. Config.Method, a [Method],
// selects:
//
//   - [NTK] ("ntk"): by default (Config.Sketch "auto") the split form below where
//     the input fits, else the paper's Algorithm 1 (Config.Sketch
//     "tensorsketch" or "tensorsrht"): per layer l = 1…L, Λ = a0(Ψ),
//     Ψ ← a1(Ψ), Γ = S(Λ ⊗ Φ) with a TensorSketch (or TensorSRHT) S into
//     m_cs dimensions, Φ ← [Ψ, Γ], starting from Φ = Ψ = x. The output has
//     m1 + m_cs columns; by default m0 = m1 = ⌊m/2⌋ and m_cs = m − m1, so
//     exactly Dim. Depth is 1 … MaxDepth; Config.Depth 0 means
//     kernel.DefaultDepth (1), as everywhere in the core.
//   - [NNGP] ("nngp"): the last Ψ of the same recursion (m1 = Dim columns).
//   - [ArcCos0] ("arccos0"): √(2/m)·Step(Wx), estimating F0 = 1 − θ/π.
//   - [ArcCos1] ("arccos1"): the ReLU features a1 below, estimating the order-1
//     arc-cosine kernel (= NNGP at depth 1).
//   - [Naive] ("naive"): Bietti-style explicit tensor products
//     Φ ← [a1(Ψ), a0(Ψ) ⊗ Φ] without sketching (paper eq. 5), with
//     m1·(1 + m0 + … + m0^{L−1}) + m0^L·d columns; unset M0 and M1 become
//     the largest equal widths that fit in Dim.
//   - [Grad] ("grad"): the gradient ∂f/∂θ of a random network f(x) = wᵀh_L,
//     h_l = √(2/width)·ReLU(W_l h_{l−1}), h_0 = x, standard Gaussian
//     weights, ordered [∂w, ∂W_L, …, ∂W_1]; E⟨∇f(x), ∇f(y)⟩ is the NTK at
//     depth 1 and tends to it as the width grows. It has
//     width·(1 + d + (L−1)·width) columns; the width is M1, or else the
//     largest that fits in Dim.
//   - [RFF] ("rff"): random Fourier features √(2/m)·cos(Wx + b), W ~ N(0, 2γI),
//     b ~ U[0, 2π), estimating exp(−γ‖x−y‖²).
//
// # The split form (Config.Sketch "split", the default where it fits)
//
// ReLU(t) = t/2 + |t|/2 and Step(t) = 1/2 + sign(t)/2, and the cross terms
// vanish in expectation (g and −g are equally likely), so
// F1(x, y) = ⟨x, y⟩/2 + E|g·x||g·y|/2 and F0 = 1/2 + E[sign(g·x)sign(g·y)]/2.
// Put into the NTK recursion, every layer's features are weighted copies
// of x, of |·| features A_l = √(din/m1)·|UΨ| (U drawn by Config.Sampler)
// and of sketches G_l = TensorSketch(sign(WΨ)/√m0 ⊗ Φ), and equal blocks
// merge: Φ_L = [w_x·x, w·A_1, w·G_1, …, w·A_L, w·G_L] with dyadic weights
// (split.go). The part of the NTK linear in x is then exact, and the
// random blocks estimate kernels with mean zero at orthogonal rows, so
// their variance per column is several times smaller than that of a0, a1
// and the sketch of Λ ⊗ Φ (at cosine 0: 0.15 against 0.90 for one |·|
// against one ReLU product; 0.25 against 1.25 for the sketch). The m − d
// columns after x go to the blocks in proportion to their squared
// weights (A_k: (L−k+1)·2^{k−1}, G_k: 2^{k−1}), which minimizes the
// summed variance; measured against equal shares at depth 2 it is
// 5–6 % better. m0 (sign features) defaults to the last |·| width;
// doubling it changed nothing measurable.
//
// Measured (ntkrf quality: 600 held-out unit rows, m = 4096, mean of
// seeds 1–3) the relative Frobenius error is 0.37–0.49× the paper's
// features' at depth 1 (mean .026 against .061; the authors' code .075)
// on five tabular sets (d = 16 … 64) and Fashion-MNIST (d = 784), and
// 0.53–0.58× at depth 2 (mean .046 against .082; the authors' .093);
// see docs/PERFORMANCE.md for the table. At depth 2 it is also cheaper: the second
// layer projects d + |A_1| inputs onto M0 + |A_2| ≈ 0.6·m columns. It needs d < m, and beat the paper's form at every ratio
// measured up to d ≈ 0.77·m (Fashion-MNIST at m = 1024: .061 against
// .081), so "auto" takes it up to d = 3m/4 (and where every block gets a
// column), unless M1 or SketchDim is given (widths of the paper's form).
// The split form always uses TensorSketch: TensorSRHT was 2–7 % worse in
// it. With Sampler "orthogonal" or "hadamard" it is another 15–20 %
// better at depth 1 (mean .022 against .026), but the orthogonal draw
// costs O(m·din·min(m, din)), several times the exact draw at depth ≥ 2,
// where din grows with m, and the hadamard directions carry a small
// structured bias; so the default sampler stays "exact".
//
// # Arc-cosine features and samplers
//
// a0(x) = √(2/m0)·Step(Wx) with Gaussian rows (Step only sees directions).
// a1 is the paper's importance-sampled Algorithm 2,
// √(2d/m1)·ReLU(Xv)/‖v‖ with v ~ q(v) ∝ ‖v‖² N(v; 0, I), where d is the
// layer's input dimension. Config.Sampler draws the directions v/‖v‖:
//
//   - "exact" (default): q is radially symmetric, so v/‖v‖ is uniform on
//     the sphere: normalized Gaussian vectors, no chain needed.
//   - "gibbs": the paper's Gibbs sampler, GibbsSweeps sweeps from a
//     Gaussian start, each coordinate drawn by inverting its conditional
//     CDF Φ(x) − xφ(x)/(1 + Σ_{k≠i} v_k²) with bracketed Newton steps.
//     A chain that starts from a Gaussian rather than from q is not at
//     q after finitely many sweeps, so its directions are only nearly
//     uniform (the paper calls it approximate sampling) and the features
//     are biased: at d = 3 with axis-aligned rows, one sweep (the paper's
//     T = 1) moves the arc-cosine estimate by about 9 %, two by under
//     1 %; on standardized wine rows (d = 13) one sweep is about 1 % off.
//   - "orthogonal": blocks of d exactly orthogonal uniform directions
//     (Gram–Schmidt of Gaussian blocks, Haar-distributed), which lowers
//     the estimator's variance; also used for a0. Drawing costs
//     O(m·d·min(m, d)): modified Gram–Schmidt, its trailing updates
//     blocked and spread over the cores with the bits of the plain loop
//     (random.go).
//   - "gaussian": plain a1(x) = √(2/m1)·ReLU(Wx), the Cho–Saul features.
//   - "hadamard": structured orthogonal directions (Yu et al., 2016) for
//     a0 and a1 alike, the rows of independent p×p blocks
//     p^{−3/2}·H·D3·H·D2·H·D1 (H the ±1 Hadamard matrix, p the input
//     dimension rounded up to a power of two and at least 128, D random
//     signs), restricted to the first d coordinates, with
//     a1 = √(2p/m1)·ReLU(⟨u, x⟩). They are applied by fast Walsh–Hadamard
//     transforms, O(m·log p) per row instead of O(m·d), and no weight
//     matrix is stored, which makes the projection 5–10× cheaper at
//     d ≈ 1000. The directions are dependent, so the estimator is unbiased
//     only up to a structured-sampling bias. Smaller blocks give visible
//     bias at small d (9–39 standard errors of a 3000-seed mean at d = 2,
//     3 with p = 16; 7.6 for nearly opposite rows at d = 2 with p = 64);
//     with p ≥ 128 none showed at 3000 seeds for d = 2, 3, 13 and 100, and
//     the tests check d = 2 and 13.
//
// # Bias at depth ≥ 2
//
// At depth 1 every estimator is unbiased (the split form too), except "gibbs" with few sweeps
// and the structured "hadamard" directions (above). Deeper layers apply F0 and F1
// (nonlinear) to the random Ψ of the layer below, which leaves an O(1/m1)
// bias (the paper notes the same for Algorithm 1; finite-width gradients
// behave alike). The tests bound it below the Monte Carlo error.
//
// # Reproducibility
//
// Every random object draws from its own PCG stream derived from Seed and
// its role, with Gaussians from a polar sampler on a portable logarithm and
// Gibbs steps on portable exp and erfc (internal/pmath), because math.Exp and
// math.Log use assembly on amd64. Projections use linalg.Mul, which sums in
// a fixed order without fused multiply-add, and the FFT (radix 2, or
// Bluestein for other lengths; checked against go-dsp in the tests) rounds
// every product on its own. So equal seeds give bit-identical features natively and in
// WebAssembly (TestGolden checks checksums on both), and a row's features
// depend only on that row, whatever the blocking or the number of
// goroutines.
//
// Config.Precision "float32", the default where the map has a float32
// form (DefaultPrecision: all but grad and the hadamard sampler), rounds
// the weights (once) and each row to float32 and projects with
// linalg.Weights32 (the weights laid out once for this CPU's kernel; the
// bits of linalg.Mul32), which sums in float32 with the
// same operations in the same order on every build (AVX-512, AVX2,
// WebAssembly Float32x4, plain Go): those features are reproducible in the
// same way, with checksums of their own. The rest of the map stays
// float64.
//
// # Sketches
//
// [CountSketch], [TensorSketch] and [TensorSRHT] are exported for reuse;
// each is drawn once from a seed, applied to any vectors, and safe for
// concurrent use. Apply methods panic on wrong lengths (a programming
// error); constructors return errors for bad sizes.
//
// # Errors and panics
//
// Bad configurations and data return errors starting with "rf: " that name
// the Config field or the input to change. A panic means a bug.
package rf
