//go:build crashtest

package jsbridge

import (
	"bytes"
	"encoding/binary"

	"ntkrf/core/linalg"
)

// A build for the package's tests only (build.sh builds it as
// dist/test/ntkrf-crashtest.wasm), in which some calls run their instance
// out of memory on purpose, so that a test can kill an instance and check
// that only the calls it should fail, and the engine recovers:
//   - split with seed 4242;
//   - the helper of a shared factorization of order 1601, as it starts (the
//     fit must reject with the helper's error, not wait for it);
//   - the solver of one of order 1602, once it has started the helper (the
//     helper must be stopped with it).
func init() {
	split := ops["split"]
	ops["split"] = func(c *call, args []byte) (any, error) {
		if bytes.Contains(args, []byte(`"seed":4242`)) {
			exhaustMemory()
		}
		return split(c, args)
	}
	for op, order := range map[string]uint64{"fitHelp": 1601, "fitSolve": 1602} {
		f := ops[op]
		ops[op] = func(c *call, args []byte) (any, error) {
			if c.peer != nil {
				c.peer = crashPeer{c.peer, order}
			}
			return f(c, args)
		}
	}
}

// crashPeer runs its instance out of memory when the start of a shared
// factorization of this order passes it (sent or received).
type crashPeer struct {
	linalg.Peer
	order uint64
}

func (p crashPeer) Send(b []byte) error {
	err := p.Peer.Send(b)
	p.check(b)
	return err
}

func (p crashPeer) Recv() ([]byte, error) {
	b, err := p.Peer.Recv()
	p.check(b)
	return b, err
}

// check: the start message is 'I' and the order as a little-endian uint64.
func (p crashPeer) check(b []byte) {
	if len(b) >= 9 && b[0] == 'I' && binary.LittleEndian.Uint64(b[1:]) == p.order {
		exhaustMemory()
	}
}

// exhaustMemory allocates until the 4 GiB of a 32-bit linear memory run out.
func exhaustMemory() {
	var hold [][]byte
	for {
		hold = append(hold, make([]byte, 256<<20))
	}
}
