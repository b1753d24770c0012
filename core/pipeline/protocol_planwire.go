package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"sync"

	"ntkrf/core/rf"
	"ntkrf/internal/check"
	"ntkrf/internal/wire"
)

// The wire form of a Plan: planMagic, version, then the length and the
// JSON of its settings (digestForm, whose SHA-256 is the plan's Digest).
const (
	planMagic   = "ntkrPLAN"
	planVersion = 1
	// maxPlanBytes bounds a plan's settings: a few hundred bytes, a grid
	// or groups of a few thousand numbers, and a data set's schema
	// (Config.Input), which for a wide table of categorical columns runs to
	// megabytes. The reader checks a length against the bytes it was given
	// before it allocates, so this only refuses a form no plan could write.
	maxPlanBytes = 1 << 30
)

// MarshalBinary returns the plan's wire form: what a host hands its
// workers instead of the user's options. DecodePlan makes the same plan
// (the same Digest) on any host.
func (p *fitPlan) MarshalBinary() ([]byte, error) { return p.AppendBinary(nil), nil }

// AppendBinary appends the plan's wire form to b.
func (p *fitPlan) AppendBinary(b []byte) []byte {
	js := p.form()
	b = wire.AppendHeader(b, planMagic, planVersion)
	b = wire.AppendU64(b, uint64(len(js)))
	return append(b, js...)
}

// planCache keeps the plans decoded last, by digest, so that a worker that
// decodes the same plan for every call keeps its drawn feature map (0.3–
// 0.5 s to draw per worker in WebAssembly at the package's standard job).
var planCache struct {
	sync.Mutex
	plans []*fitPlan // most recent last
}

// drawnMaps returns the feature maps the cached plans have drawn (Decode
// reuses them).
func drawnMaps() []*rf.Map {
	planCache.Lock()
	defer planCache.Unlock()
	var out []*rf.Map
	for _, p := range planCache.plans {
		if m := p.drawnMap(); m != nil {
			out = append(out, m)
		}
	}
	return out
}

// planCacheSize is how many plans a host keeps decoded: a fit holds its
// open plan and its settled one; a page fits a few models side by side.
const planCacheSize = 8 // ntkrf/core/protocol's decodedPlans is the same

// decodePlan reads a plan's wire form (MarshalBinary). A form that no
// plan could have written (its settings refused by NewPlan, or settings
// that do not make the plan they name: another version's) is refused with
// a coded error. Decoding the same plan again returns the plan decoded
// before (its feature map drawn once).
func decodePlan(b []byte) (*fitPlan, error) {
	r, err := wire.NewReader(b, "pipeline plan", planMagic, planVersion)
	if err != nil {
		return nil, err
	}
	n := r.Int("settings length", maxPlanBytes)
	js := r.Bytes(uint64(n), 1)
	if err := r.Done(); err != nil {
		return nil, err
	}
	digest := sha256.Sum256(js)
	planCache.Lock()
	for _, p := range planCache.plans {
		if p.digest == digest {
			planCache.Unlock()
			return p, nil
		}
	}
	planCache.Unlock()
	var f digestForm
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, check.New(check.Parse, "", "pipeline: plan: its settings do not read (%v); pass the bytes MarshalBinary wrote", err)
	}
	if f.Form != digestFormVersion {
		return nil, check.New(check.Protocol, "", "pipeline: plan: settings of form %d; this version reads form %d", f.Form, digestFormVersion)
	}
	p, err := newPlan(f.Config, f.Rows, f.Cols, nil)
	if err != nil {
		return nil, err
	}
	if f.Selection != nil {
		if err := f.Selection.check(); err != nil {
			return nil, err
		}
		p = p.chosenBy(f.Selection)
	}
	if p.digest != digest {
		return nil, check.New(check.Protocol, "", "pipeline: plan: the settings do not make the plan they name (another version's plan?); make the plan again from the options")
	}
	planCache.Lock()
	defer planCache.Unlock()
	planCache.plans = append(planCache.plans, p)
	if len(planCache.plans) > planCacheSize {
		planCache.plans = planCache.plans[1:]
	}
	return p, nil
}

// form is the JSON of the plan's settings, whose SHA-256 is its digest.
func (p *fitPlan) form() []byte {
	f := digestForm{
		Form: digestFormVersion, Rows: p.rows, Cols: p.cols, Config: p.cfg,
		Collect: p.collect, Cut: p.cut, Dim: p.dim, Kernel: p.kern, Open: p.open != nil, Selection: p.sel,
	}
	if p.open != nil {
		f.Config = p.given
	}
	if p.fmap != nil {
		f.Map = &p.fmap.cfg
	}
	b, err := json.Marshal(f)
	if err != nil {
		// Every field is a plain value: json cannot fail on them.
		panic("pipeline: plan form: " + err.Error())
	}
	return b
}
