package data

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
	"ntkrf/internal/rowtree"
)

// Stats are the column statistics a Scaler is built from, summed over
// row blocks that may live apart (workers, machines) and merged: per
// column the count of rows where it is present, its largest magnitude,
// the mean and the sum of squared deviations (M2) of its present values
// divided by that magnitude, their minimum and maximum; and per one-hot
// block the count of each category. Merge is Chan, Golub and LeVeque's
// pairwise update, associative and commutative to rounding; Scaler turns
// the total into the Scaler Fit would have fitted on all the rows.
//
// Dividing by the largest magnitude first keeps every sum finite even for
// values near ±1e308, as Fit's own passes do. Stats of one block give
// Fit's Scaler: Fit is Collect then Scaler.
type Stats struct {
	groups []Group
	cols   int
	rows   rowtree.Set              // the global rows added
	tree   rowtree.Tree[*statsNode] // whole leaves, reduced as they complete
	frags  map[int]*statsFrag       // rows of leaves not yet whole, raw
}

// StatsLeafRows is the number of rows of a leaf of the statistics' fixed
// tree (rowtree): a node is a few numbers per column, so leaves are small,
// and statistics that hold a leaf in part carry at most that many raw rows
// at either end (the statistics go to every part's worker).
const StatsLeafRows = 64

func statsLeaf(row int) int { return row / StatsLeafRows }

func statsLeafSpan(j, n int) (lo, hi int) { return j * StatsLeafRows, min((j+1)*StatsLeafRows, n) }

// statsNode are the statistics of whole leaves of rows (rowtree): a leaf's
// from its rows in order, a node's from its two children (Merge's update).
type statsNode struct {
	groups []Group
	rows   int
	col    []colStats
	cat    []int // per X column of a one-hot block: rows of that category; 0 elsewhere
}

// statsFrag holds the rows of a leaf that is not yet whole, with their
// global indices, until the leaf completes (or, for the last leaf, until
// the Scaler is fitted).
type statsFrag struct {
	keys []int
	x    []float64 // len(keys) rows of the columns
}

// colStats are one column's statistics over the rows where it is present
// (numeric: not NaN; one-hot: no NaN in its block).
type colStats struct {
	n      int
	big    float64 // max |v|
	mean   float64 // of v/big (0 when big is 0)
	m2     float64 // Σ (v/big − mean)²
	lo, hi float64 // of v (0 when n is 0)
}

// NewStats returns empty statistics for rows of cols columns forming
// groups (Dataset.Groups; nil: every column numeric).
func NewStats(cols int, groups []Group) (*Stats, error) {
	if cols < 1 {
		return nil, check.New(check.Shape, "", "data: statistics of %d columns; give at least one", cols)
	}
	if groups == nil {
		groups = make([]Group, cols)
		for j := range groups {
			groups[j] = Group{Column: j, Start: j, Width: 1}
		}
	}
	if err := checkGroups(groups, cols); err != nil {
		return nil, err
	}
	st := &Stats{groups: slices.Clone(groups), cols: cols}
	st.tree.Combine = combineStats
	return st, nil
}

// Collect returns the statistics of the rows of X: NewStats and Add.
func Collect(X *mat.Dense, groups []Group) (*Stats, error) {
	if X == nil || X.IsEmpty() {
		return nil, check.New(check.Shape, "", "data: cannot fit a scaler on an empty matrix; it needs at least one row and one column")
	}
	_, c := X.Dims()
	s, err := NewStats(c, groups)
	if err != nil {
		return nil, err
	}
	return s, s.Add(X)
}

// Rows returns the number of rows added.
func (s *Stats) Rows() int { return s.rows.Len() }

// Cols returns the number of columns.
func (s *Stats) Cols() int { return s.cols }

// Spans returns the global rows added, as sorted spans [lo, hi).
func (s *Stats) Spans() [][2]int { return s.rows.Spans() }

// Groups returns the column groups (a copy).
func (s *Stats) Groups() []Group { return slices.Clone(s.groups) }

// Add adds the rows of X (NaN marks a missing value; ±Inf is an error)
// after the rows added so far: AddAt(X, the end of those rows).
func (s *Stats) Add(X *mat.Dense) error { return s.AddAt(X, s.rows.End()) }

