package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"ntkrf/beam/fitbeam"
	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
	"ntkrf/internal/predout"
)

// setFlags sets the command's flags for one test, back to their defaults
// after it.
func setFlags(t *testing.T, args map[string]string) {
	t.Helper()
	flag.VisitAll(func(f *flag.Flag) {
		if _, ok := args[f.Name]; ok {
			def := f.DefValue
			t.Cleanup(func() { f.Value.Set(def) })
		}
	})
	for k, v := range args {
		if err := flag.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOptions: the flags become the fit's options, or a coded error that
// names the flag.
func TestOptions(t *testing.T) {
	base := map[string]string{"input": "x/*.csv", "output": "m.json"}
	cases := []struct {
		name string
		args map[string]string
		code check.Code
		want func(t *testing.T, o optionsT)
	}{
		// The defaults are the core's: the zero Options, which fit as
		// pipeline.Config{} and data.Options{} do (the package's fitRidge
		// of parseCSV given nothing).
		{"defaults", nil, "", func(t *testing.T, o optionsT) {
			if !reflect.DeepEqual(o, optionsT{}) {
				t.Fatalf("%+v", o)
			}
		}},
		{"target index", map[string]string{"target": "2"}, "", func(t *testing.T, o optionsT) {
			if o.Data.TargetIndex == nil || *o.Data.TargetIndex != 2 || o.Data.Target != "" {
				t.Fatalf("%+v", o.Data)
			}
		}},
		{"target name", map[string]string{"target": "species"}, "", func(t *testing.T, o optionsT) {
			if o.Data.Target != "species" || o.Data.TargetIndex != nil {
				t.Fatalf("%+v", o.Data)
			}
		}},
		{"target named by a number", map[string]string{"target": "name:3"}, "", func(t *testing.T, o optionsT) {
			if o.Data.Target != "3" || o.Data.TargetIndex != nil {
				t.Fatalf("%+v", o.Data)
			}
		}},
		{"fixed λ, raw", map[string]string{"lambda": "0.5", "preprocess": `{"standardize":false}`, "task": "regression"}, "", func(t *testing.T, o optionsT) {
			if o.Lambda != 0.5 || o.Prep == nil || !o.Prep.Raw || o.Data.Task != "regression" {
				t.Fatalf("%+v", o)
			}
		}},
		{"bad λ", map[string]string{"lambda": "-1"}, check.Option, nil},
		{"bad preprocess", map[string]string{"preprocess": `{"bias":-1}`}, check.Option, nil},
		{"open depth", map[string]string{"depth": "0"}, check.Option, nil},
		{"bad method", map[string]string{"method": "nope"}, check.Option, nil},
		{"float64", map[string]string{"precision": "float64"}, "", func(t *testing.T, o optionsT) {
			if o.Features.Precision != "float64" {
				t.Fatalf("%+v", o.Features)
			}
		}},
		{"bad precision", map[string]string{"precision": "float16"}, check.Option, nil},
		{"float64 Gram", map[string]string{"gram": "float64"}, "", func(t *testing.T, o optionsT) {
			if o.Gram != "float64" {
				t.Fatalf("%+v", o)
			}
		}},
		{"bad Gram", map[string]string{"gram": "float16"}, check.Option, nil},
		{"float32 without a form", map[string]string{"precision": "float32", "method": "grad"}, check.Option, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := map[string]string{}
			for k, v := range base {
				args[k] = v
			}
			for k, v := range c.args {
				args[k] = v
			}
			setFlags(t, args)
			o, err := options()
			if check.CodeOf(err) != c.code {
				t.Fatalf("error %v (code %q), want code %q", err, check.CodeOf(err), c.code)
			}
			if c.want != nil {
				c.want(t, o)
			}
		})
	}
}

// TestDefaultsAreTheCore: every flag given its shown default explicitly
// fits as the flag left out does (the core's default): the same resolved
// feature map, 'auto' depth, preprocessing and λ, the core's first
// missing-value setting. It fails when a default written here drifts
// from the core's.
func TestDefaultsAreTheCore(t *testing.T) {
	args := map[string]string{"input": "x/*.csv", "output": "m.json"}
	flag.VisitAll(func(f *flag.Flag) {
		if isOurs(f.Name) {
			args[f.Name] = f.DefValue
		}
	})
	setFlags(t, args)
	o, err := options()
	if err != nil {
		t.Fatal(err)
	}
	zero := optionsT{}
	a, err := o.Features.Resolve(4)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := zero.Features.Resolve(4)
	if !reflect.DeepEqual(a, b) || o.Features.Depth != 0 || o.Prep != nil || o.Lambda != 0 || o.Data.Task != "" {
		t.Errorf("explicit defaults %+v resolve to %+v; the core's default %+v", o, a, b)
	}
	if o.Data.Missing != data.MissingSettings()[0] {
		t.Errorf("--missing defaults to %q; the core's default is %q", o.Data.Missing, data.MissingSettings()[0])
	}
}

// isOurs reports whether a flag is the command's (not one Beam registers).
func isOurs(name string) bool {
	switch name {
	case "task", "missing", "method", "depth", "dim", "seed", "lambda", "preprocess", "fan-in":
		return true
	}
	return false
}

// TestRunIris: the command fits iris split into three shards (one of them
// gzip) on prism and writes a model file that predicts the rows as a
// single-process fit of the same file, schema included.
func TestRunIris(t *testing.T) {
	whole, err := os.ReadFile("../../../testdata/iris.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSpace(string(whole)), "\n")
	dir := t.TempDir()
	for i, r := range [][2]int{{1, 40}, {40, 100}, {100, len(lines)}} {
		shard := []byte(lines[0] + strings.Join(lines[r[0]:r[1]], ""))
		name := filepath.Join(dir, "iris-"+string(rune('a'+i))+".csv")
		if i == 1 {
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write(shard)
			zw.Close()
			shard, name = b.Bytes(), name+".gz"
		}
		if err := os.WriteFile(name, shard, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "model.json")
	setFlags(t, map[string]string{"input": filepath.Join(dir, "iris-*"), "output": out, "dim": "64", "lambda": "0.01", "depth": "2"})
	if err := run(context.Background()); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := pipeline.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	opt, _ := options()
	ds, err := data.Parse(whole, opt.Data)
	if err != nil {
		t.Fatal(err)
	}
	want, err := pipeline.FitDataset(context.Background(), ds, pipeline.Config{Preprocess: opt.Prep, Features: opt.Features, Ridge: ridge(opt.Lambda)})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := got.Predict(ds.X)
	b, _ := want.Predict(ds.X)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("row %d: %v, single process %v", i, a[i], b[i])
		}
	}
	if g, w := *got.Input(), ds.Schema(); !schemaEqual(g, w) {
		t.Fatalf("schema %+v, want %+v", g, w)
	}
	// The command leaves the precision to the core, as every host does:
	// float32 (rf.DefaultPrecision).
	if p := got.Features().Precision; p != "float32" || p != want.Features().Precision {
		t.Fatalf("precision %q, single process %q; want float32 both", p, want.Features().Precision)
	}
}

type optionsT = fitbeam.Options

func ridge(lambda float64) krr.Options { return krr.Options{Lambda: lambda} }

func schemaEqual(a, b data.Schema) bool { return reflect.DeepEqual(a, b) }

func TestMain(m *testing.M) { ptest.Main(m) } // prism, in-process

// TestFilesystems: the command registers the filesystems its flags
// document (local paths, gs://); an s3:// path, which it does not
// register, is refused.
func TestFilesystems(t *testing.T) {
	for _, c := range []struct {
		path string
		ok   bool
	}{{"data/*.csv", true}, {"/data/model.json", true}, {"gs://bucket/data/*.csv.gz", true}, {"s3://bucket/x.csv", false}} {
		func() {
			defer func() {
				if r := recover(); (r == nil) != c.ok {
					t.Errorf("%s: registered %v, want %v (%v)", c.path, r == nil, c.ok, r)
				}
			}()
			filesystem.ValidateScheme(c.path)
		}()
	}
}

// TestErrorLine: a failed job's report (kilobytes of the stage's plan,
// then the worker's error as text) is printed as its cause alone, one
// line ending with the code the worker's error carried (fitbeam.Tagged);
// a coded error from before the job gets its code appended once.
func TestErrorLine(t *testing.T) {
	tagged := fitbeam.Tagged{Err: check.New(check.Parse, "", "a.csv: data: line 3 has 2 fields but line 1 has 3")}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{errors.New("job failed:\n1: DataSource[…]\n2: ParDo[…]\n\tcaused by:\nDoFn[…] failed:\n" + tagged.Error()),
			"ntkrf-beam: a.csv: data: line 3 has 2 fields but line 1 has 3 (ERR_PARSE)"},
		{tagged, "ntkrf-beam: a.csv: data: line 3 has 2 fields but line 1 has 3 (ERR_PARSE)"},
		{check.New(check.Option, "input", "ntkrf-beam: give --input"), "ntkrf-beam: give --input (ERR_OPTION)"},
	} {
		if got := errorLine(tc.err); got != tc.want {
			t.Errorf("%q\n got %q\nwant %q", tc.err, got, tc.want)
		}
	}
}

