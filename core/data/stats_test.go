package data

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/errs"
)

// fitTwoPass is Fit as it was before the statistics (every row in one
// place, five passes): the reference the statistics are held to.
func fitTwoPass(X *mat.Dense, groups []Group, p Prep) (*Scaler, error) {
	if X == nil || X.IsEmpty() {
		return nil, errors.New("data: cannot fit a scaler on an empty matrix")
	}
	n, c := X.Dims()
	if err := checkInf(X); err != nil {
		return nil, err
	}
	if groups == nil {
		groups = make([]Group, c)
		for j := range groups {
			groups[j] = Group{Column: j, Start: j, Width: 1}
		}
	}
	if err := checkGroups(groups, c); err != nil {
		return nil, err
	}
	s := &Scaler{prep: p, groups: groups, fill: make([]float64, c)}
	var numeric []int
	for _, g := range groups {
		if g.Categorical {
			fitModeRef(s, X, g)
		} else {
			numeric = append(numeric, g.Start)
		}
	}
	fitMeansRef(s, X, numeric)
	if p.Raw {
		return s, nil
	}
	s.div, s.mu, s.inv = make([]float64, c), make([]float64, c), make([]float64, c)
	row := make([]float64, c)
	lo, hi := make([]float64, c), make([]float64, c)
	for i := range n {
		s.impute(row, X.RawRowView(i))
		for j, v := range row {
			if i == 0 || v < lo[j] {
				lo[j] = v
			}
			if i == 0 || v > hi[j] {
				hi[j] = v
			}
		}
	}
	for j := range c {
		s.div[j] = max(math.Abs(lo[j]), math.Abs(hi[j]), math.SmallestNonzeroFloat64)
		s.inv[j] = 1
	}
	sum := make([]float64, c)
	for i := range n {
		s.impute(row, X.RawRowView(i))
		for j, v := range row {
			sum[j] += v / s.div[j]
		}
	}
	for j := range c {
		s.mu[j] = sum[j] / float64(n)
		if lo[j] == hi[j] {
			// Centred exactly, and test values pass unscaled.
			s.div[j], s.mu[j] = 1, lo[j]
		}
		sum[j] = 0
	}
	for i := range n {
		s.impute(row, X.RawRowView(i))
		for j, v := range row {
			d := v/s.div[j] - s.mu[j]
			sum[j] += d * d
		}
	}
	for j := range c {
		if sd := math.Sqrt(sum[j] / float64(n)); lo[j] != hi[j] && sd > 0 && !math.IsInf(1/sd, 0) {
			s.inv[j] = 1 / sd
		}
	}
	return s, nil
}

func fitMeansRef(s *Scaler, X *mat.Dense, cols []int) {
	n, c := X.Dims()
	big, sum, count := make([]float64, c), make([]float64, c), make([]int, c)
	for i := range n {
		row := X.RawRowView(i)
		for _, j := range cols {
			if v := row[j]; !math.IsNaN(v) {
				big[j] = max(big[j], math.Abs(v))
			}
		}
	}
	for i := range n {
		row := X.RawRowView(i)
		for _, j := range cols {
			if v := row[j]; !math.IsNaN(v) && big[j] != 0 {
				sum[j] += v / big[j]
				count[j]++
			}
		}
	}
	for _, j := range cols {
		if big[j] != 0 {
			s.fill[j] = sum[j] / float64(count[j]) * big[j]
		}
	}
}

func fitModeRef(s *Scaler, X *mat.Dense, g Group) {
	if g.Width == 0 {
		return
	}
	n, _ := X.Dims()
	counts := make([]int, g.Width)
	for i := range n {
		if k := category(X.RawRowView(i)[g.Start : g.Start+g.Width]); k >= 0 {
			counts[k]++
		}
	}
	best := 0
	for k, m := range counts {
		if m > counts[best] {
			best = k
		}
	}
	if counts[best] > 0 {
		s.fill[g.Start+best] = 1
	}
}