// AddAt adds the rows of X as the global rows first, first+1, … of the fit
// (NaN marks a missing value; ±Inf is an error). Statistics of the same
// rows give the same bits however the rows were split among AddAt calls
// and Merges (see rowtree); a row added twice is ERR_PROTOCOL.
func (s *Stats) AddAt(X *mat.Dense, first int) error {
	if X == nil || X.IsEmpty() {
		return check.New(check.Shape, "X", "data: cannot add an empty matrix to the statistics")
	}
	n, c := X.Dims()
	if c != s.cols {
		return check.New(check.Shape, "", "data: X has %d columns but the statistics have %d; give every block the same columns", c, s.cols)
	}
	if first < 0 || first > math.MaxInt-n {
		return check.New(check.Shape, "", "data: rows %d… are not rows of a fit (global row indices start at 0)", first)
	}
	if err := checkInf(X); err != nil {
		return err
	}
	if err := s.rows.Add(first, first+n); err != nil {
		return protocolErr(err)
	}
	for lo := 0; lo < n; {
		leaf := statsLeaf(first + lo)
		llo, lhi := statsLeafSpan(leaf, math.MaxInt)
		hi := min(n, lhi-first)
		if first+lo == llo && first+hi == lhi && s.frags[leaf] == nil {
			if err := s.tree.Insert(rowtree.Key{Index: leaf}, newStatsNode(s.groups, X.Slice(lo, hi, 0, c).(*mat.Dense))); err != nil {
				return check.New(check.Internal, "", "data: statistics: %v", err)
			}
		} else {
			f := s.frag(leaf)
			for i := lo; i < hi; i++ {
				f.keys = append(f.keys, first+i)
				f.x = append(f.x, X.RawRowView(i)...)
			}
			if err := s.completeFrag(leaf, lhi-llo); err != nil {
				return err
			}
		}
		lo = hi
	}
	return nil
}

func (s *Stats) frag(leaf int) *statsFrag {
	if s.frags == nil {
		s.frags = map[int]*statsFrag{}
	}
	f := s.frags[leaf]
	if f == nil {
		f = &statsFrag{}
		s.frags[leaf] = f
	}
	return f
}

// completeFrag turns the rows of leaf into its node once all size of them
// are there, in row order.
func (s *Stats) completeFrag(leaf, size int) error {
	f := s.frags[leaf]
	if f == nil || len(f.keys) < size {
		return nil
	}
	delete(s.frags, leaf)
	X := mat.NewDense(len(f.keys), s.cols, sortRows(f.keys, f.x, s.cols))
	if err := s.tree.Insert(rowtree.Key{Index: leaf}, newStatsNode(s.groups, X)); err != nil {
		return check.New(check.Internal, "", "data: statistics: %v", err)
	}
	return nil
}

// sortRows returns the rows x (w wide) in the order of their keys.
func sortRows(keys []int, x []float64, w int) []float64 {
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return keys[a] - keys[b] })
	out := make([]float64, len(x))
	for i, j := range idx {
		copy(out[i*w:(i+1)*w], x[j*w:(j+1)*w])
	}
	return out
}

func protocolErr(err error) error {
	return check.New(check.Protocol, "", "data: statistics: %v; add each row once and merge each part's statistics once (a retried part's statistics replace, not join, the first)", err)
}

// newStatsNode computes the statistics of X (checked) in three passes: the
// magnitudes, the scaled means, the scaled squared deviations, as Fit
// always did, so that one block gives Fit's bits.
//
// Each pass calls a function per row rather than looping over all the rows
// in one call: WebAssembly engines optimize a function between calls,
// never inside a running one (V8 has no on-stack replacement for wasm), so
// one call over a whole chunk ran in baseline code, about 3× slower (the
// package's "preprocess" stage was mostly this). The row functions are not
// inlined, for the same reason.
func newStatsNode(groups []Group, X *mat.Dense) *statsNode {
	n, c := X.Dims()
	b := &statsNode{groups: groups, rows: n, col: make([]colStats, c), cat: make([]int, c)}
	plain := b.plain()
	for i := range n {
		if plain {
			b.boundsPlain(X.RawRowView(i))
		} else {
			b.bounds(X.RawRowView(i))
		}
	}
	// The scaled passes skip columns without magnitude (all zeros).
	for i := range n {
		if plain {
			b.meanPlain(X.RawRowView(i))
		} else {
			b.meanRow(X.RawRowView(i))
		}
	}
	for j := range b.col {
		if cs := &b.col[j]; cs.big != 0 {
			cs.mean /= float64(cs.n)
		}
	}
	for i := range n {
		if plain {
			b.m2Plain(X.RawRowView(i))
		} else {
			b.m2Row(X.RawRowView(i))
		}
	}
	return b
}

