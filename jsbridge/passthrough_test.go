package jsbridge

import (
	"strings"
	"testing"

	"ntkrf/core/krr"
)

// TestCoreErrorsPassThrough: where an op's answer is a core rule, its
// error is the core's (code, option and words), not the bridge's own
// paraphrase of one cause, which hides the others.
func TestCoreErrorsPassThrough(t *testing.T) {
	whole := []float64{0, 1, 2, 1}
	cases := []struct {
		name string
		op   string
		args string
		in   Input
		core func() error
	}{
		{"score: whole-number yTrue without a task", "score", `{"yTrue":{"array":0},"yPred":{"array":1}}`,
			Input{Arrays: [][]float64{whole, whole}},
			func() error { _, err := krr.TaskOf("", 0, whole); return err }},
		{"fitPlan: whole-number y without a task", "fitPlan", `{"rows":4,"cols":1,"features":{"depth":1},"y":{"array":0}}`,
			Input{Arrays: [][]float64{whole}},
			func() error { _, _, err := krr.Options{}.Labels(whole); return err }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.core()
			if want == nil {
				t.Fatal("the core accepts the input; the case tests nothing")
			}
			_, _, err := Dispatch(tc.op, []byte(tc.args), tc.in, nil)
			if err == nil {
				t.Fatal("accepted")
			}
			_, code, option, msg := JSError(err)
			_, wcode, woption, wmsg := JSError(want)
			if code != wcode || option != woption {
				t.Errorf("code %s, option %q; the core's %s, %q", code, option, wcode, woption)
			}
			// The core's words whole, then (for whole numbers) the calls
			// that settle the task in this API.
			if body := strings.TrimPrefix(wmsg, "krr: "); !strings.HasPrefix(msg, tc.op+": "+body) {
				t.Errorf("message %q; the core's is %q", msg, wmsg)
			}
		})
	}
}
