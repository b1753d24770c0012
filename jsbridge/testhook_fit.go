//go:build crashtest

package jsbridge

import (
	"context"

	"ntkrf/core/pipeline"
)

// A build for the package's tests only (dist/test/ntkrf-crashtest.wasm):
// fitOneCall fits in one call (pipeline.Fit: the protocol with one part,
// in this instance), so that a Node test can hold the package's scheduled
// fit (fitRidge over chunks and workers) against it bit for bit in the same
// WebAssembly module. A scheduling fault (parts or statistics merged out
// of order, a selection dropped, a re-plan skipped) shows as other bits.
func init() {
	ops["fitOneCall"] = func(c *call, args []byte) (any, error) {
		var a struct {
			fitArgs
			X *MatrixRef `json:"X"`
			Y *ArrayRef  `json:"y"`
		}
		if err := c.decode(args, &a); err != nil {
			return nil, err
		}
		X, err := c.matrix("X", a.X)
		if err != nil {
			return nil, err
		}
		y, err := c.array("y", a.Y)
		if err != nil {
			return nil, err
		}
		cfg, err := a.config(c)
		if err != nil {
			return nil, err
		}
		p, err := pipeline.Fit(context.Background(), X, y, cfg)
		if err != nil {
			return nil, err
		}
		return c.putPipeline(p)
	}
}
