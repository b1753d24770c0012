// Package jsbridge is the only place where Go meets JavaScript.
//
// A call crosses the bridge as an operation name, its options as JSON, and
// a list of Float64Arrays. Matrices inside the options are references
// {"rows": r, "cols": c, "array": i} into that list, so numbers cross in bulk
// copies and everything else is plain data that [Dispatch] decodes strictly
// (an unknown option is an error that names it and lists the known ones).
// Results come back the same way; a binary wire form of the fit protocol
// (statistics, parts) crosses as {"wire": {"array": i}, "bytes": n}, its
// bytes packed in a Float64Array.
//
// The operations are one table (ops, in dispatch.go) of named functions,
// each converting its arguments, calling the core and converting the
// answer: the bridge decides nothing. fitRidge is the core's fit protocol
// (protocol.Plan) in five ops: fitPlan (options in, the plan's bytes out),
// fitStats, select (the settled plan's bytes out), fitPart and fitSolve,
// each given the plan's bytes. A part may stay in the instance that made
// it (fitPart's keep; fitShip sends it, fitDrop forgets it): the bridge
// keeps it, the scheduler says where it goes. fitSolve and fitHelp given a
// link (a sixth argument of call: a MessagePort between two workers, see
// linkPeer) share the solve: the held-out rows' sums beside the λ search
// and the factorization (protocol.ServeHelper: krr.ServeHelper, then
// linalg.ServeCholesky); they run on a goroutine each, so that Go waits for the
// other instance's messages while JavaScript's event loop delivers them.
//
// Dispatch is ordinary Go, tested and fuzzed natively. The file built for
// js/wasm (bridge_js.go) only converts typed arrays, wraps the result in a
// Promise, turns errors into rejections with the right JavaScript error class
// (TypeError, RangeError or Error) and recovers panics, so no call can stop
// the Go runtime.
package jsbridge
