// Package wire writes and reads the compact binary forms that the parts of
// a split fit travel in (core/data's statistics, core/krr's accumulator,
// core/pipeline's parts): little-endian numbers after an 8-byte magic and
// a version. Its Reader checks every length before the caller allocates,
// refuses non-finite numbers, and reports the first fault as a coded error
// (internal/check), so that decoding hostile bytes never panics.
package wire
