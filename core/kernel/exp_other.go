//go:build !wasm

package kernel

import "math"

// expOf is math.Exp; in WebAssembly it is math.Exp's pure Go code in one
// function (exp_wasm.go).
func expOf(x float64) float64 { return math.Exp(x) }
