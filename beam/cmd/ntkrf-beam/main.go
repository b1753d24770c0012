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
	"ntkrf/core/krr"
	"ntkrf/core/names"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// The flags' defaults are the core's (the package's fitRidge given
// nothing): a flag left unset leaves its option zero, which the core
// reads as its default ('auto' depth, preprocessing and λ; rf.DefaultDim
// features; the first method, missing-value setting; the task from the
// target). TestDefaultsAreTheCore's ties the defaults shown here to them.
var (
	input   = flag.String("input", "", "shards to fit: a glob of CSV, TSV or .gz files, each with its header line (local or gs://)")
	output  = flag.String("output", "", "the model file to write (local or gs://)")
	target  = flag.String("target", "", "the target column: its name, or its 0-based index (a number); default the last column. A column whose name is a number: name:3")
	task    = flag.String("task", names.Auto, "auto (from the target, as parseCSV), or one of "+strings.Join(krr.Tasks, ", "))
	missing = flag.String("missing", data.MissingSettings[0], "missing feature cells: one of "+strings.Join(data.MissingSettings, ", "))
	method  = flag.String("method", rf.Methods[0], "random features: one of "+strings.Join(rf.Methods, ", "))
	depth   = flag.String("depth", names.Auto, "network depth L (ntk, nngp, naive, grad), or auto: chosen among "+fmt.Sprint(pipeline.DefaultDepths)+" by the core's selection on a sample of the rows")
	dim     = flag.Int("dim", rf.DefaultDim, "feature dimension m")
	seed    = flag.Uint64("seed", 0, "seed of the feature map (and of the selection's sample)")
	lambda  = flag.String("lambda", names.Auto, "ridge λ: a number, or auto (chosen by the task's criterion on all rows)")
	prep    = flag.String("preprocess", names.Auto, `preprocessing as in a model file, {"standardize":true|false,"unitNorm":…,"bias":…}, or auto: chosen with the depth`)
	prec    = flag.String("precision", "", "arithmetic of the feature projections: float32 or float64; empty for the core's default, "+rf.PrecisionRule)
	gram    = flag.String("gram", "", "arithmetic of the Gram step ΦᵀΦ: float32 (blocks summed in float32, added in float64) or float64; empty for the core's default, "+krr.GramRule)
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

// options reads the flags into fitbeam.Options, checked. A flag not
// given leaves its option zero: the core's default.
func options() (fitbeam.Options, error) {
	var opt fitbeam.Options
	if *input == "" || *output == "" {
		return opt, errors.New("give --input GLOB (the shards) and --output FILE (the model)")
	}
	if flag.NArg() > 0 {
		return opt, fmt.Errorf("unexpected argument %q; flags only", flag.Arg(0))
	}
	given := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if given["missing"] {
		opt.Data.Missing = *missing
	}
	if *task != names.Auto {
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
	if *prep != names.Auto {
		opt.Prep = &data.Prep{}
		if err := json.Unmarshal([]byte(*prep), opt.Prep); err != nil {
			return opt, check.New(check.Option, "preprocess", "--preprocess %s: %v", check.Quote(*prep), err)
		}
	}
	if given["method"] {
		opt.Features.Method = *method
	}
	if given["dim"] {
		opt.Features.Dim = *dim
	}
	opt.Features.Seed, opt.Features.Precision = *seed, *prec
	if *depth != names.Auto {
		d, err := strconv.Atoi(*depth)
		if err != nil || d < 1 {
			return opt, check.New(check.Option, "depth", "--depth %s: give a depth ≥ 1 or auto", check.Quote(*depth))
		}
		opt.Features.Depth = d
	}
	if *lambda != names.Auto {
		l, err := strconv.ParseFloat(*lambda, 64)
		if err != nil || l <= 0 {
			return opt, check.New(check.Option, "lambda", "--lambda %s: give a positive number or auto", check.Quote(*lambda))
		}
		opt.Lambda = l
	}
	opt.Gram, opt.FanIn = *gram, *fanIn
	return opt, opt.Check()
}
