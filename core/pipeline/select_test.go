package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/names"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
)

var class = krr.Options{Task: krr.Classification}

// TestSelectionIsKernelLOO ties every candidate to the exact-kernel fit it
// stands for: FitKernel on the searched rows (preprocessed by a scaler
// fitted on all rows) with exact LOO finds the same best λ, score and
// accuracy; and the chosen candidate follows the one-standard-error rule.
func TestSelectionIsKernelLOO(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(120, 4, 3, 21)
	cfg := Config{Features: rf.Config{Dim: 256, Seed: 4}, Search: Search{Rows: 60, Depths: []int{1, 3}}, Ridge: class}
	p, err := Fit(context.Background(), X, y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Selection()
	if s == nil || s.Rows != 60 || len(s.Candidates) != 2*len(defaultPreps) || s.Criterion != krr.LOO {
		t.Fatalf("selection %+v", s)
	}
	idx, err := data.Sample(120, 60, 4)
	if err != nil {
		t.Fatal(err)
	}
	var points []krr.CurvePoint
	for _, c := range s.Candidates {
		sc, _ := data.Fit(X, nil, c.Preprocess)
		Xs, _ := sc.Apply(nil, data.Rows(X, idx))
		m, err := krr.FitKernel(kernel.Spec{Name: "ntk", Depth: c.Depth}, Xs, data.Take(y, idx), krr.Options{Classes: 3, Criterion: krr.LOO})
		if err != nil {
			t.Fatal(err)
		}
		curve := m.Curve()
		i, _ := krr.Best(curve, true)
		if b := curve[i]; b.Lambda != c.Lambda || b.Score != c.Score || b.Accuracy != c.Accuracy {
			t.Errorf("candidate %+v: FitKernel's best point is %+v", c, b)
		}
		points = append(points, krr.CurvePoint{Lambda: c.Lambda, Score: c.Score, Accuracy: c.Accuracy})
	}
	// The one-standard-error rule: the chosen candidate is within its
	// standard error of the best, no deeper, and no shallower candidate is
	// within reach.
	b, _ := krr.Best(points, true)
	c := s.Candidates[s.Chosen]
	if gap := s.Candidates[b].Accuracy - c.Accuracy; gap > c.StdErr || c.Depth > s.Candidates[b].Depth {
		t.Errorf("chose %+v, %v below the best %+v", c, gap, s.Candidates[b])
	}
	for i, o := range s.Candidates {
		if i != b && !(o.StdErr > 0) {
			t.Errorf("candidate %d has standard error %v", i, o.StdErr)
		}
		if o.Depth < c.Depth && s.Candidates[b].Accuracy-o.Accuracy <= o.StdErr {
			t.Errorf("candidate %+v is shallower than the chosen one and within reach of the best", o)
		}
	}
	if p.Features().Depth != c.Depth || p.Preprocess() != c.Preprocess {
		t.Errorf("fitted depth %d and %+v, chose %+v", p.Features().Depth, p.Preprocess(), c)
	}
	// The final λ is searched on all rows by held-out... here n ≤ m: LOO
	// accuracy over the grid.
	if cv := p.Curve(); len(cv) == 0 || cv[0].Accuracy == 0 {
		t.Errorf("final λ curve %v has no validated accuracy", cv)
	}
	// The same seed gives the same selection; the search is reproducible.
	q, _ := Fit(context.Background(), X, y, cfg)
	if !reflect.DeepEqual(q.Selection(), s) {
		t.Error("the same config selected differently")
	}
}

// TestFixedSettingsAreNotSearched: what the user fixes is not searched.
func TestFixedSettingsAreNotSearched(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(50, 3, 2, 22)
	unit := &data.Prep{UnitNorm: true}
	for _, tc := range []struct {
		name string
		cfg  Config
		n    int // candidates; 0: no selection
	}{
		{"depth and preprocessing fixed", Config{Preprocess: unit, Features: rf.Config{Depth: 2, Dim: 64}}, 0},
		{"depth open", Config{Preprocess: unit, Features: rf.Config{Dim: 64}}, len(defaultDepths)},
		{"preprocessing open", Config{Features: rf.Config{Depth: 2, Dim: 64}}, len(defaultPreps)},
		{"kernel depth open", Config{Kernel: &kernel.Spec{Name: "nngp"}, Preprocess: unit}, len(defaultDepths)},
		// and no bias candidate: a constant column changes no distance.
		{"rbf has no depth", Config{Kernel: &kernel.Spec{Name: "rbf"}}, len(defaultPreps) - 1},
		{"rff has no depth", Config{Features: rf.Config{Method: "rff", Dim: 64}, Preprocess: unit}, 0},
		// 'auto''s RBF candidates only where the method is left open.
		{"method open", Config{}, len(defaultDepths)*len(defaultPreps) + len(autoRBF)},
		{"depth given", Config{Features: rf.Config{Depth: 2}}, len(defaultPreps) + len(autoRBF)},
		{"exact ntk given", Config{Kernel: &kernel.Spec{}}, len(defaultDepths) * len(defaultPreps)},
	} {
		tc.cfg.Ridge = class
		p, err := Fit(context.Background(), X, y, tc.cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		s := p.Selection()
		if got := 0; s != nil {
			got = len(s.Candidates)
			if got != tc.n {
				t.Errorf("%s: %d candidates, want %d", tc.name, got, tc.n)
			}
			for _, c := range s.Candidates {
				if tc.cfg.Preprocess != nil && c.Preprocess != *tc.cfg.Preprocess {
					t.Errorf("%s: a candidate preprocesses with %+v, fixed %+v", tc.name, c.Preprocess, *tc.cfg.Preprocess)
				}
			}
		} else if tc.n != 0 {
			t.Errorf("%s: no selection, want %d candidates", tc.name, tc.n)
		}
		if k := p.Kernel(); k != nil && k.Name == "nngp" && k.Depth != s.Candidates[s.Chosen].Depth {
			t.Errorf("%s: kernel depth %d, chose %d", tc.name, k.Depth, s.Candidates[s.Chosen].Depth)
		}
	}
}

// TestSelectionOnAnyCores: the candidates are scored side by side on the
// cores; the selection (every candidate's λ, scores and standard error, and
// the choice) is the same on one core as on several.
func TestSelectionOnAnyCores(t *testing.T) {
	X, y := fixture.Data(90, 4, 3, 29)
	cfg := Config{Features: rf.Config{Dim: 64, Seed: 2}, Search: Search{Rows: 70}, Ridge: class}
	var got []*Selection
	for _, procs := range []int{1, 4} {
		prev := runtime.GOMAXPROCS(procs)
		_, s, err := Select(context.Background(), X, y, cfg)
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	if len(got[0].Candidates) != len(defaultDepths)*len(defaultPreps) {
		t.Fatalf("%d candidates", len(got[0].Candidates))
	}
	if !reflect.DeepEqual(got[0], got[1]) {
		t.Errorf("one core: %+v\nfour: %+v", got[0], got[1])
	}
}

// openPlan is the open plan of cfg on X and y, the statistics of X and
// the rows it searches with their targets.
func openPlan(t testing.TB, X *mat.Dense, y []float64, cfg Config) (*fitPlan, *data.Stats, *mat.Dense, []float64) {
	t.Helper()
	n, d := X.Dims()
	plan, err := newPlan(cfg, n, d, y)
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

// TestSelectionInParts: a selection split into parts (Plan.Score, each
// part's candidates through JSON as a worker returns them, in any order)
// and finished by Choose is Select's, candidate for candidate, and
// settles the same plan; a configuration with nothing open has nothing to
// score.
func TestSelectionInParts(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(90, 4, 3, 29)
	cfg := Config{Features: rf.Config{Dim: 64, Seed: 2}, Search: Search{Rows: 70}, Ridge: class}
	wantCfg, want, err := Select(context.Background(), X, y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	open, stats, Xs, ys := openPlan(t, X, y, cfg)
	if open.Candidates() != len(want.Candidates) {
		t.Fatalf("%d candidates, want %d", open.Candidates(), len(want.Candidates))
	}
	for _, parts := range []int{1, 2, 3, 10, 11} {
		var all []candScore
		for part := parts - 1; part >= 0; part-- {
			scored, err := open.Score(context.Background(), Xs, ys, stats, part, parts)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(scored)
			if err != nil {
				t.Fatal(err)
			}
			var back []candScore
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			all = append(all, back...)
		}
		plan, got, err := open.Choose(all)
		if err != nil {
			t.Fatal(err)
		}
		gotCfg := plan.Config()
		gotCfg.Ridge.Progress = nil
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotCfg, wantCfg) {
			t.Errorf("%d parts: %+v\nSelect: %+v", parts, got, want)
		}
	}
	fixed := cfg
	fixed.Features.Depth, fixed.Preprocess = 2, &data.Prep{}
	plan, err := newPlan(fixed, 90, 4, y)
	if err != nil || plan.SearchRows() != nil || plan.Candidates() != 0 {
		t.Errorf("nothing open: rows %v, %d candidates, %v", plan.SearchRows(), plan.Candidates(), err)
	}
	if _, err := plan.Score(context.Background(), Xs, ys, stats, 0, 1); err == nil {
		t.Errorf("a settled plan scored candidates")
	}
}

// TestSelectScoredErrors: scores that are not the selection's candidates,
// each once and finite, are refused with the code and option a caller can
// act on, as is a part out of range.
func TestSelectScoredErrors(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(40, 3, 2, 31)
	cfg := Config{Features: rf.Config{Dim: 32, Seed: 1}, Search: Search{Depths: []int{1, 2}, Preprocess: []data.Prep{{}, {UnitNorm: true}}}, Ridge: class}
	open, stats, Xs, ys := openPlan(t, X, y, cfg)
	good, err := open.Score(context.Background(), Xs, ys, stats, 0, 1)
	if err != nil || len(good) != 4 || open.Candidates() != 4 {
		t.Fatalf("%d candidates, %v", len(good), err)
	}
	edit := func(f func(s []candScore) []candScore) []candScore {
		s := make([]candScore, len(good))
		for i, g := range good {
			s[i] = g
			s[i].Losses = append([]float64(nil), g.Losses...)
		}
		return f(s)
	}
	for _, tc := range []struct {
		name   string
		scored []candScore
		code   check.Code
		want   string
	}{
		{"one missing", edit(func(s []candScore) []candScore { return s[1:] }), check.Shape, "3 candidates scored; the selection has 4"},
		{"repeated", edit(func(s []candScore) []candScore { s[1].Index = 0; return s }), check.Shape, "index 0 is out of range or repeated"},
		{"out of range", edit(func(s []candScore) []candScore { s[3].Index = 4; return s }), check.Shape, "index 4 is out of range"},
		{"other depth", edit(func(s []candScore) []candScore { s[0].Candidate.Depth = 3; return s }), check.Value, "has depth 3"},
		{"λ lost", edit(func(s []candScore) []candScore { s[2].Candidate.Lambda = 0; return s }), check.Value, "λ > 0"},
		{"few losses", edit(func(s []candScore) []candScore { s[1].Losses = s[1].Losses[1:]; return s }), check.Shape, "39 row losses"},
		{"NaN loss", edit(func(s []candScore) []candScore { s[1].Losses[5] = math.NaN(); return s }), check.Value, "loss NaN at row 5"},
	} {
		_, _, err := open.Choose(tc.scored)
		var e *check.Error
		if !errors.As(err, &e) || e.Code != tc.code || e.Option != "scored" || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %s on scored containing %q", tc.name, err, tc.code, tc.want)
		}
	}
	for _, p := range [][2]int{{-1, 2}, {2, 2}, {0, 0}} {
		_, err := open.Score(context.Background(), Xs, ys, stats, p[0], p[1])
		var e *check.Error
		if !errors.As(err, &e) || e.Code != check.Option || e.Option != "part" {
			t.Errorf("part %d of %d: %v, want ERR_OPTION on part", p[0], p[1], err)
		}
	}
	fixed := cfg
	fixed.Features.Depth, fixed.Preprocess = 1, &data.Prep{}
	settled, err := newPlan(fixed, 40, 3, y)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := settled.Choose(good); err == nil || !strings.Contains(err.Error(), "leaves nothing to select") {
		t.Errorf("scores for a fixed configuration: %v", err)
	}
}

func TestSearchErrors(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(30, 3, 2, 23)
	for _, tc := range []struct {
		search Search
		want   string
	}{
		{Search{Depths: []int{0}}, "depth 0 is out of range"},
		{Search{Depths: []int{1, 99}}, "depth 99 is out of range"},
		{Search{Depths: []int{}}, "no depth to try"},
		{Search{Preprocess: []data.Prep{}}, "no preprocessing to try"},
		{Search{Rows: 2}, "rows 2 is out of range"},
		{Search{Rows: MaxSearchRows + 1}, "out of range"},
	} {
		_, err := Fit(context.Background(), X, y, Config{Features: rf.Config{Dim: 32}, Search: tc.search, Ridge: class})
		var e *check.Error
		if !errors.As(err, &e) || e.Code != check.Option || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want ERR_OPTION containing %q", tc.search, err, tc.want)
		}
	}
}

// TestSelectionInFile: the selection and the curve's accuracy travel with
// the model; a version 1 file (before them) still loads, but cannot carry
// them.
func TestSelectionInFile(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(60, 3, 3, 24)
	p, err := Fit(context.Background(), X, y, Config{Features: rf.Config{Dim: 64}, Search: Search{Depths: []int{1, 2}}, Ridge: class})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(p)
	q, err := Load(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(q.Selection(), p.Selection()) || !reflect.DeepEqual(q.Curve(), p.Curve()) {
		t.Errorf("selection or curve changed on the way through the file")
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	m["version"] = 1
	v1, _ := json.Marshal(m)
	if _, err := Load(bytes.NewReader(v1)); err == nil || !strings.Contains(err.Error(), "version 1 file has no selection") {
		t.Errorf("version 1 with a selection: %v", err)
	}
	// float64: a version 1 file has no float32 features.
	fixed, _ := Fit(context.Background(), X, y, Config{Preprocess: &data.Prep{}, Features: rf.Config{Depth: 1, Dim: 64, Precision: "float64"}, Ridge: krr.Options{Lambda: 0.5, Task: krr.Classification}})
	b, _ = json.Marshal(fixed)
	m = nil
	json.Unmarshal(b, &m)
	m["version"] = 1
	v1, _ = json.Marshal(m)
	if _, err := Load(bytes.NewReader(v1)); err != nil {
		t.Errorf("a version 1 file: %v", err)
	}
	m = nil
	json.Unmarshal(b, &m)
	m["selection"] = map[string]any{"rows": 3, "criterion": "loo", "candidates": []any{}, "chosen": 0}
	bad, _ := json.Marshal(m)
	if _, err := Load(bytes.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "selection") {
		t.Errorf("a selection without candidates: %v", err)
	}
}

// TestSearchRowsWithManyClasses: the default sample shrinks when a
// candidate's leave-one-out over every class would be heavy.
func TestSearchRowsWithManyClasses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ classes, want int }{{0, DefaultSearchRows}, {10, DefaultSearchRows}, {1000, 182}, {100000, 50}} {
		opt := krr.Options{Task: krr.Regression}
		if tc.classes > 0 {
			opt = krr.Options{Task: krr.Classification, Classes: tc.classes}
		}
		if got := defaultRows(opt); got != tc.want {
			t.Errorf("%d classes: %d rows, want %d", tc.classes, got, tc.want)
		}
	}
}

// TestSimplest is the one-standard-error rule on hand-made losses. With
// 20 rows, a candidate that misses rows {0, 2, 3} against the best's
// {0, 1} differs by d = (0, −1, 1, 1, 0, …): mean 0.05, standard error
// √((3 − 20·0.05²)/19/20) = 0.088, within reach; one that misses
// {0, 2, 3, 4, 5, 6} differs by a mean of 0.2 with a standard error of
// √((6 − 20·0.2²)/19/20) = 0.117, out of reach. A candidate one row
// apart differs by a mean of exactly one standard error (1/rows), and
// counts as within reach whatever the rounding.
func TestSimplest(t *testing.T) {
	t.Parallel()
	const n = 20
	type cand struct {
		depth int
		miss  []int // classification: rows missed
		loss  []float64
	}
	classCand := func(depth int, miss ...int) cand { return cand{depth: depth, miss: miss} }
	for _, tc := range []struct {
		name   string
		byAcc  bool
		cands  []cand
		chosen int
		se     []float64 // expected StdErr, to 1e-3 (nil: not checked)
	}{
		{"a shallower candidate within reach", true, []cand{classCand(1, 0, 2, 3), classCand(3, 0, 1)}, 0, []float64{0.0884, 0}},
		{"out of reach", true, []cand{classCand(1, 0, 2, 3, 4, 5, 6), classCand(3, 0, 1)}, 1, []float64{0.1170, 0}},
		{"the better of the shallowest", true, []cand{classCand(1, 0, 2, 3), classCand(1, 0, 2), classCand(3, 0, 1)}, 1, nil},
		{"the shallowest, not the closest", true, []cand{classCand(2, 0, 2, 4), classCand(1, 0, 2, 3), classCand(3, 0, 1)}, 1, nil},
		{"one row apart is within reach (mean = SE = 1/rows)", true, []cand{classCand(1, 0, 1, 2), classCand(2, 0, 1)}, 0, []float64{0.05, 0}},
		{"a deeper candidate does not win", true, []cand{classCand(1, 0, 1), classCand(4, 0, 2)}, 0, nil},
		{"no depth searched: the best", true, []cand{classCand(0, 0, 2, 3), classCand(0, 0, 1)}, 1, nil},
		{"the same rows missed", true, []cand{classCand(2, 0, 1), classCand(1, 0, 1)}, 1, []float64{0, 0}},
		{"regression", false, []cand{
			{depth: 1, loss: []float64{1.2, 0.9, 1.1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
			{depth: 2, loss: []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
			{depth: 3, loss: []float64{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}},
		}, 0, []float64{0.0124, 0, 0}},
	} {
		cands := make([]Candidate, len(tc.cands))
		losses := make([][]float64, len(tc.cands))
		for i, c := range tc.cands {
			l := c.loss
			if tc.byAcc {
				l = make([]float64, n)
				for _, r := range c.miss {
					l[r] = 1
				}
			}
			mean := 0.0
			for _, v := range l {
				mean += v / float64(len(l))
			}
			cands[i] = Candidate{Depth: c.depth, Lambda: 1, Score: mean}
			if tc.byAcc {
				cands[i].Accuracy = 1 - mean
			}
			losses[i] = l
		}
		got, err := Simplest(cands, losses, tc.byAcc)
		if err != nil || got != tc.chosen {
			t.Errorf("%s: chose %d (%v), want %d", tc.name, got, err, tc.chosen)
		}
		for i, want := range tc.se {
			if math.Abs(cands[i].StdErr-want) > 1e-3 {
				t.Errorf("%s: candidate %d has standard error %.4f, want %.4f", tc.name, i, cands[i].StdErr, want)
			}
		}
	}
}

// TestSeedPast2to53: a seed no JavaScript number carries is refused at fit
// time, before any search, by Fit, Select and NewPlan alike
// (ERR_OPTION on the seed); the largest seed there is fits, saves and
// loads back to the same predictions, its seed written exactly.
func TestSeedPast2to53(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(40, 3, 2, 29)
	big := Config{Features: rf.Config{Dim: 16, Seed: rf.MaxSeed + 1}, Ridge: class}
	_, err1 := Fit(context.Background(), X, y, big)
	_, _, err2 := Select(context.Background(), X, y, big)
	_, err3 := newPlan(big, 40, 3, y)
	for i, err := range []error{err1, err2, err3} {
		var e *check.Error
		if !errors.As(err, &e) || e.Code != check.Option || e.Option != "seed" || !strings.Contains(err.Error(), "above 2^53−1") {
			t.Errorf("call %d: %v, want ERR_OPTION on the seed", i, err)
		}
	}
	p, err := Fit(context.Background(), X, y, Config{Features: rf.Config{Dim: 16, Seed: rf.MaxSeed}, Ridge: class})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(p)
	if !strings.Contains(string(b), `"seed":9007199254740991`) {
		t.Errorf("the file does not hold the seed exactly")
	}
	roundTrip(t, p, X)
}

// TestSelectionNamesItsBest: the selection names its best candidate by
// index (Best), the one every standard error is measured against, so a
// host need not guess it from the standard errors (several may be 0: a
// candidate that ties the best); a file written without Best reads it
// back from the candidates.
func TestSelectionNamesItsBest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		task   krr.Task
		search Search
	}{
		{"classification, depths 1–3", krr.Classification, Search{Rows: 60, Depths: []int{1, 2, 3}}},
		{"regression, depths 1–2", krr.Regression, Search{Rows: 60, Depths: []int{1, 2}}},
	} {
		X, y := fixture.Data(90, 3, 3, 31)
		ridge := krr.Options{Task: tc.task}
		if tc.task == krr.Classification {
			ridge.Classes = 3
		}
		p, err := Fit(context.Background(), X, y, Config{Features: rf.Config{Dim: 64, Seed: 2}, Search: tc.search, Ridge: ridge})
		if err != nil {
			t.Fatal(tc.name, err)
		}
		s := p.Selection()
		want, _ := krr.Best(candidatePoints(s.Candidates), tc.task == krr.Classification)
		if s.Best != want || s.Candidates[s.Best].StdErr != 0 {
			t.Errorf("%s: Best %d, want %d (the candidate the standard errors are measured against)", tc.name, s.Best, want)
		}
		// A file without "best" (written before it) reads it from the candidates.
		var m map[string]any
		b, _ := json.Marshal(p)
		json.Unmarshal(b, &m)
		delete(m["selection"].(map[string]any), "best")
		old, _ := json.Marshal(m)
		q, err := Load(bytes.NewReader(old))
		if err != nil || q.Selection().Best != want {
			t.Errorf("%s: a file without best: %v, best %d, want %d", tc.name, err, q.Selection().Best, want)
		}
	}
	// Two candidates that tie the best both have a standard error of 0; Best is the first of them.
	cands := []Candidate{{Depth: 2, Lambda: 1, Score: 0.5, Accuracy: 0.9}, {Depth: 1, Lambda: 1, Score: 0.5, Accuracy: 0.9}, {Depth: 3, Lambda: 1, Score: 0.6, Accuracy: 0.8}}
	losses := [][]float64{{0, 1, 0, 0}, {0, 1, 0, 0}, {1, 1, 0, 0}}
	chosen, err := Simplest(cands, losses, true)
	best, _ := bestCandidate(cands, true)
	if err != nil || chosen != 1 || best != 0 || cands[0].StdErr != 0 || cands[1].StdErr != 0 {
		t.Errorf("tie: chosen %d (want 1, the shallower), best %d (want 0), stdErr %v %v, %v", chosen, best, cands[0].StdErr, cands[1].StdErr, err)
	}
}

// TestAutoRBF: with the method left open and the exact kernel chosen,
// 'auto' scores its RBF candidates on the standardized columns, γ = c/d,
// and a chosen one is what the pipeline fits; the one-standard-error rule
// keeps an NTK candidate within reach of an RBF best.
func TestAutoRBF(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(60, 4, 2, 5)
	p, err := Fit(context.Background(), X, y, Config{Ridge: krr.Options{Task: krr.Classification}})
	if err != nil {
		t.Fatal(err)
	}
	s := p.Selection()
	if s.Method != MethodKernel {
		t.Fatalf("60 rows: method %q, want the exact kernel", s.Method)
	}
	var gammas []float64
	for _, c := range s.Candidates {
		if c.Kernel == kernel.NameRBF {
			if c.Depth != 0 || c.Preprocess != (data.Prep{}) {
				t.Errorf("RBF candidate %+v: want depth 0, standardized columns", c)
			}
			gammas = append(gammas, c.Gamma*4)
		} else if c.Kernel != "" || c.Gamma != 0 {
			t.Errorf("candidate %+v: kernel and γ set", c)
		}
	}
	if !slices.Equal(gammas, autoRBF) {
		t.Errorf("RBF candidates' γ·d %v, want %v", gammas, autoRBF)
	}
	c := s.Candidates[s.Chosen]
	if k := p.Kernel(); c.Kernel == kernel.NameRBF && (k.Name != kernel.NameRBF || k.Gamma != c.Gamma) || c.Kernel == "" && k.Name != kernel.NameNTK {
		t.Errorf("chosen %+v, fitted kernel %+v", c, *k)
	}
	// Simplest: an NTK candidate one row behind an RBF best is chosen.
	cands := []Candidate{{Depth: 2, Lambda: 1, Score: 0.2, Accuracy: 0.5}, {Kernel: kernel.NameRBF, Gamma: 0.1, Lambda: 1, Score: 0.1, Accuracy: 0.75}}
	losses := [][]float64{{1, 0, 1, 0}, {0, 0, 1, 0}}
	if got, err := Simplest(cands, losses, true); err != nil || got != 0 {
		t.Errorf("Simplest chose %d (%v), want the NTK candidate 0 within reach of the RBF best", got, err)
	}
	losses[0] = []float64{1, 1, 1, 1}
	if got, err := Simplest(cands, losses, true); err != nil || got != 1 {
		t.Errorf("Simplest chose %d (%v), want the RBF best when no NTK is within reach", got, err)
	}
}

// TestSharedKernels: the candidates of one preprocessing at several depths
// take their kernels from one pass (kernel.Spec.Depths), the bits of
// their own; a candidate alone in its preprocessing, and the RBF ones,
// compute their own.
func TestSharedKernels(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(300, 4, 3, 7)
	cfg := Config{Search: Search{Rows: 200, Depths: []int{1, 2, 3}}, Ridge: krr.Options{Task: krr.Classification}}
	plan, stats, Xs, _ := openPlan(t, X, y, cfg)
	s := plan.open
	scaled, err := s.scaled(Xs, stats, share(len(s.cands), 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	list := []int{0, 1, 2, 3, len(s.cands) - 1} // depths 1–3 of the first preprocessing, depth 1 of the second, an RBF
	if s.cands[3].Depth != 1 || s.prepOf[3] == s.prepOf[0] || s.cands[len(s.cands)-1].Kernel != names.RBF {
		t.Fatalf("candidates %+v", s.cands)
	}
	Ks, err := s.sharedKernels(context.Background(), scaled, list)
	if err != nil {
		t.Fatal(err)
	}
	for j, i := range list {
		c := s.cands[i]
		if shared := j < 3; (Ks[j] != nil) != shared {
			t.Fatalf("candidate %d (%+v): shared kernel %t, want %t", i, c, Ks[j] != nil, shared)
		}
		if Ks[j] == nil {
			continue
		}
		want, err := kernel.Spec{Name: names.NTK, Depth: c.Depth}.Gram(scaled[s.prepOf[i]], nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(Ks[j].RawMatrix().Data, want.RawMatrix().Data, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
			t.Errorf("candidate %d: the shared kernel is not its own", i)
		}
	}
}
