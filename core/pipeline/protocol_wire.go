package pipeline

import (
	"math"
	"slices"

	"ntkrf/core/krr"
	"ntkrf/internal/check"
	"ntkrf/internal/rowtree"
	"ntkrf/internal/wire"
)

// The wire form of a Part: partMagic, version, its plan's digest and its
// scaler's (32 bytes each), the global rows it holds (wire.AppendSet),
// whether it collects (0: sums, 1: rows), the width of a row kept whole
// and their count, then their keys, targets and values; for sums then its
// nodes (count; per node its level and index and its accumulator in krr's
// form, length first) and its leaves held in part (count; per leaf its
// index, row count, keys, targets and scaled rows). Version 4: the
// held-out rows without their sums, which the solve makes (version 3
// summed them per node; version 2 held one sum and said nothing of which
// rows or plan).
const (
	partMagic   = "ntkrPART"
	partVersion = 4
)

// AppendBinary appends the wire form of the part to b (DecodePart and
// MergeBinary read it).
func (pt *fitPart) AppendBinary(b []byte) []byte {
	p := pt.plan
	mode := uint64(0)
	if p.collect {
		mode = 1
	}
	b = slices.Grow(b, pt.wireSize())
	b = wire.AppendHeader(b, partMagic, partVersion)
	b = append(b, p.digest[:]...)
	b = append(b, pt.scalerID[:]...)
	b = wire.AppendSet(b, &pt.rows)
	for _, v := range []uint64{mode, uint64(p.width()), uint64(len(pt.keys))} {
		b = wire.AppendU64(b, v)
	}
	for _, k := range pt.keys {
		b = wire.AppendU64(b, k)
	}
	b = wire.AppendF64s(b, pt.y...)
	b = wire.AppendF64s(b, pt.x...)
	if p.collect {
		return b
	}
	keys := pt.sums.Keys()
	b = wire.AppendU64(b, uint64(len(keys)))
	for _, k := range keys {
		v, _ := pt.sums.Node(k)
		b = wire.AppendU64(wire.AppendU64(b, uint64(k.Level)), uint64(k.Index))
		b = wire.AppendU64(b, uint64(krr.WireSize(v.acc.Dim(), max(1, p.cfg.Ridge.Classes))))
		b = v.acc.AppendBinary(b)
	}
	leaves := pt.fragLeaves()
	b = wire.AppendU64(b, uint64(len(leaves)))
	for _, leaf := range leaves {
		f := pt.frags[leaf].sorted()
		b = wire.AppendU64(wire.AppendU64(b, uint64(leaf)), uint64(len(f.keys)))
		for _, k := range f.keys {
			b = wire.AppendU64(b, uint64(k))
		}
		b = wire.AppendF64s(b, f.y...)
		b = wire.AppendF64s(b, f.x...)
	}
	return b
}

// sorted returns the leaf's rows in the order of their keys (merged parts
// append theirs): the wire form is one per set of rows.
func (f *partFrag) sorted() *partFrag {
	if slices.IsSorted(f.keys) {
		return f
	}
	ds := len(f.x) / len(f.keys)
	idx := make([]int, len(f.keys))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return f.keys[a] - f.keys[b] })
	out := &partFrag{keys: make([]int, len(idx)), y: make([]float64, len(idx)), x: make([]float64, len(f.x))}
	for i, j := range idx {
		out.keys[i], out.y[i] = f.keys[j], f.y[j]
		copy(out.x[i*ds:(i+1)*ds], f.x[j*ds:(j+1)*ds])
	}
	return out
}

func (pt *fitPart) fragLeaves() []int {
	leaves := make([]int, 0, len(pt.frags))
	for leaf := range pt.frags {
		leaves = append(leaves, leaf)
	}
	slices.Sort(leaves)
	return leaves
}

// wireSize is the size in bytes of the part's wire form: AppendBinary
// grows its buffer once (the sums are tens of megabytes at m = 2048;
// growing by appending copied them over and over).
func (pt *fitPart) wireSize() int {
	n := wire.HeaderSize + 64 + 8 + 16*pt.rows.NumSpans() + 3*8 + 8*(len(pt.keys)+len(pt.y)+len(pt.x))
	if pt.plan.collect {
		return n
	}
	n += 16
	size := krr.WireSize(pt.plan.dim, max(1, pt.plan.cfg.Ridge.Classes))
	n += pt.sums.Len() * (24 + size)
	for _, f := range pt.frags {
		n += 16 + 8*(len(f.keys)+len(f.y)+len(f.x))
	}
	return n
}

