// Command ntkrf-beam fits a random-feature ridge model on CSV or TSV
// shards with Apache Beam: on the in-process prism runner by default, or
// on Dataflow, Flink or Spark with --runner and the runner's own flags
// (--endpoint, --project, --region, --environment_type, …), passed to
// Beam as they are. The model file it writes is the one every ntkrf host
// loads (the package, the lab page, ntkrf predict).
//
//	go run ./cmd/ntkrf-beam --input 'data/*.csv' --output model.json
//
// With "predict" first, it predicts the rows of shards with a model file
// instead, one output file per shard (fitbeam.PredictFiles), the lines
// ntkrf predict prints for that shard:
//
//	go run ./cmd/ntkrf-beam predict --model model.json --input 'data/*.csv' --output out/pred
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	// The filesystems --input and --output may name: local paths and
	// gs:// (Google Cloud Storage), Beam's own; imported here, not left to
	// beamx's imports.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx" // prism by default; registers every runner

	"ntkrf/beam/fitbeam"
	"ntkrf/core/data"
	"ntkrf/core/pipeline"
	"ntkrf/internal/check"
	"ntkrf/internal/fitflags"
)

// The fit's flags are internal/fitflags', the ones ntkrf fit has, with
// the core's defaults; the command adds where the shards are, where the
// model goes and the merge's fan-in.
var (
	input   = flag.String("input", "", "shards to fit: a glob of CSV, TSV or .gz files, each with its header line (local or gs://)")
	output  = flag.String("output", "", "the model file to write (local or gs://)")
	fit     = fitflags.Register(flag.CommandLine)
	fanIn   = flag.Int("fan-in", 0, "keys of the first merge level (each merges about shards/fan-in parts); 0: ⌊√shards⌋")
	model   = flag.String("model", "", "predict: the model file to predict with (local)")
	verbose = flag.Bool("verbose", false, "on a failure, print the runner's whole report (the plan of the failed stage) after the cause")
)

func main() {
	predict := len(os.Args) > 1 && os.Args[1] == "predict"
	if predict {
		os.Args = append(os.Args[:1], os.Args[2:]...)
	}
	flag.Parse()
	beam.Init() // a worker started by a runner does not return from here
	do := run
	if predict {
		do = runPredict
	}
	if err := do(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, errorLine(err))
		if *verbose {
			fmt.Fprintln(os.Stderr, err)
		}
		os.Exit(1)
	}
}

// regularFiles refuses a local glob that matches anything but regular
// files, before the job starts: Beam's match step opens each match to
// size it, and a FIFO blocks it for ever (a device never ends). Paths of
// other filesystems (gs://) are left to them.
func regularFiles(glob string) error {
	if strings.Contains(glob, "://") {
		return nil
	}
	matches, err := filepath.Glob(glob)
	if err != nil {
		return check.New(check.Option, "input", "ntkrf-beam: --input %s is not a valid pattern (%v)", check.Quote(glob), err)
	}

	for _, m := range matches {
		if st, err := os.Stat(m); err == nil && !st.Mode().IsRegular() {
			what := "a device"
			switch t := st.Mode().Type(); {
			case t.IsDir():
				what = "a directory"
			case t&os.ModeNamedPipe != 0:
				what = "a FIFO (named pipe)"
			case t&os.ModeSocket != 0:
				what = "a socket"
			}
			return check.New(check.Option, "input", "ntkrf-beam: --input matches %s, which is %s, not a regular file; give a pattern that matches shard files only", m, what)
		}
	}
	return nil
}

// errorLine is the cause of a failure in one line with its code: a
// runner's report of a failed job ends with the worker's error, after
// kilobytes of the stage's plan; the cause is its last line, which ends
// with the code (fitbeam.Tagged) when the worker's error had one.
func errorLine(err error) string {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	line := strings.TrimSpace(lines[len(lines)-1])
	code := check.CodeOf(err)
	switch {
	case code != "" && !strings.HasSuffix(line, "("+string(code)+")"):
		line += " (" + string(code) + ")"
	case code == "" && !codeSuffix.MatchString(line):
		// No step of ours failed (each tags its error with its code): the
		// runner lost the job, a worker process killed or gone, and no
		// model file was written (Write renames a whole file, last).
		line = fmt.Sprintf("the runner's job failed: %s; no output was written: run the job again (%s)", line, check.Instance)
	}
	if !strings.HasPrefix(line, "ntkrf-beam: ") {
		line = "ntkrf-beam: " + line
	}
	return line
}

