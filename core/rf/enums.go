package rf

import "ntkrf/core/names"

// Method is a feature map (Config.Method); its JSON form is its name.
// The zero value means NTK.
type Method string

// The feature methods, in the order of Methods.
const (
	NTK     Method = names.NTK     // the NTK features of Han et al.
	NNGP    Method = names.NNGP    // the NNGP (conjugate kernel) features
	ArcCos0 Method = names.ArcCos0 // arc-cosine kernel of order 0
	ArcCos1 Method = names.ArcCos1 // arc-cosine kernel of order 1
	Naive   Method = names.Naive   // explicit tensor products (a baseline)
	Grad    Method = names.Grad    // gradient features of a finite network (a baseline)
	RFF     Method = names.RFF     // random Fourier features of the RBF kernel
)

// Methods returns the methods Config accepts, the default first, in a new
// slice.
func Methods() []Method { return []Method{NTK, NNGP, ArcCos0, ArcCos1, Naive, Grad, RFF} }

// Sketch is how the ntk features are built (Config.Sketch). The zero value
// means SketchAuto.
type Sketch string

// The sketches, in the order of Sketches.
const (
	SketchAuto         Sketch = names.Auto         // split where it fits, else tensorsketch (SketchRule)
	SketchSplit        Sketch = names.Split        // the linear part exact (split.go)
	SketchTensorSketch Sketch = names.TensorSketch // the paper's TensorSketch
	SketchTensorSRHT   Sketch = names.TensorSRHT   // the paper's TensorSRHT
)

// Sketches returns the sketches Config accepts, the default first, in a new
// slice.
func Sketches() []Sketch {
	return []Sketch{SketchAuto, SketchSplit, SketchTensorSketch, SketchTensorSRHT}
}

// Sampler draws the directions of the ReLU features (Config.Sampler). The
// zero value means Exact.
type Sampler string

// The samplers, in the order of Samplers.
const (
	Exact      Sampler = names.Exact
	Gibbs      Sampler = names.Gibbs
	Orthogonal Sampler = names.Orthogonal
	Gaussian   Sampler = names.Gaussian
	Hadamard   Sampler = names.Hadamard // also draws the Step directions
)

// Samplers returns the samplers Config accepts, the default first, in a new
// slice.
func Samplers() []Sampler { return []Sampler{Exact, Gibbs, Orthogonal, Gaussian, Hadamard} }

// Precision is the arithmetic of the projections (Config.Precision). The
// zero value means DefaultPrecision.
type Precision string

// The precisions, in the order of Precisions.
const (
	Float32 Precision = names.Float32
	Float64 Precision = names.Float64 // the reference
)

// Precisions returns the precisions Config accepts in a new slice:
// Float32 first, the default where the map has a float32 form
// (DefaultPrecision).
func Precisions() []Precision { return []Precision{Float32, Float64} }
