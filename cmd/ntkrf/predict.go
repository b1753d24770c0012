package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
	"ntkrf/internal/check"
)

// runPredict prints one prediction per data row of a CSV file, read
// through the input schema a saved model carries: the class name, or the
// value with %.17g (the shortest text is not used so that every host's
// reader gets the same digits).
func runPredict(args []string) error { return predictTo(os.Stdout, os.Stdin, args) }

func predictTo(out io.Writer, stdin io.Reader, args []string) error {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	maxBytes := fs.Int("max-bytes", 0, fmt.Sprintf("largest model file and data file, each, in bytes (data after decompression); 0: the default, %d", data.DefaultMaxBytes))
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: ntkrf predict [flags] MODEL.json DATA.csv\n\n"+
			"Prints one prediction per data row: the class name, or the value. A file\n"+
			"named - is read from standard input. Class names are written as CSV fields,\n"+
			"as the lab's downloads write them (quoted when they hold a comma or quote; a\n"+
			"leading = + - @ neutralised with '), and a line break inside a name as \\n\n"+
			"(with \\r, and \\\\ for a backslash, in such a name): one line per row.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return errors.New("predict needs a model file and a data file")
	}
	limit := *maxBytes
	switch {
	case limit == 0:
		limit = data.DefaultMaxBytes
	case limit < 0 || limit > data.MaxBytesLimit:
		return check.New(check.Option, "max-bytes", "-max-bytes %d is out of range; use 1…%d, or 0 for the default %d", limit, data.MaxBytesLimit, data.DefaultMaxBytes)
	}
	if fs.Arg(0) == "-" && fs.Arg(1) == "-" {
		return check.New(check.Option, "", "the model file and the data file cannot both be standard input (-)")
	}
	model, err := readBounded(fs.Arg(0), stdin, limit, "-max-bytes")
	if err != nil {
		return err
	}
	p, err := pipeline.Load(bytes.NewReader(model))
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	text, err := readBounded(fs.Arg(1), stdin, limit, "-max-bytes")
	if err != nil {
		return err
	}
	pred, err := p.PredictCSV(text, limit)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(1), err)
	}
	var names []string
	if p.Task() == krr.Classification {
		if names, err = p.ClassNames(pred); err != nil {
			return err
		}
	}
	w := bufio.NewWriter(out)
	for i, v := range pred {
		if names != nil {
			w.WriteString(data.CSVField(oneLine(names[i])))
		} else {
			w.WriteString(strconv.FormatFloat(v, 'g', 17, 64))
		}
		w.WriteByte('\n')
	}
	return w.Flush()
}

// lineBreaks escapes a name that holds a line break: one prediction per
// line, whatever the model's class names hold.
var lineBreaks = strings.NewReplacer(`\`, `\\`, "\r", `\r`, "\n", `\n`)

// oneLine returns name, with its line breaks (and then its backslashes)
// escaped when it has any.
func oneLine(name string) string {
	if !strings.ContainsAny(name, "\r\n") {
		return name
	}
	return lineBreaks.Replace(name)
}
