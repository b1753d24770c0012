package jsbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
	"ntkrf/core/protocol"
	"ntkrf/core/rf"
	"ntkrf/internal/fixture"
)

// fitCase is one fit as fitRidge asks for it (opts, the JSON the package
// sends every step) and as a Go host configures it (cfg).
type fitCase struct {
	name string
	k    int // classes; 0: regression
	opts string
	cfg  pipeline.Config
}

func fitCases() []fitCase {
	feat := rf.Config{Dim: 24, Depth: 2, Seed: 3}
	wide := rf.Config{Dim: 512, Depth: 2, Seed: 3}
	std := &data.Prep{}
	c, r := krr.Classification, krr.Regression
	opt := func(task krr.Task, criterion krr.Criterion, lambda float64, classes int) krr.Options {
		return krr.Options{Task: task, Criterion: criterion, Lambda: lambda, Classes: classes}
	}
	return []fitCase{
		{"classification, held out (default)", 3, `"features":{"dim":24,"depth":2,"seed":3},"task":"classification","preprocess":{}`,
			pipeline.Config{Preprocess: std, Features: feat, Ridge: opt(c, "", 0, 0)}},
		{"classification, gcv, bias", 3, `"features":{"dim":24,"depth":2,"seed":3},"task":"classification","criterion":"gcv","preprocess":{"bias":1}`,
			pipeline.Config{Preprocess: &data.Prep{Bias: 1}, Features: feat, Ridge: opt(c, krr.GCV, 0, 0)}},
		{"classification, loo", 3, `"features":{"dim":24,"depth":2,"seed":3},"task":"classification","criterion":"loo","preprocess":{}`,
			pipeline.Config{Preprocess: std, Features: feat, Ridge: opt(c, krr.LOO, 0, 0)}},
		{"classification, fixed λ", 3, `"features":{"dim":24,"depth":2,"seed":3},"task":"classification","lambda":0.5,"preprocess":{}`,
			pipeline.Config{Preprocess: std, Features: feat, Ridge: opt(c, "", 0.5, 0)}},
		{"classification, dual", 3, `"features":{"dim":512,"depth":2,"seed":3},"task":"classification","preprocess":{}`,
			pipeline.Config{Preprocess: std, Features: wide, Ridge: opt(c, "", 0, 0)}},
		{"classification, kernel", 3, `"kernel":{"kernel":"ntk","depth":2},"task":"classification","preprocess":{}`,
			pipeline.Config{Preprocess: std, Kernel: &kernel.Spec{Name: "ntk", Depth: 2}, Ridge: opt(c, "", 0, 0)}},
		{"regression, gcv (default)", 0, `"features":{"dim":24,"depth":2,"seed":3},"task":"regression","preprocess":{"standardize":false,"unitNorm":true}`,
			pipeline.Config{Preprocess: &data.Prep{Raw: true, UnitNorm: true}, Features: feat, Ridge: opt(r, "", 0, 0)}},
		{"regression, held out", 0, `"features":{"dim":24,"depth":2,"seed":3},"task":"regression","criterion":"holdout","preprocess":{}`,
			pipeline.Config{Preprocess: std, Features: feat, Ridge: opt(r, krr.Holdout, 0, 0)}},
		{"regression, kernel, bias", 0, `"kernel":{"kernel":"ntk","depth":1},"task":"regression","preprocess":{"bias":1}`,
			pipeline.Config{Preprocess: &data.Prep{Bias: 1}, Kernel: &kernel.Spec{Name: "ntk", Depth: 1}, Ridge: opt(r, "", 0, 0)}},
		// 'auto': the plan names the rows select scores; the depth and
		// preprocessing it settles are written into the later steps.
		{"classification, auto", 3, `"features":{"dim":24,"seed":3},"task":"classification","search":{"rows":100,"depths":[1,2]}`,
			pipeline.Config{Features: rf.Config{Dim: 24, Seed: 3}, Search: pipeline.Search{Rows: 100, Depths: []int{1, 2}}, Ridge: opt(c, "", 0, 0)}},
		{"regression, auto, kernel", 0, `"kernel":{"kernel":"ntk","depth":"auto"},"task":"regression","preprocess":"auto","search":{"rows":80,"depths":[1,3]}`,
			pipeline.Config{Kernel: &kernel.Spec{Name: "ntk"}, Search: pipeline.Search{Rows: 80, Depths: []int{1, 3}}, Ridge: opt(r, "", 0, 0)}},
	}
}

