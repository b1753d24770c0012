package pipeline

import (
	"slices"
	"strings"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/internal/check"
)

// source settles what the rows' origin decides, once, in the plan: a
// Dataset's schema (Input) gives the task, the classes and the one-hot
// groups, and options given besides must agree with it; class names are
// checked against the classes when those are known. Every host hands its
// schema or names to NewPlan and reads nothing of them back.
func source(cfg Config, cols int) (Config, error) {
	in := cfg.Input
	if in == nil {
		return labelled(cfg)
	}
	if err := in.Check(); err != nil {
		return cfg, err
	}
	if w := in.Width(); w != cols {
		return cfg, check.New(check.Shape, "input", "pipeline: the data set's schema makes %d columns, but the rows have %d; fit the rows the schema was parsed with", w, cols)
	}
	if t := cfg.Ridge.Task; t != "" && t != in.Task {
		return cfg, check.New(check.Option, "task", "pipeline: task %s, but the data set's target is a %s target; leave the task unset or parse with task %s", check.Quote(t), check.Quote(in.Task), check.Quote(t))
	}
	cfg.Ridge.Task = in.Task
	if in.Task == krr.Classification {
		if c := cfg.Ridge.Classes; c != 0 && c != len(in.Classes) {
			return cfg, check.New(check.Option, "classes", "pipeline: classes %d, but the data set has %d; leave classes unset", c, len(in.Classes))
		}
		// One class is the data's fault, not an option's.
		if len(in.Classes) < 2 {
			return cfg, check.New(check.Data, "", "pipeline: the target column %s holds one class (%s); a classifier needs rows of two classes or more", check.Quote(in.TargetName), check.Quote(strings.Join(in.Classes, "")))
		}
		cfg.Ridge.Classes = len(in.Classes)
	}
	if cfg.Groups != nil && !slices.Equal(cfg.Groups, in.Groups) {
		return cfg, check.New(check.Option, "groups", "pipeline: groups given, but the data set has its own one-hot groups; leave groups unset")
	}
	if cfg.ClassNames != nil && !slices.Equal(cfg.ClassNames, in.Classes) {
		return cfg, check.New(check.Option, "classNames", "pipeline: class names given, but the data set names its classes; leave them unset")
	}
	cfg.Groups = in.Groups
	cfg.ClassNames = nil
	return cfg, nil
}

// labelled settles what class names (text labels' classes) decide: they
// are classes, so the task is classification, and their number is the
// number of classes. One name is the data's fault (one class).
func labelled(cfg Config) (Config, error) {
	n := len(cfg.ClassNames)
	if cfg.ClassNames == nil {
		return cfg, nil
	}
	switch cfg.Ridge.Task {
	case "":
		cfg.Ridge.Task = krr.Classification
	case krr.Classification:
	default:
		return cfg, check.New(check.Option, "task", "pipeline: y holds text labels (such as %s), which are classes: leave task out or give %s", check.Quote(cfg.ClassNames[0]), check.Quote(krr.Classification))
	}
	if c := cfg.Ridge.Classes; c != 0 && c != n {
		return cfg, check.New(check.Option, "classes", "pipeline: classes %d, but the labels hold %d distinct classes; leave classes out", c, n)
	}
	if n < 2 {
		// krr's rule for one class, on the targets: ERR_DATA.
		return cfg, nil
	}
	cfg.Ridge.Classes = n
	return cfg, nil
}

// checkClassNames checks cfg's class names against the settled task and
// classes: one name per class of a classification.
func checkClassNames(cfg Config) error {
	names := cfg.ClassNames
	if names == nil {
		return nil
	}
	if cfg.Ridge.Task != krr.Classification {
		return check.New(check.Option, "classNames", "pipeline: class names for a %s; only a classification has classes", cfg.Ridge.Task)
	}
	if len(names) != cfg.Ridge.Classes {
		return check.New(check.Shape, "classNames", "pipeline: %d class names for a fit of %d classes; name each class once", len(names), cfg.Ridge.Classes)
	}
	return data.ClassNames(names)
}

// classNames are the names the model keeps: Input's classes, the given
// names, or nil ("0"…"k−1").
func (p *fitPlan) classNames() []string {
	if in := p.cfg.Input; in != nil {
		return in.Classes
	}
	return p.cfg.ClassNames
}
