package check

import "ntkrf/core/errs"

// The error type and codes are the public ntkrf/core/errs's; these names
// let the core's checks write check.New(check.Option, …) as before.
type (
	Code  = errs.Code
	Error = errs.Error
)

const (
	Type          = errs.Type
	UnknownOption = errs.UnknownOption
	Option        = errs.Option
	NonFinite     = errs.NonFinite
	Value         = errs.Value
	Shape         = errs.Shape
	TooLarge      = errs.TooLarge
	Parse         = errs.Parse
	Data          = errs.Data
	Protocol      = errs.Protocol
	Aborted       = errs.Aborted
	Closed        = errs.Closed
	Instance      = errs.Instance
	Internal      = errs.Internal
)

// Codes lists every code.
var Codes = errs.Codes

// New returns an *Error with a formatted message.
func New(code Code, option, format string, a ...any) *Error {
	return errs.New(code, option, format, a...)
}

// CodeOf returns the code of the first *Error in err's chain, or "".
func CodeOf(err error) Code { return errs.CodeOf(err) }

// Stopped is the ERR_ABORTED error of a call whose context was cancelled
// (cause: ctx.Err(), still reachable with errors.Is); what names the work,
// with its package ("krr: fit").
func Stopped(what string, cause error) error {
	return errs.Wrap(errs.Aborted, what+" stopped", cause)
}
