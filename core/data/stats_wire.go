package data

import (
	"math"

	"ntkrf/internal/check"
	"ntkrf/internal/wire"
)

// The wire form of Stats: statsMagic, version, then the column count,
// the group count and the row count, each group (column, start, width,
// categorical), and per column its count, magnitude, mean, M2, minimum,
// maximum and category count. 72 bytes a column.
const (
	statsMagic   = "ntkrSTAT"
	statsVersion = 1
	// MaxStatsCols bounds the columns of a decoded Stats, so that a
	// hostile header cannot ask for more than a few hundred MB.
	MaxStatsCols = 1 << 22
)

// AppendBinary appends the wire form of s to b (see DecodeStats).
func (s *Stats) AppendBinary(b []byte) []byte {
	b = wire.AppendHeader(b, statsMagic, statsVersion)
	b = wire.AppendU64(b, uint64(len(s.col)))
	b = wire.AppendU64(b, uint64(len(s.groups)))
	b = wire.AppendU64(b, uint64(s.rows))
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
	for j, c := range s.col {
		b = wire.AppendU64(b, uint64(c.n))
		b = wire.AppendF64s(b, c.big, c.mean, c.m2, c.lo, c.hi)
		b = wire.AppendU64(b, uint64(s.cat[j]))
	}
	return b
}

// MarshalBinary returns the wire form of s.
func (s *Stats) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil), nil }

// DecodeStats reads statistics written by AppendBinary. Every count and
// length is checked before anything is allocated, and statistics no rows
// could have given (a count over the rows, a negative M2, a minimum above
// the maximum, a mean outside [−1, 1]) are refused with a coded error.
func DecodeStats(b []byte) (*Stats, error) {
	r, err := wire.NewReader(b, "data statistics", statsMagic, statsVersion)
	if err != nil {
		return nil, err
	}
	cols := r.Int("column count", MaxStatsCols)
	ng := r.Int("group count", cols)
	rows := r.Int("row count", math.MaxInt64)
	if !r.Need(uint64(ng), 32) || !r.Need(uint64(cols), 56) {
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
	s := &Stats{groups: groups, rows: rows, col: make([]colStats, cols), cat: make([]int, cols)}
	var v [5]float64
	for j := range s.col {
		c := &s.col[j]
		c.n = r.Int("present count", rows)
		r.F64s("column statistics", v[:])
		c.big, c.mean, c.m2, c.lo, c.hi = v[0], v[1], v[2], v[3], v[4]
		s.cat[j] = r.Int("category count", rows)
		if r.Err() != nil {
			return nil, r.Err()
		}
		if c.big < 0 || c.m2 < 0 || c.lo > c.hi || math.Abs(c.mean) > 1 || max(math.Abs(c.lo), math.Abs(c.hi)) > c.big ||
			(c.n == 0 && (c.big != 0 || c.mean != 0 || c.m2 != 0 || c.lo != 0 || c.hi != 0)) {
			return nil, r.Fail(check.Value, "the statistics of column %d are not those of any rows", j)
		}
	}
	for _, g := range groups {
		if !g.Categorical {
			if s.cat[g.Start] != 0 {
				return nil, r.Fail(check.Value, "numeric column %d has category counts", g.Start)
			}
			continue
		}
		left := s.col[g.Start].n // rows with a value in the block: at most one category each
		for _, m := range s.cat[g.Start : g.Start+g.Width] {
			if left -= m; left < 0 {
				return nil, r.Fail(check.Value, "the categories of column %d count more rows than have a value", g.Column)
			}
		}
	}
	if err := r.Done(); err != nil {
		return nil, err
	}
	return s, nil
}