// dispatchFit runs fitRidge's steps as www/pkg/fit.js schedules them:
// fitPlan, then fitStats per chunk, fitPart per chunk with every chunk's
// statistics, fitSolve with every part, each wire form (the plan's among
// them) passed as the array it crosses in; the chunks' calls run in the
// order given (as workers finish; nil: row order), their forms handed on
// in row order. It returns the model's header and coefficients, or the
// first step's error.
func dispatchFit(X *mat.Dense, y []float64, opts string, chunkBytes int, order func(int) []int) (json.RawMessage, []float64, error) {
	return dispatchFitKept(X, y, opts, chunkBytes, order, 0)
}

// fitNumbers numbers the fits whose parts the tests keep: the kept parts
// are the process's, and the tests run in parallel.
var fitNumbers atomic.Int64

// dispatchFitKept is dispatchFit with the parts kept where they are made,
// as fit.js schedules them on `workers` workers (0: every part sent as
// its wire form): chunk i is made by worker i mod workers (each worker a
// fit number of its own here, as every instance has its own kept parts),
// the worker of the last chunk made solves from its own part and the
// others send theirs (fitShip).
func dispatchFitKept(X *mat.Dense, y []float64, opts string, chunkBytes int, order func(int) []int, workers int) (json.RawMessage, []float64, error) {
	n, d := X.Dims()
	base := fmt.Sprintf(`"rows":%d,"cols":%d,%s`, n, d, opts)
	res, arrays, err := Dispatch("fitPlan", []byte(fmt.Sprintf(`{%s,"y":{"array":0},"chunkBytes":%d}`, base, chunkBytes)), Input{Arrays: [][]float64{y}}, nil)
	if err != nil {
		return nil, nil, err
	}
	type planOut struct {
		Plan   WireRef  `json:"plan"`
		Chunks [][2]int `json:"chunks"`
		Search *struct {
			Rows       []int `json:"rows"`
			Candidates int   `json:"candidates"`
		} `json:"search"`
	}
	var plan planOut
	if err := json.Unmarshal(res, &plan); err != nil {
		return nil, nil, err
	}
	// The plan's form goes first in every later call's arrays.
	planForm := arrays[plan.Plan.Wire.Array]
	planArg := func() string { return fmt.Sprintf(`"plan":{"wire":{"array":0},"bytes":%d}`, plan.Plan.Bytes) }
	k := len(plan.Chunks)
	if order == nil {
		order = func(k int) []int {
			o := make([]int, k)
			for i := range o {
				o[i] = i
			}
			return o
		}
	}
	rows := func(c [2]int) []float64 { return X.RawMatrix().Data[c[0]*d : c[1]*d] }
	size := map[*float64]int{} // the bytes of each wire form, by its array
	// This fit's numbers: fit … fit+workers−1.
	nums := int64(max(workers, 1))
	fit := fitNumbers.Add(nums) - nums + 1
	last := 0 // the worker of the last part made
	wireList := func(name string, forms [][]float64, from int) string {
		var b bytes.Buffer
		for i, f := range forms {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"wire":{"array":%d},"bytes":%d}`, from+i, size[&f[0]])
		}
		return fmt.Sprintf(`%q:[%s]`, name, b.String())
	}
	// step runs op on every chunk in the given order and returns each
	// chunk's wire form (the array its answer names under key), by row.
	step := func(op, key string, extra [][]float64) ([][]float64, error) {
		out := make([][]float64, k)
		for _, i := range order(k) {
			c := plan.Chunks[i]
			in := append(append([][]float64{planForm}, extra...), rows(c))
			args := fmt.Sprintf(`{%s,"X":{"rows":%d,"cols":%d,"array":%d},"first":%d`, planArg(), c[1]-c[0], d, 1+len(extra), c[0])
			if op == "fitPart" {
				in = append(in, y[c[0]:c[1]])
				args += fmt.Sprintf(`,"y":{"array":%d},%s`, 2+len(extra), wireList("stats", extra, 1))
				if workers > 0 {
					args += fmt.Sprintf(`,"keep":%d`, fit+int64(i%workers))
					last = i % workers
				}
			}
			res, arrays, err := Dispatch(op, []byte(args+"}"), Input{Arrays: in}, nil)
			if err != nil {
				return nil, err
			}
			if op == "fitPart" && workers > 0 {
				continue // kept: the answer is the rows the worker keeps
			}
			var ref map[string]WireRef
			if err := json.Unmarshal(res, &ref); err != nil {
				return nil, err
			}
			out[i] = arrays[ref[key].Wire.Array]
			size[&out[i][0]] = ref[key].Bytes
		}
		return out, nil
	}
	stats, err := step("fitStats", "stats", nil)
	if err != nil {
		return nil, nil, err
	}
	if plan.Search != nil {
		// Only the rows the plan names are gathered; two "workers" score
		// a share of the candidates each, the first chooses.
		idx := plan.Search.Rows
		xs, ys := make([]float64, 0, len(idx)*d), make([]float64, len(idx))
		for i, r := range idx {
			xs = append(xs, X.RawRowView(r)...)
			ys[i] = y[r]
		}
		in := append(append([][]float64{planForm}, stats...), xs, ys)
		sel := fmt.Sprintf(`%s,%s,"X":{"rows":%d,"cols":%d,"array":%d},"y":{"array":%d}`, planArg(), wireList("stats", stats, 1), len(idx), d, 1+len(stats), 2+len(stats))
		var all []json.RawMessage
		for part := range 2 {
			res, _, err := Dispatch("select", []byte(fmt.Sprintf(`{%s,"part":{"index":%d,"count":2}}`, sel, part)), Input{Arrays: in}, nil)
			if err != nil {
				return nil, nil, err
			}
			var out struct{ Scored []json.RawMessage }
			if err := json.Unmarshal(res, &out); err != nil {
				return nil, nil, err
			}
			all = append(all, out.Scored...)
		}
		scored, _ := json.Marshal(all)
		res, arrays, err := Dispatch("select", []byte(fmt.Sprintf(`{%s,"scored":%s,"chunkBytes":%d}`, planArg(), scored, chunkBytes)), Input{Arrays: [][]float64{planForm}}, nil)
		if err != nil {
			return nil, nil, err
		}
		// The settled plan, handed on whole: its bytes and the chunks
		// its parts are cut in.
		if err := json.Unmarshal(res, &plan); err != nil {
			return nil, nil, err
		}
		planForm, k = arrays[plan.Plan.Wire.Array], len(plan.Chunks)
	}
	parts, err := step("fitPart", "part", stats)
	if err != nil {
		return nil, nil, err
	}
	keep := ""
	if workers > 0 {
		// The workers but the last send their parts; the last solves.
		parts = nil
		for w := range min(workers, k) {
			if w == last {
				continue
			}
			res, arrays, err := Dispatch("fitShip", []byte(fmt.Sprintf(`{"keep":%d}`, fit+int64(w))), Input{}, nil)
			if err != nil {
				return nil, nil, err
			}
			var ref map[string]WireRef
			if err := json.Unmarshal(res, &ref); err != nil {
				return nil, nil, err
			}
			parts = append(parts, arrays[ref["part"].Wire.Array])
			size[&parts[len(parts)-1][0]] = ref["part"].Bytes
		}
		keep = fmt.Sprintf(`,"keep":%d`, fit+int64(last))
	}
	in := append(append([][]float64{planForm}, stats...), parts...)
	res, arrays, err = Dispatch("fitSolve", []byte(fmt.Sprintf(`{%s,%s,%s%s}`, planArg(), wireList("stats", stats, 1), wireList("parts", parts, 1+len(stats)), keep)), Input{Arrays: in}, nil)
	if err != nil {
		return nil, nil, err
	}
	var m struct {
		Model json.RawMessage `json:"model"`
		Coef  MatrixRef       `json:"coef"`
	}
	if err := json.Unmarshal(res, &m); err != nil {
		return nil, nil, err
	}
	return m.Model, arrays[m.Coef.Array], nil
}

// protocolFit runs the core's protocol directly over the plan's chunks,
// merged in row order.
func protocolFit(t *testing.T, X *mat.Dense, y []float64, cfg pipeline.Config, chunkBytes int) *pipeline.Pipeline {
	t.Helper()
	ctx := context.Background()
	n, d := X.Dims()
	plan, err := protocol.NewPlan(cfg, n, d, y)
	if err != nil {
		t.Fatal(err)
	}
	chunks := plan.Chunks(chunkBytes)
	rows := func(c [2]int) *mat.Dense { return X.Slice(c[0], c[1], 0, d).(*mat.Dense) }
	var stats *data.Stats
	for _, c := range chunks {
		s := plan.NewStats()
		if err := s.AddAt(rows(c), c[0]); err != nil {
			t.Fatal(err)
		}
		if stats == nil {
			stats = s
		} else if err := stats.Merge(s); err != nil {
			t.Fatal(err)
		}
	}
	if idx := plan.SearchRows(); idx != nil {
		if plan, _, err = plan.Select(ctx, data.Rows(X, idx), data.Take(y, idx), stats); err != nil {
			t.Fatal(err)
		}
		chunks = plan.Chunks(chunkBytes)
	}
	scaler, err := plan.Scaler(stats)
	if err != nil {
		t.Fatal(err)
	}
	var all *protocol.Part
	for _, c := range chunks {
		pt, err := plan.NewPart(scaler)
		if err != nil {
			t.Fatal(err)
		}
		if err := pt.Add(ctx, rows(c), y[c[0]:c[1]], c[0]); err != nil {
			t.Fatal(err)
		}
		if all == nil {
			all = pt
		} else if err := all.Merge(pt); err != nil {
			t.Fatal(err)
		}
	}
	p, err := plan.Solve(ctx, scaler, all)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPackageFitIsTheProtocol: fitRidge's steps through the bridge give
// the model the core's protocol gives over the same chunks, bit for bit,
// whatever order the chunks' calls run in (workers finishing in any
// order), for every criterion, solve and task: pipeline.Fit's model, with
// one chunk or four.
func TestPackageFitIsTheProtocol(t *testing.T) {
	t.Parallel()
	const n, d = 240, 4
	inOrder := func(k int) []int {
		o := make([]int, k)
		for i := range o {
			o[i] = i
		}
		return o
	}
	reversed := func(k int) []int { o := inOrder(k); slices.Reverse(o); return o }
	for _, tc := range fitCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			X, y := fixture.Data(n, d, tc.k, 23)
			X.Set(5, 1, math.NaN())                           // imputed from the merged statistics
			for _, chunkBytes := range []int{0, 8 * d * 70} { // one chunk; four
				want := protocolFit(t, X, y, tc.cfg, chunkBytes)
				header, coef, _, err := want.Split()
				if err != nil {
					t.Fatal(err)
				}
				// Any chunks: Fit's bits (the sums' order is the rows').
				fit, err := pipeline.Fit(context.Background(), X, y, tc.cfg)
				if err != nil {
					t.Fatal(err)
				}
				fh, fc, _, _ := fit.Split()
				if !bytes.Equal(fh, header) || !slices.Equal(fc.RawMatrix().Data, coef.RawMatrix().Data) {
					t.Fatalf("chunk bytes %d: the protocol is not Fit", chunkBytes)
				}
				for name, order := range map[string]func(int) []int{"in order": inOrder, "reversed": reversed} {
					// Every part sent; kept on 1, 2 and 3 workers.
					for workers := range 4 {
						gotH, gotC, err := dispatchFitKept(X, y, tc.opts, chunkBytes, order, workers)
						if err != nil {
							t.Fatal(err)
						}
						if !bytes.Equal(gotH, header) {
							t.Errorf("%d bytes a chunk, %s, %d workers keeping parts: the header differs:\n%s\n%s", chunkBytes, name, workers, gotH, header)
						}
						if !slices.Equal(gotC, coef.RawMatrix().Data) {
							t.Errorf("%d bytes a chunk, %s, %d workers keeping parts: the coefficients differ", chunkBytes, name, workers)
						}
					}
				}
			}
		})
	}
}

// TestFitStepsRefuseInfinity: an infinite value in a chunk is refused by
// the step that reads it, naming its row in the fit (first + row).
func TestFitStepsRefuseInfinity(t *testing.T) {
	t.Parallel()
	const n, d = 240, 4
	X, y := fixture.Data(n, d, 0, 5)
	for _, tc := range []struct {
		row, col int
		v        float64
		want     string
	}{{0, 1, math.Inf(1), "fitStats: X has +Inf at row 0, column 1"}, {200, 0, math.Inf(-1), "fitStats: X has -Inf at row 200, column 0"}} {
		Xi := mat.DenseCopyOf(X)
		Xi.Set(tc.row, tc.col, tc.v)
		_, _, err := dispatchFit(Xi, y, `"features":{"dim":8,"depth":1},"task":"regression","preprocess":{}`, 8*d*70, nil)
		name, code, _, msg := JSError(err)
		if name != "RangeError" || code != "ERR_NONFINITE" || !strings.Contains(msg, tc.want) {
			t.Errorf("%v at (%d, %d): %s %s %q, want RangeError ERR_NONFINITE %q", tc.v, tc.row, tc.col, name, code, msg, tc.want)
		}
	}
}

// TestKeptParts: the parts a worker keeps (fitPart's keep) are merged per
// fit, sent once (fitShip), solved from once (fitSolve) or dropped
// (fitDrop); a part kept twice is refused without changing the kept one;
// a fit number that keeps nothing, or is no number, is an error that says
// so; and an instance keeps the parts of at most maxKeptFits fits.
// Not parallel: it fills the process's kept parts to their bound.
func TestKeptParts(t *testing.T) {
	const n, d = 2100, 4 // three leaves of rows: three chunks of sums
	X, y := fixture.Data(n, d, 3, 7)
	opts := `"features":{"dim":24,"depth":2,"seed":3},"task":"classification","preprocess":{}`
	res, arrays, err := Dispatch("fitPlan", []byte(fmt.Sprintf(`{"rows":%d,"cols":%d,%s,"y":{"array":0},"chunkBytes":%d}`, n, d, opts, 8*d*70)), Input{Arrays: [][]float64{y}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var plan struct {
		Plan   WireRef  `json:"plan"`
		Chunks [][2]int `json:"chunks"`
	}
	if err := json.Unmarshal(res, &plan); err != nil {
		t.Fatal(err)
	}
	planForm := arrays[plan.Plan.Wire.Array]
	planArg := fmt.Sprintf(`"plan":{"wire":{"array":0},"bytes":%d}`, plan.Plan.Bytes)
	rows := X.RawMatrix().Data
	res, arrays, err = Dispatch("fitStats", []byte(fmt.Sprintf(`{%s,"X":{"rows":%d,"cols":%d,"array":1},"first":0}`, planArg, n, d)), Input{Arrays: [][]float64{planForm, rows}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]WireRef
	if err := json.Unmarshal(res, &st); err != nil {
		t.Fatal(err)
	}
	stats := arrays[st["stats"].Wire.Array]
	statsArg := fmt.Sprintf(`"stats":[{"wire":{"array":1},"bytes":%d}]`, st["stats"].Bytes)
	part := func(c [2]int, keep string) (int, error) {
		in := [][]float64{planForm, stats, rows[c[0]*d : c[1]*d], y[c[0]:c[1]]}
		res, _, err := Dispatch("fitPart", []byte(fmt.Sprintf(`{%s,%s,"X":{"rows":%d,"cols":%d,"array":2},"y":{"array":3},"first":%d,"keep":%s}`, planArg, statsArg, c[1]-c[0], d, c[0], keep)), Input{Arrays: in}, nil)
		if err != nil {
			return 0, err
		}
		var out struct{ Kept int }
		err = json.Unmarshal(res, &out)
		return out.Kept, err
	}
	wantErr := func(what string, err error, code, option, text string) {
		t.Helper()
		_, c, o, msg := JSError(err)
		if string(c) != code || o != option || !strings.Contains(msg, text) {
			t.Errorf("%s: %s %q %q, want %s %q and %q", what, c, o, msg, code, option, text)
		}
	}
	fit := fitNumbers.Add(1)
	keep := fmt.Sprint(fit)
	if len(plan.Chunks) < 2 {
		t.Fatalf("%d chunks; the test needs two", len(plan.Chunks))
	}
	kept := 0
	for _, c := range plan.Chunks {
		got, err := part(c, keep)
		if err != nil {
			t.Fatal(err)
		}
		if kept += c[1] - c[0]; got != kept {
			t.Errorf("rows kept after rows %v: %d, want %d", c, got, kept)
		}
	}
	// The first chunk again: rows held twice, and the kept part unchanged.
	_, err = part(plan.Chunks[0], keep)
	wantErr("a chunk kept twice", err, "ERR_PROTOCOL", "", "held twice")
	for _, bad := range []string{"-1", "0.5"} {
		_, err := part(plan.Chunks[0], bad)
		if _, code, _, _ := JSError(err); string(code) != "ERR_TYPE" {
			t.Errorf("keep %s: %v, want ERR_TYPE", bad, err)
		}
	}
	// Shipped once, then the instance keeps nothing of the fit.
	res, arrays, err = Dispatch("fitShip", []byte(`{"keep":`+keep+`}`), Input{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sh map[string]WireRef
	if err := json.Unmarshal(res, &sh); err != nil {
		t.Fatal(err)
	}
	_, _, err = Dispatch("fitShip", []byte(`{"keep":`+keep+`}`), Input{}, nil)
	wantErr("shipped twice", err, "ERR_PROTOCOL", "keep", "keeps no part of fit "+keep)
	_, _, err = Dispatch("fitSolve", []byte(fmt.Sprintf(`{%s,%s,"parts":[],"keep":%s}`, planArg, statsArg, keep)), Input{Arrays: [][]float64{planForm, stats}}, nil)
	wantErr("solved after it was shipped", err, "ERR_PROTOCOL", "keep", "keeps no part of fit "+keep)
	// The shipped part solves to the model of every part sent.
	wire := arrays[sh["part"].Wire.Array]
	res, arrays, err = Dispatch("fitSolve", []byte(fmt.Sprintf(`{%s,%s,"parts":[{"wire":{"array":2},"bytes":%d}]}`, planArg, statsArg, sh["part"].Bytes)), Input{Arrays: [][]float64{planForm, stats, wire}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Coef MatrixRef }
	if err := json.Unmarshal(res, &m); err != nil {
		t.Fatal(err)
	}
	_, want, err := dispatchFit(X, y, opts, 8*d*70, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(arrays[m.Coef.Array], want) {
		t.Error("the kept and shipped part solves to other coefficients than the parts sent")
	}
	// Dropped: once, then nothing to drop.
	if _, err := part(plan.Chunks[0], keep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`{"dropped":true}`, `{"dropped":false}`} {
		res, _, err := Dispatch("fitDrop", []byte(`{"keep":`+keep+`}`), Input{}, nil)
		if err != nil || string(res) != want {
			t.Errorf("fitDrop: %s %v, want %s", res, err, want)
		}
	}
	// The bound: the parts of maxKeptFits fits, then ERR_TOO_LARGE.
	if left := keptFits(); len(left) != 0 {
		t.Fatalf("kept parts before the bound is tried: fits %v", left)
	}
	var fits []string
	for i := 0; ; i++ {
		f := fmt.Sprint(fitNumbers.Add(1))
		_, err := part(plan.Chunks[0], f)
		if err != nil {
			wantErr("one fit too many", err, "ERR_TOO_LARGE", "keep", "drop (fitDrop) them")
			if i != maxKeptFits {
				t.Errorf("refused after %d fits, want %d", i, maxKeptFits)
			}
			break
		}
		fits = append(fits, f)
	}
	for _, f := range fits {
		if _, _, err := Dispatch("fitDrop", []byte(`{"keep":`+f+`}`), Input{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if left := keptFits(); len(left) != 0 {
		t.Errorf("kept parts left after the test: fits %v", left)
	}
}

// keptFits returns the fits whose parts the process keeps.
func keptFits() []int {
	kept.Lock()
	defer kept.Unlock()
	var fits []int
	for f := range kept.parts {
		fits = append(fits, f)
	}
	return fits
}
