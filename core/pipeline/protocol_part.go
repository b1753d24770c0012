package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/internal/check"
	"ntkrf/internal/rowtree"
)

// fitPart implements ntkrf/core/protocol's Part: what a set of rows
// contributes to a fit, and knows which: its plan's digest, the digest of
// the scaler its rows were scaled with and the global rows it holds. In the primal it holds the sums of the rows'
// features (krr.Accumulator) per whole leaf of rows, reduced along
// rowtree's fixed tree, and the scaled rows of leaves it holds only in
// part; the features of the rows the held-out rule keeps out are kept
// whole (the solve sums them: krr's SolveHeldOut, on a helper while it
// searches where the host gives one). When the plan collects, it holds the scaled
// rows themselves. Parts merge in any order and any tree (Merge,
// MergeBinary) into the same bits: a fit's sums are a function of its
// rows, never of how they were split. A row held twice, a part of another
// plan or scaled with other statistics is refused (ERR_PROTOCOL); so is a
// solve with rows missing. Parts travel as a binary form (AppendBinary,
// DecodePart).
type fitPart struct {
	plan     *fitPlan
	scaler   *data.Scaler // nil for a decoded part: it only merges and solves
	scalerID [32]byte
	rows     rowtree.Set
	// sums are the primal sums of whole leaves; frags the scaled rows of
	// leaves held in part, until the leaf is whole.
	sums  rowtree.Tree[*sumNode]
	frags map[int]*partFrag
	// The rows kept whole: the held-out rows (sums: their features, m
	// wide) or every row (collect: scaled, cols wide), with keys and
	// targets, in the order added.
	keys []uint64
	y    []float64
	x    []float64
	// solved is set by Solve, which consumes the sums; failed by an Add
	// that stopped half way (the part holds rows it has not summed).
	solved bool
	failed error
	// Scratch reused across leaves: the features of a block, and the sums
	// of nodes combined into others, for the next leaves.
	phi     *mat.Dense
	free    []*krr.Accumulator
	scratch *krr.Accumulator // the last filled: its block buffers go to the next
	// featurized counts the rows featurized, for progress.
	featurized int
}

// sumNode are the sums of whole leaves, but for the rows kept out.
type sumNode struct {
	acc *krr.Accumulator
}

// partFrag holds the scaled rows of a leaf a part holds only in part.
type partFrag struct {
	keys []int
	y    []float64
	x    []float64 // scaled, the scaler's output width
}

// scalerDigest identifies a scaler (the SHA-256 of its JSON form): a part
// names the scaler its rows were scaled with, and the solve refuses
// another.
func scalerDigest(s *data.Scaler) [32]byte {
	b, err := json.Marshal(s)
	if err != nil {
		panic("pipeline: scaler digest: " + err.Error())
	}
	return sha256.Sum256(b)
}

// NewPart returns an empty part that adds rows through the plan's scaler
// (Plan.Scaler) and feature map.
func (p *fitPlan) NewPart(s *data.Scaler) (*fitPart, error) {
	if err := p.checkScaler(s); err != nil {
		return nil, err
	}
	if !p.collect {
		// The sums' memory is checked before any row is read.
		if _, err := krr.NewAccumulator(p.dim, p.cfg.Ridge); err != nil {
			return nil, err
		}
	}
	pt := p.emptyPart()
	pt.scaler, pt.scalerID = s, scalerDigest(s)
	return pt, nil
}

func (p *fitPlan) emptyPart() *fitPart {
	pt := &fitPart{plan: p}
	pt.sums.Combine = pt.combineSums
	return pt
}

// combineSums folds right, the sums of the leaves after left's, into left.
// An empty side is taken as it is, so that no rounding (not even of a
// zero's sign) depends on where a leaf without such rows sits. The sums
// left over are kept for the next leaves.
func (pt *fitPart) combineSums(l, r *sumNode) (*sumNode, error) {
	var err error
	l.acc, err = pt.combineAcc(l.acc, r.acc)
	return l, err
}

