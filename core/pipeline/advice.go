package pipeline

import (
	"fmt"

	"ntkrf/core/names"
	"ntkrf/internal/check"
)

// FeaturesPerRow is how many random features per training row a fit may
// ask for before Advice warns: with more features than rows the fit is
// solved in the dual on ΦΦᵀ, an n×n matrix of rank at most n, which the
// exact kernel gives exactly and more cheaply; beyond a few features a
// row, more of them only cost time and memory.
const FeaturesPerRow = 8

// Advice returns sentences about a settled plan that a host shows its
// user without stopping the fit: random features far beyond what the rows
// need (more than FeaturesPerRow a row), with the memory of Φ at the
// map's precision against that of the exact kernel. Empty when there is
// nothing to say.
func (p *Plan) Advice() []string {
	if p.fmap == nil || p.rows < 1 || p.dim <= FeaturesPerRow*p.rows {
		return nil
	}
	width := 8.0
	precision := names.Float64
	if p.fmap.cfg.Float32() {
		width, precision = 4, names.Float32
	}
	phi := float64(p.rows) * float64(p.dim) * width
	exact := float64(p.rows) * float64(p.rows) * 8
	return []string{fmt.Sprintf("pipeline: %d features for %d rows (%d a row): Φ alone takes %s (%s), against %s for the exact %d×%d kernel, which the features only approximate; up to %d features (%d a row) or the exact kernel serve these rows",
		p.dim, p.rows, p.dim/p.rows, check.FormatBytes(phi), precision, check.FormatBytes(exact), p.rows, p.rows, FeaturesPerRow*p.rows, FeaturesPerRow)}
}
