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

func pick(y []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for i, r := range idx {
		out[i] = y[r]
	}
	return out
}

// rowsOf returns the rows idx of X as a new matrix.
func rowsOf(X *mat.Dense, idx []int) *mat.Dense {
	_, d := X.Dims()
	out := mat.NewDense(len(idx), d, nil)
	for i, r := range idx {
		copy(out.RawRowView(i), X.RawRowView(r))
	}
	return out
}
