package fitbeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"reflect"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/protocol"
	"ntkrf/internal/check"
)

func init() {
	for _, fn := range []any{pathOf, mergeCensus, solve, withSettled, withStats, ungroup, mergeStats, model} {
		beam.RegisterFunction(fn)
	}
	for _, t := range []reflect.Type{reflect.TypeFor[surveyFn](), reflect.TypeFor[settleFn](), reflect.TypeFor[statsFn](), reflect.TypeFor[partFn](),
		reflect.TypeFor[mergeFn](), reflect.TypeFor[writeFn]()} {
		beam.RegisterType(t)
	}
}

// FitFiles fits the shards that glob matches (paths of any filesystem the
// program registered with Beam: the command registers local paths and
// gs://) and returns the model
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
//
// The steps that take time (reading and featurizing shards, solving)
// read no side input: what they need of the whole data set comes with
// each element (Shard, Part), handed on by steps that take no time.
// prism's scheduler polls without pause for as long as a stage that reads
// a side input, or that has no output, runs: about a core, which doubled
// the CPU of a fit on a laptop (README, measured figures).
func Fit(s beam.Scope, paths beam.PCollection, opt Options) beam.PCollection {
	s = s.Scope("ntkrf.Fit")
	censuses := beam.ParDo(s.Scope("survey"), &surveyFn{Opt: opt}, paths)
	settled := beam.ParDo(s, &settleFn{Opt: opt}, beam.Combine(s.Scope("census"), mergeCensus, censuses))

	toStats := beam.ParDo(s.Scope("shards"), withSettled, paths, beam.SideInput{Input: settled})
	// Each shard's statistics, and its rows among those an 'auto'
	// selection scores (none when nothing is open), in one read.
	stats, samples := beam.ParDo2(s.Scope("statistics"), &statsFn{Opt: opt}, ungrouped(s, toStats))
	merged := beam.Combine(s.Scope("merge statistics"), mergeStats, stats)
	// 'auto': the plan settled by the selection (select.go), carried on.
	settled = selectAuto(s, settled, merged, samples)

	toParts := beam.ParDo(s.Scope("shards"), withStats, paths, beam.SideInput{Input: settled}, beam.SideInput{Input: merged})
	parts := beam.ParDo(s.Scope("parts"), &partFn{Opt: opt}, ungrouped(s, toParts))
	// Two levels: each key merges its shards' parts on one worker, then
	// the few results are merged on the one that solves.
	byKey := beam.ParDo(s.Scope("merge parts by key"), &mergeFn{}, beam.GroupByKey(s, parts))
	solved := beam.ParDo(s.Scope("solve"), solve, beam.GroupByKey(s, byKey))
	// A fusion break: a consumer without output (Write) fused with the
	// solve would make the solve's stage one without output.
	return beam.ParDo(s, model, beam.GroupByKey(s, beam.AddFixedKey(s, solved)))
}

// ungrouped breaks fusion after the step that read the side inputs (a
// GroupByKey by path) and hands on its shards one by one.
func ungrouped(s beam.Scope, keyed beam.PCollection) beam.PCollection {
	return beam.ParDo(s, ungroup, beam.GroupByKey(s, keyed))
}

func ungroup(_ string, shards func(*Shard) bool, emit func(Shard)) {
	var sh Shard
	for shards(&sh) {
		emit(sh)
	}
}

func model(_ int, models func(*[]byte) bool, emit func([]byte)) {
	var b []byte
	for models(&b) {
		emit(b)
	}
}

// withSettled is the shard at path with the settled data set (its own
// first row key only), keyed by its path.
func withSettled(path string, s Settled, emit func(string, Shard)) {
	emit(path, Shard{Path: path, Settled: s.of(path)})
}

// withStats is withSettled with the merged statistics.
func withStats(path string, s Settled, st Stats, emit func(string, Shard)) {
	emit(path, Shard{Path: path, Settled: s.of(path), Stats: st})
}

// Write writes the one element of model (bytes) to path, on any Beam
// filesystem.
func Write(s beam.Scope, path string, model beam.PCollection) {
	beam.ParDo0(s.Scope("ntkrf.Write"), &writeFn{Path: path}, model)
}

// readShard returns a shard's bytes.
func readShard(ctx context.Context, path string, maxBytes int) ([]byte, error) {
	if maxBytes <= 0 {
		maxBytes = data.DefaultMaxBytes
	}
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
	// A shard is read whole (its bytes, before any decompression, which the
	// core bounds too): at most the data's byte bound.
	b, err := io.ReadAll(io.LimitReader(r, int64(maxBytes)+1))
	if err == nil && len(b) > maxBytes {
		return nil, check.New(check.TooLarge, "", "fitbeam: the shard is over %d bytes; split it into smaller shards", maxBytes)
	}
	return b, err
}

