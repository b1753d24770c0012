package data

// The options of Parse and Preview: their settings, defaults and limits,
// and how they resolve.

import (
	"math"

	"ntkrf/core/names"
	"ntkrf/internal/check"
)

// DefaultMaxBytes is the input size limit (after decompression) when
// Options.MaxBytes is 0.
const DefaultMaxBytes = 256_000_000

// MaxBytesLimit is the largest MaxBytes accepted: cell offsets are int32.
const MaxBytesLimit = math.MaxInt32

// The settings of Options.Missing and Options.Header.
const (
	Impute = "impute"
	Drop   = "drop"
	Yes    = "yes"
	No     = "no"
)

// MissingSettings returns the settings of Options.Missing, the default
// first ("" means it too), in a new slice.
func MissingSettings() []string { return []string{Impute, Drop} }

// HeaderSettings returns the settings of Options.Header, the default first
// ("" means it too), in a new slice.
func HeaderSettings() []string { return []string{names.Auto, Yes, No} }

// ParseTasks returns the settings of Options.Task, the default first (""
// means it too), in a new slice: "auto" and the Tasks.
func ParseTasks() []string { return []string{names.Auto, names.Classification, names.Regression} }

// Options controls Parse and Preview. The zero value detects everything.
type Options struct {
	// Target is the name of the column to predict (exact, else the only
	// case-insensitive match); "" means the last column. A name is never
	// read as an index ("2" is the column named 2): give an index in
	// TargetIndex.
	// An unnamed last column without values (left by a delimiter at the
	// end of every line) is ignored.
	Target string
	// TargetIndex, when not nil, is the 0-based index of the target column,
	// and Target must be "": an index is never matched against names.
	TargetIndex *int
	// Exclude names input columns to leave out of X (each matched as
	// Target is), such as an identifier. The target cannot be excluded,
	// nor every feature. The names are kept in the Schema, and a model
	// reads new files without those columns, which may be present or not
	// (a file without a header must still have them, in place).
	Exclude []string
	// Task is "" or "auto" (detect, see the package doc), Classification
	// or Regression.
	Task Task
	// Missing is "" or "impute": missing feature values stay NaN in X for
	// a Scaler to impute with training statistics; "drop": rows with any
	// missing feature value are dropped. Rows whose target is missing are
	// always dropped.
	Missing string
	// Delimiter is the field separator; 0 detects one of ',', ';', tab
	// and '|'. Any other ASCII punctuation, space or tab may be given.
	Delimiter rune
	// Header is "" or "auto" (detect), "yes" or "no".
	Header string
	// MaxBytes limits the input size after decompression; 0 means
	// DefaultMaxBytes. At most 2³¹−1.
	MaxBytes int
}

type options struct {
	Options
	delim  byte
	header int // -1 no, 0 auto, 1 yes
	drop   bool
}

func (o Options) resolve() (options, error) {
	r := options{Options: o}
	if o.TargetIndex != nil && (*o.TargetIndex < 0 || *o.TargetIndex >= MaxColumns) {
		return r, check.New(check.Option, "target", "data: target column index %d is out of range; a table has at most %d columns, indexed 0…%d", *o.TargetIndex, MaxColumns, MaxColumns-1)
	}
	if len(o.Exclude) > MaxColumns {
		return r, check.New(check.Option, "exclude", "data: %d columns to exclude; a table has at most %d columns", len(o.Exclude), MaxColumns)
	}
	switch o.Task {
	case "", names.Auto:
		r.Task = ""
	case Classification, Regression:
	default:
		return r, check.New(check.Option, "task", "data: unknown task %s; use one of %q", check.Quote(o.Task), ParseTasks())
	}
	switch o.Missing {
	case "", Impute:
	case Drop:
		r.drop = true
	default:
		return r, check.New(check.Option, "missing", "data: unknown missing-value handling %s; use one of %q", check.Quote(o.Missing), MissingSettings())
	}
	switch o.Header {
	case "", names.Auto:
	case Yes:
		r.header = 1
	case No:
		r.header = -1
	default:
		return r, check.New(check.Option, "header", "data: unknown header setting %s; use one of %q", check.Quote(o.Header), HeaderSettings())
	}
	if d := o.Delimiter; d != 0 {
		if d > 0x7e || d == '"' || d == '\r' || d == '\n' || d == '.' || d == '+' || d == '-' ||
			('0' <= d && d <= '9') || ('a' <= d && d <= 'z') || ('A' <= d && d <= 'Z') || (d < ' ' && d != '\t') {
			return r, check.New(check.Option, "delimiter", "data: delimiter %q cannot separate fields; use an ASCII punctuation character, space or tab (or 0 to detect)", d)
		}
		r.delim = byte(d)
	}
	switch {
	case o.MaxBytes == 0:
		r.MaxBytes = DefaultMaxBytes
	case o.MaxBytes < 0 || o.MaxBytes > MaxBytesLimit:
		return r, check.New(check.Option, "maxBytes", "data: Options.MaxBytes %d is out of range; use 1…%d, or 0 for the default %d", o.MaxBytes, MaxBytesLimit, DefaultMaxBytes)
	}
	return r, nil
}
