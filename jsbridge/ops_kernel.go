package jsbridge

import (
	"ntkrf/core/kernel"
	"ntkrf/internal/check"

	"gonum.org/v1/gonum/mat"
)

type kernelArgs struct {
	X *MatrixRef `json:"X"`
	Z *MatrixRef `json:"Z"`
	kernel.Spec
}

// kernelSpec fills the kernel's defaults for inputs of d columns.
func kernelSpec(op string, k kernel.Spec, d int) (kernel.Spec, error) {
	k, err := k.Filled(d)
	if err != nil {
		return k, optionErr(op, err, "kernel")
	}
	return k, nil
}

func opKernel(c *call, args []byte) (any, error) {
	var a kernelArgs
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	X, err := c.matrix("X", a.X)
	if err != nil {
		return nil, err
	}
	_, d := X.Dims()
	k, err := kernelSpec(c.op, a.Spec, d)
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
