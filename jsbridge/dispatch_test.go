package jsbridge

import (
	"encoding/json"
	"math"
	"ntkrf/core/kernel"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

var refX = []float64{1, 2, 0, 0.5, -1, 3, -2, 0.25, 1}

func TestKernelMatchesCore(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args string
		want func() (*mat.Dense, error)
	}{
		{`{"X":{"rows":3,"cols":3,"array":0},"depth":2}`, func() (*mat.Dense, error) {
			return kernel.NTK(mat.NewDense(3, 3, refX), 2)
		}},
		{`{"X":{"rows":3,"cols":3,"array":0},"kernel":"nngp","depth":3}`, func() (*mat.Dense, error) {
			return kernel.NNGP(mat.NewDense(3, 3, refX), 3)
		}},
		{`{"X":{"rows":3,"cols":3,"array":0},"kernel":"rbf"}`, func() (*mat.Dense, error) {
			return kernel.RBF(mat.NewDense(3, 3, refX), 1.0/3) // default γ = 1/cols
		}},
		{`{"X":{"rows":3,"cols":3,"array":0},"Z":{"rows":1,"cols":3,"array":1}}`, func() (*mat.Dense, error) {
			return kernel.NTKCross(mat.NewDense(3, 3, refX), mat.NewDense(1, 3, refX[3:6]), 1)
		}},
	}
	for _, tc := range tests {
		var stages []string
		res, out, err := Dispatch("kernel", []byte(tc.args), Input{Arrays: [][]float64{append([]float64{}, refX...), append([]float64{}, refX[3:6]...)}},
			func(done, total int, stage string) { stages = append(stages, stage) })
		if err != nil {
			t.Fatalf("%s: %v", tc.args, err)
		}
		var ref MatrixRef
		if err := json.Unmarshal(res, &ref); err != nil {
			t.Fatal(err)
		}
		want, _ := tc.want()
		r, c := want.Dims()
		if ref.Rows != r || ref.Cols != c || len(out) != 1 || len(out[ref.Array]) != r*c {
			t.Fatalf("%s: result %s with %d arrays, want %d×%d", tc.args, res, len(out), r, c)
		}
		for i, v := range want.RawMatrix().Data {
			if out[ref.Array][i] != v {
				t.Fatalf("%s: entry %d = %v, core gives %v", tc.args, i, out[ref.Array][i], v)
			}
		}
		if len(stages) != 2 {
			t.Errorf("%s: progress called %d times, want start and end", tc.args, len(stages))
		}
	}
}

