package pipeline

import (
	"context"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/internal/check"
)

// Part is what a block of rows contributes to a fit: in the primal the
// sums of their features (a krr.Accumulator), and the features of the rows
// the held-out rule keeps out with their own sums (so that the solve merges
// them after the λ search instead of summing their ΦᵀΦ on its own); when
// the plan collects, the scaled rows themselves. Parts merge in any order (Merge, MergeBinary) and travel as
// a binary form (AppendBinary, DecodePart). Each row carries its key, its
// index among all the rows, which picks the held-out rows without the
// parts seeing each other.
type Part struct {
	plan   *Plan
	scaler *data.Scaler // nil for a decoded part: it only merges and solves
	rows   int
	acc    *krr.Accumulator // sums; nil when the plan collects
	// held sums the held-out rows (nil without a held-out rule): every
	// part sums its own where its features are made.
	held *krr.Accumulator
	// The rows kept whole: the held-out rows (sums: their features, m
	// wide) or every row (collect: scaled, cols wide), with keys and
	// targets, in the order added.
	keys []uint64
	y    []float64
	x    []float64
	// solved is set by Solve, which merges the held-out rows' sums into
	// the sums.
	solved bool
}

// NewPart returns an empty part that adds rows through the plan's scaler
// (Plan.Scaler) and feature map.
func (p *Plan) NewPart(s *data.Scaler) (*Part, error) {
	if err := p.checkScaler(s); err != nil {
		return nil, err
	}
	pt := p.emptyPart()
	pt.scaler = s
	if !p.collect {
		var err error
		if pt.acc, err = krr.NewAccumulator(p.dim, p.cfg.Ridge); err != nil {
			return nil, err
		}
		if p.cut.Rows > 0 {
			if pt.held, err = krr.NewAccumulator(p.dim, p.cfg.Ridge); err != nil {
				return nil, err
			}
		}
	}
	return pt, nil
}

func (p *Plan) emptyPart() *Part { return &Part{plan: p} }

// width is the length of a kept row: m features, or the scaled columns.
func (p *Plan) width() int {
	if p.collect {
		return p.cfg.Preprocess.Width(p.cols)
	}
	return p.dim
}

// Rows returns the number of rows the part holds.
func (pt *Part) Rows() int { return pt.rows }

// Add adds the rows of X (the plan's columns, unscaled) with their
// targets y; row i has the key first+i, its index among all the plan's
// rows. It featurizes in blocks of the plan's Ridge.BlockRows and stops
// between blocks once ctx is cancelled.
func (pt *Part) Add(ctx context.Context, X *mat.Dense, y []float64, first int) error {
	p := pt.plan
	if pt.solved {
		return check.New(check.Value, "", "pipeline: this part was solved already; add rows to a new part")
	}
	if pt.scaler == nil {
		return check.New(check.Type, "", "pipeline: a decoded part merges and solves but adds no rows; add rows to a part from NewPart")
	}
	if X == nil || X.IsEmpty() {
		return check.New(check.Shape, "", "pipeline: X is empty; a part adds at least one row")
	}
	n, d := X.Dims()
	if d != p.cols {
		return check.New(check.Shape, "", "pipeline: X has %d columns but the plan %d", d, p.cols)
	}
	if n != len(y) {
		return check.New(check.Shape, "", "pipeline: X has %d rows but y has %d values; give one target per row", n, len(y))
	}
	if first < 0 || first > p.rows-n || pt.rows > p.rows-n {
		return check.New(check.Shape, "", "pipeline: rows %d … %d are not rows of the plan's %d (row keys are indices among all the rows)", first, first+n-1, p.rows)
	}
	opt := p.cfg.Ridge
	step := opt.BlockRows
	if p.collect {
		// Room for the rows at once: appending block by block would
		// reallocate up to twice their size.
		pt.keys = slices.Grow(pt.keys, n)
		pt.y = slices.Grow(pt.y, n)
		pt.x = slices.Grow(pt.x, n*p.width())
	}
	ds := pt.scaler.OutCols() // d, and one more with a bias input
	var xs, phi *mat.Dense
	for lo := 0; lo < n; lo += step {
		if err := ctx.Err(); err != nil {
			return check.Stopped("pipeline: part", err)
		}
		hi := min(lo+step, n)
		if xs == nil || xs.RawMatrix().Rows != hi-lo {
			xs = mat.NewDense(hi-lo, ds, nil)
		}
		if _, err := pt.scaler.Apply(xs, X.Slice(lo, hi, 0, d).(*mat.Dense)); err != nil {
			return err
		}
		yb := y[lo:hi]
		if p.collect {
			if err := checkLabels(yb, opt, first+lo); err != nil {
				return err
			}
			for i := range hi - lo {
				pt.keys = append(pt.keys, uint64(first+lo+i))
			}
			pt.y = append(pt.y, yb...)
			pt.x = append(pt.x, xs.RawMatrix().Data...)
		} else if err := pt.addSums(xs, &phi, yb, first+lo); err != nil {
			return err
		}
		pt.rows += hi - lo
		if opt.Progress != nil {
			opt.Progress(pt.rows, p.rows, "features")
		}
	}
	return nil
}

