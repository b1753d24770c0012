//go:build (!amd64 || noasm) && !(wasm && goexperiment.simd)

package linalg

// mul32Kernels lists the Mul32 implementations this build can run.
func mul32Kernels() []mul32Set { return []mul32Set{{"portable", mul32Portable}} }
