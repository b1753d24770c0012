package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/pipeline"
	"ntkrf/internal/check"
	"ntkrf/internal/predout"
)

// runPredict prints one prediction per data row of CSV files, read
// through the input schema a saved model carries: the class name, or the
// value with %.17g (the shortest text is not used so that every host's
// reader gets the same digits). It streams: each chunk of rows is read,
// predicted and written before the next is read.
func runPredict(args []string) error {
	ctx, stop := signalContext()
	defer stop()
	return predictCmd(ctx, os.Stdout, os.Stdin, os.Stderr, args)
}

func predictCmd(ctx context.Context, out io.Writer, stdin io.Reader, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	fs.SetOutput(stderr)
	maxBytes := fs.Int("max-bytes", data.DefaultMaxBytes, "the largest model file, and the longest record (line) of the data, in bytes (after decompression)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: ntkrf predict [flags] MODEL.json DATA…\n\n"+
			"Prints one prediction per data row, as the rows are read (files, globs, plain\n"+
			"or gzip; - for standard input): the class name, or the value. Class names are\n"+
			"written as CSV fields, as the lab's downloads write them (quoted when they hold\n"+
			"a comma or quote; a leading = + - @ neutralised with '), and a line break\n"+
			"inside a name as \\n (with \\r, and \\\\ for a backslash, in such a name): one\n"+
			"line per row.")
		fs.PrintDefaults()
	}
	if err := parseInterleaved(fs, args); err != nil {
		return err
	}
	if fs.NArg() < 2 {
		fs.Usage()
		return check.New(check.Option, "", "ntkrf: predict needs a model file and data files")
	}
	p, fl, err := modelAndData(fs, stdin, *maxBytes)
	if err != nil {
		return err
	}
	fl.prog = newProgress(stderr)
	w := bufio.NewWriterSize(out, 1<<16)
	var lines []byte
	err = eachFile(ctx, fl, "predict", "the input has a header line but no data rows", func(name string, c chunk) (*mat.Dense, int, error) {
		X, err := p.Input().Read(c.text, data.MaxBytesLimit)
		if err != nil {
			return nil, 0, fileErr(name, c.line, c.head, err)
		}
		n, _ := X.Dims()
		return X, n, nil
	}, func(name string, X *mat.Dense) error {
		pred, err := p.Predict(X)
		if err != nil {
			return fileErr(name, 0, 0, err)
		}
		if lines, err = predout.Append(lines[:0], p, pred); err != nil {
			return err
		}
		_, err = w.Write(lines)
		return err
	})
	if ferr := w.Flush(); err == nil && ferr != nil {
		err = check.New(check.Internal, "", "ntkrf: writing the predictions: %v", ferr)
	}
	return err
}

// modelAndData reads the model (bounded by maxBytes) and names the data
// files, read through the model's schema: its delimiter and header.
func modelAndData(fs *flag.FlagSet, stdin io.Reader, maxBytes int) (*pipeline.Pipeline, *files, error) {
	if maxBytes < 1 || maxBytes > data.MaxBytesLimit {
		return nil, nil, check.New(check.Option, "max-bytes", "ntkrf: -max-bytes %d is out of range; use 1…%d (default %d)", maxBytes, data.MaxBytesLimit, data.DefaultMaxBytes)
	}
	names, err := expand(fs.Args()[1:])
	if err != nil {
		return nil, nil, err
	}
	for _, n := range names {
		if n == "-" && fs.Arg(0) == "-" {
			return nil, nil, check.New(check.Option, "", "ntkrf: the model file and a data file cannot both be standard input (-)")
		}
	}
	if fs.Arg(0) != "-" {
		if err := regular(fs.Arg(0)); err != nil {
			return nil, nil, err
		}
	}
	model, err := readBounded(fs.Arg(0), stdin, maxBytes, "-max-bytes")
	if err != nil {
		return nil, nil, err
	}
	p, err := pipeline.Load(bytes.NewReader(model))
	if err != nil {
		return nil, nil, fileErr(fs.Arg(0), 0, 0, err)
	}
	s := p.Input()
	if s == nil {
		_, err := p.ReadCSV(nil, 0) // the core's error for a model without a schema
		return nil, nil, fileErr(fs.Arg(0), 0, 0, err)
	}
	opt := data.Options{Delimiter: rune(s.Delimiter[0]), Header: data.No}
	if s.Header {
		opt.Header = data.Yes
	}
	return p, &files{names: names, stdin: stdin, opt: opt, max: maxBytes, flag: "-max-bytes"}, nil
}

// eachFile parses every chunk of the files (parse returns its rows and
// their number, in the reading goroutine) and hands the rows to use, in
// order (eachParsed). A file without a row is refused with none, as the
// core refuses a file without data rows.
func eachFile[T any](ctx context.Context, fl *files, pass, none string, parse func(name string, c chunk) (T, int, error), use func(name string, v T) error) error {
	type named struct {
		name string
		v    T
	}
	rows := map[string]int{}
	err := eachParsed(ctx, fl, pass, func(name string, _ data.Table, c chunk) (named, error) {
		v, n, err := parse(name, c)
		rows[name] += n
		fl.prog.add(n)
		return named{name, v}, err
	}, func(v named) error { return use(v.name, v.v) })
	if err != nil {
		return err
	}
	for _, name := range fl.names {
		if rows[name] == 0 {
			return check.New(check.Parse, "", "ntkrf: %s: data: %s", name, none)
		}
	}
	return nil
}
