//go:build !(js || wasip1)

package check

// MaxAllocBytes bounds one float64 buffer natively.
const MaxAllocBytes = 16e9
