package core

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/errs"
)

// MaxDepth is the largest network depth the kernels and features accept.
// Deeper ReLU kernels converge to a constant on the sphere, so larger depths
// add cost and no information.
const MaxDepth = 64

// CheckMatrix returns an error unless X is a non-empty matrix of finite
// values. name is used in the message ("core: X has NaN at row 3, column 2").
func CheckMatrix(name string, X *mat.Dense) error {
	if X == nil || X.IsEmpty() {
		return errs.New(errs.Shape, "", "core: %s is empty; it needs at least one row and one column", name)
	}
	r, c := X.Dims()
	raw := X.RawMatrix()
	for i := 0; i < r; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return errs.New(errs.NonFinite, "", "core: %s has %v at row %d, column %d; remove or impute non-finite values", name, v, i, j)
			}
		}
	}
	return nil
}

// CheckDepth returns an error unless 0 ≤ depth ≤ MaxDepth.
func CheckDepth(depth int) error {
	if depth < 0 || depth > MaxDepth {
		return errs.New(errs.Option, "depth", "core: depth %d is out of range; use 0 ≤ depth ≤ %d", depth, MaxDepth)
	}
	return nil
}

// CheckAlloc returns an error if a float64 buffer of rows×cols would exceed
// MaxAllocBytes; what names the buffer in the message.
func CheckAlloc(what string, rows, cols int) error {
	if rows <= 0 || cols <= 0 {
		return errs.New(errs.Shape, "", "core: %s would be %d×%d; both sizes must be positive", what, rows, cols)
	}
	if float64(rows)*float64(cols)*8 > MaxAllocBytes {
		return errs.New(errs.TooLarge, "", "core: the %d×%d %s needs %s, over the %s limit for one buffer; use fewer rows or random features with a smaller dimension",
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
