//go:build !amd64 || noasm

package rf

// projectGroup16 applies the nj×d panel's projections to the 16
// consecutive rows of length d in v: plain Go in this build.
func projectGroup16(v, panel []float64, nj, d int) { projectGroup16Portable(v, panel, nj, d) }
