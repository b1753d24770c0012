package auto

import (
	"bytes"
	"encoding/json"
	"fmt"

	"ntkrf/core/names"
	"ntkrf/internal/check"
)

// Value is a setting of type T that may be left to the core ('auto'). Its
// zero value is auto.
type Value[T any] struct {
	v   T
	set bool
}

// Of is the setting given as v.
func Of[T any](v T) Value[T] { return Value[T]{v: v, set: true} }

// Get returns the value and whether one was given (false: auto).
func (a Value[T]) Get() (T, bool) { return a.v, a.set }

// IsAuto reports whether the setting is left to the core.
func (a Value[T]) IsAuto() bool { return !a.set }

// Or returns the value, or open when the setting is auto: the core's
// convention for an open setting of its kind (0 for a depth or λ).
func (a Value[T]) Or(open T) T {
	if a.set {
		return a.v
	}
	return open
}

// Ptr returns a pointer to a copy of the value, or nil when the setting
// is auto (the core's convention for an open preprocessing).
func (a Value[T]) Ptr() *T {
	if !a.set {
		return nil
	}
	v := a.v
	return &v
}

// MarshalJSON writes "auto" or the value.
func (a Value[T]) MarshalJSON() ([]byte, error) {
	if !a.set {
		return json.Marshal(names.Auto)
	}
	return json.Marshal(a.v)
}

// UnmarshalJSON reads "auto" (or null) as auto, anything else as a T.
func (a *Value[T]) UnmarshalJSON(b []byte) error {
	t := bytes.TrimSpace(b)
	if string(t) == "null" || string(t) == `"`+names.Auto+`"` {
		*a = Value[T]{}
		return nil
	}
	var v T
	if err := json.Unmarshal(t, &v); err != nil {
		return err
	}
	*a = Of(v)
	return nil
}

// Set reads a command-line value (flag.Value): the word auto, or a T (a
// string as it is, anything else as JSON: 3, 0.5, {"bias":1}).
func (a *Value[T]) Set(s string) error {
	if s == names.Auto {
		*a = Value[T]{}
		return nil
	}
	var v T
	if p, ok := any(&v).(*string); ok {
		*p = s
	} else if err := json.Unmarshal([]byte(s), &v); err != nil {
		return check.New(check.Option, "", "%s is neither %s nor a %T", check.Quote(s), names.Auto, v)
	}
	*a = Of(v)
	return nil
}

// String writes auto or the value (as on a command line).
func (a Value[T]) String() string {
	if !a.set {
		return names.Auto
	}
	if s, ok := any(a.v).(string); ok {
		return s
	}
	b, err := json.Marshal(a.v)
	if err != nil {
		return fmt.Sprint(a.v)
	}
	return string(b)
}
