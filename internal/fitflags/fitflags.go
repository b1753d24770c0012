package fitflags

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"ntkrf/core/auto"
	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/names"
	"ntkrf/core/pipeline"
	"ntkrf/core/protocol"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// Fit is a fit as the flags give it: how the files are read (as
// data.Parse reads one), the preprocessing, the feature map and λ. Its
// zero value is the core's default fit (pipeline.Config's and
// data.Options'): a nil Prep and a Features.Depth of 0 are chosen by the
// core's selection, a Lambda of 0 by the task's criterion.
type Fit struct {
	Data     data.Options
	Prep     *data.Prep   // nil: chosen ('auto')
	Features rf.Config    // a Depth of 0: chosen
	Lambda   float64      // 0: chosen
	Gram     rf.Precision // "": the core's rule (krr.GramRule)
}

// Config is the pipeline configuration of f (the task, classes and
// groups come from the data set).
func (f Fit) Config() pipeline.Config {
	return pipeline.Config{Preprocess: f.Prep, Features: f.Features, Ridge: krr.Options{Lambda: f.Lambda, Gram: f.Gram}}
}

// Flags are the fit's flags registered on a flag set; Fit reads them.
type Flags struct {
	fs                                                       *flag.FlagSet
	target, task, missing, method, depth, lambda, prep, gram *string
	prec                                                     *string
	dim                                                      *int
	seed                                                     *uint64
}

// Register defines the fit's flags on fs. A flag left unset leaves its
// option zero, which the core reads as its default; the defaults shown
// are the core's (TestDefaultsAreTheCore).
func Register(fs *flag.FlagSet) *Flags {
	// The settings the core may choose default to the word auto, read
	// with auto.Value as the package's options are.
	return &Flags{
		fs:      fs,
		target:  fs.String("target", "", "the target column: its name, or its 0-based index (a number); default the last column. A column whose name is a number: name:3"),
		task:    fs.String("task", names.Auto, "auto (from the target, as parseCSV), or one of "+join(krr.Tasks())),
		missing: fs.String("missing", data.MissingSettings()[0], "missing feature cells: one of "+join(data.MissingSettings())),
		method:  fs.String("method", string(rf.NTK), "random features: one of "+join(rf.Methods())),
		depth:   fs.String("depth", names.Auto, "network depth L (ntk, nngp, naive, grad), or auto: chosen among "+fmt.Sprint(pipeline.DefaultDepths())+" by the core's selection on a sample of the rows"),
		dim:     fs.Int("dim", rf.DefaultDim, "feature dimension m"),
		seed:    fs.Uint64("seed", 0, "seed of the feature map (and of the selection's sample)"),
		lambda:  fs.String("lambda", names.Auto, "ridge λ: a number, or auto (chosen by the task's criterion on all rows)"),
		prep:    fs.String("preprocess", names.Auto, `preprocessing as in a model file, {"standardize":true|false,"unitNorm":…,"bias":…}, or auto: chosen with the depth`),
		prec:    fs.String("precision", "", "arithmetic of the feature projections: float32 or float64; empty for the core's default, "+rf.PrecisionRule),
		gram:    fs.String("gram", "", "arithmetic of the Gram step ΦᵀΦ: float32 (blocks summed in float32, added in float64) or float64; empty for the core's default, "+krr.GramRule),
	}
}

// join lists a flag's settings for its usage.
func join[T ~string](settings []T) string {
	s := make([]string, len(settings))
	for i, v := range settings {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}

// setting reads a flag that may say auto (auto.Value), coding its error
// with the flag's name.
func setting[T any](name, s string) (auto.Value[T], error) {
	var v auto.Value[T]
	if err := v.Set(s); err != nil {
		return v, check.New(check.Option, name, "fitflags: -%s: %v", name, err)
	}
	return v, nil
}

// Fit reads the flags (after fs.Parse) into a Fit, checked as far as no
// data is needed; an error is coded and names its flag.
func (f *Flags) Fit() (Fit, error) {
	var o Fit
	given := map[string]bool{}
	f.fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	if given["missing"] {
		o.Data.Missing = *f.missing
	}
	task, err := setting[string]("task", *f.task)
	if err != nil {
		return o, err
	}
	o.Data.Task = data.Task(task.Or(""))
	switch t := *f.target; {
	case strings.HasPrefix(t, "name:"):
		o.Data.Target = strings.TrimPrefix(t, "name:")
	case t != "" && strings.Trim(t, "0123456789") == "":
		j, err := strconv.Atoi(t)
		if err != nil {
			return o, check.New(check.Option, "target", "fitflags: -target %s is out of range", t)
		}
		o.Data.TargetIndex = &j
	default:
		o.Data.Target = t
	}
	prep, err := setting[data.Prep]("preprocess", *f.prep)
	if err != nil {
		return o, err
	}
	o.Prep = prep.Ptr()
	if given["method"] {
		o.Features.Method = rf.Method(*f.method)
	}
	if given["dim"] {
		if *f.dim < 1 {
			// 0 is the core's "default" in rf.Config, not a dimension.
			return o, check.New(check.Option, "dim", "fitflags: -dim %d: give a feature dimension ≥ 1", *f.dim)
		}
		o.Features.Dim = *f.dim
	}
	o.Features.Seed, o.Features.Precision = *f.seed, rf.Precision(*f.prec)
	depth, err := setting[int]("depth", *f.depth)
	if d, ok := depth.Get(); err != nil || ok && d < 1 {
		return o, check.New(check.Option, "depth", "fitflags: -depth %s: give a depth ≥ 1 or auto", check.Quote(*f.depth))
	}
	o.Features.Depth = depth.Or(0)
	lambda, err := setting[float64]("lambda", *f.lambda)
	if l, ok := lambda.Get(); err != nil || ok && l <= 0 {
		return o, check.New(check.Option, "lambda", "fitflags: -lambda %s: give a positive number or auto", check.Quote(*f.lambda))
	}
	o.Lambda = lambda.Or(0)
	o.Gram = rf.Precision(*f.gram)
	return o, o.Check()
}

// Check refuses options that no data can make valid: the plan of a tiny
// regression checks the preprocessing, the map and λ as the real plan
// will, before any file is read.
func (o Fit) Check() error {
	if o.Prep != nil {
		if err := o.Prep.Check(); err != nil {
			return err
		}
	}
	if o.Lambda != 0 {
		if err := check.Lambda("fitflags", "lambda", o.Lambda); err != nil {
			return err
		}
	}
	cfg := o.Config()
	cfg.Ridge.Task = krr.Regression
	_, err := protocol.NewPlan(cfg, 1, 1, nil)
	return err
}
