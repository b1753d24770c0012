//go:build amd64 && !noasm

package linalg

import "golang.org/x/sys/cpu"

// Implemented in symv_amd64.s.

//go:noescape
func dotAxpyAVX2(n int, y, a, x *float64, s float64) float64

//go:noescape
func symvRowsFMA(y, a *float64, m, lo, r0, r1 int, x *float64)

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
		d += float64(a[c] * x[c]) // not fused: symvRowsFMA's bits
		y[c] += float64(a[c] * s)
	}
	return d
}

func init() {
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		symvRowsNative = symvRowsVec
	}
}

// symvRowsVec is symvRowsGo with DotAxpy's kernel (dotAxpyVec) for every
// row in one call: the rows are short at the exact path's m (hundreds), so
// the per-row call, slicing and checks of the Go loop were a third of its
// time. symvRows has checked the lengths; lo ≤ r0 < r1.
func symvRowsVec(y, a []float64, m, lo, r0, r1 int, x []float64) {
	symvRowsFMA(&y[0], &a[0], m, lo, r0, r1, &x[0])
}
