package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// halvingData is a constructed case for the screen: 3 classes that are
// rings (the class is the radius of (x₁, x₂), in three bands), beside 2
// columns of small noise: the candidates on unit-norm rows see the angle
// only and score near chance, those on standardized columns near 1.
func halvingData(n int, seed uint64) (*mat.Dense, []float64) {
	r := rand.New(rand.NewPCG(seed, 3))
	X := mat.NewDense(n, 4, nil)
	y := make([]float64, n)
	for i := range n {
		a := r.Float64() * 2 * math.Pi
		band := r.IntN(3)
		rad := 1 + float64(band) + 0.6*r.Float64()
		X.Set(i, 0, rad*math.Cos(a))
		X.Set(i, 1, rad*math.Sin(a))
		X.Set(i, 2, 0.1*r.NormFloat64())
		X.Set(i, 3, 0.1*r.NormFloat64())
		y[i] = float64(band)
	}
	return X, y
}

// halvingPreps are the candidates' preprocessings of TestSuccessiveHalving:
// one that keeps the radius, three that lose it.
var halvingPreps = []data.Prep{{UnitNorm: true}, {Raw: true, UnitNorm: true}, {}, {UnitNorm: true, Bias: data.DefaultBias}}

// TestSuccessiveHalving: with more than 2·MinScreenRows search rows every
// candidate is scored on the screen's seeded sample (its score that of
// the exact kernel's leave-one-out on those rows), the ScreenKeep best of
// them on all the rows searched, and the one-standard-error rule chooses
// among those; the best candidate of the unscreened search (every
// candidate on all rows, by FitKernel) is kept, and a candidate on the
// standardized columns chosen; the
// selection is the same split into any number of parts; the modelled
// search is cheaper than the unscreened one.
func TestSuccessiveHalving(t *testing.T) {
	t.Parallel()
	X, y := halvingData(520, 5)
	cfg := Config{Features: rf.Config{Dim: 64, Seed: 3}, Search: Search{Depths: []int{1, 2}, Preprocess: halvingPreps}, Ridge: class}
	_, sel, err := Select(context.Background(), X, y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	screen, keep := screenPlan(len(sel.Candidates), sel.Rows)
	if sel.Rows != 520 || sel.Screen != 250 || screen != 250 || keep != ScreenKeep || len(sel.Candidates) != 2*len(halvingPreps) {
		t.Fatalf("selection of %d rows, screen %d (plan %d, keep %d), %d candidates", sel.Rows, sel.Screen, screen, keep, len(sel.Candidates))
	}
	pos, err := data.Sample(520, 250, 3)
	if err != nil {
		t.Fatal(err)
	}
	full := map[int]krr.CurvePoint{} // every candidate on all rows, unscreened
	kept := 0
	for i, c := range sel.Candidates {
		sc, _ := data.Fit(X, nil, c.Preprocess)
		Xs, _ := sc.Apply(nil, X)
		fit := func(rows []int) krr.CurvePoint {
			m, err := krr.FitKernel(kernel.Spec{Name: "ntk", Depth: c.Depth}, data.Rows(Xs, rows), data.Take(y, rows), krr.Options{Classes: 3, Criterion: krr.LOO})
			if err != nil {
				t.Fatal(err)
			}
			curve := m.Curve()
			b, _ := krr.Best(curve, true)
			return curve[b]
		}
		all := make([]int, 520)
		for r := range all {
			all[r] = r
		}
		full[i] = fit(all)
		want := full[i]
		switch c.Rows {
		case 520:
			kept++
		case 250:
			want = fit(pos)
			if c.StdErr != 0 {
				t.Errorf("screened-out candidate %d has a standard error %v", i, c.StdErr)
			}
		default:
			t.Errorf("candidate %d scored on %d rows", i, c.Rows)
		}
		if c.Lambda != want.Lambda || c.Score != want.Score || c.Accuracy != want.Accuracy {
			t.Errorf("candidate %d (%d rows) %+v, its exact kernel's LOO %+v", i, c.Rows, c, want)
		}
	}
	if kept != ScreenKeep || sel.Candidates[sel.Chosen].Rows != 520 || sel.Candidates[sel.Best].Rows != 520 {
		t.Errorf("%d kept; chosen %d and best %d scored on %d and %d rows", kept, sel.Chosen, sel.Best, sel.Candidates[sel.Chosen].Rows, sel.Candidates[sel.Best].Rows)
	}
	points := make([]krr.CurvePoint, len(sel.Candidates))
	for i := range points {
		points[i] = full[i]
	}
	best, _ := krr.Best(points, true)
	if sel.Candidates[best].Rows != 520 || sel.Best != best {
		t.Errorf("the unscreened best, candidate %d (%+v), is not kept as the best (best %d)", best, points[best], sel.Best)
		for i, c := range sel.Candidates {
			t.Logf("%d %+v full %+v", i, c, points[i])
		}
	}
	if sel.Candidates[sel.Chosen].Preprocess != (data.Prep{}) {
		t.Errorf("chose %+v; the classes are rings of the standardized columns", sel.Candidates[sel.Chosen])
	}

	// The same selection in parts, through JSON as workers return them.
	open, stats, Xs, ys := openPlan(t, X, y, cfg)
	for _, parts := range []int{2, 3, 7} {
		var all []candScore
		for part := range parts {
			scored, err := open.Score(context.Background(), Xs, ys, stats, part, parts)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(scored)
			var back []candScore
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			all = append(all, back...)
		}
		_, got, err := open.Choose(all)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, sel) {
			t.Errorf("%d parts: %+v\nSelect: %+v", parts, got, sel)
		}
		if parts != 2 {
			continue
		}
		// A screened-out candidate passed off as kept, and a kept one
		// without its screen score, are refused.
		var out, in int = -1, -1
		for j, sc := range all {
			if sc.Screen == nil && out < 0 {
				out = j
			}
			if sc.Screen != nil && in < 0 {
				in = j
			}
		}
		bad := append([]candScore(nil), all...)
		swap := bad[out]
		swap.Candidate.Rows = 520
		swap.Screen = &Candidate{Depth: swap.Candidate.Depth, Preprocess: swap.Candidate.Preprocess, Lambda: swap.Candidate.Lambda, Score: swap.Candidate.Score, Accuracy: swap.Candidate.Accuracy, Rows: 250}
		swap.Losses = append(append([]float64(nil), swap.Losses...), make([]float64, 270)...)
		bad[out] = swap
		if _, _, err := open.Choose(bad); !isScoredErr(err, "by the screen's scores it is screened out") {
			t.Errorf("a screened-out candidate passed as kept: %v", err)
		}
		bad = append([]candScore(nil), all...)
		bad[in].Screen = nil
		if _, _, err := open.Choose(bad); !isScoredErr(err, "scored on 520 rows; the selection screens on 250") {
			t.Errorf("a kept candidate without its screen score: %v", err)
		}
	}
	// The same selection in two rounds (ScoreScreen split among the
	// parts, then ScoreKept): each part's result is Score's, bit for bit,
	// and the kept candidates are shared evenly.
	for _, parts := range []int{1, 2, 3, 7} {
		var screened []candScore
		for part := range parts {
			sc, err := open.ScoreScreen(context.Background(), Xs, ys, stats, part, parts)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range sc {
				if n := len(sel.Candidates); c.Candidate.Rows != 250 || c.Index < part*n/parts || c.Index >= (part+1)*n/parts {
					t.Fatalf("part %d of %d screened candidate %d on %d rows", part, parts, c.Index, c.Candidate.Rows)
				}
			}
			b, _ := json.Marshal(sc)
			var back []candScore
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			screened = append(screened, back...)
		}
		slices.Reverse(screened) // any order
		var all []candScore
		for part := range parts {
			got, err := open.ScoreKept(context.Background(), Xs, ys, stats, screened, part, parts)
			if err != nil {
				t.Fatal(err)
			}
			want, err := open.Score(context.Background(), Xs, ys, stats, part, parts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%d parts, part %d: ScoreKept %+v\nScore %+v", parts, part, got, want)
			}
			full := 0
			for _, c := range got {
				if c.Screen != nil {
					full++
				}
			}
			if full > (ScreenKeep+parts-1)/parts {
				t.Errorf("%d parts: part %d scored %d kept candidates of %d", parts, part, full, ScreenKeep)
			}
			all = append(all, got...)
		}
		if _, got, err := open.Choose(all); err != nil || !reflect.DeepEqual(got, sel) {
			t.Errorf("%d parts in two rounds: %+v (%v)\nSelect: %+v", parts, got, err, sel)
		}
		if parts != 3 {
			continue
		}
		// Screens that are not every candidate's, once, on the screen's
		// rows, are refused before anything is scored.
		tamper := func(f func([]candScore) []candScore) []candScore {
			b, _ := json.Marshal(screened)
			var c []candScore
			_ = json.Unmarshal(b, &c)
			return f(c)
		}
		for _, bad := range []struct {
			name, want string
			screened   []candScore
		}{
			{"one missing", "candidates screened; the selection screens", tamper(func(c []candScore) []candScore { return c[1:] })},
			{"one repeated", "out of range or repeated", tamper(func(c []candScore) []candScore { c[0] = c[1]; return c })},
			{"out of range", "out of range or repeated", tamper(func(c []candScore) []candScore { c[0].Index = len(c); return c })},
			{"on all the rows", "was scored on 520 rows", tamper(func(c []candScore) []candScore {
				c[2].Candidate.Rows = 520
				c[2].Losses = append(c[2].Losses, make([]float64, 270)...)
				return c
			})},
			{"another depth", "has depth", tamper(func(c []candScore) []candScore { c[0].Candidate.Depth += 5; return c })},
			{"a loss short", "row losses", tamper(func(c []candScore) []candScore { c[4].Losses = c[4].Losses[1:]; return c })},
			{"a NaN score", "a finite score", tamper(func(c []candScore) []candScore { c[3].Candidate.Score = math.NaN(); return c })},
			{"none", "candidates screened", nil},
		} {
			_, err := open.ScoreKept(context.Background(), Xs, ys, stats, bad.screened, 0, parts)
			var e *check.Error
			if !errors.As(err, &e) || e.Option != "screened" || !strings.Contains(err.Error(), bad.want) {
				t.Errorf("%s: %v; want a screened error with %q", bad.name, err, bad.want)
			}
		}
	}
	// A selection without a screen has no first round to split.
	small, sstats, sXs, sys := openPlan(t, X, y, Config{Features: cfg.Features, Search: Search{Rows: 200, Depths: []int{1, 2}, Preprocess: halvingPreps}, Ridge: class})
	if r, k := small.Screen(); r != 0 || k != 0 {
		t.Fatalf("a selection of 200 rows screens %d rows, keeping %d", r, k)
	}
	if r, k := open.Screen(); r != 250 || k != ScreenKeep {
		t.Fatalf("screens %d rows, keeping %d; want 250, %d", r, k, ScreenKeep)
	}
	var e *check.Error
	if _, err := small.ScoreScreen(context.Background(), sXs, sys, sstats, 0, 2); !errors.As(err, &e) || e.Option != "screen" {
		t.Errorf("ScoreScreen without a screen: %v", err)
	}
	d := 1 // the depths' mean, as chooseMethod takes it
	n := len(sel.Candidates)
	unscreened := defaultCosts.SearchWork(n, 520, 4, d, 3, krr.GridPoints)
	screened := defaultCosts.SearchWork(n, 250, 4, d, 3, krr.GridPoints).Plus(defaultCosts.SearchWork(ScreenKeep, 520, 4, d, 3, krr.GridPoints))
	if !(screened.Total() < 0.7*unscreened.Total()) {
		t.Errorf("modelled search %v, unscreened %v", screened.Total(), unscreened.Total())
	}
}

