package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
)

// runPredict prints one prediction per data row of a CSV file, read
// through the input schema a saved model carries: the class name, or the
// value with %.17g (the shortest text is not used so that every host's
// reader gets the same digits).
func runPredict(args []string) error { return predictTo(os.Stdout, args) }

func predictTo(out io.Writer, args []string) error {
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	maxBytes := fs.Int("max-bytes", 0, "largest input after decompression (0: the default, 256 MB)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: ntkrf predict [flags] MODEL.json DATA.csv\n\nPrints one prediction per data row: the class name, or the value.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return errors.New("predict needs a model file and a data file")
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	p, err := pipeline.Load(bufio.NewReader(f))
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	text, err := os.ReadFile(fs.Arg(1))
	if err != nil {
		return err
	}
	pred, err := p.PredictCSV(text, *maxBytes)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(1), err)
	}
	w := bufio.NewWriter(out)
	classes := p.Classes()
	for _, v := range pred {
		if p.Task() == krr.Classification {
			w.WriteString(classes[int(v)])
		} else {
			w.WriteString(strconv.FormatFloat(v, 'g', 17, 64))
		}
		w.WriteByte('\n')
	}
	return w.Flush()
}
