package kernel

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/linalg"
	"ntkrf/internal/check"
)

// MaxDepth is the largest network depth the kernels and features accept.
const MaxDepth = check.MaxDepth

// DefaultDepth is the depth a Spec (and rf.Config) means by Depth 0.
const DefaultDepth = 1

// DefaultGamma is the RBF γ that a zero Spec.Gamma (and rf.Config.Gamma)
// means for inputs of d columns: 1/d, so that γ‖x−z‖² stays of order one
// on standardized columns. It is DefaultGamma(1)/d for every d, which is
// how the JavaScript schema states it (defaultPerCol).
func DefaultGamma(d int) float64 { return 1 / float64(d) }

// Spec names a kernel chosen at run time, as the JS API does. The zero
// value is the NTK of depth DefaultDepth; zero fields mean their defaults.
type Spec struct {
	// Name is NameNTK (default), NameNNGP, NameRBF or NameLinear (XZᵀ:
	// the NTK and NNGP of depth 0).
	Name Name `json:"kernel"`
	// Depth is the network depth L, 1 … MaxDepth, of "ntk" and "nngp"; 0
	// means DefaultDepth.
	Depth int `json:"depth"`
	// Gamma is the RBF scale γ in exp(−γ‖x−z‖²), > 0; 0 means
	// DefaultGamma(cols).
	Gamma float64 `json:"gamma"`
}

// Filled returns k with its defaults written out for inputs of d columns,
// the depth of kernels without one and the γ of kernels other than rbf
// set to 0, or an error naming the field that is out of range.
func (k Spec) Filled(d int) (Spec, error) {
	if k.Name == "" {
		k.Name = NameNTK
	}
	switch k.Name {
	case NameNTK, NameNNGP:
		if k.Depth == 0 {
			k.Depth = DefaultDepth
		}
		if k.Depth < 0 || k.Depth > MaxDepth {
			return k, check.New(check.Option, "depth", "kernel: depth %d is out of range; use 1 ≤ depth ≤ %d (0 means %d)", k.Depth, MaxDepth, DefaultDepth)
		}
		k.Gamma = 0
	case NameRBF:
		if k.Gamma == 0 && d > 0 {
			k.Gamma = DefaultGamma(d)
		}
		if !(k.Gamma > 0) || math.IsInf(k.Gamma, 1) {
			return k, check.New(check.Option, "gamma", "kernel: rbf gamma must be a positive finite number, got %v", k.Gamma)
		}
		k.Depth = 0
	case NameLinear:
		k.Depth, k.Gamma = 0, 0
	default:
		return k, check.New(check.Option, "kernel", "kernel: unknown kernel %s; use one of %q", check.Quote(k.Name), Names())
	}
	return k, nil
}

// Validate reports whether k names a known kernel with usable parameters.
func (k Spec) Validate() error {
	_, err := k.Filled(1)
	return err
}

// Gram returns the kernel matrix between the rows of X and the rows of Z,
// or of X with itself (symmetric, computed once per pair) when Z is nil.
func (k Spec) Gram(X, Z *mat.Dense) (*mat.Dense, error) {
	return k.GramContext(context.Background(), X, Z)
}

// GramContext is Gram returning ctx's error (ERR_ABORTED) once ctx is
// cancelled: the rows not yet computed are skipped.
func (k Spec) GramContext(ctx context.Context, X, Z *mat.Dense) (*mat.Dense, error) {
	d := 0
	if X != nil {
		_, d = X.Dims()
	}
	k, err := k.Filled(d)
	if err != nil {
		return nil, err
	}
	if k.Name == NameRBF {
		return gramOf(ctx, X, Z, func(g, sx, sz float64, _, _ []float64) float64 {
			return math.Exp(-k.Gamma * math.Max(sx+sz-2*g, 0))
		}, func(float64) float64 { return 1 })
	}
	return relu(ctx, X, Z, k.Depth, k.Name == NameNTK)
}

// relu is the NTK (ntk) or NNGP kernel of any depth 0 … MaxDepth (depth
// 0: XZᵀ, the linear kernel, reached only through Spec{Name: "linear"}).
func relu(ctx context.Context, X, Z *mat.Dense, depth int, ntk bool) (*mat.Dense, error) {
	L := float64(depth)
	diag := func(s float64) float64 { return s } // NNGP_l(x,x) = ‖x‖²
	if ntk {
		diag = func(s float64) float64 { return (L + 1) * s }
	}
	return gramOf(ctx, X, Z, func(g, sx, sz float64, x, z []float64) float64 {
		return reluEntry(g, math.Sqrt(sx), math.Sqrt(sz), x, z, depth, ntk)
	}, diag)
}

// NTK returns the n×n Neural Tangent Kernel of the rows of X for a ReLU
// network of the given depth, 1 … MaxDepth. The functions that take a
// depth argument have no default: depth 0 is an ERR_OPTION error, not the
// linear kernel (that is Spec{Name: "linear"}), while a zero Spec.Depth
// means DefaultDepth like every zero field of a Spec.
func NTK(X *mat.Dense, depth int) (*mat.Dense, error) {
	if err := depthArg(depth); err != nil {
		return nil, err
	}
	return relu(context.Background(), X, nil, depth, true)
}

