package krr

import (
	"ntkrf/core/data"
	"ntkrf/core/names"
)

// Task is what a fit predicts (Options.Task): data.Task, the task of a
// parsed target. Its JSON form is its name.
type Task = data.Task

// The tasks (data.Tasks).
const (
	Classification = data.Classification // class indices 0…k−1, one-hot targets
	Regression     = data.Regression     // values
)

// Criterion is how λ is scored when it is chosen (Options.Criterion); its
// JSON form is its name.
type Criterion string

// The criteria, in the order of Criteria.
const (
	GCV     Criterion = names.GCV     // generalized cross-validation
	LOO     Criterion = names.LOO     // exact leave-one-out
	Holdout Criterion = names.Holdout // rows held out (primal)
)

// Criteria returns the criteria Options accepts in a new slice.
func Criteria() []Criterion { return []Criterion{GCV, LOO, Holdout} }

// Tasks returns the tasks Options accepts in a new slice.
func Tasks() []Task { return data.Tasks() }
