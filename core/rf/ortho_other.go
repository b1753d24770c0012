//go:build !amd64 || noasm

package rf

// packed16 reports whether orthonormalize keeps its trailing rows packed:
// not in plain Go, whose groups of four keep their sums in registers.
const packed16 = false

func projectPacked16(v, panel []float64, nj, d int) { panic("rf: projectPacked16 without packed rows") }
func pack16(v []float64, d int)                     { panic("rf: pack16 without packed rows") }
func unpack16(v []float64, d int)                   { panic("rf: unpack16 without packed rows") }
