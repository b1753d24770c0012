package fitbeam

import (
	"math"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
	"ntkrf/core/protocol"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// Options is a fit as the command's flags give it: how the shards are
// read (as data.Parse reads a file), the preprocessing, the feature map
// and λ. Its zero value is the core's default fit (pipeline.Config's):
// a nil Prep and a Features.Depth of 0 are chosen ('auto') by the core's
// selection, on the rows it names, gathered from the shards (see Fit).
type Options struct {
	Data data.Options `json:"data"`
	// Prep is the preprocessing; nil chooses it (pipeline.Config.Preprocess).
	Prep *data.Prep `json:"prep"`
	// Features is the feature map; a Depth of 0 is chosen.
	Features rf.Config `json:"features"`
	// Search holds the candidates of the settings left open, and the
	// rows they are scored on (pipeline.Search; zero: the core's).
	Search pipeline.Search `json:"search"`
	// Lambda > 0 fixes λ; 0 chooses it by the task's criterion
	// (krr.DefaultCriterion), on all the rows as a single-process fit does.
	Lambda float64 `json:"lambda"`
	// Gram is the Gram step's arithmetic (krr.Options.Gram); empty is
	// the core's default for the settled task and features (krr.GramRule).
	Gram rf.Precision `json:"gram,omitempty"`
	// FanIn is how many first-level merges the shards' parts are spread
	// over (0: ⌊√shards⌋); each then merges about shards/FanIn parts.
	FanIn int `json:"fanIn"`
}

// fanIn is the number of keys of the first merge level for n shards:
// ⌊√n⌋ unless fixed, so that neither level merges more than about √n
// parts (and a handful of shards is not sent through a level that merges
// nothing).
func (o Options) fanIn(n int) int {
	if o.FanIn > 0 {
		return o.FanIn
	}
	return max(1, int(math.Sqrt(float64(n))))
}

// Check refuses options that no shard can make valid.
func (o Options) Check() error {
	if o.Prep != nil {
		if err := o.Prep.Check(); err != nil {
			return err
		}
	}
	if o.Lambda != 0 {
		if err := check.Lambda("fitbeam", "lambda", o.Lambda); err != nil {
			return err
		}
	}
	if o.FanIn < 0 {
		return check.New(check.Option, "fanIn", "fitbeam: fan-in %d is negative; use 0 for ⌊√shards⌋", o.FanIn)
	}
	// The plan of a tiny regression checks the map and λ as the fit's
	// plan will.
	cfg := o.config()
	cfg.Ridge.Task = krr.Regression
	_, err := protocol.NewPlan(cfg, 1, 1, nil)
	return err
}

// config is o as the core's Config, before the data set settles the task,
// the classes and the groups (its schema, Config.Input, does).
func (o Options) config() pipeline.Config {
	return pipeline.Config{Preprocess: o.Prep, Features: o.Features, Search: o.Search, Ridge: krr.Options{Lambda: o.Lambda, Gram: o.Gram}}
}

// plan is the plan of a fit of o on the settled data set, as its bytes
// (protocol.Plan.MarshalBinary): what every later step decodes
// (protocol.DecodePlan). Open when o leaves the depth or preprocessing to
// the fit, until the selection settles it.
func (o Options) plan(schema data.Schema, rows int) ([]byte, error) {
	cfg := o.config()
	cfg.Input = &schema
	p, err := protocol.NewPlan(cfg, rows, schema.Width(), nil)
	if err != nil {
		return nil, err
	}
	return p.MarshalBinary()
}
