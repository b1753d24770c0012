// Package auto is the one form of a setting a user may leave to the core:
// Value[T] holds either a value or "auto" (names.Auto), the core's choice.
// It reads and writes the word "auto" or a T in JSON (the package's
// options) and on a command line (flag.Value: ntkrf and ntkrf-beam), so
// that every host spells and reads 'auto' the same way; Or and Ptr give
// the core's own conventions for an open setting (a zero depth or λ, a nil
// preprocessing).
package auto
