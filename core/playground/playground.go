// Package playground fits a few small models on the same rows and
// predicts sets of points with each, keeping what it computed for the
// next request: the lab's playground, which draws three decision surfaces
// (the exact kernel, its random features, an RBF contrast) of a few
// hundred points, redrawn whenever a control moves.
//
// A Cache holds, for the rows last given, every model it fitted (keyed by
// the model's whole pipeline.Config) and each model's scores of every set
// of points it predicted (keyed by the points' bits). A request then
// computes only what the control that moved changed: a new m refits the
// random features alone, a new depth the exact kernel and the features
// (the RBF contrast has no depth), and a request for points predicted
// before (the coarse grid after the full one, the test rows) computes
// nothing. Each model is pipeline.Fit and each prediction
// Pipeline.Scores, so the scores have the bits of every other host's fit
// of the same rows and options.
package playground

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// MaxModels bounds the models of one request.
const MaxModels = 8

// keepModels is how many fitted models a Cache keeps (the last used
// first): three surfaces at each of a few settings, so that moving a
// slider back and forth refits nothing.
const keepModels = 24

// keepPoints is how many sets of points a Cache keeps scores of: the test
// rows, the coarse grid and the full grid, and one spare.
const keepPoints = 4

// Request is one redraw: the models' settings, the training rows X with
// their targets Y, and the sets of points to score with every model (the
// test rows, a grid over the plane).
type Request struct {
	Models []pipeline.Config
	X      *mat.Dense
	Y      []float64
	Points []*mat.Dense
	// Progress, when set, is called after each model with the models done.
	Progress func(done, total int, stage string)
}

// Surface is one model's answer: its λ (chosen, with λ 'auto'), its scores
// of each set of points (Scores[i] of Request.Points[i]: one column per
// class, or one value per row), and whether the model was fitted by an
// earlier request (Reused) rather than by this one.
type Surface struct {
	Lambda float64
	Scores []*mat.Dense
	Reused bool
	// Computed counts the sets of points this request scored anew (the
	// others came from the cache).
	Computed int
}

// Cache keeps the models and scores of earlier requests; its zero value
// is ready. It is safe for concurrent use (requests run one at a time).
type Cache struct {
	mu     sync.Mutex
	x      *mat.Dense // the rows the models were fitted on (a copy)
	y      []float64
	points []*mat.Dense // point sets scored, the last used first (copies)
	models []*entry     // the last used first
	bases  map[string]*bases
	order  []string // the bases' keys, the last used first
	bytes  int      // of every basis kept

	// Fits counts the models fitted, and Bases the bases computed, for
	// tests and the page's status.
	Fits, Bases int
}

type entry struct {
	key    string
	p      *pipeline.Pipeline
	s      *solved                   // nil: scored by Pipeline.Scores
	scores map[*mat.Dense]*mat.Dense // by the Cache's copy of the points
}

// bases are the bases of one solved key: the features' map (primal) and
// the basis of each set of points.
type bases struct {
	fmap *rf.Map
	pts  map[*mat.Dense]*basis
}

// Run answers req, fitting and scoring only what no earlier request of
// the same rows did. An error names the model it came from; the cache
// keeps what was computed before it.
func (c *Cache) Run(ctx context.Context, req Request) ([]Surface, error) {
	if err := req.check(); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !sameMatrix(c.x, req.X) || !sameFloats(c.y, req.Y) {
		// Other rows: nothing kept applies.
		c.x, c.y, c.points, c.models = mat.DenseCopyOf(req.X), append([]float64(nil), req.Y...), nil, nil
		c.bases, c.order, c.bytes = nil, nil, 0
	}
	pts := make([]*mat.Dense, len(req.Points))
	for i, P := range req.Points {
		pts[i] = c.pointSet(P)
	}
	out := make([]Surface, len(req.Models))
	total := len(req.Models)
	for i, cfg := range req.Models {
		if err := ctx.Err(); err != nil {
			return nil, check.Stopped("playground: run", err)
		}
		e, reused, err := c.model(ctx, cfg)
		if err != nil {
			return nil, fmt.Errorf("playground: model %d of %d: %w", i+1, total, err)
		}
		if e.s != nil {
			c.use(e.s.key) // its bases are in use, though its scores may be kept
		}
		s := Surface{Lambda: e.p.Lambda(), Reused: reused, Scores: make([]*mat.Dense, len(pts))}
		for j, P := range pts {
			S, ok := e.scores[P]
			if !ok {
				if S, err = c.score(e, P); err != nil {
					return nil, fmt.Errorf("playground: model %d of %d: %w", i+1, total, err)
				}
				e.scores[P] = S
				s.Computed++
			}
			s.Scores[j] = S
		}
		out[i] = s
		if req.Progress != nil {
			req.Progress(i+1, total, "surfaces")
		}
	}
	// Scores and bases of point sets no longer kept are dropped.
	for _, e := range c.models {
		for P := range e.scores {
			if !contains(c.points, P) {
				delete(e.scores, P)
			}
		}
	}
	for _, b := range c.bases {
		for P, B := range b.pts {
			if !contains(c.points, P) {
				c.bytes -= B.bytes
				delete(b.pts, P)
			}
		}
	}
	return out, nil
}

