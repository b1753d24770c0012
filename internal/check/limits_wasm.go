//go:build js || wasip1

package check

// MaxAllocBytes bounds one float64 buffer. WebAssembly memory is 32-bit and a
// browser tab dies well before 4 GiB, so leave room for the inputs and copies.
const MaxAllocBytes = 1.5e9
