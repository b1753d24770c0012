//go:build amd64 && !noasm

package rf

import "sync"

// Implemented in ortho_amd64.s.

//go:noescape
func projectPanel16AVX(v *float64, panel *float64, n, nj int)

// packPool holds the packed copies of 16 rows that projectGroup16 hands
// to the AVX kernel.
var packPool sync.Pool

// projectGroup16 applies the nj×d panel's projections to the 16
// consecutive rows of length d in v (project4's operations on each row):
// on AVX, packed four rows to a vector, 16 rows in flight; the lanes do
// the portable code's rounded products and sums in its order, so the bits
// are the same.
func projectGroup16(v, panel []float64, nj, d int) {
	if !hasAVX {
		projectGroup16Portable(v, panel, nj, d)
		return
	}
	_ = v[16*d-1]
	_ = panel[nj*d-1]
	bp, _ := packPool.Get().(*[]float64)
	if bp == nil {
		bp = new([]float64)
	}
	p := grow(*bp, 16*d)
	for r := range 16 {
		for t, x := range v[r*d : (r+1)*d] {
			p[16*t+r] = x
		}
	}
	projectPanel16AVX(&p[0], &panel[0], d, nj)
	for r := range 16 {
		row := v[r*d : (r+1)*d]
		for t := range row {
			row[t] = p[16*t+r]
		}
	}
	*bp = p
	packPool.Put(bp)
}
