// Package check holds the input checks, limits and message helpers the
// core packages share (a matrix of finite values, a depth, a λ, a seed, a
// buffer that fits in memory, quoting a user's text). Its errors are
// ntkrf/core/errs's coded *Error, which it re-exports under the same names
// so the core writes check.New(check.Option, …); Go callers outside the
// module read codes from ntkrf/core/errs. It imports nothing else of ntkrf.
package check
