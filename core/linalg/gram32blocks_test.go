package linalg

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
)

// TestAddAtA32Blocks holds addAtA32 (items split among 1–3 workers,
// diagonal and edge tiles through scratch) to the definition of its bits,
// addAtA32OneBlock, for every kernel, on n spanning 1, 2, 3 and 5 blocks
// and not a multiple of 256, m not a multiple of 48: a change to the
// block order or to how a block's sums reach g fails here. Not parallel:
// it sets GOMAXPROCS.
func TestAddAtA32Blocks(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	ks := append([]kernel32Set{{"portable", tile32Portable, false}}, kernels32()...)
	for _, k := range ks {
		for _, s := range []struct{ n, m int }{{1, 50}, {200, 97}, {300, 130}, {700, 61}, {1100, 100}, {1281, 49}} {
			a := randSlice(s.n*s.m, 11)
			g0 := randSlice(s.m*s.m, 12)
			want := slices.Clone(g0)
			addAtA32OneBlock(k.tile, want, a, s.n, s.m)
			for _, p := range []int{1, 2, 3} {
				t.Run(fmt.Sprintf("%s/n=%d,m=%d/procs=%d", k.name, s.n, s.m, p), func(t *testing.T) {
					runtime.GOMAXPROCS(p)
					g := slices.Clone(g0)
					addAtA32(k.tile, g, a, s.n, s.m)
					if !slices.Equal(g, want) {
						t.Error("bits differ from one block at a time")
					}
				})
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