func (pt *fitPart) combineAcc(l, r *krr.Accumulator) (*krr.Accumulator, error) {
	switch {
	case r == nil || r.Rows() == 0:
		pt.recycle(r)
		return l, nil
	case l == nil || l.Rows() == 0:
		pt.recycle(l)
		return r, nil
	}
	if err := l.Merge(r); err != nil {
		return nil, err
	}
	pt.recycle(r)
	return l, nil
}

// Compact lets the part's scratch memory go: the features of a block,
// the spare sums kept for the next leaves (up to four m×m) and every
// node's block buffers. A part kept in memory between its rows and its
// merge then holds its sums and rows only; adding rows makes the scratch
// again.
func (pt *fitPart) Compact() {
	pt.phi, pt.free, pt.scratch = nil, nil, nil
	for _, k := range pt.sums.Keys() {
		v, _ := pt.sums.Node(k)
		v.acc.DropScratch()
	}
}

// recycle keeps a's memory for the next leaves (a few: a cascade of
// combines frees one per level).
func (pt *fitPart) recycle(a *krr.Accumulator) {
	if a != nil && len(pt.free) < 4 {
		pt.free = append(pt.free, a)
	}
}

// newAcc returns empty sums of the plan's features, from the kept ones
// when there are.
func (pt *fitPart) newAcc() (*krr.Accumulator, error) {
	var a *krr.Accumulator
	if n := len(pt.free); n > 0 {
		a = pt.free[n-1]
		pt.free = pt.free[:n-1]
		a.Reset()
	} else {
		var err error
		if a, err = krr.NewAccumulator(pt.plan.dim, pt.plan.cfg.Ridge); err != nil {
			return nil, err
		}
	}
	pt.scratch.MoveScratch(a)
	pt.scratch = a
	return a, nil
}

// width is the length of a kept row: m features, or the scaled columns.
func (p *fitPlan) width() int {
	if p.collect {
		return p.cfg.Preprocess.Width(p.cols)
	}
	return p.dim
}

// Rows returns the number of rows the part holds.
func (pt *fitPart) Rows() int { return pt.rows.Len() }

// Spans returns the global rows the part holds, as sorted spans [lo, hi):
// a host that may see a part twice (a retried shard) keys it by them.
func (pt *fitPart) Spans() [][2]int { return pt.rows.Spans() }

// usable refuses a part that was solved or whose Add stopped half way.
func (pt *fitPart) usable() error {
	if pt.solved {
		return check.New(check.Value, "", "pipeline: this part was solved already (solving consumes its sums); make the parts again")
	}
	if pt.failed != nil {
		return check.New(check.Value, "", "pipeline: this part's Add stopped half way (%v); make the part again", pt.failed)
	}
	return nil
}

