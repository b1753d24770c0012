//go:build !amd64 || noasm

package linalg

// packedTwin is the packed tile kernel the reference is checked against
// (to rounding): this build has no in-place assembly kernel.
func packedTwin(string) tileFunc { return tilePortable }
