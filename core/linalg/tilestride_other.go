//go:build !amd64 || noasm

package linalg

// tileStride is nil where no assembly kernel reads b in place: callers
// keep their packed or one-reflector-at-a-time paths.
var tileStride tileStrideFunc
