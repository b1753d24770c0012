//go:build !amd64 || noasm

package rf

// packed16 reports whether orthonormalize keeps its trailing rows packed:
// not in plain Go, whose groups of four keep their sums in registers. A
// Float64x2 kernel for SIMD WebAssembly (two rows to a vector, 16 in
// flight) was no faster in Node than these groups (a depth-2 draw at
// d = 784, m = 4096: 4.1–4.5 s against 3.9–4.7 s), so there is none.
const packed16 = false

func projectPacked16(v, panel []float64, nj, d int) { panic("rf: projectPacked16 without packed rows") }
func pack16(v []float64, d int)                     { panic("rf: pack16 without packed rows") }
func unpack16(v []float64, d int)                   { panic("rf: unpack16 without packed rows") }
