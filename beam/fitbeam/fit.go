package fitbeam

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"io"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/pipeline"
	"ntkrf/internal/check"
)

func init() {
	for _, fn := range []any{pathOf, mergeCensus, settle, mergeStats, mergeParts} {
		beam.RegisterFunction(fn)
	}
	for _, t := range []reflect.Type{reflect.TypeFor[surveyFn](), reflect.TypeFor[statsFn](), reflect.TypeFor[partFn](),
		reflect.TypeFor[solveFn](), reflect.TypeFor[writeFn]()} {
		beam.RegisterType(t)
	}
}

// FitFiles fits the shards that glob matches (local paths, or those of
// any filesystem Beam has registered: gs://, s3://) and returns the model
// file's bytes, one element (pipeline.Pipeline's JSON, as every host loads
// it).
func FitFiles(s beam.Scope, glob string, opt Options) beam.PCollection {
	s = s.Scope("ntkrf.FitFiles")
	files := fileio.MatchFiles(s, glob, fileio.MatchEmptyDisallow())
	return Fit(s, beam.ParDo(s, pathOf, files), opt)
}

func pathOf(md fileio.FileMetadata) string { return md.Path }

// Fit fits the shards whose paths paths holds (each path once) and
// returns the model file's bytes, one element.
func Fit(s beam.Scope, paths beam.PCollection, opt Options) beam.PCollection {
	s = s.Scope("ntkrf.Fit")
	censuses := beam.ParDo(s.Scope("survey"), &surveyFn{Opt: opt}, paths)
	settled := beam.ParDo(s, settle, beam.Combine(s.Scope("census"), mergeCensus, censuses))

	stats := beam.ParDo(s.Scope("statistics"), &statsFn{Opt: opt}, paths, beam.SideInput{Input: settled})
	merged := beam.Combine(s.Scope("merge statistics"), mergeStats, stats)
	// 'auto': the depth and preprocessing chosen (select.go), carried on.
	settled = selectAuto(s, opt, paths, settled, merged)

	parts := beam.ParDo(s.Scope("parts"), &partFn{Opt: opt}, paths, beam.SideInput{Input: settled}, beam.SideInput{Input: merged})
	// Two levels: each key merges its shards' parts on one worker, then
	// the few results are merged globally.
	byKey := beam.CombinePerKey(s.Scope("merge parts by key"), mergeParts, parts)
	part := beam.Combine(s.Scope("merge parts"), mergeParts, beam.DropKey(s, byKey))

	return beam.ParDo(s.Scope("solve"), &solveFn{Opt: opt}, part, beam.SideInput{Input: settled}, beam.SideInput{Input: merged})
}

// Write writes the one element of model (bytes) to path, on any Beam
// filesystem.
func Write(s beam.Scope, path string, model beam.PCollection) {
	beam.ParDo0(s.Scope("ntkrf.Write"), &writeFn{Path: path}, model)
}