// depthArg checks the depth argument of NTK, NNGP and their Cross forms.
func depthArg(depth int) error {
	return check.Wrap("kernel", check.Depth(depth))
}

// NTKCross returns the NTK between the rows of X and the rows of Z
// (len(X)×len(Z)), as needed to predict Z from a model trained on X.
func NTKCross(X, Z *mat.Dense, depth int) (*mat.Dense, error) {
	if Z == nil {
		return nil, check.New(check.Type, "Z", "kernel: Z is nil; use NTK for X against itself")
	}
	if err := depthArg(depth); err != nil {
		return nil, err
	}
	return relu(context.Background(), X, Z, depth, true)
}

// NNGP returns the n×n NNGP (conjugate) kernel of the rows of X for a ReLU
// network of the given depth: the covariance of its last hidden layer.
func NNGP(X *mat.Dense, depth int) (*mat.Dense, error) {
	if err := depthArg(depth); err != nil {
		return nil, err
	}
	return relu(context.Background(), X, nil, depth, false)
}

// NNGPCross returns the NNGP kernel between the rows of X and of Z.
func NNGPCross(X, Z *mat.Dense, depth int) (*mat.Dense, error) {
	if Z == nil {
		return nil, check.New(check.Type, "Z", "kernel: Z is nil; use NNGP for X against itself")
	}
	if err := depthArg(depth); err != nil {
		return nil, err
	}
	return relu(context.Background(), X, Z, depth, false)
}

// RBF returns exp(−γ‖xᵢ−xⱼ‖²) for the rows of X.
func RBF(X *mat.Dense, gamma float64) (*mat.Dense, error) {
	return Spec{Name: NameRBF, Gamma: gamma}.Gram(X, nil)
}

// RBFCross returns exp(−γ‖xᵢ−zⱼ‖²) between the rows of X and of Z.
func RBFCross(X, Z *mat.Dense, gamma float64) (*mat.Dense, error) {
	if Z == nil {
		return nil, check.New(check.Type, "Z", "kernel: Z is nil; use RBF for X against itself")
	}
	return Spec{Name: NameRBF, Gamma: gamma}.Gram(X, Z)
}

// entryFunc maps an inner product g = ⟨x,z⟩ and squared norms to a kernel
// value; x and z are the rows, for the few entries that need them.
type entryFunc func(g, sx, sz float64, x, z []float64) float64

