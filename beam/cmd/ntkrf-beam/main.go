// Command ntkrf-beam fits a random-feature ridge model on CSV or TSV
// shards with Apache Beam: on the in-process prism runner by default, or
// on Dataflow, Flink or Spark with --runner and the runner's own flags
// (--endpoint, --project, --region, --environment_type, …), passed to
// Beam as they are. The model file it writes is the one every ntkrf host
// loads (the package, the lab page, ntkrf predict).
//
//	go run ./cmd/ntkrf-beam --input 'data/*.csv' --output model.json
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
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
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

var (
	input   = flag.String("input", "", "shards to fit: a glob of CSV, TSV or .gz files, each with its header line (local or gs://)")
	output  = flag.String("output", "", "the model file to write (local or gs://)")
	target  = flag.String("target", "", "the target column: its name, or its 0-based index (a number); default the last column. A column whose name is a number: name:3")
	task    = flag.String("task", "auto", "auto, classification or regression")
	missing = flag.String("missing", "impute", "impute (missing feature cells) or drop (rows with any missing cell)")
	method  = flag.String("method", "ntk", "random features: ntk, nngp, arccos0, arccos1, naive, grad or rff")
	depth   = flag.Int("depth", 1, "network depth L (ntk, nngp, naive, grad); 'auto' is a search this pipeline does not run")
	dim     = flag.Int("dim", 1024, "feature dimension m")
	seed    = flag.Uint64("seed", 0, "seed of the feature map")
	prec    = flag.String("precision", "", "arithmetic of the feature projections: float32 or float64; empty for the core's default, "+rf.PrecisionRule)
	lambda  = flag.String("lambda", "auto", "ridge λ: a number, or auto (chosen by the task's criterion on all rows)")
	prep    = flag.String("preprocess", `{"standardize":true}`, `preprocessing as in a model file: {"standardize":true|false,"unitNorm":…,"bias":…}`)
	fanIn   = flag.Int("fan-in", 0, "keys of the first merge level (each merges about shards/fan-in parts); 0: ⌊√shards⌋")
)

func main() {
	flag.Parse()
	beam.Init() // a worker started by a runner does not return from here
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "ntkrf-beam:", err)
		if code := check.CodeOf(err); code != "" {
			fmt.Fprintln(os.Stderr, "code:", code)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	opt, err := options()
	if err != nil {
		return err
	}
	p, s := beam.NewPipelineWithRoot()
	fitbeam.Write(s, *output, fitbeam.FitFiles(s, *input, opt))
	return beamx.Run(ctx, p)
}

// options reads the flags into fitbeam.Options, checked.
func options() (fitbeam.Options, error) {
	var opt fitbeam.Options
	if *input == "" || *output == "" {
		return opt, errors.New("give --input GLOB (the shards) and --output FILE (the model)")
	}
	if flag.NArg() > 0 {
		return opt, fmt.Errorf("unexpected argument %q; flags only", flag.Arg(0))
	}
	opt.Data = data.Options{Missing: *missing}
	if *task != "auto" {
		opt.Data.Task = *task
	}
	switch t := *target; {
	case strings.HasPrefix(t, "name:"):
		opt.Data.Target = strings.TrimPrefix(t, "name:")
	case t != "" && strings.Trim(t, "0123456789") == "":
		j, err := strconv.Atoi(t)
		if err != nil {
			return opt, check.New(check.Option, "target", "target index %s is out of range", t)
		}
		opt.Data.TargetIndex = &j
	default:
		opt.Data.Target = t
	}
	if err := json.Unmarshal([]byte(*prep), &opt.Prep); err != nil {
		return opt, check.New(check.Option, "preprocess", "--preprocess %s: %v", check.Quote(*prep), err)
	}
	opt.Features = rf.Config{Method: *method, Depth: *depth, Dim: *dim, Seed: *seed, Precision: *prec}
	if *lambda != "auto" {
		l, err := strconv.ParseFloat(*lambda, 64)
		if err != nil || l <= 0 {
			return opt, check.New(check.Option, "lambda", "--lambda %s: give a positive number or auto", check.Quote(*lambda))
		}
		opt.Lambda = l
	}
	opt.FanIn = *fanIn
	return opt, opt.Check()
}
