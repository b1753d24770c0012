package krr

import (
	"gonum.org/v1/gonum/mat"
)

// identity is the featurizer φ(x) = x, whose Gram is the linear kernel
// (core's NTK or NNGP at depth 0).
type identity struct{ d int }

func (f identity) Dim() int      { return f.d }
func (f identity) InputDim() int { return f.d }
func (f identity) Transform(dst, X *mat.Dense) (*mat.Dense, error) {
	if dst == nil {
		return mat.DenseCopyOf(X), nil
	}
	dst.Copy(X)
	return dst, nil
}
