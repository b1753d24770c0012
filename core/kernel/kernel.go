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
		gamma := k.Gamma
		return gramOf(ctx, X, Z, func(sz []float64, _ *mat.Dense) rowFunc {
			return func(row []float64, j0 int, sx float64, _ []float64) {
				for j := rbfPairs(row, j0, sx, sz, gamma); j < len(row); j++ {
					row[j] = expOf(-gamma * max(sx+sz[j]-2*row[j], 0))
				}
			}
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
	return gramOf(ctx, X, Z, func(sz []float64, Z *mat.Dense) rowFunc {
		b := make([]float64, len(sz))
		for j, s := range sz {
			b[j] = math.Sqrt(s)
		}
		return func(row []float64, j0 int, sx float64, x []float64) {
			reluRow(row, j0, math.Sqrt(sx), b, x, Z, depth, ntk)
		}
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

// rowFunc maps row[j0:], the inner products ⟨x,zⱼ⟩ of one row x of X
// (squared norm sx) with the rows of Z, to kernel values in place: a
// call per row, not per entry (the calls cost more than the map of the
// cheaper kernels, in WebAssembly most).
type rowFunc func(row []float64, j0 int, sx float64, x []float64)

// rowMapper returns the rowFunc of the rows of Z, whose squared norms are
// sz: what the map needs of Z is prepared once.
type rowMapper func(sz []float64, Z *mat.Dense) rowFunc

// gramOf computes K[i][j] = f(⟨xᵢ,zⱼ⟩, ‖xᵢ‖², ‖zⱼ‖²) with one n×m buffer: the
// inner products come from BLAS and are mapped in place. When Z is nil only
// the upper triangle is mapped, the diagonal is diag(‖xᵢ‖²) exactly, and the
// lower triangle is mirrored.
func gramOf(ctx context.Context, X, Z *mat.Dense, mapper rowMapper, diag func(float64) float64) (*mat.Dense, error) {
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
	f := mapper(sz, Z)
	linalg.ParallelFor(n, func(i int) {
		if ctx.Err() != nil {
			return // the call returns the context's error
		}
		row := kd[i*m : (i+1)*m]
		j0 := 0
		if sym {
			j0 = i + 1
			row[i] = diag(sx[i])
		}
		f(row, j0, sx[i], X.RawRowView(i))
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
