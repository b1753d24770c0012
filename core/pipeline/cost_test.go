package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
)

// TestMethodOpen: the method is 'auto”s only while nothing fixes it (a
// kernel, another method, a width); the depth, seed and precision leave
// it open.
func TestMethodOpen(t *testing.T) {
	t.Parallel()
	open := []Config{{}, {Features: rf.Config{Method: rf.NTK, Depth: 2, Seed: 7, Precision: rf.Float64}}}
	fixed := []Config{
		{Kernel: &kernel.Spec{}},
		{Features: rf.Config{Dim: 1024}},
		{Features: rf.Config{Method: rf.NNGP}},
		{Features: rf.Config{Sketch: rf.SketchTensorSketch}},
		{Features: rf.Config{M1: 64, SketchDim: 64}},
	}
	for _, c := range open {
		if !methodOpen(c) {
			t.Errorf("%+v: the method should be open", c.Features)
		}
	}
	for _, c := range fixed {
		if methodOpen(c) {
			t.Errorf("%+v, kernel %v: the method should be fixed", c.Features, c.Kernel)
		}
	}
}

// TestChooseMethod: the exact kernel on few rows (its n³ below the
// features' fit or the search), features on many, with m doubled where
// the rows are many per feature and the budget allows, never past
// MaxAutoDim; the reason names the figures.
func TestChooseMethod(t *testing.T) {
	t.Parallel()
	opt := krr.Options{Task: krr.Classification, Classes: 10}
	search := defaultCosts.SearchWork(len(defaultDepths)*len(defaultPreps), DefaultSearchRows, 16, 2, 10, krr.GridPoints)
	cases := []struct {
		rows, cols int
		method     Method
		dim        int
	}{
		{150, 4, MethodKernel, 0},
		{1500, 64, MethodKernel, 0},
		{4000, 30, MethodFeatures, rf.DefaultDim},
		{5000, 36, MethodFeatures, 2048},
		{15000, 16, MethodFeatures, MaxAutoDim},
		{40000, 9, MethodFeatures, 2048},
		{MaxExactRows + 1, 2, MethodFeatures, 2048},
		{1_000_000, 784, MethodFeatures, rf.DefaultDim},
	}
	for _, c := range cases {
		mc := defaultCosts.chooseMethod(Config{}, opt, c.rows, c.cols, search, false)
		if mc.Method != c.method || mc.Dim != c.dim {
			t.Errorf("%d × %d: %s m = %d (%s), want %s m = %d", c.rows, c.cols, mc.Method, mc.Dim, mc.Reason, c.method, c.dim)
		}
		if !strings.Contains(mc.Reason, "CPU-s") && c.rows <= MaxExactRows || !(mc.Work.Total() > 0) {
			t.Errorf("%d × %d: reason %q, work %+v: the choice says why, with its cost", c.rows, c.cols, mc.Reason, mc.Work)
		}
	}
	// Without a search (nothing else open) the budget is the default
	// features' fit: exact only where it is the cheaper fit, and m stays.
	if mc := defaultCosts.chooseMethod(Config{}, opt, 100, 10, Work{}, false); mc.Method != MethodKernel {
		t.Errorf("100 rows, no search: %s (%s)", mc.Method, mc.Reason)
	}
	if mc := defaultCosts.chooseMethod(Config{}, opt, 30000, 10, Work{}, false); mc.Method != MethodFeatures || mc.Dim != rf.DefaultDim {
		t.Errorf("3000 rows, no search: %s m = %d (%s)", mc.Method, mc.Dim, mc.Reason)
	}
	// With the search's λ carried (more rows than the search's, λ open)
	// the exact fit is one solve: Satellite's 4,826 rows fit exactly, a
	// fixed λ carries nothing, and LetterRecognition's 15,000 stay features.
	sat := defaultCosts.chooseMethod(Config{}, opt, 4826, 36, search, true)
	if sat.Method != MethodKernel || !sat.Carry || !strings.Contains(sat.Reason, "at the search's λ") || sat.Work != defaultCosts.ExactFit(4826, 36, 1, 10, 0) {
		t.Errorf("4826 × 36, λ carried: %+v", sat)
	}
	fixed := opt
	fixed.Lambda = 1
	if mc := defaultCosts.chooseMethod(Config{}, fixed, 4826, 36, search, true); mc.Carry {
		t.Errorf("λ fixed: %+v", mc)
	}
	if mc := defaultCosts.chooseMethod(Config{}, opt, 15000, 16, search, true); mc.Method != MethodFeatures || mc.Carry {
		t.Errorf("15000 × 16, λ carried: %+v", mc)
	}
	var cfg Config
	if cfg = sat.applyTo(cfg); !cfg.carryLambda || cfg.Kernel == nil {
		t.Errorf("applied: %+v", cfg)
	}
	if c := applyCandidate(cfg, Candidate{Depth: 2, Lambda: 0.25}); c.Ridge.Lambda != 0.25 || c.carryLambda || c.Kernel.Depth != 2 {
		t.Errorf("candidate applied: %+v", c)
	}
}

