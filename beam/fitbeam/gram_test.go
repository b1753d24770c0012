package fitbeam

import (
	"testing"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/protocol"
	"ntkrf/core/rf"
)

// TestGramReachesThePlan: the Gram step's arithmetic given to the Beam fit
// travels in the plan every worker rebuilds, and left empty it is the
// core's default for the settled task and features (krr.DefaultGram), as
// in a single-process fit.
func TestGramReachesThePlan(t *testing.T) {
	t.Parallel()
	prep := data.Prep{}
	for _, tc := range []struct {
		name string
		gram rf.Precision
		task krr.Task
		want rf.Precision
	}{
		{"explicit float64", rf.Float64, krr.Classification, rf.Float64},
		{"explicit float32", rf.Float32, krr.Regression, rf.Float32},
		{"default, classification", "", krr.Classification, krr.DefaultGram(krr.Classification, true, 4000, 64)},
		{"default, regression", "", krr.Regression, krr.DefaultGram(krr.Regression, true, 4000, 64)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := Options{Prep: &prep, Features: rf.Config{Method: rf.NTK, Depth: 1, Dim: 64}, Lambda: 0.1, Gram: tc.gram}
			if err := o.Check(); err != nil {
				t.Fatal(err)
			}
			cfg := o.config()
			cfg.Ridge.Task = tc.task
			if tc.task == krr.Classification {
				cfg.Ridge.Classes = 3
			}
			plan, err := protocol.NewPlan(cfg, 4000, 4, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := plan.Config().Ridge.Gram; got != tc.want {
				t.Fatalf("the plan's Gram is %q; want %q", got, tc.want)
			}
		})
	}
	if err := (Options{Gram: "float16"}).Check(); err == nil {
		t.Error("an unknown Gram arithmetic was accepted")
	}
}
