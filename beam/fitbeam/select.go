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
// (pipeline.Plan.SearchRows, global row indices); each shard sends the
// ones it holds (the shards' offsets place them), and one worker runs
// the core's selection on them with the merged statistics. Its choice
// travels in Settled, from which every later step plans.

func init() {
	beam.RegisterType(reflect.TypeFor[sampleFn]())
	beam.RegisterType(reflect.TypeFor[selectFn]())
}

// Sample is the rows of one shard that a selection scores: their global
// indices, the rows (row-major, the schema's width) and their targets.
type Sample struct {
	Rows []int     `json:"rows"`
	X    []float64 `json:"x"`
	Y    []float64 `json:"y"`
}

// selectAuto settles what opt leaves open: it returns settled with the
// choice (settled itself when nothing is open).
func selectAuto(s beam.Scope, opt Options, paths, settled, merged beam.PCollection) beam.PCollection {
	s = s.Scope("select")
	samples := beam.ParDo(s.Scope("sample rows"), &sampleFn{Opt: opt}, paths, beam.SideInput{Input: settled})
	return beam.ParDo(s, &selectFn{Opt: opt}, settled, beam.SideInput{Input: samples}, beam.SideInput{Input: merged})
}

type sampleFn struct {
	Opt Options `json:"opt"`
}

func (f *sampleFn) ProcessElement(ctx context.Context, path string, s Settled, emit func(Sample)) error {
	plan, err := planOf(f.Opt.spec(s))
	if err != nil {
		return err
	}
	idx := plan.SearchRows()
	if idx == nil {
		return nil
	}
	first := s.Offsets[path]
	lo, _ := slices.BinarySearch(idx, first)
	if lo == len(idx) {
		return nil
	}
	X, y, err := readRows(ctx, path, f.Opt, s)
	if err != nil {
		return err
	}
	var out Sample
	for _, r := range idx[lo:] {
		if r >= first+len(y) {
			break
		}
		out.Rows = append(out.Rows, r)
		out.X = append(out.X, X.RawRowView(r-first)...)
		out.Y = append(out.Y, y[r-first])
	}
	if len(out.Rows) > 0 {
		emit(out)
	}
	return nil
}

type selectFn struct {
	Opt Options `json:"opt"`
}

func (f *selectFn) ProcessElement(ctx context.Context, s Settled, samples func(*Sample) bool, st Stats) (Settled, error) {
	plan, err := planOf(f.Opt.spec(s))
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
	settled, sel, err := plan.Select(ctx, Xs, ys, st.s)
	if err != nil {
		return s, err
	}
	cfg := settled.Config()
	c := &Choice{Depth: cfg.Features.Depth, Prep: *cfg.Preprocess, Selection: sel}
	s.Choice = c
	return s, nil
}