// someFile refuses a local glob that matches no file before the job
// starts (the runner's match step failed with its plan dump and no code).
func someFile(glob string) error {
	if strings.Contains(glob, "://") {
		return nil
	}
	if m, err := filepath.Glob(glob); err == nil && len(m) == 0 {
		return check.New(check.Option, "input", "ntkrf-beam: --input %s matches no file; give a pattern of the shard files", check.Quote(glob))
	}
	return nil
}

// codeSuffix matches a line that ends with an error code, as fitbeam's
// steps tag their errors.
var codeSuffix = regexp.MustCompile(`\(ERR_[A-Z_]+\)$`)

func run(ctx context.Context) error {
	opt, err := options()
	if err != nil {
		return err
	}
	if err := someFile(*input); err != nil {
		return err
	}
	if st, err := os.Stat(*output); err == nil && st.IsDir() {
		return check.New(check.Option, "output", "ntkrf-beam: --output %s is a directory; give the model file's path", check.Quote(*output))
	}
	p, s := beam.NewPipelineWithRoot()
	fitbeam.Write(s, *output, fitbeam.FitFiles(s, *input, opt))
	return beamx.Run(ctx, p)
}

// runPredict predicts the shards with the model of --model, writing one
// file per shard under the prefix --output.
func runPredict(ctx context.Context) error {
	if *input == "" || *output == "" || *model == "" {
		return check.New(check.Option, "model", "ntkrf-beam: predict needs --model FILE, --input GLOB (the shards) and --output PREFIX (of the files written)")
	}
	if err := regularFiles(*input); err != nil {
		return err
	}
	if err := someFile(*input); err != nil {
		return err
	}
	b, err := readModel(*model)
	if err != nil {
		return err
	}
	p, s := beam.NewPipelineWithRoot()
	fitbeam.PredictFiles(s, *input, b, *output)
	return beamx.Run(ctx, p)
}

// readModel reads and checks the model file before the job starts, so
// that a bad one is refused at once rather than by every worker.
func readModel(path string) ([]byte, error) {
	if err := regularFiles(path); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, check.New(check.Option, "model", "ntkrf-beam: --model %s: %v", path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, data.DefaultMaxBytes+1))
	if err != nil || len(b) > data.DefaultMaxBytes {
		return nil, check.New(check.TooLarge, "model", "ntkrf-beam: --model %s: unreadable or over %d bytes (%v)", path, data.DefaultMaxBytes, err)
	}
	if _, err := pipeline.Load(bytes.NewReader(b)); err != nil {
		return nil, check.New(check.CodeOf(err), "model", "ntkrf-beam: --model %s: %v", path, err)
	}
	return b, nil
}

// options reads the flags into fitbeam.Options, checked. A flag not
// given leaves its option zero: the core's default.
func options() (fitbeam.Options, error) {
	var opt fitbeam.Options
	if *input == "" || *output == "" {
		return opt, check.New(check.Option, "input", "ntkrf-beam: give --input GLOB (the shards) and --output FILE (the model)")
	}
	if flag.NArg() > 0 {
		return opt, check.New(check.Option, "", "ntkrf-beam: unexpected argument %s; flags only", check.Quote(flag.Arg(0)))
	}
	if err := regularFiles(*input); err != nil {
		return opt, err
	}
	f, err := fit.Fit()
	if err != nil {
		return opt, err
	}
	opt = fitbeam.Options{Data: f.Data, Prep: f.Prep, Features: f.Features, Lambda: f.Lambda, Gram: f.Gram, FanIn: *fanIn}
	return opt, opt.Check()
}
