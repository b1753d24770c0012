// Package fitflags is the one flag set of a fit, shared by the commands
// that fit files (ntkrf fit, ntkrf-beam): the target, task, missing-value
// setting, preprocessing, feature map and λ, each with the core's
// default ('auto' for the settings the core chooses), so that the two
// commands cannot drift apart in names, defaults or checks.
package fitflags
