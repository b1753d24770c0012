//go:build !amd64 || noasm

package gram

// dotAxpy is the DotAxpy implementation: plain Go on this build.
var dotAxpy = dotAxpyPortable