// readShard returns a shard's bytes.
func readShard(ctx context.Context, path string) ([]byte, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// shardErr names the shard in an error, keeping its code.
func shardErr(path string, err error) error {
	if err == nil {
		return nil
	}
	code := check.CodeOf(err)
	if code == "" {
		code = check.Parse // a filesystem's error: the shard could not be read
	}
	return check.New(code, "", "%s: %v", path, err)
}

type surveyFn struct {
	Opt Options `json:"opt"`
}

func (f *surveyFn) ProcessElement(ctx context.Context, path string) (Census, error) {
	b, err := readShard(ctx, path)
	if err != nil {
		return Census{}, shardErr(path, err)
	}
	c, err := data.Survey(path, b, f.Opt.Data)
	return Census{c}, shardErr(path, err)
}

func mergeCensus(a, b Census) (Census, error) {
	switch {
	case b.c == nil:
		return a, nil
	case a.c == nil:
		a.c = &data.Census{}
	}
	return a, a.c.Merge(b.c)
}

func settle(c Census) (Settled, error) {
	if c.c == nil {
		c.c = &data.Census{}
	}
	s, err := c.c.Settle()
	if err != nil {
		return Settled{}, err
	}
	return Settled{Schema: *s, Offsets: c.c.Offsets(), Rows: c.c.Rows()}, nil
}

// readRows reads a shard in the settled schema.
func readRows(ctx context.Context, path string, opt Options, s Settled) (*mat.Dense, []float64, error) {
	b, err := readShard(ctx, path)
	if err != nil {
		return nil, nil, shardErr(path, err)
	}
	X, y, err := s.Schema.ReadLabeled(b, opt.Data.MaxBytes, opt.Data.Missing == "drop")
	return X, y, shardErr(path, err)
}

type statsFn struct {
	Opt Options `json:"opt"`
}

func (f *statsFn) ProcessElement(ctx context.Context, path string, s Settled) (Stats, error) {
	plan, err := planOf(f.Opt.spec(s))
	if err != nil {
		return Stats{}, err
	}
	X, y, err := readRows(ctx, path, f.Opt, s)
	if err != nil || len(y) == 0 {
		return Stats{}, err
	}
	st := plan.NewStats()
	return Stats{st}, shardErr(path, st.Add(X))
}

func mergeStats(a, b Stats) (Stats, error) {
	switch {
	case b.s == nil:
		return a, nil
	case a.s == nil:
		return b, nil
	}
	return a, a.s.Merge(b.s)
}

// scalerOf is the plan's scaler from the merged statistics.
func scalerOf(plan *pipeline.Plan, st Stats) (*data.Scaler, error) {
	if st.s == nil {
		st.s = plan.NewStats()
	}
	return plan.Scaler(st.s)
}

type partFn struct {
	Opt Options `json:"opt"`
	// The scaler, fitted once per worker (the side inputs are the same
	// for every shard).
	scaler *data.Scaler
}

func (f *partFn) ProcessElement(ctx context.Context, path string, s Settled, st Stats, emit func(int, Part)) error {
	spec := f.Opt.spec(s)
	plan, err := planOf(spec)
	if err != nil {
		return err
	}
	if f.scaler == nil {
		if f.scaler, err = scalerOf(plan, st); err != nil {
			return err
		}
	}
	X, y, err := readRows(ctx, path, f.Opt, s)
	if err != nil || len(y) == 0 {
		return err
	}
	part, err := plan.NewPart(f.scaler)
	if err != nil {
		return err
	}
	if err := part.Add(ctx, X, y, s.Offsets[path]); err != nil {
		return shardErr(path, err)
	}
	h := fnv.New32a()
	h.Write([]byte(path))
	fan := f.Opt.FanIn
	if fan == 0 {
		fan = DefaultFanIn
	}
	emit(int(h.Sum32()%uint32(fan)), Part{spec, part})
	return nil
}

// mergeParts merges b into a (an accumulator, modified); b is not.
func mergeParts(a, b Part) (Part, error) {
	switch {
	case b.p == nil:
		return a, nil
	case a.p == nil:
		return b, nil
	}
	return a, a.p.Merge(b.p)
}

type solveFn struct {
	Opt Options `json:"opt"`
}

func (f *solveFn) ProcessElement(ctx context.Context, part Part, s Settled, st Stats) ([]byte, error) {
	plan, err := planOf(f.Opt.spec(s))
	if err != nil {
		return nil, err
	}
	scaler, err := scalerOf(plan, st)
	if err != nil {
		return nil, err
	}
	if part.p == nil {
		return nil, check.New(check.Shape, "", "fitbeam: no shard had a row to fit")
	}
	schema := s.Schema
	meta := pipeline.Meta{Input: &schema, Classes: schema.Classes}
	if s.Choice != nil {
		meta.Selection = s.Choice.Selection
	}
	model, err := plan.Solve(ctx, scaler, part.p, meta)
	if err != nil {
		return nil, err
	}
	return json.Marshal(model)
}

type writeFn struct {
	Path string `json:"path"`
}

func (f *writeFn) ProcessElement(ctx context.Context, b []byte) error {
	fs, err := filesystem.New(ctx, f.Path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, f.Path)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
