//go:build (!amd64 || noasm) && !(wasm && goexperiment.simd)

package gram

// dotAxpy is the DotAxpy implementation: plain Go on this build.
var dotAxpy = dotAxpyPortable