func TestDispatchErrors(t *testing.T) {
	t.Parallel()
	x := func() [][]float64 { return [][]float64{append([]float64{}, refX...)} }
	tests := []struct {
		op, args         string
		arrays           [][]float64
		class, code, opt string
		msg              string
	}{
		{"nope", `{}`, nil, "TypeError", "ERR_TYPE", "", `unknown operation "nope"; known: `},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0},"dpeth":2}`, x(), "TypeError", "ERR_UNKNOWN_OPTION", "dpeth", `kernel: unknown option "dpeth"; known options: kernel, depth, gamma`},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0},"depth":"2"}`, x(), "TypeError", "ERR_TYPE", "depth", `kernel: depth must be an integer in 1…64, got "2"`},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0},"depth":1.5}`, x(), "RangeError", "ERR_OPTION", "depth", `kernel: depth must be an integer in 1…64, got 1.5`},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0},"depth":null}`, x(), "TypeError", "ERR_TYPE", "depth", `got null`},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0},"kernel":"poly"}`, x(), "RangeError", "ERR_OPTION", "kernel", `kernel must be one of "ntk", "nngp", "rbf", "linear", got "poly"`},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0},"depth":-1}`, x(), "RangeError", "ERR_OPTION", "depth", "depth must be an integer in 1…64, got -1"},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0},"kernel":"rbf","gamma":-2}`, x(), "RangeError", "ERR_OPTION", "gamma", "gamma must be a finite number > 0, got -2"},
		{"kernel", `{"X":{"rows":2,"cols":3,"array":0}}`, x(), "RangeError", "ERR_SHAPE", "", "X.data has 9 values but rows×cols = 2×3 = 6"},
		{"kernel", `{"X":{"rows":0,"cols":3,"array":0}}`, x(), "RangeError", "ERR_SHAPE", "", "X is 0×3"},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":5}}`, x(), "TypeError", "ERR_TYPE", "", "X refers to array 5, but the call has 1"},
		{"kernel", `{}`, x(), "TypeError", "ERR_TYPE", "", "X is required"},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0}} junk`, x(), "TypeError", "ERR_TYPE", "", "options must be a JSON object"},
		{"kernel", `[1,2]`, x(), "TypeError", "ERR_TYPE", "", "kernel: options must be a JSON object"},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0},"Z":{"rows":1,"cols":2,"array":1}}`, [][]float64{refX, {1, 2}}, "RangeError", "ERR_SHAPE", "", "X has 3 columns but Z has 2"},
		// The same cause gives the same error in every operation.
		{"kernel", `{"X":{"rows":1,"cols":2,"array":0}}`, [][]float64{{1, math.Inf(1)}}, "RangeError", "ERR_NONFINITE", "", "kernel: X has +Inf at row 0, column 1"},
		{"features", `{"X":{"rows":1,"cols":2,"array":0}}`, [][]float64{{1, math.Inf(1)}}, "RangeError", "ERR_NONFINITE", "", "features: X has +Inf at row 0, column 1"},
		{"compare", `{"X":{"rows":2,"cols":1,"array":0}}`, [][]float64{{1, math.NaN()}}, "RangeError", "ERR_NONFINITE", "", "compare: X has NaN at row 1, column 0"},
		// Messages speak the API, not Go.
		{"features", `{"X":{"rows":3,"cols":3,"array":0},"seed":-1}`, x(), "RangeError", "ERR_OPTION", "seed", "features: seed must be an integer in 0…2^53−1, got -1"},
		{"features", `{"X":{"rows":3,"cols":3,"array":0},"dim":8,"sketchDim":10000}`, x(), "RangeError", "ERR_OPTION", "sketchDim", "m1 + sketchDim = 4 + 10000 = 10004 columns, but dim is 8"},
		{"fitPlan", `{"rows":3,"cols":3,"y":{"array":0},"features":{"dim":8,"sketchDim":10000}}`, [][]float64{{0, 1, 2}}, "RangeError", "ERR_OPTION", "features.sketchDim", "fitPlan: m1 + sketchDim"},
		{"fitPlan", `{"rows":3,"cols":3,"y":{"array":0},"features":{"dimm":8}}`, [][]float64{{0, 1, 2}}, "TypeError", "ERR_UNKNOWN_OPTION", "features.dimm", "unknown option features.dimm; features takes method, depth, dim"},
		{"fitPlan", `{"rows":3,"cols":3,"y":{"array":0},"features":{"depth":1},"task":"classification","classes":2}`, [][]float64{{0, 1, 2}}, "RangeError", "ERR_VALUE", "", "y[2] = 2 is not a class index in 0…1; encode classes as 0…k−1 or raise classes"},
		{"fitPlan", `{"rows":3,"cols":3,"y":{"array":0},"features":{"depth":1},"lambda":"fast"}`, [][]float64{{0, 1, 2}}, "RangeError", "ERR_OPTION", "lambda", `lambda must be "auto" or a finite number ≥ 2.2250738585072014e-308, got "fast"`},
		{"fitPlan", `{"rows":3,"cols":3,"y":{"array":0},"features":{"depth":1},"classes":1000000}`, [][]float64{{0, 1, 2}}, "RangeError", "ERR_OPTION", "classes", "classes must be an integer in 0…10000, got 1000000"},
		{"fitPlan", `{"rows":3,"cols":3,"y":{"array":0},"features":{"depth":1},"grid":[1,0]}`, [][]float64{{0, 1, 2}}, "RangeError", "ERR_OPTION", "grid[1]", "grid[1] must be a finite number ≥ 2.2250738585072014e-308, got 0"},
		// Hostile sizes are refused before anything is allocated.
		{"score", `{"yTrue":{"array":0},"yPred":{"array":1},"task":"classification"}`, [][]float64{{0, 1e18}, {0, 1}}, "RangeError", "ERR_VALUE", "", "score: label 1e+18 at row 1 is not a class index in 0…9999"},
		{"score", `{"yTrue":{"array":0},"yPred":{"array":1},"task":"classification"}`, [][]float64{{0, 3e5}, {0, 1}}, "RangeError", "ERR_VALUE", "", "label 300000 at row 1"},
		{"score", `{"yTrue":{"array":0},"yPred":{"array":1},"task":"classification","classes":3}`, [][]float64{{0, 1}, {0, 0.5}}, "RangeError", "ERR_VALUE", "", ""},
		{"parseCSV", `{"target":-1}`, nil, "RangeError", "ERR_OPTION", "target", "target must be a column name or an integer index in 0…16777215, got -1"},
		{"parseCSV", `{"maxBytes":0}`, nil, "RangeError", "ERR_OPTION", "maxBytes", "maxBytes must be an integer in 1…2147483647, got 0"},
		{"previewCSV", `{"rows":-1}`, nil, "RangeError", "ERR_OPTION", "rows", "rows must be an integer in 1…10000, got -1"},
		{"split", `{"n":10,"testFraction":1}`, nil, "RangeError", "ERR_OPTION", "testFraction", "testFraction must be a finite number in (0, 1), got 1"},
		{"parseCSV", `{"exclude":"a"}`, nil, "TypeError", "ERR_TYPE", "exclude", "exclude must be an array of strings"},
		{"parseCSV", `{"exclude":["b"]}`, nil, "RangeError", "ERR_OPTION", "exclude", `parseCSV: cannot exclude "b": it is the target column`},
		{"parseCSV", `{"exclude":["zz"]}`, nil, "RangeError", "ERR_OPTION", "exclude", `parseCSV: cannot exclude "zz": no column has that name; the columns are "a", "b"`},
		{"parseCSV", `{"target":"zz"}`, nil, "RangeError", "ERR_OPTION", "target", `parseCSV: no column is named "zz"`},
		{"parseCSV", `{"target":"1"}`, nil, "RangeError", "ERR_OPTION", "target", `parseCSV: no column is named "1"; the columns are "a", "b"; to choose a column by its index, give the index as a number`},
		{"kernel", `{"X":{"rows":4611686018427387904,"cols":4,"array":0}}`, [][]float64{{}}, "RangeError", "ERR_SHAPE", "", "X.data has 0 values"},
	}
	for _, tc := range tests {
		in := Input{Arrays: tc.arrays}
		if tc.op == "parseCSV" {
			in.Bytes = []byte("a,b\n1,2\n3,4\n")
		}
		_, _, err := Dispatch(tc.op, []byte(tc.args), in, nil)
		if err == nil {
			t.Errorf("%s %s: no error", tc.op, tc.args)
			continue
		}
		class, code, opt, msg := JSError(err)
		if class != tc.class || string(code) != tc.code || opt != tc.opt || !strings.Contains(msg, tc.msg) {
			t.Errorf("%s %s:\n got %s %s option %q: %s\nwant %s %s option %q containing %q", tc.op, tc.args, class, code, opt, msg, tc.class, tc.code, tc.opt, tc.msg)
		}
		if strings.Contains(msg, "Config.") || strings.Contains(msg, "Options.") || strings.Contains(msg, "Args") {
			t.Errorf("%s %s: message speaks Go: %s", tc.op, tc.args, msg)
		}
	}
}

