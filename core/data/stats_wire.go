package data

import (
	"math"
	"slices"

	"ntkrf/internal/check"
	"ntkrf/internal/rowtree"
	"ntkrf/internal/wire"
)

// The wire form of Stats: statsMagic, version, then the column count and
// the group count, each group (column, start, width, categorical), the
// global rows held (wire.AppendSet), the whole leaves' nodes (count; per
// node its level, index and row count, then per column its count,
// magnitude, mean, M2, minimum, maximum and category count: 56 bytes a
// column), and the rows of leaves not yet whole (count; per leaf its index,
// its row count, their global indices and their raw values). Version 2:
// version 1 held one merged total and no rows, so that statistics of the
// same rows twice passed for those of other rows.
const (
	statsMagic   = "ntkrSTAT"
	statsVersion = 2
	// MaxStatsCols bounds the columns of a decoded Stats, so that a
	// hostile header cannot ask for more than a few hundred MB.
	MaxStatsCols = 1 << 22
	// maxLevel bounds a node's level: 2⁴⁰ leaves are more rows than any
	// host holds.
	maxLevel = 40
)

// AppendBinary appends the wire form of s to b (see DecodeStats).
func (s *Stats) AppendBinary(b []byte) []byte {
	b = wire.AppendHeader(b, statsMagic, statsVersion)
	b = wire.AppendU64(b, uint64(s.cols))
	b = wire.AppendU64(b, uint64(len(s.groups)))
	for _, g := range s.groups {
		cat := uint64(0)
		if g.Categorical {
			cat = 1
		}
		b = wire.AppendU64(b, uint64(g.Column))
		b = wire.AppendU64(b, uint64(g.Start))
		b = wire.AppendU64(b, uint64(g.Width))
		b = wire.AppendU64(b, cat)
	}
	b = wire.AppendSet(b, &s.rows)
	keys := s.tree.Keys()
	b = wire.AppendU64(b, uint64(len(keys)))
	for _, k := range keys {
		v, _ := s.tree.Node(k)
		b = wire.AppendU64(b, uint64(k.Level))
		b = wire.AppendU64(b, uint64(k.Index))
		b = wire.AppendU64(b, uint64(v.rows))
		for j, c := range v.col {
			b = wire.AppendU64(b, uint64(c.n))
			b = wire.AppendF64s(b, c.big, c.mean, c.m2, c.lo, c.hi)
			b = wire.AppendU64(b, uint64(v.cat[j]))
		}
	}
	leaves := make([]int, 0, len(s.frags))
	for leaf := range s.frags {
		leaves = append(leaves, leaf)
	}
	slices.Sort(leaves)
	b = wire.AppendU64(b, uint64(len(leaves)))
	for _, leaf := range leaves {
		f := s.frags[leaf]
		keys := slices.Clone(f.keys)
		slices.Sort(keys)
		b = wire.AppendU64(b, uint64(leaf))
		b = wire.AppendU64(b, uint64(len(keys)))
		for _, k := range keys {
			b = wire.AppendU64(b, uint64(k))
		}
		b = wire.AppendF64s(b, sortRows(f.keys, f.x, s.cols)...)
	}
	return b
}

// MarshalBinary returns the wire form of s.
func (s *Stats) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil), nil }

