//go:build !unix

package krr

import "time"

var start = time.Now()

// cpuSeconds is the wall time since the tests started: the hosts without
// getrusage here (js/wasm) run the benchmarks on one thread.
func cpuSeconds() float64 { return time.Since(start).Seconds() }