// statsTable is a table with every case the statistics must carry: a
// one-hot block, missing cells (numeric and whole blocks), a constant
// column, a column with no value, magnitudes near the float64 limit and a
// subnormal one. missing 0 leaves no cell missing.
func statsTable(n int, missing float64, seed uint64) (*mat.Dense, []Group) {
	r := rand.New(rand.NewPCG(seed, 1))
	groups := []Group{
		{Column: 0, Start: 0, Width: 1},
		{Column: 1, Start: 1, Width: 3, Categorical: true},
		{Column: 2, Start: 4, Width: 1},
		{Column: 3, Start: 5, Width: 1},
		{Column: 4, Start: 6, Width: 1},
		{Column: 5, Start: 7, Width: 1},
		{Column: 6, Start: 8, Width: 1},
	}
	X := mat.NewDense(n, 9, nil)
	for i := range n {
		row := X.RawRowView(i)
		row[0] = r.NormFloat64()*3 + 10
		row[1+r.IntN(3)] = 1
		row[4] = 0.1                         // constant
		row[5] = r.NormFloat64() * 1e300     // huge
		row[6] = float64(r.IntN(3)) * 5e-324 // subnormal
		row[7] = math.NaN()                  // no value (when missing > 0)
		if missing == 0 {
			row[7] = -2
		}
		row[8] = r.ExpFloat64()
		if r.Float64() < missing {
			row[0] = math.NaN()
		}
		if r.Float64() < missing {
			row[1], row[2], row[3] = math.NaN(), math.NaN(), math.NaN()
		}
		if r.Float64() < missing {
			row[5] = math.NaN()
		}
	}
	return X, groups
}

// scalerOf returns the fitted numbers of a scaler, side by side.
func scalerOf(s *Scaler) [][]float64 { return [][]float64{s.fill, s.div, s.mu, s.inv} }

func TestStatsOfOneBlockAreFit(t *testing.T) {
	t.Parallel()
	// One leaf of rows without a missing value: the two-pass bits; more
	// leaves (summed along rowtree's tree) or missing values: to rounding.
	for _, tc := range []struct {
		name    string
		rows    int
		missing float64
		exact   bool
	}{
		{"one leaf, no missing value", StatsLeafRows, 0, true},
		{"one leaf, missing values", StatsLeafRows - 5, 0.2, false},
		{"several leaves, no missing value", 300, 0, false},
		{"several leaves, missing values", 300, 0.2, false},
	} {
		for _, p := range []Prep{{}, {Raw: true}, {UnitNorm: true}} {
			X, groups := statsTable(tc.rows, tc.missing, 3)
			want, err := fitTwoPass(X, groups, p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Fit(X, groups, p)
			if err != nil {
				t.Fatal(err)
			}
			for i, g := range scalerOf(got) {
				w := scalerOf(want)[i]
				for j := range g {
					if tc.exact && math.Float64bits(g[j]) != math.Float64bits(w[j]) {
						t.Errorf("%s %+v: statistic %d of column %d is %v, want %v bit for bit", tc.name, p, i, j, g[j], w[j])
					}
					if !tc.exact && math.Abs(g[j]-w[j]) > 1e-14*math.Max(1, math.Abs(w[j])) {
						t.Errorf("%s %+v: statistic %d of column %d is %v, want %v", tc.name, p, i, j, g[j], w[j])
					}
				}
			}
		}
	}
}

// splitRows cuts the n rows into k contiguous blocks at random places.
func splitRows(n, k int, r *rand.Rand) [][2]int {
	cuts := []int{0, n}
	for len(cuts) < k+1 {
		if c := 1 + r.IntN(n-1); !slices.Contains(cuts, c) {
			cuts = append(cuts, c)
		}
	}
	slices.Sort(cuts)
	out := make([][2]int, k)
	for i := range out {
		out[i] = [2]int{cuts[i], cuts[i+1]}
	}
	return out
}

// TestStatsMergeInAnyOrder: statistics of any split of the rows, through
// the wire form, merged in any order and tree, scale the rows with Fit's
// bits (rowtree fixes the order of the sums), across leaves too.
func TestStatsMergeInAnyOrder(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 5))
	const n = 40*StatsLeafRows + 37
	for _, missing := range []float64{0, 0.2} {
		X, groups := statsTable(n, missing, 9)
		want, err := Fit(X, groups, Prep{})
		if err != nil {
			t.Fatal(err)
		}
		wantX, _ := want.Apply(nil, X)
		for k := 1; k <= 6; k++ {
			var parts []*Stats
			for _, b := range splitRows(n, k, r) {
				s, err := NewStats(9, groups)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.AddAt(X.Slice(b[0], b[1], 0, 9).(*mat.Dense), b[0]); err != nil {
					t.Fatal(err)
				}
				// Through the wire form, as parts travel.
				if s, err = DecodeStats(s.AppendBinary(nil)); err != nil {
					t.Fatal(err)
				}
				parts = append(parts, s)
			}
			r.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
			// A tree: each part merged into a random earlier one, then
			// the survivors into the first.
			for i := len(parts) - 1; i > 0; i-- {
				if err := parts[r.IntN(i)].Merge(parts[i]); err != nil {
					t.Fatal(err)
				}
			}
			got, err := parts[0].Scaler(Prep{})
			if err != nil {
				t.Fatal(err)
			}
			if parts[0].Rows() != n {
				t.Fatalf("k = %d: %d rows merged, want %d", k, parts[0].Rows(), n)
			}
			if gotX, _ := got.Apply(nil, X); !mat.Equal(gotX, wantX) {
				t.Errorf("missing %v, k = %d: merged statistics scale the rows differently from Fit", missing, k)
			}
		}
	}
}

