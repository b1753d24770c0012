//go:build amd64 && !noasm

package linalg

import "golang.org/x/sys/cpu"

// Implemented in vec_amd64.s.

//go:noescape
func dotAVX2(n int, a, x *float64) float64

//go:noescape
func axpyAVX2(n int, y, x *float64, s float64)

var vecFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dotFast returns Σ a[i]·x[i] over the length of a, with fused
// multiply-adds where the CPU has them: for the two-stage reduction, whose
// bits need not match WebAssembly's.
func dotFast(a, x []float64) float64 {
	x = x[:len(a)]
	if !vecFMA {
		return dotPortable(a, x)
	}
	n := len(a) &^ 3
	d := 0.0
	if n > 0 {
		d = dotAVX2(n, &a[0], &x[0])
	}
	for i := n; i < len(a); i++ {
		d += a[i] * x[i]
	}
	return d
}

// axpyFast sets y[i] += s·x[i] over the length of y.
func axpyFast(y, x []float64, s float64) {
	x = x[:len(y)]
	n := len(y) &^ 3
	if vecFMA && n > 0 {
		axpyAVX2(n, &y[0], &x[0], s)
	} else {
		n = 0
	}
	for i := n; i < len(y); i++ {
		y[i] += s * x[i]
	}
}
