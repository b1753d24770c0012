//go:build crashtest

package jsbridge

import "bytes"

// A build for the package's tests only (build.sh builds it as
// dist/test/ntkrf-crashtest.wasm): split with seed 4242 runs the instance
// out of memory, so that a test can kill an instance on purpose and check
// that only the call on it fails and the engine recovers. (This file's
// name sorts after ops_data.go, whose init registers split.)
func init() {
	split := ops["split"]
	ops["split"] = func(c *call, args []byte) (any, error) {
		if bytes.Contains(args, []byte(`"seed":4242`)) {
			var hold [][]byte
			for { // until the 4 GiB of a 32-bit linear memory run out
				hold = append(hold, make([]byte, 256<<20))
			}
		}
		return split(c, args)
	}
}
