package pipeline

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/internal/seam"
	"ntkrf/core/linalg"
)

// The protocol's implementation (fitPlan, fitPart) is this package's, as
// Fit runs it with one part and the solve assembles a Pipeline from its
// unexported parts; ntkrf/core/protocol exports it to hosts. That package
// imports this one, so this one registers the implementation with the
// seam between them (ntkrf/core/internal/seam) when it is initialised.
func init() {
	seam.Register(seam.Protocol[Config, Selection, Candidate, Pipeline]{
		NewPlan: func(cfg Config, rows, cols int, y []float64) (hostPlan, error) {
			return hosted(newPlan(cfg, rows, cols, y))
		},
		DecodePlan: func(b []byte) (hostPlan, error) { return hosted(decodePlan(b)) },
	})
}

// hostPlan is a plan as the seam hands it on.
type hostPlan = seam.Plan[Config, Selection, Candidate, Pipeline]

func hosted(p *fitPlan, err error) (hostPlan, error) {
	if err != nil {
		return nil, err
	}
	return seamPlan{p}, nil
}

// seamPlan is a fitPlan whose methods that return plans or parts return
// the seam's.
type seamPlan struct{ *fitPlan }

func (h seamPlan) WithProgress(progress func(done, total int, stage string)) hostPlan {
	return seamPlan{h.fitPlan.WithProgress(progress)}
}

func (h seamPlan) WithHelper(peer linalg.Peer) hostPlan {
	return seamPlan{h.fitPlan.WithHelper(peer)}
}

func (h seamPlan) Select(ctx context.Context, Xs *mat.Dense, ys []float64, stats *data.Stats) (hostPlan, *Selection, error) {
	p, sel, err := h.fitPlan.Select(ctx, Xs, ys, stats)
	if err != nil {
		return nil, nil, err
	}
	return seamPlan{p}, sel, nil
}

func (h seamPlan) Choose(scored []candScore) (hostPlan, *Selection, error) {
	p, sel, err := h.fitPlan.Choose(scored)
	if err != nil {
		return nil, nil, err
	}
	return seamPlan{p}, sel, nil
}

func (h seamPlan) NewPart(s *data.Scaler) (seam.Part, error) {
	pt, err := h.fitPlan.NewPart(s)
	if err != nil {
		return nil, err
	}
	return seamPart{pt}, nil
}

func (h seamPlan) DecodePart(b []byte) (seam.Part, error) {
	pt, err := h.fitPlan.DecodePart(b)
	if err != nil {
		return nil, err
	}
	return seamPart{pt}, nil
}

func (h seamPlan) Solve(ctx context.Context, s *data.Scaler, part seam.Part) (*Pipeline, error) {
	return h.fitPlan.Solve(ctx, s, unseam(part))
}

// seamPart is a fitPart that merges the seam's parts.
type seamPart struct{ *fitPart }

func (h seamPart) Merge(o seam.Part) error { return h.fitPart.Merge(unseam(o)) }

// unseam is the fitPart of a seam's part; nil for none (the part's
// methods refuse it with their coded errors).
func unseam(pt seam.Part) *fitPart {
	if h, ok := pt.(seamPart); ok {
		return h.fitPart
	}
	return nil
}
