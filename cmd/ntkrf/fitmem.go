package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"time"

	"ntkrf/core/data"
	"ntkrf/core/pipeline"
	"ntkrf/internal/check"
	"ntkrf/internal/fitflags"
)

// runFitMem is the in-memory fit `ntkrf fit` is measured against (README,
// the streaming figures): the whole file read and parsed (data.Parse),
// then pipeline.FitDataset, with fit's flags; it prints the rows and the
// time per row.
func runFitMem(args []string) error {
	fs := flag.NewFlagSet("fitmem", flag.ContinueOnError)
	fit := fitflags.Register(fs)
	out := fs.String("o", "", "the model file to write (none: not written)")
	if err := parseInterleaved(fs, args); err != nil {
		return err
	}
	opt, err := fit.Fit()
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return check.New(check.Option, "", "ntkrf: fitmem needs one data file")
	}
	start := time.Now()
	b, err := readBounded(fs.Arg(0), nil, data.MaxBytesLimit, "")
	if err != nil {
		return err
	}
	opt.Data.MaxBytes = data.MaxBytesLimit
	ds, err := data.Parse(b, opt.Data)
	if err != nil {
		return fileErr(fs.Arg(0), 0, 0, err)
	}
	b = nil
	p, err := pipeline.FitDataset(context.Background(), ds, opt.Config())
	if err != nil {
		return err
	}
	el := time.Since(start)
	n, _ := ds.X.Dims()
	fmt.Printf("fitmem: %d rows in %.1f s, %.0f rows/s, %.2f µs/row\n", n, el.Seconds(), float64(n)/el.Seconds(), 1e6*el.Seconds()/float64(n))
	if *out == "" {
		return nil
	}
	mb, err := json.Marshal(p)
	if err != nil {
		return check.New(check.Internal, "", "ntkrf: the model: %v", err)
	}
	return writeAtomic(*out, mb)
}
