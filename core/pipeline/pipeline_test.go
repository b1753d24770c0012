package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/errs"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
)

// mixed is a small file with a categorical column, missing cells and a
// text target: everything the schema must carry.
const mixed = `size,color,weight,kind
1.0,red,3.5,apple
2.0,green,,pear
1.5,red,3.1,apple
2.5,blue,4.0,plum
,green,4.2,pear
1.2,red,2.9,apple
2.2,blue,4.4,plum
1.9,green,3.8,pear
1.1,red,3.0,apple
2.4,blue,4.1,plum
`

func parse(t *testing.T, text string) *data.Dataset {
	t.Helper()
	ds, err := data.Parse([]byte(text), data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// roundTrip saves p, loads it back and checks that the loaded pipeline
// predicts the same bits on X.
func roundTrip(t *testing.T, p *Pipeline, X *mat.Dense) *Pipeline {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	q, err := Load(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	s1, err := p.Scores(X)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := q.Scores(X)
	if err != nil {
		t.Fatal(err)
	}
	fixture.SameBits(t, "scores after a round trip", s1.RawMatrix().Data, s2.RawMatrix().Data)
	b2, _ := json.Marshal(q)
	if !bytes.Equal(b, b2) {
		t.Errorf("saving a loaded model changes the file")
	}
	return q
}

func TestRoundTripEveryMethod(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(60, 5, 3, 1)
	cases := []Config{
		{},
		{Features: rf.Config{Method: "ntk", Depth: 3, Dim: 64, Sampler: "gibbs", Sketch: "tensorsrht", Seed: 9}},
		{Features: rf.Config{Method: "nngp", Depth: 2, Dim: 48, Sampler: "hadamard"}},
		{Features: rf.Config{Method: "arccos1", Dim: 40, Normalize: true}},
		{Features: rf.Config{Method: "rff", Dim: 40}},
		{Features: rf.Config{Method: "naive", Depth: 2, Dim: 200}},
		{Features: rf.Config{Method: "grad", Depth: 2, Dim: 200}},
		{Kernel: &kernel.Spec{}},
		{Kernel: &kernel.Spec{Name: "rbf"}, Preprocess: &data.Prep{UnitNorm: true}},
		{Kernel: &kernel.Spec{Name: "linear"}, Preprocess: &data.Prep{Raw: true}},
	}
	for _, cfg := range cases {
		cfg.Ridge = krr.Options{Task: krr.Classification}
		p, err := Fit(context.Background(), X, y, cfg)
		if err != nil {
			t.Fatalf("%+v: %v", cfg, err)
		}
		roundTrip(t, p, X)
	}
}

// TestZeroConfigIsTheDefault: the zero Config standardizes and, on few
// rows, fits the exact NTK ('auto”s method: cheaper than rf.DefaultDim
// features there), depth and preprocessing chosen, as the package does.
func TestZeroConfigIsTheDefault(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(40, 3, 0, 2)
	p, err := Fit(context.Background(), X, y, Config{})
	if err != nil {
		t.Fatal(err)
	}
	// Depth and preprocessing 'auto': every default candidate is scored
	// and the chosen one is the pipeline's.
	k, s := p.Kernel(), p.Selection()
	if k == nil || p.Features() != nil || s == nil || len(s.Candidates) != len(defaultDepths)*len(defaultPreps)+len(autoRBF) {
		t.Fatalf("zero config: kernel %+v, features %+v, selection %+v", k, p.Features(), s)
	}
	if s.Method != MethodKernel || s.Reason == "" || !(s.Seconds > 0) || !(s.SearchSeconds > 0) {
		t.Errorf("zero config: the selection does not say which method and why: %+v", s)
	}
	// The kernel is the chosen candidate's: the NTK of its depth, or one
	// of 'auto''s RBF candidates (AutoRBF), which wins on these rows.
	c := s.Candidates[s.Chosen]
	if wantName := map[bool]kernel.Name{false: kernel.NameNTK, true: kernel.NameRBF}[c.Kernel == kernel.NameRBF]; k.Name != wantName || k.Depth != c.Depth || k.Gamma != c.Gamma {
		t.Errorf("zero config: kernel %+v, chosen %+v", k, c)
	}
	if p.Preprocess() != c.Preprocess {
		t.Errorf("zero config preprocesses with %+v, chose %+v", p.Preprocess(), c.Preprocess)
	}
	if len(p.Curve()) == 0 {
		t.Error("zero config: λ was not searched")
	}
	// With m given, the method is the user's: features of that width.
	p, err = Fit(context.Background(), X, y, Config{Features: rf.Config{Dim: 64}})
	if err != nil {
		t.Fatal(err)
	}
	if f := p.Features(); f == nil || f.Dim != 64 || p.Selection().Method != "" {
		t.Errorf("dim 64: features %+v, selection method %q", f, p.Selection().Method)
	}
}

func TestDatasetAndCSV(t *testing.T) {
	t.Parallel()
	ds := parse(t, mixed)
	p, err := FitDataset(context.Background(), ds, Config{Features: rf.Config{Dim: 64}, Ridge: krr.Options{Lambda: 0.1}})
	if err != nil {
		t.Fatal(err)
	}
	q := roundTrip(t, p, ds.X)
	if got := q.Classes(); strings.Join(got, ",") != "apple,pear,plum" {
		t.Errorf("classes %q", got)
	}
	// The training file itself reads to the training X (missing cells NaN).
	X, err := q.ReadCSV([]byte(mixed), 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range X.RawMatrix().Data {
		w := ds.X.RawMatrix().Data[i]
		if !(v == w || math.IsNaN(v) && math.IsNaN(w)) {
			t.Fatalf("ReadCSV differs from Parse at %d: %v vs %v", i, v, w)
		}
	}
	want, _ := p.Predict(ds.X)
	got, err := q.PredictCSV([]byte(mixed), 0)
	if err != nil {
		t.Fatal(err)
	}
	fixture.SameBits(t, "PredictCSV", got, want)
	// Without the target column, columns in another order, an unseen
	// category (imputed like a missing one), all by name.
	noTarget := "weight,color,size\n3.5,red,1.0\n4.0,violet,2.5\n"
	got, err = q.PredictCSV([]byte(noTarget), 0)
	if err != nil || len(got) != 2 {
		t.Fatalf("PredictCSV without target: %v %v", got, err)
	}
	if got[0] != want[0] {
		t.Errorf("row read by name predicts %v, training row %v", got[0], want[0])
	}
	for _, tc := range []struct{ text, want string }{
		{"size,weight\n1,2\n", `no column named "color"`},
		{"size,color,weight\nbig,red,1\n", "is not a decimal number"},
		{"", "empty"},
	} {
		if _, err := q.PredictCSV([]byte(tc.text), 0); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("PredictCSV(%q): %v, want %q", tc.text, err, tc.want)
		}
	}
	// A model fitted from a matrix has no schema.
	m, _ := Fit(context.Background(), ds.X, ds.Y, Config{Features: rf.Config{Dim: 32}, Ridge: krr.Options{Task: krr.Classification}})
	if _, err := m.PredictCSV([]byte(mixed), 0); err == nil || !strings.Contains(err.Error(), "fitted from a matrix") {
		t.Errorf("PredictCSV on a matrix model: %v", err)
	}
}

// TestHeaderlessByPosition: a file without a header is read by position,
// with or without its target column.
func TestHeaderlessByPosition(t *testing.T) {
	t.Parallel()
	text := "1,2,0\n2,1,1\n3,3,0\n4,1,1\n5,2,0\n6,0,1\n"
	ds := parse(t, text)
	p, err := FitDataset(context.Background(), ds, Config{Features: rf.Config{Dim: 16}, Ridge: krr.Options{Lambda: 1}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := p.PredictCSV([]byte(text), 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.PredictCSV([]byte("1,2\n2,1\n3,3\n4,1\n5,2\n6,0\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	fixture.SameBits(t, "with and without target", a, b)
	if _, err := p.PredictCSV([]byte("1,2,3,4\n"), 0); err == nil || !strings.Contains(err.Error(), "4 fields") {
		t.Errorf("wrong width: %v", err)
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(3000, 4, 0, 3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Fit(ctx, X, y, Config{Features: rf.Config{Dim: 64}})
	if !errors.Is(err, context.Canceled) || errs.CodeOf(err) != errs.Aborted {
		t.Errorf("cancelled fit: %v", err)
	}
	// Cancelled mid-way, between row blocks.
	ctx, cancel = context.WithCancel(context.Background())
	blocks := 0
	_, err = Fit(ctx, X, y, Config{Features: rf.Config{Dim: 64}, Search: Search{Rows: 50}, Ridge: krr.Options{BlockRows: 100, Progress: func(done, total int, stage string) {
		if stage == "features" {
			if blocks++; blocks == 3 {
				cancel()
			}
		}
	}}})
	if !errors.Is(err, context.Canceled) || errs.CodeOf(err) != errs.Aborted || blocks != 3 {
		t.Errorf("cancelled after 3 blocks: %v after %d blocks", err, blocks)
	}
	// Cancelled during the depth and preprocessing search.
	ctx, cancel = context.WithCancel(context.Background())
	scored := 0
	_, err = Fit(ctx, X, y, Config{Features: rf.Config{Dim: 64}, Search: Search{Rows: 50}, Ridge: krr.Options{Progress: func(done, total int, stage string) {
		if stage == "select" && done == 2 {
			scored = done
			cancel()
		}
	}}})
	if !errors.Is(err, context.Canceled) || errs.CodeOf(err) != errs.Aborted || scored != 2 {
		t.Errorf("cancelled after 2 candidates: %v", err)
	}
}

// TestBadFiles: every way a model file can be broken is refused with the
// error grammar's code, never a panic.
func TestBadFiles(t *testing.T) {
	t.Parallel()
	ds := parse(t, mixed)
	p, err := FitDataset(context.Background(), ds, Config{Features: rf.Config{Dim: 32}, Ridge: krr.Options{Lambda: 0.1}})
	if err != nil {
		t.Fatal(err)
	}
	good, _ := json.Marshal(p)
	edit := func(f func(m map[string]any)) string {
		var m map[string]any
		json.Unmarshal(good, &m)
		f(m)
		b, _ := json.Marshal(m)
		return string(b)
	}
	cases := []struct {
		name, text string
		code       check.Code
		want       string
	}{
		{"truncated", string(good[:len(good)/2]), check.Type, "truncated"},
		{"not JSON", "hello", check.Type, "not a model file"},
		{"array", "[1,2]", check.Type, "not a model file"},
		{"version", edit(func(m map[string]any) { m["version"] = 99 }), check.Value, fmt.Sprintf("version 99; this ntkrf reads versions 1 … %d", Version)},
		{"format", edit(func(m map[string]any) { m["format"] = "other" }), check.Value, `format "other"`},
		{"unknown field", edit(func(m map[string]any) { m["extra"] = 1 }), check.Type, `unknown field "extra"`},
		{"coef shape", edit(func(m map[string]any) { m["coef"].(map[string]any)["rows"] = 3 }), check.Shape, "coef is 3×3"},
		{"coef NaN", edit(func(m map[string]any) { m["coef"].(map[string]any)["data"].([]any)[0] = nil }), check.NonFinite, "coef.data[0] is null"},
		{"bias NaN", edit(func(m map[string]any) { m["bias"].([]any)[1] = nil }), check.NonFinite, "bias[1] is null"},
		{"bias", edit(func(m map[string]any) { m["bias"] = []any{1.0} }), check.Shape, "bias 1 values"},
		{"lambda", edit(func(m map[string]any) { m["lambda"] = -1 }), check.Value, "lambda -1"},
		{"classes", edit(func(m map[string]any) { m["classes"] = []any{"a"} }), check.Value, "task and classes differ"},
		{"both", edit(func(m map[string]any) { m["kernel"] = map[string]any{"kernel": "ntk", "depth": 1, "gamma": 0} }), check.Value, "not both"},
		{"schema", edit(func(m map[string]any) { m["input"].(map[string]any)["target"] = 7 }), check.Value, "target 7"},
		{"depth", edit(func(m map[string]any) { m["features"].(map[string]any)["depth"] = 999 }), check.Value, "Depth 999"},
		{"trailing", string(good) + "{}", check.Type, "data after its end"},
		{"depth 0", edit(func(m map[string]any) { m["features"].(map[string]any)["depth"] = 0 }), check.Value, "features.depth is 0, but a saved configuration has 1"},
	}
	// A map that would not fit in memory: 1000 inputs × 2²⁴ features.
	wide, _ := Fit(context.Background(), mat.NewDense(3, 1000, nil), []float64{1, 2, 3}, Config{Preprocess: &data.Prep{Raw: true}, Features: rf.Config{Dim: 4}, Ridge: krr.Options{Lambda: 1, Task: krr.Regression}})
	wb, _ := json.Marshal(wide)
	var wm map[string]any
	json.Unmarshal(wb, &wm)
	f := wm["features"].(map[string]any)
	f["dim"], f["m0"], f["m1"], f["sketchDim"] = 1<<24, 1<<23, 1<<23, 1<<23
	wb, _ = json.Marshal(wm)
	cases = append(cases, struct {
		name, text string
		code       check.Code
		want       string
	}{"huge map", string(wb), check.TooLarge, "the feature map (ntk, 16777216 columns on 1000 inputs, 1 layers) needs"})
	for _, tc := range cases {
		_, err := Load(strings.NewReader(tc.text))
		var e *check.Error
		if err == nil || !errors.As(err, &e) || (tc.code != "" && e.Code != tc.code) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v (code %v), want %s containing %q", tc.name, err, codeOf(err), tc.code, tc.want)
		}
	}
}

func codeOf(err error) check.Code {
	var e *check.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// TestInfiniteScore: a λ whose criterion is +Inf (leave-one-out at a λ so
// small that a residual weight vanishes) saves as null and loads as +Inf.
func TestInfiniteScore(t *testing.T) {
	t.Parallel()
	X := mat.NewDense(4, 2, []float64{1, 2, 1, 2, 3, 1, 0.5, 0.2})
	p, err := Fit(context.Background(), X, []float64{0.5, 0.7, 1.5, 2.5}, Config{Features: rf.Config{Dim: 64}, Ridge: krr.Options{Grid: []float64{1e-300, 1}, Task: krr.Regression}})
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsInf(p.Curve()[0].Score, 1) {
		t.Fatalf("the criterion at λ = 1e-300 is %v, not the +Inf this test needs", p.Curve()[0].Score)
	}
	q := roundTrip(t, p, X)
	if c := q.Curve(); !math.IsInf(c[0].Score, 1) || c[1] != p.Curve()[1] {
		t.Errorf("curve after a round trip: %v, want %v", c, p.Curve())
	}
}

// TestSplitDecode: the form hosts use (matrices apart) rebuilds the same
// pipeline.
func TestSplitDecode(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(30, 4, 0, 5)
	for _, cfg := range []Config{{Features: rf.Config{Dim: 16}}, {Kernel: &kernel.Spec{Name: "nngp", Depth: 2}}} {
		p, err := Fit(context.Background(), X, y, cfg)
		if err != nil {
			t.Fatal(err)
		}
		h, coef, train, err := p.Split()
		if err != nil {
			t.Fatal(err)
		}
		q, err := Decode(h, coef, train)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := p.Predict(X)
		b, _ := q.Predict(X)
		fixture.SameBits(t, "split/decode", a, b)
		// Matrices from a host (typed arrays) may hold NaN; JSON cannot.
		bad := mat.DenseCopyOf(coef)
		bad.Set(0, 0, math.NaN())
		if _, err := Decode(h, bad, train); codeOf(err) != check.NonFinite {
			t.Errorf("a NaN coefficient: %v, want %s", err, check.NonFinite)
		}
	}
	// assemble keeps the map it is given instead of drawing it again.
	f, _ := rf.New(rf.Config{Dim: 16}, 4)
	m, err := krr.FitFeatures(f, X, y, krr.Options{Task: krr.Regression})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := data.Fit(X, nil, data.Prep{Raw: true})
	p, err := assemble(components{Scaler: s, Map: f, Model: m})
	if err != nil || p.fmap != f {
		t.Errorf("assemble: %v; the map was drawn again: %v", err, p.fmap != f)
	}
}

// crossHost is what each host's tests save for the others: a model fitted
// on testdata/iris.csv, the CSV it predicted and its predictions (class
// names). Native writes dist/test/model-native.json; the Node and Chromium
// tests write model-node.json and model-chromium.json and read this one.
type crossHost struct {
	Model       json.RawMessage `json:"model"`
	CSV         string          `json:"csv"`
	Predictions []string        `json:"predictions"`
}

// crossHostDir is the directory where this run's hosts hand each other
// models: ./build.sh test makes a fresh one per run and names it in
// NTKRF_CROSSHOST_DIR, so that no test reads a file an earlier run left.
// Without it the cross-host tests skip.
func crossHostDir(t *testing.T) string {
	dir := os.Getenv("NTKRF_CROSSHOST_DIR")
	if dir == "" {
		t.Skip("NTKRF_CROSSHOST_DIR is not set: ./build.sh test makes a fresh directory per run for the hosts to hand each other models")
	}
	return dir
}

// TestCrossHostSaves saves a native model, its CSV and its predictions for
// this run's Node and Chromium tests, which predict the CSV with it.
func TestCrossHostSaves(t *testing.T) {
	dir := crossHostDir(t)
	const csv = "testdata/iris.csv"
	text, err := os.ReadFile("../../" + csv)
	if err != nil {
		t.Fatal(err)
	}
	ds := parse(t, string(text))
	p, err := FitDataset(context.Background(), ds, Config{Features: rf.Config{Dim: 512, Seed: 11}})
	if err != nil {
		t.Fatal(err)
	}
	pred, _ := p.Predict(ds.X)
	names := make([]string, len(pred))
	for i, v := range pred {
		names[i] = p.Classes()[int(v)]
	}
	model, _ := json.Marshal(p)
	out, _ := json.Marshal(crossHost{model, csv, names})
	if err := os.WriteFile(filepath.Join(dir, "model-native.json"), out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCrossHost checks the models this run's Node and Chromium tests
// saved: loaded natively, they must predict the names those hosts
// predicted, and save again as the same file. ./build.sh test runs it
// after those tests with NTKRF_CROSSHOST=1; before, it skips.
func TestCrossHost(t *testing.T) {
	dir := crossHostDir(t)
	if os.Getenv("NTKRF_CROSSHOST") == "" {
		t.Skip("the Node and Chromium tests have not run yet: ./build.sh test runs this test after them with NTKRF_CROSSHOST=1")
	}
	crossHostCorpus(t, dir)
	for _, host := range []string{"node", "chromium"} {
		b, err := os.ReadFile(filepath.Join(dir, "model-"+host+".json"))
		if err != nil {
			t.Fatalf("no model saved by the %s tests in this run: %v", host, err)
		}
		var saved crossHost
		if err := json.Unmarshal(b, &saved); err != nil {
			t.Fatal(err)
		}
		q, err := Load(bytes.NewReader(saved.Model))
		if err != nil {
			t.Fatalf("%s model: %v", host, err)
		}
		text, err := os.ReadFile("../../" + saved.CSV)
		if err != nil {
			t.Fatal(err)
		}
		got, err := q.PredictCSV(text, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(saved.Predictions) {
			t.Fatalf("%s model: %d predictions natively, %d in %s", host, len(got), len(saved.Predictions), host)
		}
		for i, g := range got {
			if name := q.Classes()[int(g)]; name != saved.Predictions[i] {
				t.Fatalf("%s model, row %d: native predicts %q, %s predicted %q", host, i, name, host, saved.Predictions[i])
			}
		}
		// Same bits: saving the loaded model gives the file back.
		again, _ := json.Marshal(q)
		var a, b2 any
		json.Unmarshal(again, &a)
		json.Unmarshal(saved.Model, &b2)
		if !equalJSON(a, b2) {
			t.Errorf("%s model: saved again natively, the file differs", host)
		}
	}
}

// crossHostCorpus loads natively the model objects the package's corpus
// test was given (test/model-corpus.test.js), as JSON.stringify wrote
// them: Go must accept or refuse each as the package did, with its code.
// The files' texts are checked against the same table by both hosts.
func crossHostCorpus(t *testing.T, dir string) {
	b, err := os.ReadFile(filepath.Join(dir, "corpus-node.json"))
	if err != nil {
		t.Fatalf("no corpus outcomes saved by the Node tests in this run: %v", err)
	}
	var objects []struct {
		Name   string     `json:"name"`
		Text   string     `json:"text"`
		Accept bool       `json:"accept"`
		Code   check.Code `json:"code"`
	}
	if err := json.Unmarshal(b, &objects); err != nil {
		t.Fatal(err)
	}
	for _, o := range objects {
		got, msg := loadOutcome([]byte(o.Text))
		if got.Accept != o.Accept || got.Code != o.Code {
			t.Errorf("%s as an object: the package %v %s, native Go %v %s (%s)", o.Name, o.Accept, o.Code, got.Accept, got.Code, msg)
		}
	}
}

// equalJSON compares decoded JSON values; numbers compare as float64, so
// "1e-07" and "1e-7" are equal and bits decide.
func equalJSON(a, b any) bool {
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	return bytes.Equal(ab, bb)
}

func FuzzLoad(f *testing.F) {
	ds, _ := data.Parse([]byte(mixed), data.Options{})
	p, _ := FitDataset(context.Background(), ds, Config{Features: rf.Config{Dim: 8}, Ridge: krr.Options{Lambda: 1}})
	good, _ := json.Marshal(p)
	f.Add(good)
	f.Add([]byte(`{"format":"ntkrf-model","version":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		q, err := Load(bytes.NewReader(b))
		if err != nil {
			if codeOf(err) == "" {
				t.Fatalf("error without a code: %v", err)
			}
			return
		}
		// A file that loads predicts.
		if _, err := q.Predict(mat.NewDense(1, q.Cols(), nil)); err != nil && codeOf(err) == "" {
			t.Fatalf("predict: %v", err)
		}
	})
}
