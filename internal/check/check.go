package check

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// MaxDepth is the largest network depth the kernels and features accept.
// Deeper ReLU kernels converge to a constant on the sphere, so larger depths
// add cost and no information.
const MaxDepth = 64

// MinLambda is the smallest ridge λ accepted, the smallest normal float64
// (2.2e-308). Below it λ is subnormal: it has lost precision, 1/λ
// overflows, and added to any diagonal entry of a Gram matrix it changes
// nothing, so it regularizes nothing and a singular system stays singular.
const MinLambda = 0x1p-1022

// MaxSeed is the largest seed of any random draw (features, splits, folds):
// 2^53−1, the largest integer every host carries exactly (a JavaScript
// number, a model file read by JSON.parse). A larger seed would draw
// something else once it crossed to such a host, so every host refuses it.
const MaxSeed = 1<<53 - 1

// Seed returns an error unless seed is at most MaxSeed; option names it
// and pkg prefixes the message.
func Seed(pkg, option string, seed uint64) error {
	if seed > MaxSeed {
		return New(Option, option, "%s: %s %d is above 2^53−1 = %d, the largest seed every host carries exactly (JavaScript numbers); use a seed in 0 … %d", pkg, option, seed, uint64(MaxSeed), uint64(MaxSeed))
	}
	return nil
}

// Lambda returns an error unless v is a λ in MinLambda…MaxFloat64; option
// names it ("lambda", "grid[2]") and pkg prefixes the message.
func Lambda(pkg, option string, v float64) error {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0) || v <= 0:
		return New(Option, option, "%s: %s %v is invalid; use a positive finite λ", pkg, option, v)
	case v < MinLambda:
		return New(Option, option, "%s: %s %v is subnormal, below %v: it has lost precision and adds nothing to a diagonal, so it regularizes nothing; use λ ≥ %v", pkg, option, v, MinLambda, MinLambda)
	}
	return nil
}

// Matrix returns an error unless X is a non-empty matrix of finite
// values. name is used in the message ("core: X has NaN at row 3, column 2").
func Matrix(name string, X *mat.Dense) error {
	if X == nil || X.IsEmpty() {
		return New(Shape, "", "core: %s is empty; it needs at least one row and one column", name)
	}
	r, c := X.Dims()
	raw := X.RawMatrix()
	for i := 0; i < r; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		if j := nonFiniteAt(row); j >= 0 {
			return New(NonFinite, "", "core: %s has %v at row %d, column %d; remove or impute non-finite values", name, row[j], i, j)
		}
	}
	return nil
}

// nonFiniteAt returns the index of row's first NaN or ±Inf, or −1: a
// call of its own per row, not inlined, because WebAssembly engines swap
// optimized code in only at a function's next call, and a loop over a
// whole block of features in one call ran to its end in baseline code.
//
//go:noinline
func nonFiniteAt(row []float64) int {
	for j, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return j
		}
	}
	return -1
}

// Depth returns an error unless 1 ≤ depth ≤ MaxDepth: a network has at
// least one hidden layer (the depth-0 kernel XZᵀ is the linear kernel).
func Depth(depth int) error {
	if depth < 1 || depth > MaxDepth {
		return New(Option, "depth", "core: depth %d is out of range; use 1 ≤ depth ≤ %d (the depth-0 kernel XZᵀ is the linear kernel)", depth, MaxDepth)
	}
	return nil
}

// Alloc returns an error if a float64 buffer of rows×cols would exceed
// MaxAllocBytes; what names the buffer in the message.
func Alloc(what string, rows, cols int) error {
	if rows <= 0 || cols <= 0 {
		return New(Shape, "", "core: %s would be %d×%d; both sizes must be positive", what, rows, cols)
	}
	if float64(rows)*float64(cols)*8 > MaxAllocBytes {
		return New(TooLarge, "", "core: the %d×%d %s needs %s, over the %s limit for one buffer; use fewer rows or random features with a smaller dimension",
			rows, cols, what, FormatBytes(float64(rows)*float64(cols)*8), FormatBytes(MaxAllocBytes))
	}
	return nil
}

// FormatBytes renders a byte count for messages: "3.2 GB".
func FormatBytes(b float64) string {
	switch {
	case b >= 1e9:
		return fmt.Sprintf("%.1f GB", b/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.1f MB", b/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.1f kB", b/1e3)
	}
	return fmt.Sprintf("%.0f B", b)
}

// Wrap prefixes the message of a shared check's error ("core: …") with
// the package that ran the check ("krr: …"), keeping it unwrappable.
func Wrap(pkg string, err error) error {
	if err == nil {
		return nil
	}
	return prefixed{pkg, err}
}

type prefixed struct {
	pkg string
	err error
}

func (e prefixed) Error() string { return e.pkg + ": " + strings.TrimPrefix(e.err.Error(), "core: ") }
func (e prefixed) Unwrap() error { return e.err }