// DecodeStats reads statistics written by AppendBinary. Every count and
// length is checked before anything is allocated, and statistics no rows
// could have given (a count over the rows, a negative M2, a minimum above
// the maximum, a mean outside [−1, 1], nodes and rows that do not make the
// rows held) are refused with a coded error.
func DecodeStats(b []byte) (*Stats, error) {
	r, err := wire.NewReader(b, "data statistics", statsMagic, statsVersion)
	if err != nil {
		return nil, err
	}
	cols := r.Int("column count", MaxStatsCols)
	ng := r.Int("group count", cols)
	if !r.Need(uint64(ng), 32) {
		return nil, r.Err()
	}
	if cols < 1 {
		return nil, r.Fail(check.Shape, "no column")
	}
	groups := make([]Group, ng)
	for i := range groups {
		g := &groups[i]
		g.Column = r.Int("group column", cols)
		g.Start = r.Int("group start", cols)
		g.Width = r.Int("group width", cols)
		g.Categorical = r.Int("group kind", 1) == 1
	}
	if r.Err() != nil {
		return nil, r.Err()
	}
	if err := checkGroups(groups, cols); err != nil {
		return nil, r.Fail(check.Shape, "%v", err)
	}
	s := &Stats{groups: groups, cols: cols}
	s.tree.Combine = combineStats
	s.rows = r.Set("rows", math.MaxInt64)
	// The pieces must cover the rows held exactly once.
	var got rowtree.Set
	cover := func(lo, hi int) error {
		if lo < 0 || hi > s.rows.End() || hi <= lo {
			return r.Fail(check.Value, "rows %d…%d are not rows the statistics hold", lo, hi-1)
		}
		if err := got.Add(lo, hi); err != nil {
			return r.Fail(check.Protocol, "%v", err)
		}
		return nil
	}
	nn := r.Int("node count", 64*maxLevel)
	if !r.Need(uint64(nn), 24+56*cols) {
		return nil, r.Err()
	}
	for range nn {
		k := rowtree.Key{Level: r.Int("node level", maxLevel), Index: r.Int("node index", math.MaxInt32)}
		rows := r.Int("node rows", math.MaxInt64)
		if r.Err() != nil {
			return nil, r.Err()
		}
		if (k.Index+1)<<k.Level > 1<<maxLevel {
			return nil, r.Fail(check.Value, "node %d/%d covers leaves past 2^%d", k.Level, k.Index, maxLevel)
		}
		lo, hi := statsLeafSpan(k.Index<<k.Level, math.MaxInt)
		hi = lo + (hi-lo)<<k.Level
		if rows != hi-lo {
			return nil, r.Fail(check.Value, "a node of %d rows where its leaves hold %d", rows, hi-lo)
		}
		if err := cover(lo, hi); err != nil {
			return nil, err
		}
		v := &statsNode{groups: groups, rows: rows, col: make([]colStats, cols), cat: make([]int, cols)}
		if err := readNode(r, v); err != nil {
			return nil, err
		}
		if err := s.tree.Insert(k, v); err != nil {
			return nil, r.Fail(check.Protocol, "%v", err)
		}
	}
	nf := r.Int("partial leaf count", s.rows.Len())
	for range nf {
		leaf := r.Int("leaf", math.MaxInt32)
		lo, hi := statsLeafSpan(leaf, math.MaxInt)
		n := r.Int("leaf rows", hi-lo)
		if !r.Need(uint64(n), 8+8*cols) {
			return nil, r.Err()
		}
		f := &statsFrag{keys: make([]int, n), x: make([]float64, n*cols)}
		for i := range f.keys {
			f.keys[i] = r.Int("row", math.MaxInt64)
			if r.Err() == nil && (f.keys[i] < lo || f.keys[i] >= hi || i > 0 && f.keys[i] <= f.keys[i-1]) {
				return nil, r.Fail(check.Value, "row %d of leaf %d is out of the leaf or out of order", f.keys[i], leaf)
			}
		}
		r.NoInfF64s("rows", f.x)
		if r.Err() != nil {
			return nil, r.Err()
		}
		if _, dup := s.frags[leaf]; dup || n == 0 {
			return nil, r.Fail(check.Value, "leaf %d is given twice or empty", leaf)
		}
		if f.keys[n-1] >= s.rows.End() {
			return nil, r.Fail(check.Value, "row %d is not a row the statistics hold", f.keys[n-1])
		}
		if err := got.AddKeys(f.keys); err != nil {
			return nil, r.Fail(check.Protocol, "%v", err)
		}
		if s.frags == nil {
			s.frags = map[int]*statsFrag{}
		}
		s.frags[leaf] = f
	}
	if err := r.Done(); err != nil {
		return nil, err
	}
	if !got.Equal(&s.rows) {
		return nil, r.Fail(check.Value, "the nodes and rows hold %d rows, not the %d the statistics name", got.Len(), s.rows.Len())
	}
	return s, nil
}

// readNode reads a node's columns and refuses statistics no rows could
// have given.
func readNode(r *wire.Reader, s *statsNode) error {
	var v [5]float64
	for j := range s.col {
		c := &s.col[j]
		c.n = r.Int("present count", s.rows)
		r.F64s("column statistics", v[:])
		c.big, c.mean, c.m2, c.lo, c.hi = v[0], v[1], v[2], v[3], v[4]
		s.cat[j] = r.Int("category count", s.rows)
		if r.Err() != nil {
			return r.Err()
		}
		if c.big < 0 || c.m2 < 0 || c.lo > c.hi || math.Abs(c.mean) > 1 || max(math.Abs(c.lo), math.Abs(c.hi)) > c.big ||
			(c.n == 0 && (c.big != 0 || c.mean != 0 || c.m2 != 0 || c.lo != 0 || c.hi != 0)) {
			return r.Fail(check.Value, "the statistics of column %d are not those of any rows", j)
		}
	}
	for _, g := range s.groups {
		if !g.Categorical {
			if s.cat[g.Start] != 0 {
				return r.Fail(check.Value, "numeric column %d has category counts", g.Start)
			}
			continue
		}
		left := s.col[g.Start].n // rows with a value in the block: at most one category each
		for _, m := range s.cat[g.Start : g.Start+g.Width] {
			if left -= m; left < 0 {
				return r.Fail(check.Value, "the categories of column %d count more rows than have a value", g.Column)
			}
		}
	}
	return nil
}