// plain reports whether every column is its own numeric group, in order
// (NewStats's default): then a row's entry j is column j's value or NaN,
// and the passes run down the row without the groups.
func (s *statsNode) plain() bool {
	if len(s.groups) != len(s.col) {
		return false
	}
	for j, g := range s.groups {
		if g.Start != j || g.Width != 1 || g.Categorical {
			return false
		}
	}
	return true
}

// bounds adds a row to the counts, extremes and magnitudes.
//
//go:noinline
func (s *statsNode) bounds(row []float64) {
	for _, g := range s.groups {
		vals := row[g.Start : g.Start+g.Width]
		if missing(vals) {
			continue
		}
		if g.Categorical {
			if k := category(vals); k >= 0 {
				s.cat[g.Start+k]++
			}
		}
		for j, v := range vals {
			s.col[g.Start+j].add(v)
		}
	}
}

// boundsPlain is bounds where every column is its own numeric group.
//
//go:noinline
func (s *statsNode) boundsPlain(row []float64) {
	col := s.col[:len(row)]
	for j, v := range row {
		if v == v {
			col[j].add(v)
		}
	}
}

// add counts a present value and takes it into the extremes and the
// magnitude.
func (cs *colStats) add(v float64) {
	if cs.n == 0 || v < cs.lo {
		cs.lo = v
	}
	if cs.n == 0 || v > cs.hi {
		cs.hi = v
	}
	// max(cs.big, |v|) without the runtime call wasm makes of max: v is
	// not NaN and both are ≥ +0, so the bits are max's.
	if a := math.Abs(v); a > cs.big {
		cs.big = a
	}
	cs.n++
}

// meanRow adds a row's scaled values to the means' sums.
//
//go:noinline
func (s *statsNode) meanRow(row []float64) {
	for _, g := range s.groups {
		if vals := row[g.Start : g.Start+g.Width]; !missing(vals) {
			for j, v := range vals {
				if cs := &s.col[g.Start+j]; cs.big != 0 {
					cs.mean += v / cs.big
				}
			}
		}
	}
}

// meanPlain is meanRow where every column is its own numeric group.
//
//go:noinline
func (s *statsNode) meanPlain(row []float64) {
	col := s.col[:len(row)]
	for j, v := range row {
		if cs := &col[j]; v == v && cs.big != 0 {
			cs.mean += v / cs.big
		}
	}
}

// m2Row adds a row's squared scaled deviations to the M2 sums.
//
//go:noinline
func (s *statsNode) m2Row(row []float64) {
	for _, g := range s.groups {
		if vals := row[g.Start : g.Start+g.Width]; !missing(vals) {
			for j, v := range vals {
				if cs := &s.col[g.Start+j]; cs.big != 0 {
					d := v/cs.big - cs.mean
					cs.m2 += d * d
				}
			}
		}
	}
}

// m2Plain is m2Row where every column is its own numeric group.
//
//go:noinline
func (s *statsNode) m2Plain(row []float64) {
	col := s.col[:len(row)]
	for j, v := range row {
		if cs := &col[j]; v == v && cs.big != 0 {
			d := v/cs.big - cs.mean
			cs.m2 += d * d
		}
	}
}

// missing reports whether a block has a NaN: the whole block is missing
// (and imputed whole).
func missing(vals []float64) bool {
	for _, v := range vals {
		if v != v {
			return true
		}
	}
	return false
}

