package fitbeam

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"reflect"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"ntkrf/core/data"
	"ntkrf/core/pipeline"
	"ntkrf/internal/check"
	"ntkrf/internal/predout"
)

func init() {
	beam.RegisterType(reflect.TypeFor[predictFn]())
}

// PredictFiles predicts every data row of the shards glob matches with
// the model (a model file's bytes) and writes, for each shard, the file
// OutputName(prefix, shard): one line per data row of the shard, in
// order, the bytes ntkrf predict prints for that shard (predout), so that
// line i of the output is the prediction of the shard's i-th data row. It
// returns the paths written, one per shard.
func PredictFiles(s beam.Scope, glob string, model []byte, prefix string) beam.PCollection {
	s = s.Scope("ntkrf.PredictFiles")
	files := fileio.MatchFiles(s, glob, fileio.MatchEmptyDisallow())
	return beam.ParDo(s, &predictFn{Model: model, Prefix: prefix}, beam.ParDo(s, pathOf, files))
}

// OutputName is the file PredictFiles writes a shard's predictions to:
// the prefix, the shard's base name and a hash of its whole path (two
// shards of one name in different directories get two files).
func OutputName(prefix, shard string) string {
	h := fnv.New32a()
	h.Write([]byte(shard))
	return fmt.Sprintf("%s-%s-%08x.txt", prefix, filepath.Base(shard), h.Sum32())
}

type predictFn struct {
	Model  []byte `json:"model"`
	Prefix string `json:"prefix"`
	once   sync.Once
	p      *pipeline.Pipeline
	err    error
}

// ProcessElement reads a shard whole through the model's schema, predicts
// its rows and writes their lines.
func (f *predictFn) ProcessElement(ctx context.Context, path string) (_ string, err error) {
	defer tag(&err)
	f.once.Do(func() { f.p, f.err = pipeline.Load(bytes.NewReader(f.Model)) })
	if f.err != nil {
		return "", Tagged{check.New(check.CodeOf(f.err), "", "fitbeam: the model: %v", f.err)}
	}
	b, err := readShard(ctx, path, data.DefaultMaxBytes)
	if err != nil {
		return "", shardErr(path, err)
	}
	X, err := f.p.ReadCSV(b, data.DefaultMaxBytes)
	if err != nil {
		return "", shardErr(path, err)
	}
	pred, err := f.p.Predict(X)
	if err != nil {
		return "", shardErr(path, err)
	}
	lines, err := predout.Append(nil, f.p, pred)
	if err != nil {
		return "", shardErr(path, err)
	}
	out := OutputName(f.Prefix, path)
	fs, err := filesystem.New(ctx, out)
	if err != nil {
		return "", shardErr(out, err)
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, out)
	if err != nil {
		return "", shardErr(out, err)
	}
	if _, err := w.Write(lines); err != nil {
		w.Close()
		return "", shardErr(out, err)
	}
	return out, shardErr(out, w.Close())
}
