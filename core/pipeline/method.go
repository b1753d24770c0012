package pipeline

import "ntkrf/core/names"

// Method is how a pipeline fits (Selection.Method, what 'auto' chose);
// its JSON form is its name.
type Method string

// The methods of a fit.
const (
	MethodKernel   Method = names.MethodKernel   // the exact kernel, in the dual
	MethodFeatures Method = names.MethodFeatures // random features, in the primal or the dual
)
