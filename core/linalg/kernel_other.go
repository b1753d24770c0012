//go:build (!amd64 || noasm) && !(wasm && goexperiment.simd)

package linalg

// kernels lists the AddAtA and Mul implementations this build can run, the
// fastest first; the portable Go code is the only one here.
func kernels() []kernelSet {
	return []kernelSet{{"portable", tilePortable, mulPacked}}
}