// MarshalBinary returns the wire form of the part.
func (pt *fitPart) MarshalBinary() ([]byte, error) { return pt.AppendBinary(nil), nil }

// DecodePart reads a part's wire form (AppendBinary) for the plan; the
// part merges and solves but adds no rows. A part of another plan is
// ERR_PROTOCOL; forms that are hostile (sizes that do not add up, rows out
// of range or held twice, sums that do not hold the rows the part names,
// non-finite numbers) are refused with a coded error before anything is
// allocated for them.
func (p *fitPlan) DecodePart(b []byte) (*fitPart, error) {
	if err := p.settled(); err != nil {
		return nil, err
	}
	r, err := wire.NewReader(b, "pipeline part", partMagic, partVersion)
	if err != nil {
		return nil, err
	}
	pt := p.emptyPart()
	var id [32]byte
	copy(id[:], r.Bytes(32, 1))
	copy(pt.scalerID[:], r.Bytes(32, 1))
	if r.Err() != nil {
		return nil, r.Err()
	}
	if id != p.digest {
		return nil, r.Fail(check.Protocol, "a part of another plan (other settings, seed, rows or columns); decode each part with the plan it was made from")
	}
	pt.rows = r.Set("rows", p.rows)
	collect := r.Int("mode", 1) == 1
	width := r.Int("row width", math.MaxInt32)
	kept := r.Int("kept rows", pt.rows.Len())
	if r.Err() != nil {
		return nil, r.Err()
	}
	if collect != p.collect || width != p.width() || (collect && kept != pt.rows.Len()) || (!collect && kept > p.cut.Rows) {
		return nil, r.Fail(check.Protocol, "a part of another plan (%d of %d rows kept, %d wide)", kept, pt.rows.Len(), width)
	}
	if !r.Need(uint64(kept), 16) || !r.Need(uint64(kept)*uint64(width), 8) {
		return nil, r.Err()
	}
	pt.keys, pt.y, pt.x = make([]uint64, kept), make([]float64, kept), make([]float64, kept*width)
	for i := range pt.keys {
		if pt.keys[i] = r.U64(); pt.keys[i] >= uint64(p.rows) || !collect && !p.cut.Holds(pt.keys[i]) {
			return nil, r.Fail(check.Value, "row key %d is not a row the plan keeps whole", pt.keys[i])
		}
	}
	r.F64s("y", pt.y)
	r.F64s("rows", pt.x)
	if r.Err() != nil {
		return nil, r.Err()
	}
	if err := checkLabels(pt.y, p.cfg.Ridge, 0); err != nil {
		return nil, r.Fail(check.CodeOf(err), "%v", err)
	}
	if collect {
		if err := r.Done(); err != nil {
			return nil, err
		}
		if !coversOnce(pt.keys, &pt.rows) {
			return nil, r.Fail(check.Value, "the rows kept are not the rows the part names, each once")
		}
		return pt, nil
	}
	if err := pt.readSums(r); err != nil {
		return nil, err
	}
	if err := r.Done(); err != nil {
		return nil, err
	}
	return pt, nil
}

