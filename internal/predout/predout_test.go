package predout_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
	"ntkrf/internal/predout"
)

func model(t *testing.T, text string, task data.Task) *pipeline.Pipeline {
	t.Helper()
	ds, err := data.Parse([]byte(text), data.Options{Task: task})
	if err != nil {
		t.Fatal(err)
	}
	p, err := pipeline.FitDataset(context.Background(), ds, pipeline.Config{Features: rf.Config{Dim: 16, Depth: 1, Seed: 1}, Ridge: krr.Options{Lambda: 0.1}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAppend: one line per prediction: class names as CSV fields with
// formulas neutralised and line breaks escaped (a backslash too, only in
// a name that has one), values with 17 significant digits; appended to
// what b holds.
func TestAppend(t *testing.T) {
	var train strings.Builder
	train.WriteString("a,y\n")
	for i := range 12 {
		fmt.Fprintf(&train, "%d,%s\n", i%4, []string{`"a,b"`, `"=x"`, `"l1` + "\n" + `l2\"`, `back\slash`}[i%4])
	}
	p := model(t, train.String(), "")
	names := p.Classes()
	idx := map[string]float64{}
	for i, n := range names {
		idx[n] = float64(i)
	}
	for _, tc := range []struct {
		class, want string
	}{
		{"a,b", `"a,b"`},
		{"=x", `"'=x"`},
		{"l1\nl2\\", `l1\nl2\\`},
		{`back\slash`, `back\slash`},
	} {
		got, err := predout.Append([]byte("> "), p, []float64{idx[tc.class], idx[tc.class]})
		if want := "> " + tc.want + "\n" + tc.want + "\n"; err != nil || string(got) != want {
			t.Errorf("%q: %q (%v), want %q", tc.class, got, err, want)
		}
	}
	if _, err := predout.Append(nil, p, []float64{7}); err == nil {
		t.Error("class 7 of 4: no error")
	}
	r := model(t, "a,y\n1,0.5\n2,1.5\n3,2\n4,3.25\n", krr.Regression)
	got, err := predout.Append(nil, r, []float64{0.1, -2, 1e300})
	if want := "0.10000000000000001\n-2\n1.0000000000000001e+300\n"; err != nil || string(got) != want {
		t.Errorf("values: %q (%v), want %q", got, err, want)
	}
}
