package protocol

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
	"ntkrf/internal/rowtree"
)

// protocolCases are a fit of every criterion, solve and task.
func protocolCases() []struct {
	name string
	k    int // classes; 0: regression
	cfg  pipeline.Config
} {
	std := &data.Prep{}
	feat := rf.Config{Dim: 48, Depth: 2, Seed: 3}
	wide := rf.Config{Dim: 1024, Depth: 2, Seed: 3} // more features than rows: the dual
	ntk := &kernel.Spec{Name: "ntk", Depth: 2}
	ridge := func(task krr.Task, criterion krr.Criterion, lambda float64) krr.Options {
		return krr.Options{Task: task, Criterion: criterion, Lambda: lambda, BlockRows: 64}
	}
	c, r := krr.Classification, krr.Regression
	return []struct {
		name string
		k    int
		cfg  pipeline.Config
	}{
		{"classification, held out (default)", 3, pipeline.Config{Preprocess: std, Features: feat, Ridge: ridge(c, "", 0)}},
		{"classification, gcv", 3, pipeline.Config{Preprocess: &data.Prep{UnitNorm: true}, Features: feat, Ridge: ridge(c, krr.GCV, 0)}},
		{"classification, loo (primal)", 3, pipeline.Config{Preprocess: std, Features: feat, Ridge: ridge(c, krr.LOO, 0)}},
		{"classification, fixed λ", 3, pipeline.Config{Preprocess: std, Features: feat, Ridge: ridge(c, "", 0.5)}},
		{"classification, dual", 3, pipeline.Config{Preprocess: std, Features: wide, Ridge: ridge(c, "", 0)}},
		{"classification, kernel", 3, pipeline.Config{Preprocess: std, Kernel: ntk, Ridge: ridge(c, "", 0)}},
		{"regression, gcv (default)", 0, pipeline.Config{Preprocess: std, Features: feat, Ridge: ridge(r, "", 0)}},
		{"regression, held out", 0, pipeline.Config{Preprocess: std, Features: feat, Ridge: ridge(r, krr.Holdout, 0)}},
		{"regression, loo (primal)", 0, pipeline.Config{Preprocess: std, Features: feat, Ridge: ridge(r, krr.LOO, 0)}},
		{"regression, fixed λ", 0, pipeline.Config{Preprocess: &data.Prep{Raw: true}, Features: feat, Ridge: ridge(r, "", 0.1)}},
		{"regression, dual", 0, pipeline.Config{Preprocess: std, Features: wide, Ridge: ridge(r, "", 0)}},
		{"regression, kernel", 0, pipeline.Config{Preprocess: std, Kernel: ntk, Ridge: ridge(r, krr.GCV, 0)}},
		// The bias input is sized from the merged statistics too.
		{"classification, bias, held out", 3, pipeline.Config{Preprocess: &data.Prep{Bias: 1}, Features: feat, Ridge: ridge(c, "", 0)}},
		{"regression, raw with bias, kernel", 0, pipeline.Config{Preprocess: &data.Prep{Raw: true, Bias: 1}, Kernel: ntk, Ridge: ridge(r, krr.GCV, 0)}},
	}
}

