package pipeline

import (
	"testing"

	"ntkrf/core/krr"
	"ntkrf/core/names"
	"ntkrf/core/rf"
)

// TestRBFWhereFeatures: with the method left to 'auto', the RBF
// candidates are searched whether it fits the exact kernel or features;
// an RBF best with a depth-1 NTK candidate within one standard error is
// passed over for the NTK when the exact kernel is fitted, and chosen,
// as its random Fourier features at the m chosen, when features are.
func TestRBFWhereFeatures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		rows      int
		method    Method
		chooseRBF bool
	}{
		{"exact kernel", 200, MethodKernel, false},
		{"features", 4000, MethodFeatures, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			y := make([]float64, tc.rows)
			for i := range y {
				y[i] = float64(i % 2)
			}
			plan, err := newPlan(Config{Search: Search{Rows: 200}, Ridge: krr.Options{Task: krr.Classification}}, tc.rows, 30, y)
			if err != nil {
				t.Fatal(err)
			}
			s := plan.open
			if s.method == nil || s.method.Method != tc.method || s.screen != nil || len(s.idx) != 200 {
				t.Fatalf("method %+v, screen %d, %d rows searched", s.method, len(s.screen), len(s.idx))
			}
			rbf, l1 := -1, -1
			for i, c := range s.cands {
				if c.Kernel == names.RBF && rbf < 0 {
					rbf = i
				}
				if c.Depth == 1 && l1 < 0 {
					l1 = i
				}
			}
			if rbf < 0 || l1 < 0 || len(s.cands) != len(defaultDepths)*len(defaultPreps)+len(autoRBF) {
				t.Fatalf("candidates %+v", s.cands)
			}
			// The RBF candidate misses 18 rows, the depth-1 one 19 (within
			// one standard error), every other one 40.
			scored := make([]candScore, len(s.cands))
			for i, c := range s.cands {
				miss := 40
				switch i {
				case rbf:
					miss = 18
				case l1:
					miss = 19
				}
				losses := make([]float64, 200)
				for r := range miss {
					losses[r] = 1
				}
				c.Lambda, c.Accuracy, c.Score = 0.1, 1-float64(miss)/200, float64(miss)/400
				scored[i] = candScore{Index: i, Candidate: c, Losses: losses}
				if s.method.Carry {
					scored[i].Curve = krr.Curve{{Lambda: c.Lambda, Score: c.Score, Accuracy: c.Accuracy}}
				}
			}
			settled, sel, err := plan.Choose(scored)
			if err != nil {
				t.Fatal(err)
			}
			if got := sel.Chosen == rbf; got != tc.chooseRBF || !got && sel.Chosen != l1 || sel.Best != rbf {
				t.Fatalf("chose %d (best %d); the RBF candidate is %d, depth 1 %d", sel.Chosen, sel.Best, rbf, l1)
			}
			cfg := settled.Config()
			switch {
			case tc.chooseRBF:
				f := cfg.Features
				if cfg.Kernel != nil || f.Method != rf.RFF || f.Gamma != s.cands[rbf].Gamma || f.Dim != sel.Dim || f.Depth != 0 {
					t.Errorf("settled on kernel %+v, features %+v; want the RBF candidate's random Fourier features, m = %d", cfg.Kernel, f, sel.Dim)
				}
			case cfg.Kernel == nil || cfg.Kernel.Name != names.NTK || cfg.Kernel.Depth != 1:
				t.Errorf("settled on kernel %+v; want the NTK of depth 1", cfg.Kernel)
			}
		})
	}
}
