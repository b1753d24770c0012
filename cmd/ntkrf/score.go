package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/internal/check"
)

// runScore scores a model on labelled files, streaming: the accuracy of a
// classifier, or the R² and mean squared error of a regression.
func runScore(args []string) error {
	ctx, stop := signalContext()
	defer stop()
	return scoreCmd(ctx, os.Stdout, os.Stdin, os.Stderr, args)
}

func scoreCmd(ctx context.Context, out io.Writer, stdin io.Reader, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	fs.SetOutput(stderr)
	maxBytes := fs.Int("max-bytes", data.DefaultMaxBytes, "the largest model file, and the longest record (line) of the data, in bytes (after decompression)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: ntkrf score [flags] MODEL.json DATA…\n\n"+
			"Scores a model on files that hold its target column (files, globs, plain or\n"+
			"gzip; - for standard input), streaming: the accuracy of a classifier, or the\n"+
			"R² and mean squared error of a regression, over the rows whose target is set.")
		fs.PrintDefaults()
	}
	if err := parseInterleaved(fs, args); err != nil {
		return err
	}
	if fs.NArg() < 2 {
		fs.Usage()
		return check.New(check.Option, "", "ntkrf: score needs a model file and data files with the target column")
	}
	p, fl, err := modelAndData(fs, stdin, *maxBytes)
	if err != nil {
		return err
	}
	fl.prog = newProgress(stderr)
	var sc scores
	type labelled struct {
		X *mat.Dense
		y []float64
	}
	err = eachFile(ctx, fl, "score", "no row has a target value to score against", func(name string, c chunk) (labelled, int, error) {
		X, y, err := p.Input().ReadLabeled(c.text, data.MaxBytesLimit, false)
		return labelled{X, y}, len(y), fileErr(name, c.line, c.head, err)
	}, func(name string, r labelled) error {
		if len(r.y) == 0 {
			return nil
		}
		pred, err := p.Predict(r.X)
		if err != nil {
			return fileErr(name, 0, 0, err)
		}
		sc.add(r.y, pred)
		return nil
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(out, sc.report(p.Task() == krr.Classification))
	return err
}

// scores are the running sums of a score: hits, and for a regression
// the squared errors and Welford's mean and sum of squared deviations of
// the targets (R²'s total sum of squares, in one pass).
type scores struct {
	n, hits  int
	sse      float64
	mean, m2 float64
	first    float64
	equal    bool
}

func (s *scores) add(y, pred []float64) {
	for i, v := range y {
		if s.n == 0 {
			s.first, s.equal = v, true
		}
		s.equal = s.equal && v == s.first
		s.n++
		if pred[i] == v {
			s.hits++
		}
		d := v - pred[i]
		s.sse += d * d
		delta := v - s.mean
		s.mean += delta / float64(s.n)
		s.m2 += delta * (v - s.mean)
	}
}

// report is the score's line: accuracy, or R² (undefined when every
// target is equal, as core/metrics.R2 says) and MSE.
func (s *scores) report(classification bool) string {
	if classification {
		return fmt.Sprintf("accuracy %.6g (%d of %d rows)", float64(s.hits)/float64(s.n), s.hits, s.n)
	}
	mse := s.sse / float64(s.n)
	if s.equal || s.m2 == 0 || math.IsInf(s.m2, 0) {
		return fmt.Sprintf("R² undefined (the targets are all equal), MSE %.6g (%d rows)", mse, s.n)
	}
	return fmt.Sprintf("R² %.6g, MSE %.6g (%d rows)", 1-s.sse/s.m2, mse, s.n)
}
