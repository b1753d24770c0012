package pipeline

import (
	"context"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/internal/check"
	"ntkrf/internal/rowtree"
)

// Solve chooses λ by the plan's criterion on the merged part of every row
// (GCV or held-out accuracy on the sums; LOO, GCV or a fixed λ on the
// collected rows) and assembles the pipeline. It stops between stages once
// ctx is cancelled. part is consumed: its sums become the model's. The
// model keeps what the plan holds beside the fit: the data set's schema
// or the class names (Config), and the selection that settled it.
func (p *fitPlan) Solve(ctx context.Context, s *data.Scaler, part *fitPart) (*Pipeline, error) {
	return promptly(ctx, "pipeline: solve", p.cfg.Ridge.Progress, func(report func(done, total int, stage string)) (*Pipeline, error) {
		return p.WithProgress(report).solve(ctx, s, part)
	})
}

func (p *fitPlan) solve(ctx context.Context, s *data.Scaler, part *fitPart) (*Pipeline, error) {
	if err := p.checkScaler(s); err != nil {
		return nil, err
	}
	if part == nil {
		return nil, check.New(check.Type, "", "pipeline: no part to solve; merge the part of every row")
	}
	if err := part.usable(); err != nil {
		return nil, err
	}
	if part.plan.digest != p.digest {
		return nil, check.New(check.Protocol, "", "pipeline: the part is of another plan (other settings, seed, rows or columns); solve with the plan the parts were made from")
	}
	if part.scalerID != scalerDigest(s) {
		return nil, check.New(check.Protocol, "", "pipeline: the part's rows were scaled with other statistics than the scaler solved with; fit one scaler from the merged statistics of every row and use it for every part and the solve")
	}
	if miss, ok := part.rows.Missing(p.rows); ok {
		return nil, check.New(check.Protocol, "", "pipeline: rows %d…%d of the plan's %d are in no part (the parts hold %d); merge the part of every row before solving", miss[0], miss[1]-1, p.rows, part.Rows())
	}
	part.solved = true
	if err := ctx.Err(); err != nil {
		return nil, check.Stopped("pipeline: solve", err)
	}
	if err := part.sortByKey(); err != nil {
		return nil, err
	}
	// The primal's sums: the root of the fixed tree over the leaves.
	var acc *krr.Accumulator
	if !p.collect {
		root, err := part.sums.Root(rowtree.Leaf(p.rows-1) + 1)
		if err != nil {
			return nil, check.New(check.Internal, "", "pipeline: solve: %v", err)
		}
		acc = root.acc
	}
	opt := p.cfg.Ridge
	w := p.width()
	var rows *mat.Dense
	if len(part.y) > 0 {
		rows = mat.NewDense(len(part.y), w, part.x)
	}
	fm, err := p.featureMap()
	if err != nil {
		return nil, err
	}
	parts := components{Input: p.cfg.Input, Classes: p.classNames(), Scaler: s, Map: fm, Kernel: p.kern, Selection: p.sel}
	switch {
	case p.kern != nil:
		parts.Model, err = krr.FitKernelContext(ctx, *p.kern, rows, part.y, opt)
	case p.collect:
		parts.Model, err = krr.FitFeaturesContext(ctx, fm, rows, part.y, opt)
	default:
		if err = acc.Configure(opt); err != nil {
			return nil, err
		}
		if opt.Lambda == 0 && opt.Criterion == krr.Holdout {
			progress(opt, 0, 1, "holdout")
			if rows == nil {
				rows = &mat.Dense{} // nothing held out: SolveHeldOut says so
			}
			// The held-out rows' sums are made here (on the helper,
			// while this instance searches, where there is one).
			parts.Model, err = acc.SolveHeldOutContext(ctx, rows, part.y)
		} else {
			parts.Model, err = acc.SolveContext(ctx)
		}
		if err == nil {
			err = parts.Model.SetFeaturizer(fm)
		}
		progress(opt, 1, 1, "solve")
	}
	if err != nil {
		return nil, err
	}
	return assemble(parts)
}

// sortByKey puts the rows kept whole in the order of their keys, so that
// the solve does not depend on the order the parts were merged in; a key
// seen twice is an error (a row merged twice).
func (pt *fitPart) sortByKey() error {
	n := len(pt.keys)
	if slices.IsSorted(pt.keys) {
		for i := 1; i < n; i++ {
			if pt.keys[i] == pt.keys[i-1] {
				return dupKey(pt.keys[i])
			}
		}
		return nil
	}
	w := pt.plan.width()
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case pt.keys[a] < pt.keys[b]:
			return -1
		case pt.keys[a] > pt.keys[b]:
			return 1
		}
		return 0
	})
	keys, y, x := make([]uint64, n), make([]float64, n), make([]float64, n*w)
	for i, j := range idx {
		keys[i], y[i] = pt.keys[j], pt.y[j]
		copy(x[i*w:(i+1)*w], pt.x[j*w:(j+1)*w])
		if i > 0 && keys[i] == keys[i-1] {
			return dupKey(keys[i])
		}
	}
	pt.keys, pt.y, pt.x = keys, y, x
	return nil
}

func dupKey(k uint64) error {
	return check.New(check.Value, "", "pipeline: row %d is in two parts; give every row one key and merge each part once", k)
}
