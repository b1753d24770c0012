package krr

import (
	"gonum.org/v1/gonum/mat"
)

// identity is the featurizer φ(x) = x, whose Gram is the linear kernel
// (kernel.Spec{Name: "linear"}, the NTK and NNGP of depth 0).
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

// heldIn returns the rows of held (ascending) in [lo, hi), relative to lo,
// and the index in held of the first: AddExcept's out and at for a block.
func heldIn(held []int, lo, hi int) (out []int, at int) {
	at = len(held)
	for i, r := range held {
		if r >= lo && r < hi {
			if out == nil {
				at = i
			}
			out = append(out, r-lo)
		}
	}
	if out == nil {
		at = 0
	}
	return out, at
}
