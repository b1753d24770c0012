//go:build (!amd64 || noasm) && !(wasm && goexperiment.simd)

package linalg

// kernels32 lists the AddAtA32 micro-kernels this build can run: none, so
// AddAtA32 is AddAtA (a portable float32 kernel would be no faster).
func kernels32() []kernel32Set { return nil }
