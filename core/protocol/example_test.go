package protocol_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
	"ntkrf/core/protocol"
	"ntkrf/core/rf"
	"ntkrf/internal/fixture"
)

// The fit of Fit, split over two workers: each sends its statistics and
// its part as bytes, which are merged (in any order) and solved.
func Example() {
	ctx := context.Background()
	X, y := fixture.Data(600, 4, 3, 1)
	cfg := pipeline.Config{
		Preprocess: &data.Prep{},                 // settled (Select settles 'auto')
		Features:   rf.Config{Dim: 64, Depth: 2}, // likewise the depth
		Ridge:      krr.Options{Task: krr.Classification},
	}
	plan, err := protocol.NewPlan(cfg, 600, 4, y)
	if err != nil {
		panic(err)
	}
	fmt.Println("criterion:", plan.Criterion(), "held out:", plan.Holdout().Rows)

	blocks := [][2]int{{0, 250}, {250, 600}} // the rows of each worker
	rows := func(b [2]int) *mat.Dense { return X.Slice(b[0], b[1], 0, 4).(*mat.Dense) }

	// Statistics: one per worker, merged, then the scaler.
	stats := plan.NewStats()
	for _, b := range blocks {
		s := plan.NewStats()
		if err := s.AddAt(rows(b), b[0]); err != nil { // the rows b[0]…
			panic(err)
		}
		got, err := data.DecodeStats(s.AppendBinary(nil)) // as received
		if err != nil {
			panic(err)
		}
		if err := stats.Merge(got); err != nil {
			panic(err)
		}
	}
	scaler, err := plan.Scaler(stats)
	if err != nil {
		panic(err)
	}

	// Parts: each worker featurizes and sums its rows (keys: their indices).
	var sent [][]byte
	for _, b := range blocks {
		part, err := plan.NewPart(scaler)
		if err != nil {
			panic(err)
		}
		if err := part.Add(ctx, rows(b), y[b[0]:b[1]], b[0]); err != nil {
			panic(err)
		}
		sent = append(sent, part.AppendBinary(nil))
	}
	merged, err := plan.DecodePart(sent[1]) // any order
	if err != nil {
		panic(err)
	}
	if err := merged.MergeBinary(sent[0]); err != nil {
		panic(err)
	}
	p, err := plan.Solve(ctx, scaler, merged)
	if err != nil {
		panic(err)
	}

	whole, err := pipeline.Fit(ctx, X, y, cfg)
	if err != nil {
		panic(err)
	}
	a, _ := p.Predict(X)
	b, _ := whole.Predict(X)
	same := 0
	for i := range a {
		if a[i] == b[i] {
			same++
		}
	}
	fmt.Printf("rows: %d, predictions as Fit's: %d\n", merged.Rows(), same)
	// Output:
	// criterion: holdout held out: 120
	// rows: 600, predictions as Fit's: 600
}
