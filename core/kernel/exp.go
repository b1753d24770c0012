package kernel

import (
	"math"
	"runtime"

	"ntkrf/internal/pmath"
)

// expOf is the RBF map's exp: math.Exp natively (an assembly routine on
// amd64 and arm64, whose bits the native models keep), and in WebAssembly
// pmath.Exp, the same pure-Go algorithm math.Exp runs there, so its bits
// (TestExpOfIsMathExp), in this module's code, which rbfPairs' two lanes
// follow operation for operation.
func expOf(x float64) float64 {
	if runtime.GOARCH == "wasm" {
		return pmath.Exp(x)
	}
	return math.Exp(x)
}
