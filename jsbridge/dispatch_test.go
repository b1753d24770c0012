package jsbridge

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core"
)

var refX = []float64{1, 2, 0, 0.5, -1, 3, -2, 0.25, 1}

func TestKernelMatchesCore(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args string
		want func() (*mat.Dense, error)
	}{
		{`{"X":{"rows":3,"cols":3,"array":0},"depth":2}`, func() (*mat.Dense, error) {
			return core.NTK(mat.NewDense(3, 3, refX), 2)
		}},
		{`{"X":{"rows":3,"cols":3,"array":0},"kernel":"nngp","depth":3}`, func() (*mat.Dense, error) {
			return core.NNGP(mat.NewDense(3, 3, refX), 3)
		}},
		{`{"X":{"rows":3,"cols":3,"array":0},"kernel":"rbf"}`, func() (*mat.Dense, error) {
			return core.RBF(mat.NewDense(3, 3, refX), 1.0/3) // default γ = 1/cols
		}},
		{`{"X":{"rows":3,"cols":3,"array":0},"Z":{"rows":1,"cols":3,"array":1}}`, func() (*mat.Dense, error) {
			return core.NTKCross(mat.NewDense(3, 3, refX), mat.NewDense(1, 3, refX[3:6]), 1)
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
		op, args  string
		arrays    [][]float64
		name, msg string
	}{
		{"nope", `{}`, nil, "TypeError", `unknown operation "nope"; known: `},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0},"dpeth":2}`, x(), "TypeError", `unknown option "dpeth"; known options: X, Z, depth, gamma, kernel`},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0},"depth":"2"}`, x(), "TypeError", `option "depth" must be a number, not string`},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0},"depth":1.5}`, x(), "TypeError", `option "depth" must be a number`},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0},"kernel":"poly"}`, x(), "TypeError", `unknown kernel "poly"`},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0},"depth":-1}`, x(), "RangeError", "depth -1 is out of range"},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0},"kernel":"rbf","gamma":-2}`, x(), "RangeError", "gamma must be a positive"},
		{"kernel", `{"X":{"rows":2,"cols":3,"array":0}}`, x(), "RangeError", "X.data has 9 values but rows×cols = 2×3 = 6"},
		{"kernel", `{"X":{"rows":0,"cols":3,"array":0}}`, x(), "RangeError", "X is 0×3"},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":5}}`, x(), "TypeError", "X refers to array 5, but the call has 1"},
		{"kernel", `{}`, x(), "TypeError", "X is required"},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0}} junk`, x(), "TypeError", "options have trailing data"},
		{"kernel", `[1,2]`, x(), "TypeError", "kernel: option"},
		{"kernel", `{"X":{"rows":3,"cols":3,"array":0},"Z":{"rows":1,"cols":2,"array":1}}`, [][]float64{refX, {1, 2}}, "Error", "X has 3 columns but Z has 2"},
		{"kernel", `{"X":{"rows":1,"cols":2,"array":0}}`, [][]float64{{1, math.Inf(1)}}, "Error", "X has +Inf at row 0, column 1"},
		// 2^62 rows × 4 cols overflows int: the length check must not be fooled.
		{"kernel", `{"X":{"rows":4611686018427387904,"cols":4,"array":0}}`, [][]float64{{}}, "RangeError", "X.data has 0 values"},
	}
	for _, tc := range tests {
		_, _, err := Dispatch(tc.op, []byte(tc.args), Input{Arrays: tc.arrays}, nil)
		if err == nil {
			t.Errorf("%s %s: no error", tc.op, tc.args)
			continue
		}
		name, msg := JSError(err)
		if name != tc.name || !strings.Contains(msg, tc.msg) {
			t.Errorf("%s %s:\n got %s: %s\nwant %s containing %q", tc.op, tc.args, name, msg, tc.name, tc.msg)
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
	f.Fuzz(func(t *testing.T, op, args string, n0, n1 int) {
		if n0 < 0 || n0 > 256 || n1 < 0 || n1 > 256 { // keeps every input fast
			return
		}
		arrays := [][]float64{make([]float64, n0), make([]float64, n1)}
		for i := range arrays[0] {
			arrays[0][i] = float64(i%7) - 3
		}
		res, out, err := Dispatch(op, []byte(args), Input{Arrays: arrays}, nil)
		if err != nil {
			if name, msg := JSError(err); name == "" || msg == "" {
				t.Fatalf("empty error class or message: %#v", err)
			}
			return
		}
		if !json.Valid(res) {
			t.Fatalf("invalid result JSON %q", res)
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
