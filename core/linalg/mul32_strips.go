package linalg

import (
	"runtime"
	"unsafe"
)

// Weights32's layout for a 4×8 micro-kernel on row-major a (WebAssembly
// SIMD's mul4x8F32): b in strips of nr8 columns, each strip its k rows of
// nr8 values one after the other (zeros past column m), so that the
// kernel reads b 32 bytes at a time from one 25 KB strip (k = 784) instead
// of from rows m·4 bytes apart, a new page per inner index. The kernel is
// Mul32's, with only b's stride changed: the same sums in the same order.
const nr8 = 8

// mul32Strip sets the 4×nr8 float32 block at c (rows ldc bytes apart) to
// the sums over l < k of a[r][l]·b[l][0:nr8] (a's rows lda bytes apart,
// b's ldb), each entry summed from zero in increasing l with a rounded
// float32 product and sum, as mul32Portable does.
type mul32Strip func(k int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c unsafe.Pointer, ldc int)

// packStrips32 returns b (k×m, row-major), rounded to float32, in strips
// of nr8 columns: strip q's row l at (q·k+l)·nr8, zeros past column m.
func packStrips32[T float32 | float64](b []T, k, m int) []float32 {
	ns := (m + nr8 - 1) / nr8
	p := make([]float32, k*ns*nr8)
	for l := range k {
		packStripRow(p[l*nr8:], b[l*m:(l+1)*m], k)
	}
	return p
}

// packStripRow writes row (one row of b) into the strips at p, row's
// first nr8 values at p[0:nr8], the next at p[k·nr8:], and so on: a call
// of its own per row, not inlined, because WebAssembly engines swap
// optimized code in only at a function's next call, and the packing of
// all k rows in one call ran to its end in baseline code (51–120 ms at
// its first call against 9–29 ms later, in pkgsplit's profile).
//
//go:noinline
func packStripRow[T float32 | float64](p []float32, row []T, k int) {
	for q := 0; q*nr8 < len(row); q++ {
		d := p[q*k*nr8 : q*k*nr8+nr8]
		for j, v := range row[q*nr8 : min((q+1)*nr8, len(row))] {
			d[j] = float32(v) // the one rounding of a float64 weight
		}
	}
}

// mul32StripPanels sets rows [i0, i1) of c = a·b, b packed by
// packStrips32, with the 4×nr8 kernel kern over the whole groups of 4
// rows, strip by strip (a strip stays in cache while the row groups pass
// over it). The last strip, where it crosses column m, is computed in a
// scratch tile of which only the real columns are copied; the rows past
// the last whole group are summed in plain Go from the strips in
// mul32Portable's order. Every entry has mul32Portable's bits.
func mul32StripPanels(kern mul32Strip, c, a, bp []float32, i0, i1, k, m int) {
	if i1 <= i0 || m == 0 {
		return
	}
	if k == 0 {
		clear(c[i0*m : i1*m])
		return
	}
	ns := (m + nr8 - 1) / nr8
	r1 := i1 - (i1-i0)%4
	if host := strips32Host; host != nil && r1 > i0 && runtime.GOARCH == "wasm" {
		host(k, m, r1-i0, a[i0*k:r1*k], bp[:ns*k*nr8], c[i0*m:r1*m], make([]float32, 4*nr8))
	} else if r1 > i0 {
		stripRows(kern, c, a, bp, i0, r1, k, m)
	}
	for i := r1; i < i1; i++ {
		ci := c[i*m : (i+1)*m]
		clear(ci)
		ai := a[i*k : (i+1)*k]
		for q := range ns {
			cq := ci[q*nr8 : min((q+1)*nr8, m)]
			s := bp[q*k*nr8 : (q+1)*k*nr8]
			for l, av := range ai {
				bl := s[l*nr8 : l*nr8+len(cq)]
				for j := range cq {
					// The conversion forbids fusing into an FMA.
					cq[j] += float32(av * bl[j])
				}
			}
		}
	}
}

// mul4x8Portable is the 4×nr8 kernel in plain Go, for the tests on every
// build.
func mul4x8Portable(k int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c unsafe.Pointer, ldc int) {
	for r := range 4 {
		ar := unsafe.Slice((*float32)(unsafe.Add(a, r*lda)), k)
		cr := unsafe.Slice((*float32)(unsafe.Add(c, r*ldc)), nr8)
		clear(cr)
		for l, av := range ar {
			bl := unsafe.Slice((*float32)(unsafe.Add(b, l*ldb)), nr8)
			for j := range cr {
				cr[j] += float32(av * bl[j])
			}
		}
	}
}

// stripRows is mul32StripPanels' kernel loop over the row groups of four
// in [i0, r1) and every strip.
func stripRows(kern mul32Strip, c, a, bp []float32, i0, r1, k, m int) {
	ns := (m + nr8 - 1) / nr8
	// The kernel reads a[i0·k : r1·k] and bp, and writes the whole
	// strips of c[i0·m : r1·m], through pointers.
	_, _, _ = a[r1*k-1], bp[ns*k*nr8-1], c[r1*m-1]
	pa, pc := unsafe.Pointer(&a[0]), unsafe.Pointer(&c[0])
	var t [4 * nr8]float32
	for q := range ns {
		j := q * nr8
		w := min(nr8, m-j)
		pb := unsafe.Pointer(&bp[q*k*nr8])
		for i := i0; i < r1; i += 4 {
			pai := unsafe.Add(pa, 4*i*k)
			if w == nr8 {
				kern(k, pai, 4*k, pb, 4*nr8, unsafe.Add(pc, 4*(i*m+j)), 4*m)
				continue
			}
			kern(k, pai, 4*k, pb, 4*nr8, unsafe.Pointer(&t[0]), 4*nr8)
			for r := range 4 {
				copy(c[(i+r)*m+j:(i+r)*m+j+w], t[r*nr8:])
			}
		}
	}
}
