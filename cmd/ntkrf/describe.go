// How the experiments name a fitted pipeline's choices.

package main

import (
	"fmt"
	"strings"

	"ntkrf/core/kernel"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
)

// describe names each fold's choice, e.g. "L2 unit λ=0.031" or
// "L1 std+bias λ=0.5".
func describe(ps []*pipeline.Pipeline) string {
	var parts []string
	for _, p := range ps {
		prep := "std"
		if p.Preprocess().Raw {
			prep = "raw"
		}
		if p.Preprocess().UnitNorm {
			prep = map[bool]string{false: "unit", true: "rawunit"}[p.Preprocess().Raw]
		}
		if p.Preprocess().Bias > 0 {
			prep += "+bias"
		}
		depth := 0
		if f := p.Features(); f != nil {
			depth = f.Depth
		} else {
			depth = p.Kernel().Depth
		}
		if k := p.Kernel(); k != nil && k.Name == kernel.NameRBF {
			parts = append(parts, fmt.Sprintf("rbf γ=%.2g %s λ=%.2g", k.Gamma, prep, p.Lambda()))
			continue
		}
		if f := p.Features(); f != nil && f.Method == rf.RFF {
			parts = append(parts, fmt.Sprintf("rff γ=%.2g %s λ=%.2g", f.Gamma, prep, p.Lambda()))
			continue
		}
		parts = append(parts, fmt.Sprintf("L%d %s λ=%.2g", depth, prep, p.Lambda()))
	}
	return strings.Join(parts, ", ")
}