// addSums featurizes the scaled block xs (into *phi, reused) and adds it
// to the sums, but for the rows the held-out rule holds, whose features
// it keeps.
func (pt *Part) addSums(xs *mat.Dense, phi **mat.Dense, y []float64, first int) error {
	p := pt.plan
	r, _ := xs.Dims()
	fm, err := p.featureMap()
	if err != nil {
		return err
	}
	m := p.dim
	if *phi == nil || (*phi).RawMatrix().Rows != r {
		*phi = mat.NewDense(r, m, nil)
	}
	if _, err := fm.Transform(*phi, xs); err != nil {
		return err
	}
	var out []int
	for i := range r {
		if p.cut.Holds(uint64(first + i)) {
			out = append(out, i)
		}
	}
	if len(out) == 0 {
		return pt.acc.Add(*phi, y)
	}
	held := mat.NewDense(len(out), m, nil)
	if err := pt.acc.AddExcept(*phi, y, out, held, 0); err != nil {
		return err
	}
	at := len(pt.y)
	for _, i := range out {
		pt.keys = append(pt.keys, uint64(first+i))
		pt.y = append(pt.y, y[i])
	}
	pt.x = append(pt.x, held.RawMatrix().Data...)
	// Their ΦᵀΦ here, on every worker, beside the kept rows' (the
	// targets were checked by AddExcept).
	return pt.held.Add(held, pt.y[at:])
}

// checkLabels checks the targets of collected rows as the accumulator
// checks those it sums: finite, and class indices of the plan's classes.
func checkLabels(y []float64, opt krr.Options, offset int) error {
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return check.New(check.NonFinite, "", "pipeline: y[%d] is %v; remove or impute non-finite targets", offset+i, v)
		}
		if opt.Task == krr.Classification && (v != math.Trunc(v) || v < 0 || v >= float64(opt.Classes)) {
			return check.New(check.Value, "", "pipeline: y[%d] = %v is not a class index in 0…%d", offset+i, v, opt.Classes-1)
		}
	}
	return nil
}

// Merge adds the rows of o, a part of the same plan, to pt; o is not
// modified. Merging is associative and commutative: to rounding for the
// sums, exactly for the rows kept whole (Solve orders them by key).
func (pt *Part) Merge(o *Part) error {
	if err := pt.canTake(o.plan, o.rows); err != nil {
		return err
	}
	if pt.acc != nil {
		if err := pt.acc.Merge(o.acc); err != nil {
			return err
		}
	}
	if pt.held != nil {
		if err := pt.held.Merge(o.held); err != nil {
			return err
		}
	}
	pt.take(o.rows, o.keys, o.y, o.x)
	return nil
}

// canTake checks that rows more rows of a part of plan q fit in pt.
func (pt *Part) canTake(q *Plan, rows int) error {
	p := pt.plan
	if pt.solved {
		return check.New(check.Value, "", "pipeline: this part was solved already; merge into a new part")
	}
	if q != p && (q.rows != p.rows || q.cols != p.cols || q.collect != p.collect || q.width() != p.width() || q.cut != p.cut ||
		q.cfg.Ridge.Task != p.cfg.Ridge.Task || q.cfg.Ridge.Classes != p.cfg.Ridge.Classes) {
		return check.New(check.Shape, "", "pipeline: cannot merge parts of different plans")
	}
	if rows > p.rows-pt.rows {
		return check.New(check.Shape, "", "pipeline: the parts hold %d + %d rows, more than the plan's %d; merge each part once", pt.rows, rows, p.rows)
	}
	return nil
}

func (pt *Part) take(rows int, keys []uint64, y, x []float64) {
	pt.rows += rows
	pt.keys = append(pt.keys, keys...)
	pt.y = append(pt.y, y...)
	pt.x = append(pt.x, x...)
}
