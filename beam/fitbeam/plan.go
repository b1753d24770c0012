package fitbeam

import (
	"encoding/json"
	"math"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
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
	// (krr.Criterion), on all the rows as a single-process fit does.
	Lambda float64 `json:"lambda"`
	// Gram is the Gram step's arithmetic (krr.Options.Gram); empty is
	// the core's default for the settled task and features (krr.GramRule).
	Gram string `json:"gram,omitempty"`
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
	// The plan of a tiny regression checks the map and λ as every
	// shard's plan will.
	_, err := planSpec{Prep: o.Prep, Features: o.Features, Search: o.Search, Lambda: o.Lambda, Gram: o.Gram, Task: krr.Regression, Rows: 1, Cols: 1}.plan()
	return err
}

// planSpec is everything pipeline.NewPlan needs, once the data set is
// settled; its JSON names a plan between workers.
type planSpec struct {
	Prep     *data.Prep      `json:"prep"` // nil: open ('auto')
	Groups   []data.Group    `json:"groups"`
	Features rf.Config       `json:"features"`
	Kernel   *kernel.Spec    `json:"kernel,omitempty"` // 'auto' chose the exact kernel
	Search   pipeline.Search `json:"search"`
	Lambda   float64         `json:"lambda"`
	Gram     string          `json:"gram,omitempty"`
	Task     string          `json:"task"`
	Classes  int             `json:"classes"`
	Rows     int             `json:"rows"`
	Cols     int             `json:"cols"`
}

// spec is the plan of a fit of o on the settled data set, as JSON: open
// when o leaves the depth or preprocessing to the fit, until the
// selection has settled them (s.Choice).
func (o Options) spec(s Settled) string {
	ps := planSpec{Prep: o.Prep, Groups: s.Schema.Groups, Features: o.Features, Search: o.Search, Lambda: o.Lambda, Gram: o.Gram,
		Task: s.Schema.Task, Classes: len(s.Schema.Classes), Rows: s.Rows, Cols: s.Schema.Width()}
	if c := s.Choice; c != nil {
		// The core's settled settings, whole: features, or the exact
		// kernel where 'auto' chose it.
		prep := c.Settings.Preprocess
		ps.Prep, ps.Features, ps.Kernel = &prep, rf.Config{}, c.Settings.Kernel
		if f := c.Settings.Features; f != nil {
			ps.Features = *f
		}
	}
	b, _ := json.Marshal(ps)
	return string(b)
}

// plan is the plan pipeline.FitDataset makes for these rows: the task and
// classes of the data set, its one-hot groups.
func (ps planSpec) plan() (*pipeline.Plan, error) {
	cfg := pipeline.Config{Preprocess: ps.Prep, Groups: ps.Groups, Features: ps.Features, Kernel: ps.Kernel, Search: ps.Search,
		Ridge: krr.Options{Lambda: ps.Lambda, Gram: ps.Gram, Task: ps.Task, Classes: ps.Classes}}
	return pipeline.NewPlan(cfg, ps.Rows, ps.Cols, nil)
}
