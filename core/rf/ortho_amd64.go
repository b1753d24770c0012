//go:build amd64 && !noasm

package rf

import "sync"

// Implemented in ortho_amd64.s.

//go:noescape
func projectPanel16AVX(v *float64, panel *float64, n, nj int)

// packed16 reports whether orthonormalize keeps its trailing rows packed
// for projectPacked16: with AVX, four rows to a vector.
var packed16 = hasAVX

// projectPacked16 applies the nj×d panel's projections to the 16 rows
// packed t-major in v (v[16t+r] is entry t of row r): project4's
// operations on each row, 16 rows in flight. The lanes do the portable
// code's rounded products and sums in its order, so the bits are the same.
func projectPacked16(v, panel []float64, nj, d int) {
	_ = v[16*d-1]
	_ = panel[nj*d-1]
	projectPanel16AVX(&v[0], &panel[0], d, nj)
}

// packPool holds the scratch copies of pack16 and unpack16.
var packPool sync.Pool

// pack16 rewrites the 16 consecutive rows of length d in v in place,
// t-major: v[16t+r] becomes entry t of row r.
func pack16(v []float64, d int) {
	p := packScratch(d)
	copy(*p, v[:16*d])
	for r := range 16 {
		for t, x := range (*p)[r*d : (r+1)*d] {
			v[16*t+r] = x
		}
	}
	packPool.Put(p)
}

// unpack16 undoes pack16.
func unpack16(v []float64, d int) {
	p := packScratch(d)
	copy(*p, v[:16*d])
	for r := range 16 {
		row := v[r*d : (r+1)*d]
		for t := range row {
			row[t] = (*p)[16*t+r]
		}
	}
	packPool.Put(p)
}

// packScratch returns a pooled slice of 16·d floats.
func packScratch(d int) *[]float64 {
	p, _ := packPool.Get().(*[]float64)
	if p == nil {
		p = new([]float64)
	}
	*p = grow(*p, 16*d)[:16*d]
	return p
}