// readSums reads a primal part's nodes and partial leaves, and checks that
// they hold exactly the rows the part names, the held-out rows kept whole.
func (pt *fitPart) readSums(r *wire.Reader) error {
	p := pt.plan
	var got rowtree.Set
	cover := func(lo, hi int) error {
		if err := got.Add(lo, hi); err != nil {
			return r.Fail(check.Protocol, "%v", err)
		}
		return nil
	}
	held := slices.Clone(pt.keys)
	slices.Sort(held)
	leaves := rowtree.Leaf(p.rows-1) + 1
	size := krr.WireSize(p.dim, max(1, p.cfg.Ridge.Classes))
	nn := r.Int("node count", 2*64)
	for range nn {
		k := rowtree.Key{Level: r.Int("node level", 62), Index: r.Int("node index", leaves)}
		if r.Err() != nil {
			return r.Err()
		}
		if k.Index<<k.Level >= leaves {
			return r.Fail(check.Value, "node %d/%d covers no leaf of the plan's %d", k.Level, k.Index, leaves)
		}
		lo, _ := rowtree.LeafSpan(k.Index<<k.Level, p.rows)
		_, hi := rowtree.LeafSpan(min((k.Index+1)<<k.Level, leaves)-1, p.rows)
		if err := cover(lo, hi); err != nil {
			return err
		}
		v := &sumNode{}
		if n := r.Int("accumulator size", size); n != size {
			return r.Fail(check.Shape, "an accumulator of %d bytes where the plan's take %d", n, size)
		}
		var err error
		if v.acc, err = krr.DecodeAccumulator(r.Bytes(uint64(size), 1), p.cfg.Ridge); err != nil {
			return err
		}
		// The rows of the node's span are summed but for those kept whole.
		if inSpan := countIn(held, lo, hi); v.acc.Rows()+inSpan != hi-lo {
			return r.Fail(check.Value, "the sums of node %d/%d hold %d rows, not its %d with %d kept out", k.Level, k.Index, v.acc.Rows(), hi-lo, inSpan)
		}
		if err := pt.sums.Insert(k, v); err != nil {
			return r.Fail(check.Protocol, "%v", err)
		}
	}
	nf := r.Int("partial leaf count", leaves)
	ds := p.cfg.Preprocess.Width(p.cols)
	for range nf {
		leaf := r.Int("leaf", leaves-1)
		lo, hi := rowtree.LeafSpan(leaf, p.rows)
		n := r.Int("leaf rows", hi-lo-1)
		if !r.Need(uint64(n), 16+8*ds) {
			return r.Err()
		}
		if _, dup := pt.frags[leaf]; dup || n == 0 {
			return r.Fail(check.Value, "leaf %d is given twice or empty", leaf)
		}
		f := &partFrag{keys: make([]int, n), y: make([]float64, n), x: make([]float64, n*ds)}
		for i := range f.keys {
			f.keys[i] = r.Int("row", p.rows-1)
			if r.Err() == nil && (f.keys[i] < lo || f.keys[i] >= hi || i > 0 && f.keys[i] <= f.keys[i-1]) {
				return r.Fail(check.Value, "row %d of leaf %d is out of the leaf or out of order", f.keys[i], leaf)
			}
		}
		r.F64s("y", f.y)
		r.F64s("scaled rows", f.x)
		if r.Err() != nil {
			return r.Err()
		}
		if err := checkLabels(f.y, p.cfg.Ridge, 0); err != nil {
			return r.Fail(check.CodeOf(err), "%v", err)
		}
		if countIn(held, lo, hi) != 0 {
			return r.Fail(check.Value, "rows of leaf %d are kept whole before the leaf is whole", leaf)
		}
		if err := got.AddKeys(f.keys); err != nil {
			return r.Fail(check.Protocol, "%v", err)
		}
		pt.frag(leaf)
		pt.frags[leaf] = f
	}
	if r.Err() == nil && !got.Equal(&pt.rows) {
		return r.Fail(check.Value, "the sums and rows hold %d rows, not the %d the part names", got.Len(), pt.rows.Len())
	}
	return r.Err()
}

// countIn counts the sorted keys in [lo, hi).
func countIn(keys []uint64, lo, hi int) int {
	a, _ := slices.BinarySearch(keys, uint64(lo))
	b, _ := slices.BinarySearch(keys, uint64(hi))
	return b - a
}

// coversOnce reports whether the keys are the rows of s, each once.
func coversOnce(keys []uint64, s *rowtree.Set) bool {
	sorted := make([]int, len(keys))
	for i, k := range keys {
		sorted[i] = int(k)
	}
	slices.Sort(sorted)
	var got rowtree.Set
	return got.AddKeys(sorted) == nil && got.Equal(s)
}

// MergeBinary merges a part's wire form into pt, as Merge would merge the
// decoded part. Nothing of pt changes when b is refused.
func (pt *fitPart) MergeBinary(b []byte) error {
	o, err := pt.plan.DecodePart(b)
	if err != nil {
		return err
	}
	if err := pt.canTake(o); err != nil {
		return err
	}
	return pt.take(o, false)
}
