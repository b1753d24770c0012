package fitbeam

import (
	"context"
	"reflect"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
)

// The 'auto' stage: the open plan names the rows its selection scores
// (protocol.Plan.SearchRows, global row indices); each shard sends the
// ones it holds as it reads its statistics (the shards' offsets place
// them), and one worker runs the core's selection on them with the
// merged statistics. The settled plan travels in Settled, from which
// every later step plans.

func init() {
	beam.RegisterFunction(selectPlan)
	// The elements' types by name: a runner that runs the workers in
	// processes of their own (the portable Job API path of Dataflow,
	// Flink, Spark; prism as a job server) decodes them by the registered
	// type, and an unregistered struct came back as an anonymous one.
	beam.RegisterType(reflect.TypeFor[Sample]())
}

// Sample is the rows of one shard that a selection scores: their global
// indices, the rows (row-major, the schema's width) and their targets.
type Sample struct {
	Rows []int     `json:"rows"`
	X    []float64 `json:"x"`
	Y    []float64 `json:"y"`
}

// sample is the rows of a shard (rows X and targets y, the first of them
// global row first) among idx (sorted); false when it holds none.
func sample(idx []int, first int, X *mat.Dense, y []float64) (Sample, bool) {
	var out Sample
	lo, _ := slices.BinarySearch(idx, first)
	for _, r := range idx[lo:] {
		if r >= first+len(y) {
			break
		}
		out.Rows = append(out.Rows, r)
		out.X = append(out.X, X.RawRowView(r-first)...)
		out.Y = append(out.Y, y[r-first])
	}
	return out, len(out.Rows) > 0
}

// selectAuto settles what the plan leaves open: it returns settled with
// the settled plan (settled itself when nothing is open). The settled data set, the
// merged statistics and the samples meet under one key (a grouping, not
// side inputs: the selection takes time, and prism polls without pause
// while a stage that reads side inputs runs; see Fit).
func selectAuto(s beam.Scope, settled, merged, samples beam.PCollection) beam.PCollection {
	s = s.Scope("select")
	grouped := beam.CoGroupByKey(s, beam.AddFixedKey(s, settled), beam.AddFixedKey(s, merged), beam.AddFixedKey(s, samples))
	return beam.ParDo(s, selectPlan, grouped)
}

func selectPlan(ctx context.Context, _ int, settled func(*Settled) bool, stats func(*Stats) bool, samples func(*Sample) bool) (_ Settled, err error) {
	defer tag(&err)
	var s Settled
	var st Stats
	if !settled(&s) {
		return s, check.New(check.Shape, "", "fitbeam: the selection received no settled data set")
	}
	stats(&st)
	plan, err := s.plan()
	if err != nil {
		return s, err
	}
	idx := plan.SearchRows()
	if idx == nil {
		return s, nil
	}
	// The rows in the order the plan names them.
	at := make(map[int]int, len(idx))
	for i, r := range idx {
		at[r] = i
	}
	w := plan.Cols()
	Xs, ys := mat.NewDense(len(idx), w, nil), make([]float64, len(idx))
	got := 0
	var one Sample
	for samples(&one) {
		for j, r := range one.Rows {
			i, ok := at[r]
			if !ok || len(one.X) != len(one.Rows)*w {
				return s, check.New(check.Shape, "", "fitbeam: a shard sent row %d, which the selection does not search", r)
			}
			Xs.SetRow(i, one.X[j*w:(j+1)*w])
			ys[i] = one.Y[j]
			got++
		}
	}
	if got != len(idx) {
		return s, check.New(check.Shape, "", "fitbeam: the shards sent %d of the %d rows the selection searches", got, len(idx))
	}
	if st.s == nil {
		return s, check.New(check.Shape, "", "fitbeam: no shard had a row to fit")
	}
	chosen, _, err := plan.Select(ctx, Xs, ys, st.s)
	if err != nil {
		return s, err
	}
	s.Plan, err = chosen.MarshalBinary()
	return s, err
}
