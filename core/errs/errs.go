package errs

import (
	"errors"
	"fmt"
)

// Code is a stable, documented error code.
type Code string

// The codes, with the JavaScript class each becomes (see Code.Class).
const (
	Type          Code = "ERR_TYPE"           // TypeError: an argument or option of the wrong type
	UnknownOption Code = "ERR_UNKNOWN_OPTION" // TypeError: an option the call does not take
	Option        Code = "ERR_OPTION"         // RangeError: an option value out of range or not allowed
	NonFinite     Code = "ERR_NONFINITE"      // RangeError: NaN or ±Inf in the data
	Value         Code = "ERR_VALUE"          // RangeError: a data value out of its range (a class label that is no class index)
	Shape         Code = "ERR_SHAPE"          // RangeError: sizes that do not fit together, or empty data
	TooLarge      Code = "ERR_TOO_LARGE"      // RangeError: more memory than one buffer or the input limit allows
	Parse         Code = "ERR_PARSE"          // Error: a file that cannot be read as a data table
	Data          Code = "ERR_DATA"           // Error: data that the method cannot use (one class, singular system…)
	Protocol      Code = "ERR_PROTOCOL"       // Error: pieces of a split fit that do not belong together (another plan, rows twice or missing, other statistics)
	Aborted       Code = "ERR_ABORTED"        // AbortError: the caller cancelled the call
	Closed        Code = "ERR_CLOSED"         // Error: the engine or model was closed
	Instance      Code = "ERR_INSTANCE"       // Error: a WebAssembly instance died during the call
	Internal      Code = "ERR_INTERNAL"       // Error: a bug in ntkrf (please report)
)

// Codes lists every code, for documentation and tests.
var Codes = []Code{Type, UnknownOption, Option, NonFinite, Value, Shape, TooLarge, Parse, Data, Protocol, Aborted, Closed, Instance, Internal}

// Class is the JavaScript error class of a code.
func (c Code) Class() string {
	switch c {
	case Type, UnknownOption:
		return "TypeError"
	case Option, NonFinite, Value, Shape, TooLarge:
		return "RangeError"
	case Aborted:
		return "AbortError"
	}
	return "Error"
}

// Error is a fault with a code and, when an option is at fault, its name
// as the caller's API spells it. Err, when set, is the cause (a
// context.Canceled, say), reachable with errors.Is and errors.As.
type Error struct {
	Code   Code
	Option string // e.g. "depth"; "" when no single option is at fault
	Msg    string
	Err    error
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the cause, or nil.
func (e *Error) Unwrap() error { return e.Err }

// New returns an *Error with a formatted message.
func New(code Code, option, format string, a ...any) *Error {
	return &Error{Code: code, Option: option, Msg: fmt.Sprintf(format, a...)}
}

// Wrap returns an *Error with code whose message is msg followed by the
// cause's, keeping cause reachable: Wrap(Aborted, "krr: fit stopped", ctx.Err()).
func Wrap(code Code, msg string, cause error) *Error {
	return &Error{Code: code, Msg: msg + ": " + cause.Error(), Err: cause}
}

// CodeOf returns the code of the first *Error in err's chain, or "".
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
