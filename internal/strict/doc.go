// Package strict reads JSON into Go values as a file format must be read:
// exactly the shape encoding/json writes for the value, nothing looser.
// It is what makes a model file mean the same in every host (the package
// passes a file's text to Go; what Go refuses, no host accepts).
//
// Beyond encoding/json with DisallowUnknownFields, Unmarshal refuses
//
//   - null where the writer never writes one: a number (JSON.stringify
//     writes NaN and ±Inf as null; encoding/json would read 0), a string, a
//     bool, a struct, and a pointer, slice or map whose field is omitempty;
//   - a number beyond the range of a float64 (1e999, read as ±Inf by
//     JavaScript), and an integer field written with a fraction or an
//     exponent (64.0) or out of its type's range;
//   - a field name matched only without regard to case ("Lambda"), a field
//     given twice, an unknown field, and a missing field the writer always
//     writes (one without omitempty);
//   - anything after the value.
//
// A type with its own UnmarshalJSON reads its part; an error it returns
// is placed at its path. Errors are *Error: a code of internal/check and
// the path of the offending value ("preprocess.mu[2]").
package strict
