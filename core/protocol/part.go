package protocol

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/internal/seam"
)

// Part is what a set of rows contributes to a fit, and knows which: its
// plan's digest, the digest of the scaler its rows were scaled with and
// the global rows it holds. In the primal it holds the sums of the rows'
// features (krr.Accumulator) per whole leaf of rows, reduced along a
// fixed tree over the rows, and the scaled rows of leaves it holds only
// in part; the features of the rows the held-out rule keeps out are kept
// whole, with their own sums. When the plan collects, it holds the scaled
// rows themselves. Parts merge in any order and any tree (Merge,
// MergeBinary) into the same bits: a fit's sums are a function of its
// rows, never of how they were split. A row held twice, a part of another
// plan or scaled with other statistics is refused (ERR_PROTOCOL); so is a
// solve with rows missing. Parts travel as a binary form (AppendBinary,
// Plan.DecodePart).
//
// A Part is not safe for concurrent use.
type Part struct {
	p seam.Part
}

func (pt *Part) impl() seam.Part {
	if pt == nil {
		return nil
	}
	return pt.p
}

func wrapPart(p seam.Part, err error) (*Part, error) {
	if err != nil {
		return nil, err
	}
	return &Part{p}, nil
}

// NewPart returns an empty part that adds rows through the plan's scaler
// (Plan.Scaler) and feature map.
func (p *Plan) NewPart(s *data.Scaler) (*Part, error) { return wrapPart(p.p.NewPart(s)) }

// DecodePart reads a part's wire form (Part.AppendBinary) for the plan;
// the part merges and solves but adds no rows. A part of another plan is
// ERR_PROTOCOL; forms that are hostile (sizes that do not add up, rows out
// of range or held twice, sums that do not hold the rows the part names,
// non-finite numbers) are refused with a coded error before anything is
// allocated for them.
func (p *Plan) DecodePart(b []byte) (*Part, error) { return wrapPart(p.p.DecodePart(b)) }

// Rows returns the number of rows the part holds.
func (pt *Part) Rows() int { return pt.p.Rows() }

// Spans returns the global rows the part holds, as sorted spans [lo, hi):
// a host that may see a part twice (a retried shard) keys it by them.
func (pt *Part) Spans() [][2]int { return pt.p.Spans() }

// Add adds the rows of X (the plan's columns, unscaled) with their
// targets y as the global rows first, first+1, …: a row's key, its index
// among all the plan's rows, picks the held-out rows and fixes the order
// of the sums. It featurizes in blocks of the plan's Ridge.BlockRows and
// stops between blocks once ctx is cancelled (the part is then unusable).
// Rows the part holds already are ERR_PROTOCOL.
func (pt *Part) Add(ctx context.Context, X *mat.Dense, y []float64, first int) error {
	return pt.p.Add(ctx, X, y, first)
}

// Merge adds the rows of o, a part of the same plan scaled with the same
// statistics and holding other rows, to pt; o is not modified. Parts of
// the same rows merged in any order and any tree give the same bits.
// Nothing of pt changes when o is refused.
func (pt *Part) Merge(o *Part) error { return pt.p.Merge(o.impl()) }

// MergeBinary merges a part's wire form into pt, as Merge would merge the
// decoded part. Nothing of pt changes when b is refused.
func (pt *Part) MergeBinary(b []byte) error { return pt.p.MergeBinary(b) }

// Compact lets the part's scratch memory go (the features of a block of
// rows, spare sums, block buffers: at m = 2048 up to four 33 MB sums), so
// that a host keeping parts in memory between their rows and their merge
// holds only what the part's wire form holds. Adding rows afterwards
// makes the scratch again; the bits do not change.
func (pt *Part) Compact() { pt.p.Compact() }

// AppendBinary appends the wire form of the part to b (Plan.DecodePart
// and MergeBinary read it).
func (pt *Part) AppendBinary(b []byte) []byte { return pt.p.AppendBinary(b) }

// MarshalBinary returns the wire form of the part.
func (pt *Part) MarshalBinary() ([]byte, error) { return pt.p.AppendBinary(nil), nil }