// shardErr names the shard in an error, keeping its code, which its text
// carries too (Tagged): a runner passes a worker's error on as text.
func shardErr(path string, err error) error {
	if err == nil {
		return nil
	}
	code := check.CodeOf(err)
	if code == "" {
		code = check.Parse // a filesystem's error: the shard could not be read
	}
	return Tagged{check.New(code, "", "%s: %v", path, err)}
}

// tag makes *err, a coded error, Tagged (its code in its text): every
// step's error crosses the runner as text, and the command prints the
// code it carries. An uncoded error is left as it is.
func tag(err *error) {
	var t Tagged
	if *err == nil || errors.As(*err, &t) {
		return
	}
	var e *check.Error
	if errors.As(*err, &e) {
		*err = Tagged{check.New(e.Code, e.Option, "%v", *err)}
	}
}

// Tagged is a coded error whose text ends with its code, "… (ERR_PARSE)":
// the form a worker's error keeps when a runner passes it on as text, so
// that the command can print it as one line with its code.
type Tagged struct{ Err *check.Error }

func (t Tagged) Error() string { return fmt.Sprintf("%s (%s)", t.Err.Msg, t.Err.Code) }
func (t Tagged) Unwrap() error { return t.Err }

type surveyFn struct {
	Opt Options `json:"opt"`
}

func (f *surveyFn) ProcessElement(ctx context.Context, path string) (Census, error) {
	b, err := readShard(ctx, path, f.Opt.Data.MaxBytes)
	if err != nil {
		return Census{}, shardErr(path, err)
	}
	c, err := data.Survey(path, b, f.Opt.Data)
	return Census{c}, shardErr(path, err)
}

func mergeCensus(a, b Census) (_ Census, err error) {
	defer tag(&err)
	switch {
	case b.c == nil:
		return a, nil
	case a.c == nil:
		a.c = &data.Census{}
	}
	return a, a.c.Merge(b.c)
}

// settleFn settles the data set from the merged census, and the fit's
// plan from it: the core takes the task, classes and groups from the
// schema (pipeline.Config.Input), once.
type settleFn struct {
	Opt Options `json:"opt"`
}

func (f *settleFn) ProcessElement(c Census) (_ Settled, err error) {
	defer tag(&err)
	if c.c == nil {
		c.c = &data.Census{}
	}
	s, err := c.c.Settle()
	if err != nil {
		return Settled{}, err
	}
	plan, err := f.Opt.plan(*s, c.c.Rows())
	if err != nil {
		return Settled{}, err
	}
	return Settled{Schema: *s, Offsets: c.c.Offsets(), Rows: c.c.Rows(), Plan: plan}, nil
}

// readRows reads a shard in the settled schema.
func readRows(ctx context.Context, path string, opt Options, s Settled) (*mat.Dense, []float64, error) {
	b, err := readShard(ctx, path, opt.Data.MaxBytes)
	if err != nil {
		return nil, nil, shardErr(path, err)
	}
	X, y, err := s.Schema.ReadLabeled(b, opt.Data.MaxBytes, opt.Data.Missing == "drop")
	return X, y, shardErr(path, err)
}

type statsFn struct {
	Opt Options `json:"opt"`
}

// ProcessElement emits the shard's statistics and, when the plan is open,
// its rows among the plan's SearchRows (sample).
func (f *statsFn) ProcessElement(ctx context.Context, sh Shard, emit func(Stats), emitSample func(Sample)) (err error) {
	defer tag(&err)
	plan, err := sh.Settled.plan()
	if err != nil {
		return err
	}
	X, y, err := readRows(ctx, sh.Path, f.Opt, sh.Settled)
	if err != nil || len(y) == 0 {
		return err
	}
	st := plan.NewStats()
	if err := st.AddAt(X, sh.Settled.Offsets[sh.Path]); err != nil {
		return shardErr(sh.Path, err)
	}
	emit(Stats{st})
	if smp, ok := sample(plan.SearchRows(), sh.Settled.Offsets[sh.Path], X, y); ok {
		emitSample(smp)
	}
	return nil
}

func mergeStats(a, b Stats) (_ Stats, err error) {
	defer tag(&err)
	switch {
	case b.s == nil:
		return a, nil
	case a.s == nil:
		return b, nil
	}
	return a, a.s.Merge(b.s)
}

// scalerOf is the plan's scaler from the merged statistics.
func scalerOf(plan *protocol.Plan, st Stats) (*data.Scaler, error) {
	if st.s == nil {
		st.s = plan.NewStats()
	}
	return plan.Scaler(st.s)
}

