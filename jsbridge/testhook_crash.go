//go:build crashtest

package jsbridge

import (
	"bytes"
	"encoding/binary"

	"ntkrf/core/linalg"
)

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

// The helper of a shared factorization of order 1601 runs its instance out
// of memory as the factorization starts, so that a test can check that the
// fit rejects with the helper's error instead of waiting for it.
func init() {
	help := ops["fitHelp"]
	ops["fitHelp"] = func(c *call, args []byte) (any, error) {
		if c.peer != nil {
			c.peer = crashPeer{c.peer}
		}
		return help(c, args)
	}
}

// The solver of a shared factorization of order 1602 runs its instance out
// of memory once it has started the helper, so that a test can check that
// the helper is stopped with it.
func init() {
	solve := ops["fitSolve"]
	ops["fitSolve"] = func(c *call, args []byte) (any, error) {
		if c.peer != nil {
			c.peer = crashSolver{c.peer}
		}
		return solve(c, args)
	}
}

type crashSolver struct{ linalg.Peer }

func (p crashSolver) Send(b []byte) error {
	err := p.Peer.Send(b)
	if len(b) >= 9 && b[0] == 'I' && binary.LittleEndian.Uint64(b[1:]) == 1602 {
		var hold [][]byte
		for {
			hold = append(hold, make([]byte, 256<<20))
		}
	}
	return err
}

type crashPeer struct{ linalg.Peer }

func (p crashPeer) Recv() ([]byte, error) {
	b, err := p.Peer.Recv()
	if len(b) >= 9 && b[0] == 'I' && binary.LittleEndian.Uint64(b[1:]) == 1601 {
		var hold [][]byte
		for {
			hold = append(hold, make([]byte, 256<<20))
		}
	}
	return b, err
}
