package auto

import (
	"encoding/json"
	"flag"
	"testing"
)

type prep struct {
	Bias float64 `json:"bias"`
}

// TestForms: the word auto and a value read and write the same way in
// JSON and on a command line, for numbers, strings and objects.
func TestForms(t *testing.T) {
	var depth Value[int]
	if err := json.Unmarshal([]byte(`"auto"`), &depth); err != nil || !depth.IsAuto() || depth.Or(0) != 0 {
		t.Fatalf("auto: %v %+v", err, depth)
	}
	if err := json.Unmarshal([]byte(`3`), &depth); err != nil || depth.Or(0) != 3 {
		t.Fatalf("3: %v %+v", err, depth)
	}
	if err := json.Unmarshal([]byte(`"three"`), &depth); err == nil {
		t.Fatal("a word other than auto was read as a depth")
	}
	var p Value[prep]
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.Var(&p, "preprocess", "")
	if err := fs.Parse([]string{"-preprocess", `{"bias":1}`}); err != nil || p.Ptr() == nil || p.Ptr().Bias != 1 {
		t.Fatalf("flag: %v %+v", err, p)
	}
	if b, _ := json.Marshal(p); string(b) != `{"bias":1}` || p.String() != `{"bias":1}` {
		t.Fatalf("written as %s / %s", b, p.String())
	}
	if err := p.Set("auto"); err != nil || p.Ptr() != nil || p.String() != "auto" {
		t.Fatalf("auto flag: %v %+v", err, p)
	}
	if b, _ := json.Marshal(p); string(b) != `"auto"` {
		t.Fatalf("auto written as %s", b)
	}
	var task Value[string]
	if err := task.Set("regression"); err != nil || task.Or("") != "regression" {
		t.Fatalf("task: %v %+v", err, task)
	}
	var lambda Value[float64]
	if err := lambda.Set("fast"); err == nil {
		t.Fatal("fast read as λ")
	}
}