// TestCostsSeconds: the modelled time is the overhead plus the work at the
// rate, divided among the workers; WebAssembly is slower.
func TestCostsSeconds(t *testing.T) {
	t.Parallel()
	c := defaultCosts
	w := c.FeatureFit(10000, 50, 2048, 2, 10)
	if w.Features <= 0 || w.Gram <= 0 || w.Lambda <= 0 || w.Kernel != 0 {
		t.Fatalf("feature fit: %+v", w)
	}
	one, two := c.Seconds(w, 1, false), c.Seconds(w, 2, false)
	if want := c.Overhead + w.Total()/c.NativeRate; one != want || !(two < one) || !(c.Seconds(w, 2, true) > two) {
		t.Errorf("seconds: one core %v (want %v), two %v, wasm %v", one, want, two, c.Seconds(w, 2, true))
	}
	fixed, searched := c.ExactFit(1000, 10, 1, 3, 0), c.ExactFit(1000, 10, 1, 3, krr.GridPoints)
	if !(searched.Total() > fixed.Total()) || fixed.Kernel != searched.Kernel {
		t.Errorf("exact fit: λ fixed %+v, searched %+v", fixed, searched)
	}
}

// TestSelectionMethodInFile: the method 'auto' chose travels with the
// model file and is checked against the model when read back.
func TestSelectionMethodInFile(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(60, 3, 3, 2)
	p, err := Fit(context.Background(), X, y, Config{Ridge: krr.Options{Task: krr.Classification}})
	if err != nil {
		t.Fatal(err)
	}
	saved, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	q, err := Load(bytes.NewReader(saved))
	if err != nil {
		t.Fatal(err)
	}
	if s := q.Selection(); s.Method != MethodKernel || s.Reason != p.Selection().Reason || s.Seconds != p.Selection().Seconds {
		t.Errorf("read back: %+v, saved %+v", s, p.Selection())
	}
	// A file whose selection says features for an exact-kernel model is refused.
	var f map[string]any
	if err := json.Unmarshal(saved, &f); err != nil {
		t.Fatal(err)
	}
	f["selection"].(map[string]any)["method"] = MethodFeatures
	f["selection"].(map[string]any)["dim"] = 64
	b, _ := json.Marshal(f)
	if _, err := Load(bytes.NewReader(b)); check.CodeOf(err) != check.Value || !strings.Contains(err.Error(), "method chosen") {
		t.Errorf("features in the selection of a kernel model: %v", err)
	}
	f["selection"].(map[string]any)["method"] = "svm"
	b, _ = json.Marshal(f)
	if _, err := Load(bytes.NewReader(b)); check.CodeOf(err) != check.Value {
		t.Errorf("an unknown method: %v", err)
	}
}