// TestInputNotRegular: a local glob that matches a FIFO or a directory is
// refused before the job starts (Beam's match step would open the FIFO
// and wait for ever).
func TestInputNotRegular(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.csv"), []byte("a,b\n1,2\n"), 0o644)
	if err := syscall.Mkfifo(filepath.Join(dir, "f.csv"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "d.csv"), 0o755)
	for glob, want := range map[string]string{"f.csv": "FIFO", "d.csv": "directory", "*.csv": "not a regular file", "a.csv": ""} {
		setFlags(t, map[string]string{"input": filepath.Join(dir, glob), "output": filepath.Join(dir, "m.json")})
		_, err := options()
		if want == "" && err != nil || want != "" && (check.CodeOf(err) != check.Option || !strings.Contains(fmt.Sprint(err), want)) {
			t.Errorf("%s: %v, want %q", glob, err, want)
		}
	}
}

// TestPredictShards: `ntkrf-beam predict` writes, for each shard (plain
// or gzip), the file fitbeam.OutputName names, holding the bytes ntkrf
// predict prints for that shard (predout of PredictCSV: line i is the
// prediction of the shard's data row i), for a classifier and a
// regression; a bad model is refused before the job.
func TestPredictShards(t *testing.T) {
	for _, tc := range []struct {
		file string
		opt  data.Options
	}{{"iris.csv", data.Options{}}, {"BostonHousing.csv", data.Options{Task: "regression"}}} {
		whole, err := os.ReadFile("../../../testdata/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := data.Parse(whole, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pipeline.FitDataset(context.Background(), ds, pipeline.Config{Features: rfConfig(64), Ridge: ridge(0.1)})
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		modelFile := filepath.Join(dir, "model.json")
		b, _ := json.Marshal(p)
		os.WriteFile(modelFile, b, 0o644)
		lines := strings.SplitAfter(strings.TrimSpace(string(whole)), "\n")
		var shards []string
		wants := map[string][]byte{}
		for i, r := range [][2]int{{1, 40}, {40, 100}, {100, len(lines)}} {
			shard := []byte(lines[0] + strings.Join(lines[r[0]:r[1]], ""))
			name := filepath.Join(dir, "in", fmt.Sprintf("part-%d.csv", i))
			os.MkdirAll(filepath.Dir(name), 0o755)
			content := shard
			if i == 1 {
				var z bytes.Buffer
				zw := gzip.NewWriter(&z)
				zw.Write(shard)
				zw.Close()
				content, name = z.Bytes(), name+".gz"
			}
			os.WriteFile(name, content, 0o644)
			shards = append(shards, name)
			pred, err := p.PredictCSV(shard, 0)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := predout.Append(nil, p, pred)
			wants[name] = want
		}
		prefix := filepath.Join(dir, "out", "pred")
		os.MkdirAll(filepath.Dir(prefix), 0o755)
		setFlags(t, map[string]string{"input": filepath.Join(dir, "in", "part-*"), "output": prefix, "model": modelFile})
		if err := runPredict(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, name := range shards {
			got, err := os.ReadFile(fitbeam.OutputName(prefix, name))
			if err != nil || !bytes.Equal(got, wants[name]) {
				t.Errorf("%s: %d bytes (%v), want the %d ntkrf predict prints", name, len(got), err, len(wants[name]))
			}
		}
		os.WriteFile(modelFile, []byte(`{"format":"ntkrf-model"}`), 0o644)
		if err := runPredict(context.Background()); check.CodeOf(err) == "" || !strings.Contains(err.Error(), "--model") {
			t.Errorf("a bad model: %v, want a coded error naming --model", err)
		}
	}
}

func rfConfig(dim int) rf.Config { return rf.Config{Dim: dim, Depth: 1, Seed: 4} }

// TestHostileShards: shard sets a cluster user hands the fit by mistake
// end in one line with the core's code, and no model file: a glob that
// matches nothing, a directory, a FIFO, an empty or header-only shard,
// shards of other columns, binary garbage, a 3 MB record,
// an output that is a directory.
func TestHostileShards(t *testing.T) {
	iris, err := os.ReadFile("../../../testdata/iris.csv")
	if err != nil {
		t.Fatal(err)
	}
	long := append([]byte("a,b,label\n"), bytes.Repeat([]byte("1"), 3<<20)...)
	long = append(long, ",2,x\n"...)
	for _, tc := range []struct {
		name   string
		files  map[string][]byte // "" value: a directory; nil: a FIFO
		output string            // "dir": an existing directory
		flags  map[string]string
		want   string // the code
	}{
		{"a glob matching nothing", map[string][]byte{}, "", nil, "ERR_OPTION"},
		{"a directory among the shards", map[string][]byte{"a.csv": iris, "b.csv": []byte{}}, "", nil, "ERR_OPTION"},
		{"a FIFO among the shards", map[string][]byte{"a.csv": iris, "f.csv": nil}, "", nil, "ERR_OPTION"},
		{"an empty shard", map[string][]byte{"a.csv": iris, "e.csv": []byte(" ")}, "", nil, "ERR_PARSE"},
		{"a header-only shard", map[string][]byte{"h.csv": []byte("a,b,label\n")}, "", nil, "ERR_PARSE"},
		{"shards of other columns", map[string][]byte{"a.csv": []byte("a,b,label\n1,2,x\n3,4,y\n"), "b.csv": []byte("a,c,label\n1,2,x\n")}, "", nil, "ERR_PARSE"},
		{"binary garbage", map[string][]byte{"g.csv": bytes.Repeat([]byte{0, 0xff, 7, 200}, 800)}, "", nil, "ERR_PARSE"},
		{"a 3 MB record", map[string][]byte{"l.csv": long}, "", nil, "ERR_PARSE"},
		{"an output that is a directory", map[string][]byte{"a.csv": iris}, "dir", nil, "ERR_OPTION"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, b := range tc.files {
				p := filepath.Join(dir, name)
				switch {
				case b == nil:
					if err := syscall.Mkfifo(p, 0o644); err != nil {
						t.Skip("no FIFOs here:", err)
					}
				case len(b) == 0:
					os.Mkdir(p, 0o755)
				default:
					os.WriteFile(p, b, 0o644)
				}
			}
			out := filepath.Join(t.TempDir(), "model.json")
			if tc.output == "dir" {
				os.Mkdir(out, 0o755)
			}
			flags := map[string]string{"input": filepath.Join(dir, "*.csv"), "output": out, "dim": "32"}
			for k, v := range tc.flags {
				flags[k] = v
			}
			setFlags(t, flags)
			done := make(chan error, 1)
			go func() { done <- run(context.Background()) }()
			var err error
			select {
			case err = <-done:
			case <-time.After(2 * time.Minute):
				t.Fatal("the job did not end")
			}
			if err == nil {
				t.Fatal("accepted")
			}
			line := errorLine(err)
			if strings.Contains(line, "\n") || !strings.HasSuffix(line, "("+tc.want+")") {
				t.Errorf("%q; want one line ending with (%s)", line, tc.want)
			}
			if st, err := os.Stat(out); err == nil && !st.IsDir() {
				t.Error("a model file was written")
			}
		})
	}
}
