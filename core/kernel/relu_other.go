//go:build !(goexperiment.simd && wasm)

package kernel

import "gonum.org/v1/gonum/mat"

// reluPairs maps no entry on this build: reluRow's scalar loop maps them
// all (see relu_simd_wasm.go).
func reluPairs(row []float64, j0 int, a float64, b, x []float64, Z *mat.Dense, ntk bool) int {
	return j0
}

// simdPairs is false: no entries are mapped two at a time on this build.
const simdPairs = false

// layersPair maps no pair on this build.
func layersPair(g, b *[2]float64, a float64, ntk bool, out *[2][MaxDepth]float64, depth int) bool {
	return false
}

// rbfPairs maps no entry on this build: the RBF map's scalar loop maps
// them all.
func rbfPairs(row []float64, j0 int, sx float64, sz []float64, gamma float64) int {
	return j0
}
