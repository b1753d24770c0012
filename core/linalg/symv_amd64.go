//go:build amd64 && !noasm

package linalg

import "golang.org/x/sys/cpu"

// Implemented in symv_amd64.s.

//go:noescape
func dotAxpyAVX2(n int, y, a, x *float64, s float64) float64

// dotAxpy is the DotAxpy implementation: AVX2 with FMA where the CPU has
// it. An AVX-512 version measured no faster on a Zen 5 (one core, rows of
// 1024 to 4096 entries): the loop is bound by memory.
var dotAxpy = func() func(y, a, x []float64, s float64) float64 {
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		return dotAxpyVec
	}
	return dotAxpyPortable
}()

// dotAxpyVec runs the assembly on the multiple of 4 entries and finishes
// the rest in Go.
func dotAxpyVec(y, a, x []float64, s float64) float64 {
	n := len(a) &^ 3
	d := 0.0
	if n > 0 {
		d = dotAxpyAVX2(n, &y[0], &a[0], &x[0], s)
	}
	for c := n; c < len(a); c++ {
		d += a[c] * x[c]
		y[c] += a[c] * s
	}
	return d
}