// Merge adds the rows of o, as if they had been added to s. o is not
// modified; it needs the same columns and groups, and other rows: a row
// in both is ERR_PROTOCOL, and s is then unchanged.
func (s *Stats) Merge(o *Stats) error {
	if o.cols != s.cols || !slices.Equal(o.groups, s.groups) {
		return check.New(check.Shape, "", "data: cannot merge statistics of %d columns in %d groups into statistics of %d columns in %d groups; give every part the same columns and groups", o.cols, len(o.groups), s.cols, len(s.groups))
	}
	if err := s.rows.Union(&o.rows); err != nil {
		return protocolErr(err)
	}
	for _, k := range o.tree.Keys() {
		v, _ := o.tree.Node(k)
		if err := s.tree.Insert(k, v.clone()); err != nil {
			return check.New(check.Internal, "", "data: statistics: %v", err)
		}
	}
	for leaf, of := range o.frags {
		f := s.frag(leaf)
		f.keys = append(f.keys, of.keys...)
		f.x = append(f.x, of.x...)
		lo, hi := statsLeafSpan(leaf, math.MaxInt)
		if err := s.completeFrag(leaf, hi-lo); err != nil {
			return err
		}
	}
	return nil
}

func (b *statsNode) clone() *statsNode {
	c := *b
	c.col, c.cat = slices.Clone(b.col), slices.Clone(b.cat)
	return &c
}

// combineStats folds right, the statistics of the leaves after left's,
// into left: Chan's pairwise update.
func combineStats(a, b *statsNode) (*statsNode, error) {
	if a.rows > math.MaxInt-b.rows {
		return nil, check.New(check.TooLarge, "", "data: %d + %d rows overflow the row count", a.rows, b.rows)
	}
	a.rows += b.rows
	for j := range a.col {
		a.col[j] = mergeCol(a.col[j], b.col[j])
		a.cat[j] += b.cat[j]
	}
	return a, nil
}

// total reduces the statistics of every row 0…Rows()−1: the whole leaves'
// nodes and the last leaf's rows, along rowtree's fixed tree. s is not
// changed. Rows missing are ERR_PROTOCOL.
func (s *Stats) total() (*statsNode, error) {
	end := s.rows.End()
	if end == 0 {
		return nil, check.New(check.Shape, "", "data: cannot fit a scaler on statistics of no rows")
	}
	if miss, ok := s.rows.Missing(end); ok {
		return nil, check.New(check.Protocol, "", "data: statistics: rows %d…%d are missing; merge the statistics of every part", miss[0], miss[1]-1)
	}
	t := rowtree.Tree[*statsNode]{Combine: combineStats}
	for _, k := range s.tree.Keys() {
		v, _ := s.tree.Node(k)
		if err := t.Insert(k, v.clone()); err != nil {
			return nil, check.New(check.Internal, "", "data: statistics: %v", err)
		}
	}
	for leaf, f := range s.frags {
		// Only the last leaf can be short and still hold all its rows.
		X := mat.NewDense(len(f.keys), s.cols, sortRows(f.keys, f.x, s.cols))
		if err := t.Insert(rowtree.Key{Index: leaf}, newStatsNode(s.groups, X)); err != nil {
			return nil, check.New(check.Internal, "", "data: statistics: %v", err)
		}
	}
	root, err := t.Root(statsLeaf(end-1) + 1)
	if err != nil {
		return nil, check.New(check.Internal, "", "data: statistics: %v", err)
	}
	return root, nil
}

// mergeCol is Chan's pairwise update of two columns' statistics, each
// first rescaled to the larger magnitude (a factor ≤ 1: nothing
// overflows).
func mergeCol(a, b colStats) colStats {
	switch {
	case b.n == 0:
		return a
	case a.n == 0:
		return b
	}
	out := colStats{n: a.n + b.n, big: max(a.big, b.big), lo: min(a.lo, b.lo), hi: max(a.hi, b.hi)}
	if out.big == 0 {
		return out
	}
	ra, rb := a.big/out.big, b.big/out.big
	ma, mb := a.mean*ra, b.mean*rb
	d := mb - ma
	n := float64(out.n)
	out.mean = ma + d*(float64(b.n)/n)
	out.m2 = a.m2*ra*ra + b.m2*rb*rb + d*d*(float64(a.n)*float64(b.n)/n)
	return out
}

