package rf

import (
	"fmt"
	"testing"
)

// TestNewLayerWeightsAreDrawnRows: a layer's weights hold the drawn Step
// and ReLU rows as columns (w[j][col0+i] = row i's entry j), for widths
// below, at and across putBlock's blocks of rows.
func TestNewLayerWeightsAreDrawnRows(t *testing.T) {
	for _, s := range []struct{ din, m0, m1 int }{{3, 1, 1}, {5, putRows, putRows - 1}, {7, putRows + 1, 2*putRows + 3}, {1, 40, 0}} {
		t.Run(fmt.Sprintf("din=%d,m0=%d,m1=%d", s.din, s.m0, s.m1), func(t *testing.T) {
			const seed, l = 11, 2
			f := &Map{cfg: Config{Seed: seed, Sampler: Gaussian}}
			ly := f.newLayer(l, layerPlan{din: s.din, m0: s.m0, m1: s.m1})
			stride := s.m0 + s.m1
			for _, part := range []struct {
				tag        int
				col0, rows int
			}{{tagA0, 0, s.m0}, {tagA1, s.m0, s.m1}} {
				rows := gaussianRows(&gauss{r: newStream(seed, l, part.tag)}, part.rows, s.din)
				for i := range part.rows {
					for j := range s.din {
						if got, want := ly.w[j*stride+part.col0+i], rows[i*s.din+j]; got != want {
							t.Fatalf("w[%d][%d] = %v, want row %d's entry %d = %v", j, part.col0+i, got, i, j, want)
						}
					}
				}
			}
		})
	}
}