// splitBlocks cuts n rows into k contiguous blocks at random places.
func splitBlocks(n, k int, r *rand.Rand) [][2]int {
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

// protocolFit runs the protocol as a host of k workers would: statistics
// and parts computed apart, sent as bytes, merged in a random order and
// tree, then solved.
func protocolFit(t *testing.T, X *mat.Dense, y []float64, cfg pipeline.Config, k int, r *rand.Rand) *pipeline.Pipeline {
	t.Helper()
	ctx := context.Background()
	n, d := X.Dims()
	plan, err := NewPlan(cfg, n, d, y)
	if err != nil {
		t.Fatal(err)
	}
	blocks := splitBlocks(n, k, r)
	rows := func(b [2]int) *mat.Dense { return X.Slice(b[0], b[1], 0, d).(*mat.Dense) }
	var statsWire [][]byte
	for _, b := range blocks {
		s := plan.NewStats()
		if err := s.AddAt(rows(b), b[0]); err != nil {
			t.Fatal(err)
		}
		statsWire = append(statsWire, s.AppendBinary(nil))
	}
	stats := decodeShuffled(t, r, statsWire, data.DecodeStats)
	for i := k - 1; i > 0; i-- {
		if err := stats[r.IntN(i)].Merge(stats[i]); err != nil {
			t.Fatal(err)
		}
	}
	// 'auto': only the rows the plan names are gathered, and the
	// candidates are scored in k shares, chosen from in any order, each
	// by a plan that travelled as bytes (as between workers and hosts).
	if idx := plan.SearchRows(); idx != nil {
		var scored []Scored
		for _, part := range r.Perm(k) {
			sc, err := travel(t, plan).Score(ctx, data.Rows(X, idx), data.Take(y, idx), stats[0], part, k)
			if err != nil {
				t.Fatal(err)
			}
			scored = append(scored, sc...)
		}
		if plan, _, err = travel(t, plan).Choose(scored); err != nil {
			t.Fatal(err)
		}
	}
	plan = travel(t, plan)
	scaler, err := plan.Scaler(stats[0])
	if err != nil {
		t.Fatal(err)
	}
	var partWire [][]byte
	for _, b := range blocks {
		pt, err := plan.NewPart(scaler)
		if err != nil {
			t.Fatal(err)
		}
		if err := pt.Add(ctx, rows(b), y[b[0]:b[1]], b[0]); err != nil {
			t.Fatal(err)
		}
		if r.IntN(2) == 0 {
			pt.Compact() // as a host that keeps parts in memory: the same bits
		}
		partWire = append(partWire, pt.AppendBinary(nil))
	}
	parts := decodeShuffled(t, r, partWire, plan.DecodePart)
	// A random tree, merging decoded parts or their bytes in place.
	for i := k - 1; i > 0; i-- {
		into := parts[r.IntN(i)]
		if r.IntN(2) == 0 {
			err = into.Merge(parts[i])
		} else {
			err = into.MergeBinary(parts[i].AppendBinary(nil))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	p, err := plan.Solve(ctx, scaler, parts[0])
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// decodeShuffled decodes the wire forms in an order r draws, as a host
// receives them from its workers, failing the test on an error.
func decodeShuffled[T any](t *testing.T, r *rand.Rand, wire [][]byte, decode func([]byte) (T, error)) []T {
	t.Helper()
	r.Shuffle(len(wire), func(i, j int) { wire[i], wire[j] = wire[j], wire[i] })
	out := make([]T, 0, len(wire))
	for _, b := range wire {
		v, err := decode(b)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// autoCases leave the depth and preprocessing to the fit ('auto'), whose
// selection the protocol runs on the rows it names.
func autoCases() []struct {
	name string
	k    int
	cfg  pipeline.Config
} {
	feat := rf.Config{Dim: 48, Seed: 3}
	search := pipeline.Search{Rows: 120, Depths: []int{1, 2}}
	return []struct {
		name string
		k    int
		cfg  pipeline.Config
	}{
		{"classification, auto", 3, pipeline.Config{Features: feat, Search: search, Ridge: krr.Options{Task: krr.Classification}}},
		{"classification, auto, fixed λ", 3, pipeline.Config{Features: feat, Search: search, Ridge: krr.Options{Task: krr.Classification, Lambda: 0.05}}},
		{"regression, auto preprocessing", 0, pipeline.Config{Features: rf.Config{Dim: 48, Depth: 2, Seed: 3}, Search: search, Ridge: krr.Options{Task: krr.Regression}}},
		{"regression, auto, kernel", 0, pipeline.Config{Kernel: &kernel.Spec{Name: "ntk"}, Search: search, Ridge: krr.Options{Task: krr.Regression}}},
		// The method open too: 'auto' chooses the exact kernel for these
		// rows and adds the RBF candidates.
		{"classification, auto method", 3, pipeline.Config{Search: search, Ridge: krr.Options{Task: krr.Classification}}},
		{"regression, auto method", 0, pipeline.Config{Search: search, Ridge: krr.Options{Task: krr.Regression}}},
	}
}

// TestProtocolSelectsAsFit: with the depth and preprocessing left to the
// fit, the protocol over 1…5 parts (statistics merged, only the rows
// SearchRows names gathered, the candidates scored in shares) selects
// as Fit does: any number of parts, merged in any order, give Fit's bits,
// selection included.
func TestProtocolSelectsAsFit(t *testing.T) {
	t.Parallel()
	for i, tc := range autoCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			X, y := fixture.Holey(300, tc.k)
			want := fitPipeline(t, X, y, tc.cfg)
			if want.Selection() == nil || want.Selection().Rows != 120 {
				t.Fatalf("selection %+v; want one on 120 rows", want.Selection())
			}
			r := rand.New(rand.NewPCG(uint64(i), 11))
			compareParts(t, X, y, tc.cfg, want, r, nil)
		})
	}
}

// TestProtocolIsFit: the protocol over 1…5 parts, in any order and tree,
// fits the model Fit fits, bit for bit.
func TestProtocolIsFit(t *testing.T) {
	t.Parallel()
	for i, tc := range protocolCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			X, y := fixture.Holey(300, tc.k)
			want := fitPipeline(t, X, y, tc.cfg)
			r := rand.New(rand.NewPCG(uint64(i), 9))
			compareParts(t, X, y, tc.cfg, want, r, nil)
		})
	}
}

