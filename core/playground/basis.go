package playground

import (
	"encoding/json"
	"math"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/linalg"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// A model's scores of points are basis × coefficients + bias, and only the
// coefficients depend on λ: the basis is the kernel between the points and
// the training rows (an exact kernel) or the points' random features, both
// of the preprocessed points. A Cache keeps the basis of every set of
// points by the model's solved preprocessing and kernel or features, so
// that a new λ (or λ 'auto' chosen again) scores a grid with one product
// instead of thousands of kernel evaluations or featurized rows. The
// blocks and products are krr.Model.Predict's, so the bits are
// Pipeline.Scores'.

// maxBasisBytes bounds the bases a Cache keeps, those used longest ago
// dropped first: the 64×64 grid's features take 16 MiB at m = 512 and
// 32 MiB at m = 1024, its kernel with 200 rows 6.25 MiB (a basis over half
// the bound, the grid's features at m ≥ 2048, is computed again instead).
const maxBasisBytes = 96 << 20

// solved is what a fitted pipeline's scores are made of.
type solved struct {
	key    string // the preprocessing, and the kernel or the features: what the basis depends on
	scaler *data.Scaler
	kern   *kernel.Spec // dual
	train  *mat.Dense   // dual: the preprocessed training rows
	feat   *rf.Config   // primal
	coef   *mat.Dense   // α (dual) or W (primal)
	bias   []float64
	block  int // rows per block, as Predict cuts them
}

// solvedOf takes a fitted pipeline apart (its file's fields), or returns
// nil when it cannot, and the caller scores with Pipeline.Scores.
func solvedOf(p *pipeline.Pipeline, cfg pipeline.Config) *solved {
	header, coef, train, err := p.Split()
	if err != nil {
		return nil
	}
	var h struct {
		Preprocess json.RawMessage `json:"preprocess"`
		Features   json.RawMessage `json:"features"`
		Kernel     json.RawMessage `json:"kernel"`
		Bias       []float64       `json:"bias"`
	}
	if json.Unmarshal(header, &h) != nil {
		return nil
	}
	s := &solved{coef: coef, bias: h.Bias, train: train, block: cfg.Ridge.BlockRows, scaler: &data.Scaler{}}
	if s.block <= 0 {
		s.block = krr.DefaultBlockRows
	}
	if json.Unmarshal(h.Preprocess, s.scaler) != nil {
		return nil
	}
	switch {
	case p.Kernel() != nil && train != nil:
		k := *p.Kernel()
		s.kern = &k
	case p.Features() != nil:
		s.feat = p.Features()
	default:
		return nil
	}
	s.key = string(h.Preprocess) + "|" + string(h.Kernel) + "|" + string(h.Features)
	if s.kern != nil {
		// The kernel between points and the training rows: the rows too.
		s.key += "|" + string(rowsKey(train))
	}
	return s
}

// rowsKey is the bits of A's entries, as a map key.
func rowsKey(A *mat.Dense) []byte {
	r, c := A.Dims()
	b := make([]byte, 0, r*c*8)
	for i := 0; i < r; i++ {
		for _, v := range A.RawRowView(i) {
			u := math.Float64bits(v)
			b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24), byte(u>>32), byte(u>>40), byte(u>>48), byte(u>>56))
		}
	}
	return b
}

// basis is the λ-free half of a model's scores of a set of points: one
// matrix per block of rows (Predict's blocks).
type basis struct {
	blocks []*mat.Dense
	bytes  int
}

// basisOf computes the basis of the points P for s (fmap: the features'
// map, drawn once per key).
func (s *solved) basisOf(P *mat.Dense, fmap *rf.Map) (*basis, error) {
	Ps, err := s.scaler.Apply(nil, P)
	if err != nil {
		return nil, err
	}
	n, d := Ps.Dims()
	b := &basis{}
	for lo := 0; lo < n; lo += s.block {
		hi := min(lo+s.block, n)
		xb := Ps.Slice(lo, hi, 0, d).(*mat.Dense)
		var B *mat.Dense
		if s.kern != nil {
			B, err = s.kern.Gram(xb, s.train)
		} else {
			B, err = fmap.Transform(nil, xb)
		}
		if err != nil {
			return nil, err
		}
		r, c := B.Dims()
		b.bytes += 8 * r * c
		b.blocks = append(b.blocks, B)
	}
	return b, nil
}

// scores are the basis times the coefficients plus the bias, as Predict
// computes them.
func (s *solved) scores(b *basis) (*mat.Dense, error) {
	n := 0
	for _, B := range b.blocks {
		r, _ := B.Dims()
		n += r
	}
	k := len(s.bias)
	if err := check.Alloc("prediction matrix", n, k); err != nil {
		return nil, err
	}
	out := mat.NewDense(n, k, nil)
	lo := 0
	for _, B := range b.blocks {
		r, _ := B.Dims()
		ob := out.Slice(lo, lo+r, 0, k).(*mat.Dense)
		rc, ra, rb := ob.RawMatrix(), B.RawMatrix(), s.coef.RawMatrix()
		linalg.MulRows(rc.Data, rc.Stride, ra.Data, ra.Stride, rb.Data, rb.Stride, ra.Rows, ra.Cols, rb.Cols)
		lo += r
	}
	for i := 0; i < n; i++ {
		row := out.RawRowView(i)
		for o := range row {
			row[o] += s.bias[o]
			if v := row[o]; math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, check.New(check.NonFinite, "", "playground: the score of point %d (output %d) is %v: the point is too large for the model's coefficients in float64", i, o, v)
			}
		}
	}
	return out, nil
}