// Add adds the rows of X (the plan's columns, unscaled) with their
// targets y as the global rows first, first+1, …: a row's key, its index
// among all the plan's rows, picks the held-out rows and fixes the order
// of the sums. It featurizes in blocks of the plan's Ridge.BlockRows and
// stops between blocks once ctx is cancelled (the part is then unusable).
// Rows the part holds already are ERR_PROTOCOL.
func (pt *fitPart) Add(ctx context.Context, X *mat.Dense, y []float64, first int) error {
	p := pt.plan
	if err := pt.usable(); err != nil {
		return err
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
	if first < 0 || first > p.rows-n {
		return check.New(check.Shape, "", "pipeline: rows %d … %d are not rows of the plan's %d (row keys are indices among all the rows)", first, first+n-1, p.rows)
	}
	if err := pt.rows.Add(first, first+n); err != nil {
		return protocolErr("part", err)
	}
	if err := pt.add(ctx, X, y, first); err != nil {
		pt.failed = err
		return err
	}
	return nil
}

func (pt *fitPart) add(ctx context.Context, X *mat.Dense, y []float64, first int) error {
	p := pt.plan
	n, d := X.Dims()
	opt := p.cfg.Ridge
	step := opt.BlockRows
	ds := pt.scaler.OutCols() // d, and one more with a bias input
	if p.collect {
		// Room for the rows at once: appending block by block would
		// reallocate up to twice their size.
		pt.keys = slices.Grow(pt.keys, n)
		pt.y = slices.Grow(pt.y, n)
		pt.x = slices.Grow(pt.x, n*ds)
		var xs *mat.Dense
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
			if err := checkLabels(y[lo:hi], opt, first+lo); err != nil {
				return err
			}
			for i := range hi - lo {
				pt.keys = append(pt.keys, uint64(first+lo+i))
			}
			pt.y = append(pt.y, y[lo:hi]...)
			pt.x = append(pt.x, xs.RawMatrix().Data...)
			progress(opt, pt.Rows()-n+hi, p.rows, "features")
		}
		return nil
	}
	// The primal: leaf by leaf.
	for lo := 0; lo < n; {
		leaf := rowtree.Leaf(first + lo)
		llo, lhi := rowtree.LeafSpan(leaf, p.rows)
		hi := min(n, lhi-first)
		xs := mat.NewDense(hi-lo, ds, nil)
		if _, err := pt.scaler.Apply(xs, X.Slice(lo, hi, 0, d).(*mat.Dense)); err != nil {
			return err
		}
		if err := checkLabels(y[lo:hi], opt, first+lo); err != nil {
			return err
		}
		if first+lo == llo && first+hi == lhi && pt.frags[leaf] == nil {
			if err := pt.addLeaf(ctx, leaf, xs, y[lo:hi]); err != nil {
				return err
			}
		} else {
			f := pt.frag(leaf)
			for i := lo; i < hi; i++ {
				f.keys = append(f.keys, first+i)
			}
			f.y = append(f.y, y[lo:hi]...)
			f.x = append(f.x, xs.RawMatrix().Data...)
			if err := pt.completeFrag(ctx, leaf); err != nil {
				return err
			}
		}
		lo = hi
	}
	return nil
}

func (pt *fitPart) frag(leaf int) *partFrag {
	if pt.frags == nil {
		pt.frags = map[int]*partFrag{}
	}
	f := pt.frags[leaf]
	if f == nil {
		f = &partFrag{}
		pt.frags[leaf] = f
	}
	return f
}

// completeFrag sums the leaf's rows, in row order, once all are there.
func (pt *fitPart) completeFrag(ctx context.Context, leaf int) error {
	f := pt.frags[leaf]
	lo, hi := rowtree.LeafSpan(leaf, pt.plan.rows)
	if f == nil || len(f.keys) < hi-lo {
		return nil
	}
	f = f.sorted()
	ds := len(f.x) / len(f.keys)
	xs := mat.NewDense(len(f.keys), ds, f.x)
	y := f.y
	delete(pt.frags, leaf)
	return pt.addLeaf(ctx, leaf, xs, y)
}

