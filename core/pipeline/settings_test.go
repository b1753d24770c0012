package pipeline

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"ntkrf/internal/check"
)

// TestSettings: a selection's settings are the settled plan's features or
// kernel (depth included) and preprocessing, whole; written as JSON they
// leave unset fields out, and options replaced by them (not written into)
// make the settled plan again. An open plan has none.
func TestSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range autoCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			X, y := protocolData(300, tc.k)
			n, d := X.Dims()
			open, err := NewPlan(tc.cfg, n, d, y)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := open.Settings(); check.CodeOf(err) != check.Option {
				t.Errorf("an open plan's settings: %v; want an option error", err)
			}
			settled, _, err := Select(context.Background(), X, y, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := NewPlan(settled, n, d, nil)
			if err != nil {
				t.Fatal(err)
			}
			s, err := plan.Settings()
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			var raw map[string]map[string]json.RawMessage
			if err := json.Unmarshal(b, &raw); err != nil {
				t.Fatal(err)
			}
			for _, group := range []string{"features", "kernel"} {
				for k, v := range raw[group] {
					if slices.Contains([]string{`0`, `""`, `false`, `null`}, string(v)) {
						t.Errorf("settings %s: %s.%s is unset, yet written", b, group, k)
					}
				}
			}
			var back Settings
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			// The host's options (the open ones), replaced whole.
			cfg := tc.cfg
			cfg.Preprocess = &back.Preprocess
			cfg.Kernel = back.Kernel
			if back.Features != nil {
				cfg.Features = *back.Features
			}
			again, err := NewPlan(cfg, n, d, y)
			if err != nil {
				t.Fatal(err)
			}
			if again.SearchRows() != nil {
				t.Fatal("the options with the settings in place still leave something open")
			}
			if got, want := again.Config(), plan.Config(); !reflect.DeepEqual(got.Features, want.Features) || !reflect.DeepEqual(got.Kernel, want.Kernel) || *got.Preprocess != *want.Preprocess {
				t.Errorf("replaced by the settings, the options make %+v / %+v / %+v; the settled plan is %+v / %+v / %+v",
					got.Features, got.Kernel, got.Preprocess, want.Features, want.Kernel, want.Preprocess)
			}
			if want := settled.Features.Depth; plan.cfg.Kernel == nil && (back.Features == nil || back.Features.Depth != want || want == 0) {
				t.Errorf("the settings' features %+v, want depth %d", back.Features, want)
			}
			if plan.cfg.Kernel != nil && (back.Kernel == nil || back.Kernel.Depth != plan.cfg.Kernel.Depth || back.Features != nil) {
				t.Errorf("the settings of a kernel plan: %s", b)
			}
		})
	}
}
