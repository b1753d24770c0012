package main

import (
	"bufio"
	"flag"
	"io"
	"math/rand/v2"
	"os"
	"strconv"

	"ntkrf/internal/check"
)

// runGen writes a generated classification CSV: cols Gaussian features
// whose means depend on the class, and the class (0…k−1) last. It is the
// streaming benchmark's input (README: a file of any size, made here
// rather than stored).
func runGen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	rows := fs.Int("rows", 1000, "data rows")
	cols := fs.Int("cols", 20, "feature columns")
	classes := fs.Int("classes", 4, "classes (the last column)")
	seed := fs.Uint64("seed", 1, "seed")
	out := fs.String("o", "-", "the file to write; - for standard output")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *rows < 1 || *cols < 1 || *classes < 2 || fs.NArg() > 0 {
		return check.New(check.Option, "", "ntkrf: gen needs -rows ≥ 1, -cols ≥ 1, -classes ≥ 2 and no arguments")
	}
	var w io.Writer = os.Stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			return check.New(check.Option, "o", "ntkrf: -o %s: %v", *out, err)
		}
		defer f.Close()
		w = f
	}
	return gen(w, *rows, *cols, *classes, *seed)
}

func gen(out io.Writer, rows, cols, classes int, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	centers := make([]float64, classes*cols)
	for i := range centers {
		centers[i] = r.NormFloat64()
	}
	w := bufio.NewWriterSize(out, 1<<20)
	line := []byte{}
	for j := range cols {
		if j > 0 {
			line = append(line, ',')
		}
		line = append(line, 'x')
		line = strconv.AppendInt(line, int64(j+1), 10)
	}
	w.Write(append(line, ",class\n"...))
	for range rows {
		k := r.IntN(classes)
		line = line[:0]
		for j := range cols {
			line = strconv.AppendFloat(line, centers[k*cols+j]+r.NormFloat64(), 'f', 4, 64)
			line = append(line, ',')
		}
		line = strconv.AppendInt(line, int64(k), 10)
		if _, err := w.Write(append(line, '\n')); err != nil {
			return check.New(check.Internal, "", "ntkrf: gen: %v", err)
		}
	}
	if err := w.Flush(); err != nil {
		return check.New(check.Internal, "", "ntkrf: gen: %v", err)
	}
	return nil
}