// addLeaf featurizes the scaled rows xs of a whole leaf, in row order and
// in blocks of BlockRows from the leaf's first row, sums them in a node of
// their own but for the rows the held-out rule holds, whose features it
// keeps (the solve sums them), and puts the node in the tree.
func (pt *fitPart) addLeaf(ctx context.Context, leaf int, xs *mat.Dense, y []float64) error {
	p := pt.plan
	fm, err := p.featureMap()
	if err != nil {
		return err
	}
	opt := p.cfg.Ridge
	first, _ := rowtree.LeafSpan(leaf, p.rows)
	node := &sumNode{}
	if node.acc, err = pt.newAcc(); err != nil {
		return err
	}
	r, ds := xs.Dims()
	m := p.dim
	for lo := 0; lo < r; lo += opt.BlockRows {
		if err := ctx.Err(); err != nil {
			return check.Stopped("pipeline: part", err)
		}
		hi := min(lo+opt.BlockRows, r)
		if pt.phi == nil || pt.phi.RawMatrix().Rows != hi-lo {
			pt.phi = mat.NewDense(hi-lo, m, nil)
		}
		if _, err := fm.Transform(pt.phi, xs.Slice(lo, hi, 0, ds).(*mat.Dense)); err != nil {
			return err
		}
		var out []int
		for i := range hi - lo {
			if p.cut.Holds(uint64(first + lo + i)) {
				out = append(out, i)
			}
		}
		yb := y[lo:hi]
		pt.featurized += hi - lo
		progress(opt, pt.featurized, p.rows, "features")
		if len(out) == 0 {
			if err := node.acc.Add(pt.phi, yb); err != nil {
				return err
			}
			continue
		}
		// The held-out rows' features go straight to the rows kept whole.
		at := len(pt.x)
		pt.x = slices.Grow(pt.x, len(out)*m)[:at+len(out)*m]
		if err := node.acc.AddExcept(pt.phi, yb, out, mat.NewDense(len(out), m, pt.x[at:]), 0); err != nil {
			pt.x = pt.x[:at]
			return err
		}
		for _, i := range out {
			pt.keys = append(pt.keys, uint64(first+lo+i))
			pt.y = append(pt.y, yb[i])
		}
	}
	if err := pt.sums.Insert(rowtree.Key{Index: leaf}, node); err != nil {
		return check.New(check.Internal, "", "pipeline: part: %v", err)
	}
	return nil
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

// Merge adds the rows of o, a part of the same plan scaled with the same
// statistics and holding other rows, to pt; o is not modified. Parts of
// the same rows merged in any order and any tree give the same bits.
// Nothing of pt changes when o is refused.
func (pt *fitPart) Merge(o *fitPart) error {
	if err := pt.canTake(o); err != nil {
		return err
	}
	return pt.take(o, true)
}

// canTake checks that o may be merged into pt: both usable, of the same
// plan and scaler, without a row in common.
func (pt *fitPart) canTake(o *fitPart) error {
	if o == nil {
		return check.New(check.Type, "", "pipeline: the part to merge is nil")
	}
	if err := pt.usable(); err != nil {
		return err
	}
	if err := o.usable(); err != nil {
		return err
	}
	if o.plan.digest != pt.plan.digest {
		return check.New(check.Protocol, "", "pipeline: cannot merge a part of another plan (other settings, seed, rows or columns); make every part from the same plan")
	}
	if o.scalerID != pt.scalerID {
		return check.New(check.Protocol, "", "pipeline: cannot merge parts scaled with other statistics; scale every part with the scaler of the merged statistics of all the rows")
	}
	if sp, ok := pt.rows.Overlap(&o.rows); ok {
		return protocolErr("part", &rowtree.OverlapError{Lo: sp[0], Hi: sp[1]})
	}
	return nil
}

// take moves (or, with clone, copies) o's rows and sums into pt, checked
// by canTake.
func (pt *fitPart) take(o *fitPart, clone bool) error {
	if err := pt.rows.Union(&o.rows); err != nil {
		return protocolErr("part", err)
	}
	pt.keys = append(pt.keys, o.keys...)
	pt.y = append(pt.y, o.y...)
	pt.x = append(pt.x, o.x...)
	for _, k := range o.sums.Keys() {
		v, _ := o.sums.Node(k)
		if clone {
			v = &sumNode{acc: v.acc.Clone()}
		}
		if err := pt.sums.Insert(k, v); err != nil {
			return check.New(check.Internal, "", "pipeline: part: %v", err)
		}
	}
	leaves := make([]int, 0, len(o.frags))
	for leaf := range o.frags {
		leaves = append(leaves, leaf)
	}
	slices.Sort(leaves)
	for _, leaf := range leaves {
		of := o.frags[leaf]
		f := pt.frag(leaf)
		f.keys = append(f.keys, of.keys...)
		f.y = append(f.y, of.y...)
		f.x = append(f.x, of.x...)
		if err := pt.completeFrag(context.Background(), leaf); err != nil {
			pt.failed = err
			return err
		}
	}
	return nil
}

func protocolErr(what string, err error) error {
	return check.New(check.Protocol, "", "pipeline: %s: %v; add each row once and merge each part once (a retried part replaces, not joins, the first)", what, err)
}
