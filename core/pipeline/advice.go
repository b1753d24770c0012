package pipeline

import (
	"fmt"

	"ntkrf/core/names"
	"ntkrf/internal/check"
)

// featuresPerRow is how many random features per training row a fit may
// ask for before Advice warns: with more features than rows the fit is
// solved in the dual on ΦΦᵀ, an n×n matrix of rank at most n, which the
// exact kernel gives exactly and more cheaply; beyond a few features a
// row, more of them only cost time and memory.
const featuresPerRow = 8

// Advice returns sentences about a settled plan that a host shows its
// user without stopping the fit: random features far beyond what the rows
// need (more than featuresPerRow a row), with the memory of Φ at the
// map's precision and the modelled time of the fit (DefaultCosts) against
// those of the exact kernel. Empty when there is nothing to say.
func (p *fitPlan) Advice() []string {
	if p.fmap == nil || p.rows < 1 || p.dim <= featuresPerRow*p.rows {
		return nil
	}
	width := 8.0
	precision := names.Float64
	if p.fmap.cfg.Float32() {
		width, precision = 4, names.Float32
	}
	phi := float64(p.rows) * float64(p.dim) * width
	exact := float64(p.rows) * float64(p.rows) * 8
	outputs := max(p.cfg.Ridge.Classes, 1)
	depth := p.fmap.cfg.Depth
	c := defaultCosts
	secs := c.Seconds(c.FeatureFit(p.rows, p.fmap.inputs, p.dim, depth, outputs), 1, false)
	exactSecs := c.Seconds(c.ExactFit(p.rows, p.fmap.inputs, depth, outputs, 1), 1, false)
	return []string{fmt.Sprintf("pipeline: %d features for %d rows (%d a row): Φ alone takes %s (%s) and the fit about %s, against %s and about %s for the exact %d×%d kernel, which the features only approximate; up to %d features (%d a row) or the exact kernel serve these rows",
		p.dim, p.rows, p.dim/p.rows, check.FormatBytes(phi), precision, seconds(secs), check.FormatBytes(exact), seconds(exactSecs), p.rows, p.rows, featuresPerRow*p.rows, featuresPerRow)}
}

// seconds writes a modelled time for a sentence: "0.3 s", "12 s", "4 min".
func seconds(s float64) string {
	switch {
	case s < 10:
		return fmt.Sprintf("%.2g s", s)
	case s < 600:
		return fmt.Sprintf("%.0f s", s)
	default:
		return fmt.Sprintf("%.0f min", s/60)
	}
}
