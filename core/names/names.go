// Package names holds the vocabulary every layer of ntkrf shares: the
// names of feature methods, exact kernels, sketches, samplers, tasks and
// λ criteria, each written once. The packages that own an option give it
// a named string type with typed constants of these values and its list
// (rf.Method and rf.Methods, kernel.Name, krr.Task, krr.Criterion,
// pipeline.Method, …); the JavaScript package and the lab read the lists
// through the schema (jsbridge), so a name is spelled in one place. It
// imports nothing.
//
// An architecture test (internal/names_test.go) refuses a string literal
// equal to one of these names where Go code compares or assigns a name.
package names

// Feature methods (rf.Config.Method).
const (
	NTK     = "ntk"     // the NTK features of Han et al. (also an exact kernel)
	NNGP    = "nngp"    // the NNGP (conjugate kernel) features (also an exact kernel)
	ArcCos0 = "arccos0" // arc-cosine kernel of order 0
	ArcCos1 = "arccos1" // arc-cosine kernel of order 1
	Naive   = "naive"   // explicit tensor products (a baseline)
	Grad    = "grad"    // gradient features of a finite network (a baseline)
	RFF     = "rff"     // random Fourier features of the RBF kernel
)

// Exact kernels (kernel.Spec.Name), besides NTK and NNGP.
const (
	RBF    = "rbf"    // exp(−γ‖x−z‖²)
	Linear = "linear" // XZᵀ, the NTK and NNGP of depth 0
)

// Auto asks the core to choose: a sketch, a task, a depth, λ, a header.
const Auto = "auto"

// Sketches of the NTK features (rf.Config.Sketch), besides Auto.
const (
	Split        = "split"
	TensorSketch = "tensorsketch"
	TensorSRHT   = "tensorsrht"
)

// Methods of a fit, as 'auto' chooses between them (pipeline.Selection.Method).
const (
	MethodKernel   = "kernel"   // the exact kernel, in the dual
	MethodFeatures = "features" // random features, in the primal or the dual
)

// Direction samplers (rf.Config.Sampler).
const (
	Exact      = "exact"
	Gibbs      = "gibbs"
	Orthogonal = "orthogonal"
	Gaussian   = "gaussian"
	Hadamard   = "hadamard"
)

// Precisions of the feature projections (rf.Config.Precision).
const (
	Float64 = "float64"
	Float32 = "float32"
)

// Tasks (krr.Options.Task, data.Options.Task).
const (
	Classification = "classification"
	Regression     = "regression"
)

// Criteria for the automatic choice of λ (krr.Options.Criterion).
const (
	GCV     = "gcv"
	LOO     = "loo"
	Holdout = "holdout"
)
