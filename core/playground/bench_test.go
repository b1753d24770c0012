package playground

import (
	"context"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/pipeline"
)

// BenchmarkRedraw times the playground's redraws at the lab's defaults
// (200 points, m = 512): a cold request (three fits, the test rows and
// the 64×64 grid scored), and each stage alone.
func BenchmarkRedraw(b *testing.B) {
	X, y := spiral(200, 1)
	test, _ := spiral(200, 2)
	full := grid(64)
	for _, depth := range []int{1, 2} {
		for i, cfg := range models(depth, 512, 0.01) {
			var fit, score time.Duration
			for k := 0; k < 3; k++ {
				t0 := time.Now()
				p, err := pipeline.Fit(context.Background(), X, y, cfg)
				if err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if _, err := p.Scores(full); err != nil {
					b.Fatal(err)
				}
				fit, score = time.Since(t0)-time.Since(t1), time.Since(t1)
			}
			b.Logf("depth %d model %d: fit %v, grid %v", depth, i, fit, score)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var c Cache
		if _, err := c.Run(context.Background(), Request{Models: models(1, 512, 0.01), X: X, Y: y, Points: []*mat.Dense{test, full}}); err != nil {
			b.Fatal(err)
		}
	}
}
