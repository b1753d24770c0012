package jsbridge

import (
	"ntkrf/core/kernel"
	"ntkrf/internal/check"

	"gonum.org/v1/gonum/mat"
)

type kernelArgs struct {
	X      *MatrixRef `json:"X"`
	Z      *MatrixRef `json:"Z"`
	Kernel string     `json:"kernel"`
	Depth  *int       `json:"depth"`
	Gamma  *float64   `json:"gamma"`
}

// kernelSpec fills defaults: ntk of depth 1; rbf with γ = 1/d.
func kernelSpec(op string, name string, depth *int, gamma *float64, d int) (kernel.Spec, error) {
	k := kernel.Spec{Name: name, Depth: defaultDepth, Gamma: 1 / float64(d)}
	if k.Name == "" {
		k.Name = "ntk"
	}
	if depth != nil {
		k.Depth = *depth
	}
	if gamma != nil {
		k.Gamma = *gamma
	}
	switch k.Name {
	case "ntk", "nngp", "rbf":
	default:
		return k, optErr("kernel", "%s: unknown kernel %q; use \"ntk\", \"nngp\" or \"rbf\"", op, k.Name)
	}
	if k.Depth < 0 || k.Depth > check.MaxDepth {
		return k, optErr("depth", "%s: depth %d is out of range; use 0 ≤ depth ≤ %d", op, k.Depth, check.MaxDepth)
	}
	if err := k.Validate(); err != nil {
		return k, optionErr(op, err)
	}
	return k, nil
}

func init() {
	ops["kernel"] = func(c *call, args []byte) (any, error) {
		var a kernelArgs
		if err := c.decode(args, &a); err != nil {
			return nil, err
		}
		X, err := c.matrix("X", a.X)
		if err != nil {
			return nil, err
		}
		_, d := X.Dims()
		k, err := kernelSpec(c.op, a.Kernel, a.Depth, a.Gamma, d)
		if err != nil {
			return nil, err
		}
		var Z *mat.Dense // nil: X against itself
		if a.Z != nil {
			if Z, err = c.matrix("Z", a.Z); err != nil {
				return nil, err
			}
		}
		n, _ := X.Dims()
		m := n
		if Z != nil {
			m, _ = Z.Dims()
		}
		if err := check.Alloc("kernel matrix", n, m); err != nil {
			return nil, err
		}
		c.progress(0, n, "kernel")
		K, err := k.Gram(X, Z)
		if err != nil {
			return nil, err
		}
		c.progress(n, n, "kernel")
		return c.putMatrix(K), nil
	}
}