// model returns the fitted model of cfg: the kept one, or a new fit.
func (c *Cache) model(ctx context.Context, cfg pipeline.Config) (*entry, bool, error) {
	cfg.Ridge.Progress = nil // not part of the model
	b, err := json.Marshal(cfg)
	if err != nil {
		return nil, false, check.New(check.Internal, "", "playground: the model's settings cannot be keyed: %v", err)
	}
	key := string(b)
	for i, e := range c.models {
		if e.key == key {
			c.models = append(append([]*entry{e}, c.models[:i]...), c.models[i+1:]...)
			return e, true, nil
		}
	}
	p, err := pipeline.Fit(ctx, c.x, c.y, cfg)
	if err != nil {
		return nil, false, err
	}
	c.Fits++
	e := &entry{key: key, p: p, s: solvedOf(p, cfg), scores: map[*mat.Dense]*mat.Dense{}}
	c.models = append([]*entry{e}, c.models[:min(len(c.models), keepModels-1)]...)
	return e, false, nil
}

// score returns e's scores of P: through the basis kept for e's
// preprocessing and kernel or features (computed now when none is), or by
// Pipeline.Scores for a model that cannot be taken apart.
func (c *Cache) score(e *entry, P *mat.Dense) (*mat.Dense, error) {
	if e.s == nil {
		return e.p.Scores(P)
	}
	bs := c.bases[e.s.key]
	if bs == nil {
		bs = &bases{pts: map[*mat.Dense]*basis{}}
		if e.s.feat != nil {
			m, err := rf.New(*e.s.feat, e.s.scaler.OutCols())
			if err != nil {
				return e.p.Scores(P)
			}
			bs.fmap = m
		}
	}
	c.use(e.s.key)
	B := bs.pts[P]
	if B == nil {
		var err error
		if B, err = e.s.basisOf(P, bs.fmap); err != nil {
			return nil, err
		}
		if B.bytes > maxBasisBytes/2 {
			// Too large to keep: used once.
			return e.s.scores(B)
		}
		// The bases used longest ago make room.
		for c.bytes+B.bytes > maxBasisBytes && len(c.order) > 1 {
			old := c.order[len(c.order)-1]
			c.order = c.order[:len(c.order)-1]
			if bo := c.bases[old]; bo != nil {
				for _, ob := range bo.pts {
					c.bytes -= ob.bytes
				}
			}
			delete(c.bases, old)
		}
		if c.bases == nil {
			c.bases = map[string]*bases{}
		}
		c.bases[e.s.key] = bs
		bs.pts[P] = B
		c.bytes += B.bytes
		c.Bases++
	}
	return e.s.scores(B)
}

// use puts key first in the bases' order.
func (c *Cache) use(key string) {
	for i, k := range c.order {
		if k == key {
			c.order = append(append([]string{k}, c.order[:i]...), c.order[i+1:]...)
			return
		}
	}
	c.order = append([]string{key}, c.order...)
}

// pointSet returns the cache's copy of P (kept, or made now), moved to
// the front of the kept sets.
func (c *Cache) pointSet(P *mat.Dense) *mat.Dense {
	for i, Q := range c.points {
		if sameMatrix(Q, P) {
			c.points = append(append([]*mat.Dense{Q}, c.points[:i]...), c.points[i+1:]...)
			return Q
		}
	}
	Q := mat.DenseCopyOf(P)
	c.points = append([]*mat.Dense{Q}, c.points[:min(len(c.points), keepPoints-1)]...)
	return Q
}

func (r Request) check() error {
	switch {
	case len(r.Models) == 0:
		return check.New(check.Option, "models", "playground: no models given; give at least one")
	case len(r.Models) > MaxModels:
		return check.New(check.Option, "models", "playground: %d models; at most %d", len(r.Models), MaxModels)
	case len(r.Points) > keepPoints:
		return check.New(check.Shape, "", "playground: %d sets of points; at most %d", len(r.Points), keepPoints)
	}
	if err := check.Matrix("X", r.X); err != nil {
		return err
	}
	n, d := r.X.Dims()
	if len(r.Y) != n {
		return check.New(check.Shape, "", "playground: X has %d rows but y has %d values; give one target per row", n, len(r.Y))
	}
	for i, P := range r.Points {
		if err := check.Matrix("points", P); err != nil {
			return err
		}
		if _, pd := P.Dims(); pd != d {
			return check.New(check.Shape, "", "playground: points set %d has %d columns but X has %d", i, pd, d)
		}
	}
	return nil
}

// sameMatrix reports whether a and b hold the same bits (a may be nil).
func sameMatrix(a, b *mat.Dense) bool {
	if a == nil || b == nil {
		return a == b
	}
	ar, ac := a.Dims()
	br, bc := b.Dims()
	if ar != br || ac != bc {
		return false
	}
	for i := 0; i < ar; i++ {
		if !sameFloats(a.RawRowView(i), b.RawRowView(i)) {
			return false
		}
	}
	return true
}

func sameFloats(a, b []float64) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

func contains(list []*mat.Dense, P *mat.Dense) bool {
	for _, Q := range list {
		if Q == P {
			return true
		}
	}
	return false
}