// gramOf computes K[i][j] = f(⟨xᵢ,zⱼ⟩, ‖xᵢ‖², ‖zⱼ‖²) with one n×m buffer: the
// inner products come from BLAS and are mapped in place. When Z is nil only
// the upper triangle is mapped, the diagonal is diag(‖xᵢ‖²) exactly, and the
// lower triangle is mirrored.
func gramOf(ctx context.Context, X, Z *mat.Dense, f entryFunc, diag func(float64) float64) (*mat.Dense, error) {
	if err := check.Matrix("X", X); err != nil {
		return nil, check.Wrap("kernel", err)
	}
	sym := Z == nil
	if sym {
		Z = X
	} else if err := check.Matrix("Z", Z); err != nil {
		return nil, check.Wrap("kernel", err)
	}
	n, d := X.Dims()
	m, dz := Z.Dims()
	if d != dz {
		return nil, check.New(check.Shape, "", "kernel: X has %d columns but Z has %d; both need the same features", d, dz)
	}
	if err := check.Alloc("kernel matrix", n, m); err != nil {
		return nil, check.Wrap("kernel", err)
	}
	sx, err := rowSquares("X", X)
	if err != nil {
		return nil, err
	}
	sz := sx
	if !sym {
		if sz, err = rowSquares("Z", Z); err != nil {
			return nil, err
		}
	}
	K := innerProducts(X, Z, sym)
	kd := K.RawMatrix().Data
	linalg.ParallelFor(n, func(i int) {
		if ctx.Err() != nil {
			return // the call returns the context's error
		}
		x := X.RawRowView(i)
		row := kd[i*m : (i+1)*m]
		j0 := 0
		if sym {
			j0 = i + 1
			row[i] = diag(sx[i])
		}
		for j := j0; j < m; j++ {
			row[j] = f(row[j], sx[i], sz[j], x, Z.RawRowView(j))
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, check.Stopped("kernel: kernel matrix", err)
	}
	if sym {
		for i := 1; i < n; i++ {
			for j := 0; j < i; j++ {
				kd[i*m+j] = kd[j*m+i]
			}
		}
	}
	return K, nil
}

// innerProducts returns XZᵀ (n×m) with the fast kernels of package gram:
// for X against itself the upper triangle of XXᵀ (the only part read),
// otherwise the deterministic product of X and Zᵀ.
func innerProducts(X, Z *mat.Dense, sym bool) *mat.Dense {
	n, d := X.Dims()
	m, _ := Z.Dims()
	K := mat.NewDense(n, m, nil)
	if sym {
		linalg.AddAtA(K.RawMatrix().Data, linalg.Transpose(denseData(X), n, d), d, n)
		return K
	}
	linalg.Mul(K.RawMatrix().Data, denseData(X), linalg.Transpose(denseData(Z), m, d), n, d, m)
	return K
}

// denseData returns X's values row-major without gaps, copying only when
// X is a view with a stride.
func denseData(X *mat.Dense) []float64 {
	raw := X.RawMatrix()
	if raw.Stride == raw.Cols {
		return raw.Data[:raw.Rows*raw.Cols]
	}
	return mat.DenseCopyOf(X).RawMatrix().Data
}

// rowSquares returns ‖xᵢ‖² for every row, or an error when one overflows:
// kernel values scale like ‖x‖‖z‖, so such rows have no finite kernel.
func rowSquares(name string, X *mat.Dense) ([]float64, error) {
	n, _ := X.Dims()
	s := make([]float64, n)
	for i := range s {
		for _, v := range X.RawRowView(i) {
			s[i] += v * v
		}
		if math.IsInf(s[i], 0) {
			return nil, check.New(check.Value, "", "kernel: %s row %d has a squared norm beyond the float64 range (%.3g); rescale the data, e.g. standardize it", name, i, mat.Norm(mat.NewVecDense(len(X.RawRowView(i)), X.RawRowView(i)), math.Inf(1)))
		}
	}
	return s, nil
}

// nearParallel is the |c| beyond which the first angle is recomputed from
// the rows: arccos loses about eps/sin θ absolute, and sin θ < 0.045 here.
const nearParallel = 1 - 1e-3

// reluEntry runs the ReLU kernel recursion for one pair of rows with inner
// product g and norms a, b. It returns NTK_depth when ntk is set, else
// NNGP_depth.
func reluEntry(g, a, b float64, x, z []float64, depth int, ntk bool) float64 {
	if depth == 0 {
		if a == 0 || b == 0 {
			return 0
		}
		return g
	}
	var out [MaxDepth]float64
	reluLayers(g, a, b, x, z, ntk, out[:depth])
	return out[depth-1]
}

// reluLayers runs the ReLU kernel recursion for one pair of rows with
// inner product g and norms a, b through len(out) ≥ 1 layers, setting
// out[l−1] to NTK_l (ntk) or NNGP_l: each the bits of a recursion of depth
// l alone, whose last layer differs only in not computing the next angle.
func reluLayers(g, a, b float64, x, z []float64, ntk bool, out []float64) {
	depth := len(out)
	if a == 0 || b == 0 {
		clear(out)
		return
	}
	ab := a * b
	c := math.Max(-1, math.Min(1, g/ab))
	// θ = arccos c, 1 − c and 1 + c, all to full precision.
	var theta, omc, opc float64
	if math.Abs(c) > nearParallel {
		theta = kahanAngle(x, a, z, b)
		s, co := math.Sincos(theta / 2)
		omc, opc = 2*s*s, 2*co*co
		c = 1 - omc
	} else {
		theta = math.Acos(c)
		omc, opc = 1-c, 1+c
	}
	k := g
	for l := 0; l < depth; l++ {
		sin := math.Sqrt(omc * opc)
		f0 := 1 - theta/math.Pi
		var cn, omcn, thetan float64
		if theta < 0.1 {
			// 1 − c' = (π(1−c) + θc − sinθ)/π, and θcosθ − sinθ = −θ³/3 + θ⁵/30 − …
			// cancels, so take it from its series (error below 1e-20 relative).
			t2 := theta * theta
			series := -theta * t2 * (1.0/3 - t2*(1.0/30-t2*(1.0/840-t2*(1.0/45360-t2/3991680))))
			omcn = omc + series/math.Pi
			cn = 1 - omcn
			if l+1 < depth { // the last layer's angle is not used
				thetan = 2 * math.Asin(math.Sqrt(omcn/2))
			}
		} else {
			cn = (sin + (math.Pi-theta)*c) / math.Pi
			omcn = 1 - cn
			if l+1 < depth {
				thetan = math.Acos(cn)
			}
		}
		nngp := ab * cn
		k = nngp + k*f0
		if ntk {
			out[l] = k
		} else {
			out[l] = nngp
		}
		c, omc, opc, theta = cn, omcn, 1+cn, thetan
	}
}

// kahanAngle returns the angle between x and z as 2·atan2(‖x̂−ẑ‖, ‖x̂+ẑ‖),
// accurate to a few ulps even for nearly parallel or opposite rows.
func kahanAngle(x []float64, a float64, z []float64, b float64) float64 {
	var dm, dp float64
	z = z[:len(x)]
	for i, xi := range x {
		u, v := xi/a, z[i]/b
		dm += (u - v) * (u - v)
		dp += (u + v) * (u + v)
	}
	return 2 * math.Atan2(math.Sqrt(dm), math.Sqrt(dp))
}
