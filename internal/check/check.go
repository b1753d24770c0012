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

// CheckMatrix returns an error unless X is a non-empty matrix of finite
// values. name is used in the message ("core: X has NaN at row 3, column 2").
func Matrix(name string, X *mat.Dense) error {
	if X == nil || X.IsEmpty() {
		return New(Shape, "", "core: %s is empty; it needs at least one row and one column", name)
	}
	r, c := X.Dims()
	raw := X.RawMatrix()
	for i := 0; i < r; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return New(NonFinite, "", "core: %s has %v at row %d, column %d; remove or impute non-finite values", name, v, i, j)
			}
		}
	}
	return nil
}

// CheckDepth returns an error unless 0 ≤ depth ≤ MaxDepth.
func Depth(depth int) error {
	if depth < 0 || depth > MaxDepth {
		return New(Option, "depth", "core: depth %d is out of range; use 0 ≤ depth ≤ %d", depth, MaxDepth)
	}
	return nil
}

// CheckAlloc returns an error if a float64 buffer of rows×cols would exceed
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
