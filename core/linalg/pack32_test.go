package linalg

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// TestPack32 holds pack32 to its definition on blocks whose rows are not a
// multiple of pack32Rows and whose columns end inside or at a panel, for
// panel ranges as the workers split them: panel p, row r, column c is
// float32(a[r·m+16p+c]), zero past column m, and panels outside [p0, p1)
// are left alone.
func TestPack32(t *testing.T) {
	t.Parallel()
	for _, s := range []struct{ k, m, p0, p1 int }{
		{1, 1, 0, 1}, {3, 16, 0, 1}, {7, 17, 0, 2}, {8, 40, 1, 3}, {9, 48, 0, 3},
		{13, 100, 2, 7}, {256, 130, 0, 9}, {255, 47, 1, 3}, {64, 96, 3, 6},
	} {
		t.Run(fmt.Sprintf("k=%d,m=%d,panels=%d-%d", s.k, s.m, s.p0, s.p1), func(t *testing.T) {
			t.Parallel()
			a := randSlice(s.k*s.m, 5)
			ps := s.k * panel32
			np := max(s.p1, (s.m+panel32-1)/panel32)
			dst := make([]float32, np*ps)
			sentinel := float32(math.NaN())
			for i := range dst {
				dst[i] = sentinel
			}
			pack32(dst, a, s.k, s.m, s.p0, s.p1)
			for p := range np {
				for r := range s.k {
					for c := range panel32 {
						got := dst[p*ps+r*panel32+c]
						var want float32
						switch j := p*panel32 + c; {
						case p < s.p0 || p >= s.p1:
							want = sentinel
						case j < s.m:
							want = float32(a[r*s.m+j])
						}
						if math.Float32bits(got) != math.Float32bits(want) {
							t.Fatalf("panel %d row %d column %d: %v, want %v", p, r, c, got, want)
						}
					}
				}
			}
		})
	}
}

// pack32ByPanel is pack32 as it was: a panel at a time, k rows each: the
// baseline of BenchmarkPack32Ratio.
func pack32ByPanel(dst []float32, a []float64, k, m, p0, p1 int) {
	ps := k * panel32
	for p := p0; p < p1; p++ {
		d := dst[p*ps : (p+1)*ps]
		j := p * panel32
		w := min(panel32, max(0, m-j))
		for r := range k {
			row := d[r*panel32 : (r+1)*panel32]
			for c := range w {
				row[c] = float32(a[r*m+j+c])
			}
			clear(row[w:])
		}
	}
}

// BenchmarkPack32Ratio times pack32 and the former panel-at-a-time order
// on ten 256×4096 blocks (AddAtA32's packing at m = 4096), alternating
// five times, and reports the CPU time per block of each and the ratio.
func BenchmarkPack32Ratio(b *testing.B) {
	const k, m, blocks = 256, 4096, 10
	a := randSlice(blocks*k*m, 3)
	np := m / panel32
	dst := make([]float32, np*k*panel32)
	packs := []func([]float32, []float64, int, int, int, int){pack32ByPanel, pack32}
	cpu := make([][]float64, len(packs))
	for b.Loop() {
		for range 5 {
			for i, pack := range packs {
				c := cpuSeconds()
				for blk := range blocks {
					pack(dst, a[blk*k*m:(blk+1)*k*m], k, m, 0, np)
				}
				cpu[i] = append(cpu[i], (cpuSeconds()-c)/blocks)
			}
		}
	}
	med := func(x []float64) float64 { s := slices.Clone(x); slices.Sort(s); return s[len(s)/2] }
	b.ReportMetric(1e3*med(cpu[0]), "ms/block-by-panel")
	b.ReportMetric(1e3*med(cpu[1]), "ms/block-pack32")
	b.ReportMetric(med(cpu[0])/med(cpu[1]), "x")
	b.Logf("per 256×4096 block, CPU time: panel at a time %.2f ms, pack32 %.2f ms (%.1f×); medians of %d",
		1e3*med(cpu[0]), 1e3*med(cpu[1]), med(cpu[0])/med(cpu[1]), len(cpu[0]))
}
