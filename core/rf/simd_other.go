//go:build !(wasm && goexperiment.simd) && (!amd64 || noasm)

package rf

// fwht is the Walsh–Hadamard transform of this build: plain Go.
func fwht(x []float64) { fwhtPortable(x) }

// radix2 is the FFT butterfly pass of this build: plain Go.
func radix2(x, tw []complex128, inverse bool) { radix2Portable(x, tw, inverse) }