// Scaler builds the Scaler of p from the statistics: what Fit returns on
// the same rows (bit for bit from one block without missing values, to
// rounding otherwise). See Fit for the rules.
func (st *Stats) Scaler(p Prep) (*Scaler, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	s, err := st.total()
	if err != nil {
		return nil, err
	}
	c := len(s.col)
	sc := &Scaler{prep: p, groups: slices.Clone(s.groups), fill: make([]float64, c)}
	for _, g := range s.groups {
		if g.Categorical {
			if g.Width == 0 {
				continue
			}
			counts := s.cat[g.Start : g.Start+g.Width]
			best := 0
			for k, m := range counts {
				if m > counts[best] {
					best = k
				}
			}
			if counts[best] > 0 {
				sc.fill[g.Start+best] = 1
			}
		} else if cs := s.col[g.Start]; cs.big != 0 {
			sc.fill[g.Start] = cs.mean * cs.big
		}
	}
	// Each column's mean and M2 after imputation, in units of its div;
	// the scaler keeps them when it standardizes, and the bias input is
	// sized from them.
	divs, mus, invs := make([]float64, c), make([]float64, c), make([]float64, c)
	m2s := make([]float64, c)
	rows := float64(s.rows)
	for j, cs := range s.col {
		f := sc.fill[j]
		miss := s.rows - cs.n
		lo, hi := cs.lo, cs.hi
		if cs.n == 0 {
			lo, hi = f, f
		} else if miss > 0 {
			lo, hi = min(lo, f), max(hi, f)
		}
		div := max(math.Abs(lo), math.Abs(hi), math.SmallestNonzeroFloat64)
		// The present values' mean and M2 in units of div, then the
		// missing rows (all at the fill value) merged in.
		mu, m2 := 0.0, 0.0
		if cs.big != 0 {
			r := cs.big / div
			mu, m2 = cs.mean*r, cs.m2*r*r
		}
		if miss > 0 {
			d := f/div - mu
			mu += d * (float64(miss) / rows)
			m2 += d * d * (float64(cs.n) * float64(miss) / rows)
		}
		divs[j], mus[j], invs[j], m2s[j] = div, mu, 1, m2
		if lo == hi {
			// Centred exactly, and test values pass unscaled.
			divs[j], mus[j] = 1, lo
			continue
		}
		if sd := math.Sqrt(m2 / rows); sd > 0 && !math.IsInf(1/sd, 0) {
			invs[j] = 1 / sd
		}
	}
	if !p.Raw {
		sc.div, sc.mu, sc.inv = divs, mus, invs
	}
	if p.Bias > 0 {
		ms, err := meanSquare(p, divs, mus, invs, m2s, rows)
		if err != nil {
			return nil, err
		}
		sc.bias = p.Bias * ms
	}
	return sc, nil
}

// meanSquare is the root-mean-square norm of the rows as Apply prepares
// them, from each column's statistics after imputation (mean mu and M2 in
// units of div; a constant column has div 1, mu its value, M2 0): 1 for
// rows scaled to unit norm, √Σ M2/n·inv² for standardized ones (one per
// varying column), √Σ (M2/n + mu²)·div² for raw ones, summed relative to
// the largest div so that it cannot overflow; 1 when every row is zero,
// so that the bias input is then Prep.Bias itself.
func meanSquare(p Prep, div, mu, inv, m2 []float64, rows float64) (float64, error) {
	if p.UnitNorm {
		return 1, nil
	}
	big := 1.0
	if p.Raw {
		big = 0
		for _, d := range div {
			big = max(big, d)
		}
	}
	sum := 0.0
	for j := range div {
		if p.Raw {
			r := div[j] / big
			sum += (m2[j]/rows + mu[j]*mu[j]) * r * r
		} else {
			sum += m2[j] / rows * inv[j] * inv[j]
		}
	}
	if sum == 0 || big == 0 {
		return 1, nil
	}
	ms := big * math.Sqrt(sum)
	if math.IsInf(ms, 0) {
		return 0, check.New(check.Value, "bias", "data: the bias input %g × the rows' norm overflows float64; rescale the data or standardize it", p.Bias)
	}
	return ms, nil
}