// TestStatsRowsOnce: statistics of rows held twice are refused, at AddAt
// and at Merge, through the wire form too, and rows missing are refused
// when the scaler is fitted; each with ERR_PROTOCOL, nothing changed.
func TestStatsRowsOnce(t *testing.T) {
	t.Parallel()
	X, _ := statsTable(300, 0, 3)
	part := func(lo, hi int) *Stats {
		s, _ := NewStats(9, nil)
		if err := s.AddAt(X.Slice(lo, hi, 0, 9).(*mat.Dense), lo); err != nil {
			t.Fatal(err)
		}
		d, err := DecodeStats(s.AppendBinary(nil))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	s := part(0, 100)
	if err := s.Merge(part(100, 200)); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"the same part twice":  s.Merge(part(100, 200)),
		"an overlapping part":  s.Merge(part(150, 250)),
		"rows added again":     s.AddAt(X.Slice(0, 1, 0, 9).(*mat.Dense), 99),
		"rows 200…299 missing": func() error { t := part(0, 100); _ = t.Merge(part(200, 300)); _, err := t.Scaler(Prep{}); return err }(),
	} {
		if errs.CodeOf(err) != errs.Protocol {
			t.Errorf("%s: %v, want ERR_PROTOCOL", name, err)
		}
	}
	if s.Rows() != 200 {
		t.Errorf("refused merges changed the statistics: %d rows", s.Rows())
	}
}