// partFn featurizes and sums shards: each bundle's shards of one merge
// key into one part (as the SDK's combiner lifting would, without a
// decode and a merge per shard), sent when the bundle finishes.
type partFn struct {
	Opt Options `json:"opt"`
	// The scaler, fitted once per worker (every shard brings the same
	// statistics).
	scaler *data.Scaler
	parts  map[int]*Part // this bundle's, by merge key
}

// ProcessElement adds a shard to its key's part; the parts leave in
// FinishBundle (the SDK wants the same emitter in both).
func (f *partFn) ProcessElement(ctx context.Context, sh Shard, _ func(int, []byte)) (err error) {
	defer tag(&err)
	path, s := sh.Path, sh.Settled
	plan, err := s.plan()
	if err != nil {
		return err
	}
	if f.scaler == nil {
		if f.scaler, err = scalerOf(plan, sh.Stats); err != nil {
			return err
		}
	}
	X, y, err := readRows(ctx, path, f.Opt, s)
	if err != nil || len(y) == 0 {
		return err
	}
	h := fnv.New32a()
	h.Write([]byte(path))
	key := int(h.Sum32() % uint32(f.Opt.fanIn(s.Shards)))
	if f.parts == nil {
		f.parts = map[int]*Part{}
	}
	part := f.parts[key]
	if part == nil {
		p, err := plan.NewPart(f.scaler)
		if err != nil {
			return err
		}
		part = &Part{of: Shard{Settled: s.of(""), Stats: sh.Stats}, p: p}
		f.parts[key] = part
	}
	return shardErr(path, part.p.Add(ctx, X, y, s.Offsets[path]))
}

func (f *partFn) FinishBundle(emit func(int, []byte)) (err error) {
	defer tag(&err)
	defer clear(f.parts)
	for key, part := range f.parts {
		b, err := encodePart(*part)
		if err != nil {
			return err
		}
		send(emit, key, b)
	}
	return nil
}

// mergeFn merges the parts of its bundle's keys into one, sent under
// the one key of the last level when the bundle finishes; a bundle of one
// part sends it on as it came.
type mergeFn struct {
	first  []byte // the bundle's one part so far, its form
	merged Part
}

func (f *mergeFn) ProcessElement(_ int, parts func(*[]byte) bool, _ func(int, []byte)) (err error) {
	defer tag(&err)
	var b []byte
	for parts(&b) {
		if f.first == nil && f.merged.p == nil {
			f.first = b
			continue
		}
		if f.first != nil {
			if err := f.merged.merge(f.first); err != nil {
				return err
			}
			f.first = nil
		}
		if err := f.merged.merge(b); err != nil {
			return err
		}
	}
	return nil
}

func (f *mergeFn) FinishBundle(emit func(int, []byte)) (err error) {
	defer tag(&err)
	defer func() { f.first, f.merged = nil, Part{} }()
	switch {
	case f.first != nil:
		send(emit, 0, f.first)
	case f.merged.p != nil:
		b, err := encodePart(f.merged)
		if err != nil {
			return err
		}
		send(emit, 0, b)
	}
	return nil
}

// solve merges the last parts and solves; the model keeps what the plan
// holds (the schema, the selection).
func solve(ctx context.Context, _ int, parts func(*[]byte) bool) (_ []byte, err error) {
	defer tag(&err)
	var part Part
	var b []byte
	for parts(&b) {
		if err := part.merge(b); err != nil {
			return nil, err
		}
	}
	if part.p == nil {
		return nil, check.New(check.Shape, "", "fitbeam: no shard had a row to fit")
	}
	plan, err := part.of.Settled.plan()
	if err != nil {
		return nil, err
	}
	scaler, err := scalerOf(plan, part.of.Stats)
	if err != nil {
		return nil, err
	}
	model, err := plan.Solve(ctx, scaler, part.p)
	if err != nil {
		return nil, err
	}
	return json.Marshal(model)
}

type writeFn struct {
	Path string `json:"path"`
}

func (f *writeFn) ProcessElement(ctx context.Context, b []byte) (err error) {
	defer tag(&err)
	fs, err := filesystem.New(ctx, f.Path)
	if err != nil {
		return err
	}
	defer fs.Close()
	// Whole or not at all: written beside the path, then renamed where the
	// filesystem can (local files, and filesystems with a rename); a
	// worker killed while writing leaves no model file.
	r, ok := fs.(filesystem.Renamer)
	at := f.Path
	if ok {
		at = fmt.Sprintf("%s.tmp-%d", f.Path, time.Now().UnixNano())
	}
	w, err := fs.OpenWrite(ctx, at)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil || !ok {
		return err
	}
	if err := r.Rename(ctx, at, f.Path); err != nil {
		if rm, ok := fs.(filesystem.Remover); ok {
			rm.Remove(ctx, at)
		}
		return check.New(check.Option, "output", "fitbeam: the model could not be written to %s (%v); give a file path where it can be", f.Path, err)
	}
	return nil
}
