package jsbridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"ntkrf/core/pipeline"
	"ntkrf/internal/fixture"
)

// TestSelectInParts runs the package's split selection by hand: select
// with part on each of three "workers", their scored candidates passed
// back (as JSON, the way the package forwards them) to select with scored,
// which answers as select on one worker does, selection and scaler
// included. Both part and scored, or scores that are not the selection's,
// are refused.
func TestSelectInParts(t *testing.T) {
	t.Parallel()
	const n, d = 50, 3
	X, y := fixture.Data(n, d, 2, 9)
	opts := `"task":"classification","features":{"dim":16,"seed":1},"search":{"depths":[1,2,3]}`
	shape := fmt.Sprintf(`"rows":%d,"cols":%d,%s`, n, d, opts)
	res, planArrays, err := Dispatch("fitPlan", []byte(fmt.Sprintf(`{%s,"y":{"array":0}}`, shape)), Input{Arrays: [][]float64{y}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var plan struct {
		Plan    WireRef `json:"plan"`
		Classes int     `json:"classes"`
		Search  struct {
			Rows       []int `json:"rows"`
			Candidates int   `json:"candidates"`
		} `json:"search"`
	}
	if err := json.Unmarshal(res, &plan); err != nil {
		t.Fatal(err)
	}
	if len(plan.Search.Rows) != n || plan.Search.Candidates != 3*len(pipeline.DefaultPreprocess()) {
		t.Fatalf("plan %s", res)
	}
	form := planArrays[plan.Plan.Wire.Array]
	planArg := fmt.Sprintf(`"plan":{"wire":{"array":1},"bytes":%d}`, plan.Plan.Bytes)
	res, arrays, err := Dispatch("fitStats", []byte(fmt.Sprintf(`{%s,"X":{"rows":%d,"cols":%d,"array":0}}`, planArg, n, d)), Input{Arrays: [][]float64{X.RawMatrix().Data, form}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ Stats WireRef }
	if err := json.Unmarshal(res, &st); err != nil {
		t.Fatal(err)
	}
	in := Input{Arrays: [][]float64{X.RawMatrix().Data, y, arrays[st.Stats.Wire.Array], form}}
	planArg = fmt.Sprintf(`"plan":{"wire":{"array":3},"bytes":%d}`, plan.Plan.Bytes)
	base := fmt.Sprintf(`%s,"X":{"rows":%d,"cols":%d,"array":0},"y":{"array":1},"stats":[{"wire":{"array":2},"bytes":%d}]`, planArg, n, d, st.Stats.Bytes)
	want, wantArrays, err := Dispatch("select", []byte("{"+base+"}"), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	var all []json.RawMessage
	for part := range 3 {
		res, _, err := Dispatch("select", []byte(fmt.Sprintf(`{%s,"part":{"index":%d,"count":3}}`, base, part)), in, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Scored []json.RawMessage `json:"scored"`
		}
		if err := json.Unmarshal(res, &out); err != nil {
			t.Fatal(err)
		}
		if total := 3 * len(pipeline.DefaultPreprocess()); len(out.Scored) != total/3 {
			t.Fatalf("part %d: %d of %d candidates", part, len(out.Scored), total)
		}
		all = append(all, out.Scored...)
	}
	scored, _ := json.Marshal(all)
	got, gotArrays, err := Dispatch("select", []byte(fmt.Sprintf(`{%s,"scored":%s}`, planArg, scored)), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The same settled plan, its bytes (the selection in them) included.
	if !bytes.Equal(got, want) || !slices.Equal(gotArrays[0], wantArrays[0]) {
		t.Errorf("from parts:\n%s\non one worker:\n%s", got, want)
	}
	// Nothing open (an RBF kernel has no depth; the preprocessing is
	// given): the plan names no rows, and select has nothing to settle.
	fixed := fmt.Sprintf(`"rows":%d,"cols":%d,"task":"classification","classes":2,"kernel":{"kernel":"rbf"},"preprocess":{"standardize":false}`, n, d)
	res, fixedArrays, err := Dispatch("fitPlan", []byte("{"+fixed+"}"), in, nil)
	if err != nil || strings.Contains(string(res), "search") {
		t.Errorf("a plan with nothing open: %s, %v", res, err)
	}
	if err := json.Unmarshal(res, &plan); err != nil {
		t.Fatal(err)
	}
	fixedArg := fmt.Sprintf(`{"plan":{"wire":{"array":0},"bytes":%d},"scored":[]}`, plan.Plan.Bytes)
	if _, _, err := Dispatch("select", []byte(fixedArg), Input{Arrays: [][]float64{fixedArrays[plan.Plan.Wire.Array]}}, nil); err == nil || !strings.Contains(err.Error(), "leaves nothing to select") {
		t.Errorf("no scores with nothing open: %v", err)
	}
	for _, tc := range []struct{ args, code, option, want string }{
		{fmt.Sprintf(`{%s,"part":{"index":0,"count":2},"scored":%s}`, base, scored), "ERR_OPTION", "scored", "not both"},
		{fmt.Sprintf(`{%s,"part":{"index":2,"count":2}}`, base), "ERR_OPTION", "part", "part 2 of 2"},
		{fmt.Sprintf(`{%s,"scored":[]}`, planArg), "ERR_SHAPE", "scored", fmt.Sprintf("0 candidates scored; the selection has %d", 3*len(pipeline.DefaultPreprocess()))},
		{fmt.Sprintf(`{%s,"scored":%s}`, planArg, strings.Replace(string(scored), `"lambda":`, `"lambda":-`, 1)), "ERR_VALUE", "scored", "λ > 0"},
	} {
		_, _, err := Dispatch("select", []byte(tc.args), in, nil)
		_, code, option, msg := JSError(err)
		if err == nil || string(code) != tc.code || option != tc.option || !strings.Contains(msg, tc.want) {
			t.Errorf("%.80s…: %v, want %s on %s containing %q", tc.args[len(planArg)+1:], err, tc.code, tc.option, tc.want)
		}
	}
}

// TestSelectScreenInParts: a selection that screens (search.screen) split
// in two rounds as the package runs it on several workers (select with
// part and screen on each, then with part and every part's screened, then
// scored) settles the plan select settles on one worker, and each second
// round's answer is part's; the rounds' arguments are checked.
func TestSelectScreenInParts(t *testing.T) {
	t.Parallel()
	const n, d, parts = 300, 3, 3
	X, y := fixture.Data(n, d, 2, 9)
	shape := fmt.Sprintf(`"rows":%d,"cols":%d,"task":"classification","features":{"dim":16,"seed":1},"search":{"depths":[1,2,3]}`, n, d)
	res, planArrays, err := Dispatch("fitPlan", []byte(fmt.Sprintf(`{%s,"y":{"array":0}}`, shape)), Input{Arrays: [][]float64{y}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var plan struct {
		Plan   WireRef `json:"plan"`
		Search struct {
			Candidates int `json:"candidates"`
			Screen     int `json:"screen"`
			Kept       int `json:"kept"`
		} `json:"search"`
	}
	if err := json.Unmarshal(res, &plan); err != nil {
		t.Fatal(err)
	}
	if plan.Search.Screen != n/2 || plan.Search.Kept != pipeline.ScreenKeep {
		t.Fatalf("plan %s; want a screen of %d rows", res, n/2)
	}
	form := planArrays[plan.Plan.Wire.Array]
	planArg := fmt.Sprintf(`"plan":{"wire":{"array":3},"bytes":%d}`, plan.Plan.Bytes)
	res, arrays, err := Dispatch("fitStats", []byte(fmt.Sprintf(`{"plan":{"wire":{"array":1},"bytes":%d},"X":{"rows":%d,"cols":%d,"array":0}}`, plan.Plan.Bytes, n, d)), Input{Arrays: [][]float64{X.RawMatrix().Data, form}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ Stats WireRef }
	if err := json.Unmarshal(res, &st); err != nil {
		t.Fatal(err)
	}
	in := Input{Arrays: [][]float64{X.RawMatrix().Data, y, arrays[st.Stats.Wire.Array], form}}
	base := fmt.Sprintf(`%s,"X":{"rows":%d,"cols":%d,"array":0},"y":{"array":1},"stats":[{"wire":{"array":2},"bytes":%d}]`, planArg, n, d, st.Stats.Bytes)
	want, wantArrays, err := Dispatch("select", []byte("{"+base+"}"), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	scoredOf := func(args string) []json.RawMessage {
		t.Helper()
		res, _, err := Dispatch("select", []byte(args), in, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Scored []json.RawMessage `json:"scored"`
		}
		if err := json.Unmarshal(res, &out); err != nil {
			t.Fatal(err)
		}
		return out.Scored
	}
	var screened []json.RawMessage
	for part := range parts {
		screened = append(screened, scoredOf(fmt.Sprintf(`{%s,"part":{"index":%d,"count":%d},"screen":true}`, base, part, parts))...)
	}
	if len(screened) != plan.Search.Candidates {
		t.Fatalf("%d candidates screened of %d", len(screened), plan.Search.Candidates)
	}
	sj, _ := json.Marshal(screened)
	var all []json.RawMessage
	for part := range parts {
		got := scoredOf(fmt.Sprintf(`{%s,"part":{"index":%d,"count":%d},"screened":%s}`, base, part, parts, sj))
		one := scoredOf(fmt.Sprintf(`{%s,"part":{"index":%d,"count":%d}}`, base, part, parts))
		if g, o := fmt.Sprint(got), fmt.Sprint(one); g != o {
			t.Errorf("part %d after a split screen:\n%s\nscoring the screen itself:\n%s", part, g, o)
		}
		all = append(all, got...)
	}
	scored, _ := json.Marshal(all)
	got, gotArrays, err := Dispatch("select", []byte(fmt.Sprintf(`{%s,"scored":%s}`, planArg, scored)), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) || !slices.Equal(gotArrays[0], wantArrays[0]) {
		t.Errorf("from two rounds:\n%s\non one worker:\n%s", got, want)
	}
	for _, tc := range []struct{ args, code, option, want string }{
		{fmt.Sprintf(`{%s,"screen":true}`, base), "ERR_OPTION", "part", "give part too"},
		{fmt.Sprintf(`{%s,"screened":%s}`, base, sj), "ERR_OPTION", "part", "give part too"},
		{fmt.Sprintf(`{%s,"part":{"index":0,"count":2},"screen":true,"screened":%s}`, base, sj), "ERR_OPTION", "screened", "not both"},
		{fmt.Sprintf(`{%s,"part":{"index":0,"count":2},"screened":[]}`, base), "ERR_SHAPE", "screened", "0 candidates screened"},
		{fmt.Sprintf(`{%s,"part":{"index":0,"count":2},"screened":%s}`, base, strings.Replace(string(sj), `"rows":150`, `"rows":300`, 1)), "ERR_VALUE", "screened", "was scored on 300 rows"},
	} {
		_, _, err := Dispatch("select", []byte(tc.args), in, nil)
		_, code, option, msg := JSError(err)
		if err == nil || string(code) != tc.code || option != tc.option || !strings.Contains(msg, tc.want) {
			t.Errorf("%.80s…: %v, want %s on %s containing %q", tc.args[len(planArg)+1:], err, tc.code, tc.option, tc.want)
		}
	}
}