func TestStatsErrors(t *testing.T) {
	t.Parallel()
	s, _ := NewStats(2, nil)
	other, _ := NewStats(3, nil)
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"no columns", func() error { _, err := NewStats(0, nil); return err }()},
		{"groups short of the columns", func() error { _, err := NewStats(3, []Group{{Start: 0, Width: 1}}); return err }()},
		{"wrong width", s.Add(mat.NewDense(1, 3, nil))},
		{"infinite value", s.Add(mat.NewDense(1, 2, []float64{1, math.Inf(1)}))},
		{"other columns", s.Merge(other)},
		{"no rows", func() error { _, err := s.Scaler(Prep{}); return err }()},
	} {
		if tc.err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// blockRef is Stats.block as it was written first (three passes over all
// the rows in one loop each, every group through the general path): the
// reference for the per-row passes and the plain path.
func blockRef(s *Stats, X *mat.Dense) *statsNode {
	n, c := X.Dims()
	b := &statsNode{groups: s.groups, rows: n, col: make([]colStats, c), cat: make([]int, c)}
	for i := range n {
		row := X.RawRowView(i)
		for _, g := range s.groups {
			vals := row[g.Start : g.Start+g.Width]
			if missing(vals) {
				continue
			}
			if g.Categorical {
				if k := category(vals); k >= 0 {
					b.cat[g.Start+k]++
				}
			}
			for j, v := range vals {
				cs := &b.col[g.Start+j]
				if cs.n == 0 || v < cs.lo {
					cs.lo = v
				}
				if cs.n == 0 || v > cs.hi {
					cs.hi = v
				}
				cs.big = max(cs.big, math.Abs(v))
				cs.n++
			}
		}
	}
	for i := range n {
		row := X.RawRowView(i)
		for _, g := range s.groups {
			if vals := row[g.Start : g.Start+g.Width]; !missing(vals) {
				for j, v := range vals {
					if cs := &b.col[g.Start+j]; cs.big != 0 {
						cs.mean += v / cs.big
					}
				}
			}
		}
	}
	for j := range b.col {
		if cs := &b.col[j]; cs.big != 0 {
			cs.mean /= float64(cs.n)
		}
	}
	for i := range n {
		row := X.RawRowView(i)
		for _, g := range s.groups {
			if vals := row[g.Start : g.Start+g.Width]; !missing(vals) {
				for j, v := range vals {
					if cs := &b.col[g.Start+j]; cs.big != 0 {
						d := v/cs.big - cs.mean
						cs.m2 += d * d
					}
				}
			}
		}
	}
	return b
}

// TestStatsBlockBits holds the per-row passes (and the path for tables
// whose every column is its own numeric group) to the reference's bits.
func TestStatsBlockBits(t *testing.T) {
	t.Parallel()
	bits := func(c colStats) [6]uint64 {
		return [6]uint64{uint64(c.n), math.Float64bits(c.big), math.Float64bits(c.mean), math.Float64bits(c.m2), math.Float64bits(c.lo), math.Float64bits(c.hi)}
	}
	for _, tc := range []struct {
		name    string
		missing float64
		plain   bool // every column its own numeric group (nil groups)
	}{
		{"grouped, no missing value", 0, false},
		{"grouped, missing values", 0.2, false},
		{"plain, no missing value", 0, true},
		{"plain, missing values", 0.2, true},
	} {
		X, groups := statsTable(257, tc.missing, 5)
		if tc.plain {
			groups = nil
		}
		s, err := NewStats(9, groups)
		if err != nil {
			t.Fatal(err)
		}
		if got := (&statsNode{groups: s.groups, col: make([]colStats, 9)}).plain(); got != tc.plain {
			t.Fatalf("%s: plain() = %v", tc.name, got)
		}
		got, want := newStatsNode(s.groups, X), blockRef(s, X)
		if !slices.Equal(got.cat, want.cat) || got.rows != want.rows {
			t.Errorf("%s: categories %v, rows %d; want %v, %d", tc.name, got.cat, got.rows, want.cat, want.rows)
		}
		for j := range want.col {
			if bits(got.col[j]) != bits(want.col[j]) {
				t.Errorf("%s: column %d: %+v, want %+v bit for bit", tc.name, j, got.col[j], want.col[j])
			}
		}
	}
}

// TestStatsWireWholeLeaves: statistics of whole leaves only (several tree
// nodes, no partial leaf) round-trip through the wire form: the decoder
// once asked for more bytes a node than a node has.
func TestStatsWireWholeLeaves(t *testing.T) {
	t.Parallel()
	X, groups := statsTable(7*StatsLeafRows, 0.1, 3) // leaves 0…6: nodes of 4, 2 and 1 leaves
	s, err := NewStats(9, groups)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Add(X); err != nil {
		t.Fatal(err)
	}
	if s.tree.Len() != 3 || len(s.frags) != 0 {
		t.Fatalf("%d nodes and %d partial leaves; the test wants 3 and none", s.tree.Len(), len(s.frags))
	}
	b := s.AppendBinary(nil)
	d, err := DecodeStats(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(d.AppendBinary(nil), b) {
		t.Error("the decoded statistics write other bytes")
	}
}