// fitPipeline is Fit's model of X, y, failing the test on an error.
func fitPipeline(t *testing.T, X *mat.Dense, y []float64, cfg pipeline.Config) *pipeline.Pipeline {
	t.Helper()
	want, err := pipeline.Fit(context.Background(), X, y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// travel is p as another worker or host has it: p's bytes decoded.
func travel(t *testing.T, p *Plan) *Plan {
	t.Helper()
	b, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	q, err := DecodePlan(b)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// compareParts holds the protocol over k = 1…5 parts (r orders and merges
// them) to want, Fit's model of the same rows: the model's bits, whatever
// the split and the order of the merges (rowtree fixes the order of the
// sums). more, when given, adds a caller's checks of several parts.
func compareParts(t *testing.T, X *mat.Dense, y []float64, cfg pipeline.Config, want *pipeline.Pipeline, r *rand.Rand, more func(k int, got *pipeline.Pipeline)) {
	t.Helper()
	wantJSON, _ := json.Marshal(want)
	for k := 1; k <= 5; k++ {
		got := protocolFit(t, X, y, cfg, k, r)
		if b, _ := json.Marshal(got); !bytes.Equal(b, wantJSON) {
			t.Errorf("%d parts: the model differs from Fit's (λ %v, Fit's %v)", k, got.Lambda(), want.Lambda())
		}
		if more != nil && k > 1 {
			more(k, got)
		}
	}
}

// smallPlan is a held-out classification plan of 40 rows (8 held out) and
// its statistics' scaler.
func smallPlan(t testing.TB, collect bool) (*Plan, *data.Scaler, *mat.Dense, []float64) {
	t.Helper()
	X, y := fixture.Data(40, 3, 2, 5)
	cfg := pipeline.Config{Preprocess: &data.Prep{}, Features: rf.Config{Dim: 8, Depth: 1}, Ridge: krr.Options{Task: krr.Classification, BlockRows: 16}}
	if collect {
		cfg.Ridge.Criterion = krr.LOO
	}
	plan, scaler := planScaler(t, cfg, X, y)
	return plan, scaler, X, y
}

// planScaler is cfg's plan for the rows X, y and the scaler of X's
// statistics.
func planScaler(t testing.TB, cfg pipeline.Config, X *mat.Dense, y []float64) (*Plan, *data.Scaler) {
	t.Helper()
	n, d := X.Dims()
	plan, err := NewPlan(cfg, n, d, y)
	if err != nil {
		t.Fatal(err)
	}
	s := plan.NewStats()
	if err := s.Add(X); err != nil {
		t.Fatal(err)
	}
	scaler, err := plan.Scaler(s)
	if err != nil {
		t.Fatal(err)
	}
	return plan, scaler
}

// part returns the part of rows lo…hi−1.
func part(t testing.TB, plan *Plan, s *data.Scaler, X *mat.Dense, y []float64, lo, hi int) *Part {
	t.Helper()
	pt, err := plan.NewPart(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := pt.Add(context.Background(), X.Slice(lo, hi, 0, X.RawMatrix().Cols).(*mat.Dense), y[lo:hi], lo); err != nil {
		t.Fatal(err)
	}
	return pt
}

// TestProtocolRefuses: a plan with a setting open, rows that are not the
// plan's, parts merged twice or missing, and hostile part forms are
// refused with codes; a refused form leaves the part as it was.
func TestProtocolRefuses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	X, y := fixture.Data(40, 3, 2, 5)
	for _, tc := range []struct {
		name string
		cfg  pipeline.Config
		y    []float64
		code check.Code
	}{
		{"preprocessing open", pipeline.Config{Features: rf.Config{Dim: 8, Depth: 1}}, y, check.Option},
		{"depth open", pipeline.Config{Preprocess: &data.Prep{}, Features: rf.Config{Dim: 8}}, y, check.Option},
		{"whole-number targets, no task", pipeline.Config{Preprocess: &data.Prep{}, Features: rf.Config{Dim: 8, Depth: 1}}, y, check.Option},
		{"no targets, no task", pipeline.Config{Preprocess: &data.Prep{}, Features: rf.Config{Dim: 8, Depth: 1}}, nil, check.Option},
		{"targets of other rows", pipeline.Config{Preprocess: &data.Prep{}, Features: rf.Config{Dim: 8, Depth: 1}, Ridge: krr.Options{Task: krr.Classification}}, y[:5], check.Shape},
	} {
		if _, err := NewPlan(tc.cfg, 40, 3, tc.y); check.CodeOf(err) != tc.code {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code)
		}
	}
	for _, collect := range []bool{false, true} {
		plan, s, X, y := smallPlan(t, collect)
		a, b := part(t, plan, s, X, y, 0, 25), part(t, plan, s, X, y, 25, 40)
		if _, err := plan.Solve(ctx, s, a); check.CodeOf(err) != check.Protocol {
			t.Errorf("collect %v: solving a part of 25 of 40 rows: %v", collect, err)
		}
		if err := a.Add(ctx, X.Slice(0, 20, 0, 3).(*mat.Dense), y[:20], 25); check.CodeOf(err) != check.Shape {
			t.Errorf("collect %v: keys past the plan's rows: %v", collect, err)
		}
		if err := a.Merge(a); check.CodeOf(err) != check.Protocol {
			t.Errorf("collect %v: a part merged into itself: %v", collect, err)
		}
		good := b.AppendBinary(nil)
		before := a.AppendBinary(nil)
		u64 := func(at int, v uint64) []byte {
			c := slices.Clone(good)
			binary.LittleEndian.PutUint64(c[at:], v)
			return c
		}
		// The header, the plan's and the scaler's digests, one span.
		const hdr, span, mode = 12, 12 + 64 + 8, 12 + 64 + 8 + 16
		flip := func(at int) []byte {
			c := slices.Clone(good)
			c[at] ^= 1
			return c
		}
		bads := []struct {
			name string
			b    []byte
			code check.Code
		}{
			{"not a part", good[4:], check.Type},
			{"other version", u64(8, 7), check.Value},
			{"truncated", good[:len(good)-3], check.Shape},
			{"another plan's part", flip(hdr), check.Protocol},
			{"other mode", u64(mode, map[bool]uint64{false: 1, true: 0}[collect]), check.Protocol},
			{"more rows than the plan", u64(span+8, 41), check.Shape},
			{"other width", u64(mode+8, 9), check.Protocol},
		}
		if collect {
			bads = append(bads, struct {
				name string
				b    []byte
				code check.Code
			}{"a kept row the plan does not keep", u64(mode+24, 1<<40), check.Value})
		}
		for _, bad := range bads {
			if _, err := plan.DecodePart(bad.b); check.CodeOf(err) != bad.code {
				t.Errorf("collect %v, %s: %v, want %s", collect, bad.name, err, bad.code)
			}
			if err := a.MergeBinary(bad.b); check.CodeOf(err) != bad.code {
				t.Errorf("collect %v, %s: merge: %v, want %s", collect, bad.name, err, bad.code)
			}
			if !bytes.Equal(a.AppendBinary(nil), before) {
				t.Errorf("collect %v, %s: a refused form changed the part", collect, bad.name)
			}
		}
		if err := a.MergeBinary(good); err != nil {
			t.Fatal(err)
		}
		if _, err := plan.Solve(ctx, s, a); err != nil {
			t.Errorf("collect %v: solving every row: %v", collect, err)
		}
		if _, err := plan.Solve(ctx, s, a); check.CodeOf(err) != check.Value {
			t.Errorf("collect %v: solving a part twice: %v", collect, err)
		}
		other, s2, _, _ := smallPlan(t, !collect)
		if _, err := other.Solve(ctx, s2, b); check.CodeOf(err) != check.Protocol {
			t.Errorf("collect %v: solving a part of another plan: %v", collect, err)
		}
	}
	// The same rows twice (collected: the keys repeat).
	plan, s, X, y := smallPlan(t, true)
	a, b := part(t, plan, s, X, y, 0, 20), part(t, plan, s, X, y, 10, 30)
	if err := a.Merge(b); check.CodeOf(err) != check.Protocol {
		t.Errorf("rows merged twice: %v", err)
	}
}

// FuzzDecodePart: any bytes decode to a part of the plan or are refused
// with a code, never a panic.
func FuzzDecodePart(f *testing.F) {
	sums, s, X, y := smallPlan(f, false)
	rows, s2, _, _ := smallPlan(f, true)
	f.Add(false, part(f, sums, s, X, y, 3, 30).AppendBinary(nil))
	f.Add(true, part(f, rows, s2, X, y, 3, 30).AppendBinary(nil))
	f.Fuzz(func(t *testing.T, collect bool, b []byte) {
		plan := sums
		if collect {
			plan = rows
		}
		pt, err := plan.DecodePart(b)
		if err != nil {
			if check.CodeOf(err) == "" {
				t.Fatalf("uncoded error: %v", err)
			}
			return
		}
		if !bytes.Equal(pt.AppendBinary(nil), b) {
			t.Fatal("a decoded part encodes differently")
		}
	})
}

// TestPlanRebuilt: a worker that rebuilds the plan from its settled
// pipeline.Config, without the targets, gets the same plan.
func TestPlanRebuilt(t *testing.T) {
	t.Parallel()
	for _, tc := range append(protocolCases(), autoCases()...) {
		X, y := fixture.Holey(300, tc.k)
		n, d := X.Dims()
		p, err := NewPlan(tc.cfg, n, d, y)
		if err != nil {
			t.Fatal(err)
		}
		q, err := NewPlan(p.Config(), n, d, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if q.Task() != p.Task() || q.Classes() != p.Classes() || q.Criterion() != p.Criterion() || q.Dim() != p.Dim() ||
			q.Collects() != p.Collects() || q.Holdout() != p.Holdout() || !slices.Equal(q.SearchRows(), p.SearchRows()) || q.Candidates() != p.Candidates() {
			t.Errorf("%s: the rebuilt plan differs", tc.name)
		}
		if tc.k > 0 && p.Task() != krr.Classification || p.Criterion() == "" && p.SearchRows() == nil {
			t.Errorf("%s: task %q, criterion %q not settled", tc.name, p.Task(), p.Criterion())
		}
	}
}

// TestPlanSettles: the plan applies the core's rules once: the criterion
// by solve and task, rows collected for the dual, a kernel and primal
// LOO, the held-out budget min(n/5, krr.MaxHoldoutRows) only when λ is
// chosen on held-out rows.
func TestPlanSettles(t *testing.T) {
	t.Parallel()
	want := map[string]struct {
		criterion krr.Criterion
		collect   bool
		held      int
	}{
		"classification, held out (default)": {krr.Holdout, false, 60},
		"classification, gcv":                {krr.GCV, false, 0},
		"classification, loo (primal)":       {krr.LOO, true, 0},
		"classification, fixed λ":            {krr.Holdout, false, 0},
		"classification, dual":               {krr.LOO, true, 0},
		"classification, kernel":             {krr.LOO, true, 0},
		"regression, gcv (default)":          {krr.GCV, false, 0},
		"regression, held out":               {krr.Holdout, false, 60},
		"regression, loo (primal)":           {krr.LOO, true, 0},
		"regression, fixed λ":                {krr.GCV, false, 0},
		"regression, dual":                   {krr.LOO, true, 0},
		"regression, kernel":                 {krr.GCV, true, 0},
		"classification, bias, held out":     {krr.Holdout, false, 60},
		"regression, raw with bias, kernel":  {krr.GCV, true, 0},
	}
	for _, tc := range protocolCases() {
		_, y := fixture.Holey(300, tc.k)
		p, err := NewPlan(tc.cfg, 300, 5, y)
		if err != nil {
			t.Fatal(err)
		}
		w := want[tc.name]
		if p.Criterion() != w.criterion || p.Collects() != w.collect || p.Holdout().Rows != w.held {
			t.Errorf("%s: criterion %q, collects %v, %d held out; want %q, %v, %d", tc.name, p.Criterion(), p.Collects(), p.Holdout().Rows, w.criterion, w.collect, w.held)
		}
	}
	if c := krr.NewHoldoutCut(100000); c.Rows != krr.MaxHoldoutRows {
		t.Errorf("100,000 rows: %d held out, want %d", c.Rows, krr.MaxHoldoutRows)
	}
}

// TestChunks: the rows are cut by maxBytes, but in the primal no chunk
// holds fewer than 4m² numbers of X, except that rows filling two leaves
// are cut in two (the standard job, 5,000 rows at m = 2048, was one chunk
// for one worker), and the chunks are runs of whole leaves; the dual
// (collected rows) by maxBytes alone.
func TestChunks(t *testing.T) {
	t.Parallel()
	const mb = 8 << 20
	// The fewest rows a primal plan cuts into two chunks where X is too
	// small for the sums' rule: two leaves of rows.
	const minSplitRows = 2 * rowtree.LeafRows
	for _, tc := range []struct {
		rows, cols, dim int
		maxBytes        int
		want            [][2]int
	}{
		// Sums: runs of whole leaves (1024 rows).
		{5000, 784, 2048, mb, [][2]int{{0, 2048}, {2048, 5000}}},
		{minSplitRows, 784, 1024, mb, [][2]int{{0, minSplitRows / 2}, {minSplitRows / 2, minSplitRows}}},
		{minSplitRows - 1, 784, 1024, mb, [][2]int{{0, minSplitRows - 1}}},
		{5000, 784, 2048, 0, [][2]int{{0, 5000}}},
		// 4m²/cols = 4096 rows a chunk: the sums' rule cuts already.
		{7000, 4, 64, 3200, [][2]int{{0, 3072}, {3072, 7000}}},
		{20000, 4, 64, 3200, [][2]int{{0, 4096}, {4096, 8192}, {8192, 12288}, {12288, 16384}, {16384, 20000}}},
		// The dual (no more rows than features): 100 rows of 4 columns a chunk.
		{300, 4, 1024, 3200, [][2]int{{0, 100}, {100, 200}, {200, 300}}},
	} {
		y := make([]float64, tc.rows)
		cfg := pipeline.Config{Preprocess: &data.Prep{}, Features: rf.Config{Depth: 1, Dim: tc.dim}, Ridge: krr.Options{Task: krr.Regression}}
		p, err := NewPlan(cfg, tc.rows, tc.cols, y)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Chunks(tc.maxBytes); !slices.Equal(got, tc.want) {
			t.Errorf("%d×%d, m = %d, maxBytes %d: chunks %v, want %v", tc.rows, tc.cols, tc.dim, tc.maxBytes, got, tc.want)
		}
	}
}

// TestWithProgressWhileSelecting: an open plan kept across calls (as a
// worker keeps it) reports its selection's progress to the call that
// scores, not to the call that built it.
func TestWithProgressWhileSelecting(t *testing.T) {
	X, y := fixture.Data(60, 3, 2, 5)
	var first, second int
	cfg := pipeline.Config{Features: rf.Config{Dim: 16, Seed: 2}, Search: pipeline.Search{Depths: []int{1, 2}},
		Ridge: krr.Options{Task: krr.Classification, Progress: func(int, int, string) { first++ }}}
	open, stats, Xs, ys := openPlan(t, X, y, cfg)
	first = 0
	q := open.WithProgress(func(_, _ int, stage string) {
		if stage == "select" {
			second++
		}
	})
	if _, err := q.Score(context.Background(), Xs, ys, stats, 0, 2); err != nil {
		t.Fatal(err)
	}
	if second == 0 || first != 0 {
		t.Fatalf("selection progress reached the new call %d times and the plan's first %d times", second, first)
	}
}

// openPlan is the open plan of cfg on X and y, the statistics of X and
// the rows it searches with their targets.
func openPlan(t testing.TB, X *mat.Dense, y []float64, cfg pipeline.Config) (*Plan, *data.Stats, *mat.Dense, []float64) {
	t.Helper()
	n, d := X.Dims()
	plan, err := NewPlan(cfg, n, d, y)
	if err != nil {
		t.Fatal(err)
	}
	idx := plan.SearchRows()
	if idx == nil {
		t.Fatal("the plan leaves nothing open")
	}
	stats := plan.NewStats()
	if err := stats.Add(X); err != nil {
		t.Fatal(err)
	}
	return plan, stats, data.Rows(X, idx), data.Take(y, idx)
}

// TestCompactKeepsTheBits: a part whose scratch was let go (Compact)
// after some of its rows takes more rows, merges and solves to the bits
// of a part that kept its scratch, with sums over several leaves.
func TestCompactKeepsTheBits(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(2500, 3, 2, 9)
	cfg := pipeline.Config{Preprocess: &data.Prep{}, Features: rf.Config{Dim: 8, Depth: 1}, Ridge: krr.Options{Task: krr.Classification, BlockRows: 16}}
	plan, scaler := planScaler(t, cfg, X, y)
	solve := func(compact bool) []float64 {
		t.Helper()
		a := part(t, plan, scaler, X, y, 0, 1500) // a leaf and a half
		if compact {
			a.Compact()
		}
		if err := a.Add(context.Background(), X.Slice(1500, 2200, 0, 3).(*mat.Dense), y[1500:2200], 1500); err != nil {
			t.Fatal(err)
		}
		if compact {
			a.Compact()
		}
		if err := a.Merge(part(t, plan, scaler, X, y, 2200, 2500)); err != nil {
			t.Fatal(err)
		}
		if compact {
			a.Compact()
		}
		p, err := plan.Solve(context.Background(), scaler, a)
		if err != nil {
			t.Fatal(err)
		}
		_, coef, _, err := p.Split()
		if err != nil {
			t.Fatal(err)
		}
		return coef.RawMatrix().Data
	}
	if !slices.Equal(solve(true), solve(false)) {
		t.Error("a compacted part solves to other coefficients")
	}
}
