package linalg

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"
)

// TestAddAtA32Group checks that packing several blocks at once gives the
// bits of one block at a time: addAtA32Group with any group size and 1–3
// workers against addAtA32OneBlock, on n not a multiple of 256 or of the
// group (1, 2, 3, 5 blocks), m not a multiple of 48. Not parallel: it sets
// GOMAXPROCS.
func TestAddAtA32Group(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	ks := append([]kernel32Set{{"portable", tile32Portable, false}}, kernels32()...)
	for _, k := range ks {
		for _, s := range []struct{ n, m int }{{1, 50}, {200, 97}, {300, 130}, {700, 61}, {1100, 100}, {1281, 49}} {
			a := randSlice(s.n*s.m, 11)
			g0 := randSlice(s.m*s.m, 12)
			want := slices.Clone(g0)
			addAtA32OneBlock(k.tile, want, a, s.n, s.m)
			for _, nb := range []int{1, 2, 3, 4, 6, group32Blocks(s.n, s.m)} {
				for _, p := range []int{1, 2, 3} {
					t.Run(fmt.Sprintf("%s/n=%d,m=%d/nb=%d/procs=%d", k.name, s.n, s.m, nb, p), func(t *testing.T) {
						runtime.GOMAXPROCS(p)
						g := slices.Clone(g0)
						addAtA32Group(k.tile, g, a, s.n, s.m, nb)
						if !slices.Equal(g, want) {
							t.Error("bits differ from one block at a time")
						}
					})
				}
			}
		}
	}
}

// addAtA32OneBlock is the definition of AddAtA32's bits: for each kc-row
// block in order, every tile of the upper triangle adds the block's
// float32 sums to g in float64 (through a scratch tile, which is exact:
// 0 + s is s).
func addAtA32OneBlock(kern tile32Func, g, a []float64, n, m int) {
	np := 3 * ((m + tile32C - 1) / tile32C)
	for k0 := 0; k0 < n; k0 += kc {
		k := min(kc, n-k0)
		ps := k * panel32
		pack := make([]float32, np*ps)
		pack32(pack, a[k0*m:(k0+k)*m], k, m, 0, np)
		for i := 0; i < m; i += tile32R {
			for j := i / tile32C * tile32C; j < m; j += tile32C {
				var c [tile32R * tile32C]float64
				kern(k, pack[(i/panel32)*ps+i%panel32:], pack[(j/panel32)*ps:], ps, c[:], tile32C)
				addUpper(g, m, c[:], i, j, tile32R, tile32C, m)
			}
		}
	}
}

// BenchmarkGram32Group_N20000_M4096 times AddAtA32 with one block at a
// time (nb = 1, the former traffic on G) and with groups of 2, 4 and 8
// blocks, alternating three times on the same A, and reports each
// group's median time and its speed-up over nb = 1 by wall and CPU time.
func BenchmarkGram32Group_N20000_M4096(b *testing.B) {
	const n, m = 20000, 4096
	if tile32 == nil {
		b.Skip("no float32 kernel in this build")
	}
	a, g := randSlice(n*m, 1), make([]float64, m*m)
	nbs := []int{1, 2, 4, 8}
	wall, cpu := make([][]float64, len(nbs)), make([][]float64, len(nbs))
	for b.Loop() {
		for range 3 {
			for i, nb := range nbs {
				w, c := time.Now(), cpuSeconds()
				addAtA32Group(tile32, g, a, n, m, nb)
				wall[i] = append(wall[i], time.Since(w).Seconds())
				cpu[i] = append(cpu[i], cpuSeconds()-c)
			}
		}
	}
	med := func(x []float64) float64 { s := slices.Clone(x); slices.Sort(s); return s[len(s)/2] }
	for i, nb := range nbs {
		b.ReportMetric(med(wall[i]), fmt.Sprintf("s-nb%d", nb))
		b.ReportMetric(med(wall[0])/med(wall[i]), fmt.Sprintf("x-wall-nb%d", nb))
		b.ReportMetric(med(cpu[0])/med(cpu[i]), fmt.Sprintf("x-cpu-nb%d", nb))
	}
}
