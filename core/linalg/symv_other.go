//go:build (!amd64 || noasm) && !(wasm && goexperiment.simd)

package linalg

// dotAxpy is the DotAxpy implementation: plain Go on this build.
var dotAxpy = dotAxpyPortable