func isScoredErr(err error, want string) bool {
	var e *check.Error
	return errors.As(err, &e) && e.Option == "scored" && strings.Contains(err.Error(), want)
}

// TestScreenPlan: the screen is min(ScreenRows, rows/2) rows when that is
// at least MinScreenRows and there are more candidates than it keeps.
func TestScreenPlan(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ cands, rows, screen, keep int }{
		{15, 1000, ScreenRows, ScreenKeep},
		{15, 500, ScreenRows, ScreenKeep},
		{15, 427, 213, ScreenKeep},
		{15, 2 * MinScreenRows, MinScreenRows, ScreenKeep},
		{15, 2*MinScreenRows - 1, 0, 0},
		{ScreenKeep, 1000, 0, 0},
		{ScreenKeep + 1, 1000, ScreenRows, ScreenKeep},
	} {
		if s, k := screenPlan(c.cands, c.rows); s != c.screen || k != c.keep {
			t.Errorf("%d candidates on %d rows: screen %d keep %d, want %d and %d", c.cands, c.rows, s, k, c.screen, c.keep)
		}
	}
}

// TestExactAtTheSearchLambda: 'auto”s exact fit takes the chosen
// candidate's λ (one solve, no second λ search; its curve on the rows
// searched is the model's), the settled plan carries it to any host, and
// the selection says so; where the search scored every row this is the
// fit that searches λ itself, bit for bit.
func TestExactAtTheSearchLambda(t *testing.T) {
	t.Parallel()
	X, y := halvingData(300, 9)
	p, err := Fit(context.Background(), X, y, Config{Search: Search{Rows: 120}, Ridge: class})
	if err != nil {
		t.Fatal(err)
	}
	sel := p.Selection()
	c := sel.Candidates[sel.Chosen]
	if curve := p.Curve(); p.Kernel() == nil || sel.Method != "kernel" || !sel.Carry || !strings.Contains(sel.Reason, "at the search's λ") || p.Lambda() != c.Lambda ||
		len(curve) < 2 || !reflect.DeepEqual(curve, []krr.CurvePoint(sel.Curve)) || !slices.Contains(curve, krr.CurvePoint{Lambda: c.Lambda, Score: c.Score, Accuracy: c.Accuracy}) {
		t.Errorf("exact at λ %v, curve of %d, %+v; chosen %+v", p.Lambda(), len(p.Curve()), sel, c)
	}
	open, stats, Xs, ys := openPlan(t, X, y, Config{Search: Search{Rows: 120}, Ridge: class})
	settled, _, err := open.Select(context.Background(), Xs, ys, stats)
	if err != nil {
		t.Fatal(err)
	}
	if cfg := settled.Config(); cfg.Ridge.Lambda != c.Lambda || cfg.carryLambda {
		t.Errorf("settled plan's λ %v, want %v", cfg.Ridge.Lambda, c.Lambda)
	}
	// Every row searched: the chosen candidate fitted with λ searched
	// gives the same λ, curve and coefficients.
	all, err := Fit(context.Background(), X, y, Config{Search: Search{Rows: 300}, Ridge: class})
	if err != nil {
		t.Fatal(err)
	}
	s := all.Selection()
	ca := s.Candidates[s.Chosen]
	fixed, err := Fit(context.Background(), X, y, applyCandidate(Config{Kernel: &kernel.Spec{Name: "ntk"}, Ridge: class}, ca))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Carry || all.Lambda() != fixed.Lambda() || !reflect.DeepEqual(all.Curve(), fixed.Curve()) {
		t.Errorf("search of every row: λ %v, fixed fit's %v; curves %v and %v", all.Lambda(), fixed.Lambda(), all.Curve(), fixed.Curve())
	}
	Sa, _ := all.Scores(X)
	Sf, _ := fixed.Scores(X)
	if !mat.Equal(Sa, Sf) {
		t.Errorf("search of every row: the scores differ from the fixed fit's")
	}
}