// FuzzDispatch: any options JSON and array lengths give a result or an
// error, never a panic.
func FuzzDispatch(f *testing.F) {
	f.Add("kernel", `{"X":{"rows":3,"cols":3,"array":0},"depth":2}`, 9, 3)
	f.Add("kernel", `{"X":{"rows":3,"cols":3,"array":0},"Z":{"rows":1,"cols":3,"array":1},"kernel":"rbf","gamma":0.5}`, 9, 3)
	f.Add("kernel", `{"X":{"rows":1,"cols":1,"array":0},"kernel":"nngp","depth":64}`, 1, 0)
	f.Add("kernel", `{"X":{"rows":-1,"cols":-9,"array":0}}`, 9, 0)
	f.Add("kernel", `{"X":null,"Z":{"rows":1e400}}`, 0, 0)
	// Every operation, with the calls the package makes.
	X, y := `"X":{"rows":3,"cols":3,"array":0}`, `"y":{"array":1}`
	f.Add("features", `{`+X+`,"dim":8,"sampler":"hadamard","seed":3}`, 9, 3)
	f.Add("features", `{`+X+`,"method":"grad","depth":2,"dim":16}`, 9, 3)
	f.Add("compare", `{`+X+`,"features":{"dim":8},"matrices":true}`, 9, 3)
	f.Add("selectActive", `{`+X+`,"k":2,"features":{"dim":8}}`, 9, 3)
	f.Add("fitPlan", `{"rows":3,"cols":3,"task":"regression","features":{"dim":4,"depth":1},"y":{"array":1},"chunkBytes":24}`, 9, 3)
	f.Add("fitPlan", `{"rows":3,"cols":3,"task":"regression","kernel":{"depth":2},"y":{"array":1}}`, 9, 3)
	plan := `"plan":{"wire":{"array":1},"bytes":16}`
	f.Add("fitStats", `{`+plan+`,`+X+`}`, 9, 3)
	f.Add("fitPart", `{`+plan+`,`+X+`,`+y+`,"first":0,"stats":[{"wire":{"array":0},"bytes":72}]}`, 9, 3)
	f.Add("fitSolve", `{`+plan+`,"stats":[{"wire":{"array":0},"bytes":72}],"parts":[{"wire":{"array":1},"bytes":24}]}`, 9, 3)
	f.Add("fitPart", `{`+plan+`,`+X+`,`+y+`,"first":0,"stats":[{"wire":{"array":0},"bytes":72}],"keep":999999}`, 9, 3)
	f.Add("fitSolve", `{`+plan+`,"stats":[{"wire":{"array":0},"bytes":72}],"parts":[],"keep":999999}`, 9, 3)
	f.Add("fitShip", `{"keep":999999}`, 0, 0)
	f.Add("fitDrop", `{"keep":999999}`, 0, 0)
	f.Add("predict", `{`+X+`,"model":{"kind":"features","task":"regression","coef":{"rows":8,"cols":1,"array":1},"bias":[0],"features":{"dim":8}}}`, 9, 8)
	f.Add("score", `{"yTrue":{"array":0},"yPred":{"array":1},"task":"classification"}`, 3, 3)
	f.Add("split", `{"n":10,"testFraction":0.3,"seed":1}`, 0, 0)
	f.Add("kfold", `{"n":10,"k":3}`, 0, 0)
	f.Add("previewCSV", `{"rows":2}`, 0, 0)
	f.Add("parseCSV", `{"target":0,"header":"yes"}`, 0, 0)
	f.Add("stats", `{}`, 0, 0)
	f.Fuzz(func(t *testing.T, op, args string, n0, n1 int) {
		if n0 < 0 || n0 > 256 || n1 < 0 || n1 > 256 { // keeps every input fast
			return
		}
		arrays := [][]float64{make([]float64, n0), make([]float64, n1)}
		for i := range arrays[0] {
			arrays[0][i] = float64(i%7) - 3
		}
		res, out, err := Dispatch(op, []byte(args), Input{Arrays: arrays, Bytes: []byte("a,b,c\n1,2,x\n3,4,y\n")}, nil)
		if err != nil {
			if name, code, _, msg := JSError(err); name == "" || msg == "" || code == "" {
				t.Fatalf("empty error class or message: %#v", err)
			}
			return
		}
		if !json.Valid(res) {
			t.Fatalf("invalid result JSON %q", res)
		}
		if op == "fitStats" || op == "fitPart" || op == "fitShip" {
			return // wire forms: bytes in a Float64Array, not numbers
		}
		for _, a := range out {
			for _, v := range a {
				if math.IsNaN(v) {
					t.Fatalf("NaN in the result of %s %s", op, args)
				}
			}
		}
	})
}
