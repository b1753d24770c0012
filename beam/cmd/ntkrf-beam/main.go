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
	"flag"
	"fmt"
	"os"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	// The filesystems --input and --output may name: local paths and
	// gs:// (Google Cloud Storage), Beam's own; imported here, not left to
	// beamx's imports.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx" // prism by default; registers every runner

	"ntkrf/beam/fitbeam"
	"ntkrf/internal/check"
	"ntkrf/internal/fitflags"
)

// The fit's flags are internal/fitflags', the ones ntkrf fit has, with
// the core's defaults; the command adds where the shards are, where the
// model goes and the merge's fan-in.
var (
	input  = flag.String("input", "", "shards to fit: a glob of CSV, TSV or .gz files, each with its header line (local or gs://)")
	output = flag.String("output", "", "the model file to write (local or gs://)")
	fit    = fitflags.Register(flag.CommandLine)
	fanIn  = flag.Int("fan-in", 0, "keys of the first merge level (each merges about shards/fan-in parts); 0: ⌊√shards⌋")
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
		return opt, check.New(check.Option, "input", "ntkrf-beam: give --input GLOB (the shards) and --output FILE (the model)")
	}
	if flag.NArg() > 0 {
		return opt, check.New(check.Option, "", "ntkrf-beam: unexpected argument %s; flags only", check.Quote(flag.Arg(0)))
	}
	f, err := fit.Fit()
	if err != nil {
		return opt, err
	}
	opt = fitbeam.Options{Data: f.Data, Prep: f.Prep, Features: f.Features, Lambda: f.Lambda, Gram: f.Gram, FanIn: *fanIn}
	return opt, opt.Check()
}
