// Package jsbridge is the only place where Go meets JavaScript.
//
// A call crosses the bridge as an operation name, its options as JSON, and
// a list of Float64Arrays. Matrices inside the options are references
// {"rows": r, "cols": c, "array": i} into that list, so numbers cross in bulk
// copies and everything else is plain data that [Dispatch] decodes strictly
// (an unknown option is an error that names it and lists the known ones).
// Results come back the same way.
//
// Dispatch is ordinary Go, tested and fuzzed natively. The file built for
// js/wasm (bridge_js.go) only converts typed arrays, wraps the result in a
// Promise, turns errors into rejections with the right JavaScript error class
// (TypeError, RangeError or Error) and recovers panics, so no call can stop
// the Go runtime.
package jsbridge
