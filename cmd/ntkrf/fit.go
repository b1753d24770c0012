package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/pipeline"
	"ntkrf/core/protocol"
	"ntkrf/internal/check"
	"ntkrf/internal/fitflags"
)

// Defaults of fit's own flags (the fit's are the core's, in fitflags).
const (
	// defaultBuffer is the most bytes of rows (float64) a pass holds
	// before handing them to the core: the statistics are added, and the
	// parts featurized, a buffer at a time.
	defaultBuffer = 64 << 20
	// defaultMaxMemory bounds the rows a collecting plan would keep.
	defaultMaxMemory = 4 << 30
)

// runFit fits a model on data files as the core's protocol runs on a
// cluster, one part at a time: a pass that surveys the columns (the
// schema Parse would give the files read as one), a pass for the column
// statistics and the selection's sample, and a pass that featurizes and
// sums the rows; then the solve, and the model written atomically.
func runFit(args []string) error {
	ctx, stop := signalContext()
	defer stop()
	return fitCmd(ctx, os.Stdin, os.Stderr, args)
}

func fitCmd(ctx context.Context, stdin io.Reader, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fit := fitflags.Register(fs)
	out := fs.String("o", "", "the model file to write (written whole or not at all)")
	maxBytes := fs.Int("max-bytes", data.DefaultMaxBytes, "the longest record (line) read, in bytes")
	buffer := fs.Int("buffer", defaultBuffer, "bytes of rows (8 per value) held at once by a pass (the model's bytes are pipeline.FitDataset's whatever it is)")
	maxMem := fs.Int64("max-memory", defaultMaxMemory, "bytes a plan that keeps every row (the dual: no more rows than -dim) may hold; such a fit is refused above it")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: ntkrf fit [flags] DATA… -o MODEL.json\n\n"+
			"Fits a random-feature ridge model on CSV or TSV files (plain or gzip; globs;\n"+
			"- for standard input), streaming: memory is bounded by the model and a buffer of\n"+
			"rows, not by the files' length. The files are one data set (the same columns,\n"+
			"each with its header line). The defaults are the core's: 'auto' depth,\n"+
			"preprocessing and λ, as the package's fitRidge and ntkrf-beam.\n\n")
		fs.PrintDefaults()
	}
	if err := parseInterleaved(fs, args); err != nil {
		return err
	}
	opt, err := fit.Fit()
	if err != nil {
		return err
	}
	switch {
	case *out == "":
		fs.Usage()
		return check.New(check.Option, "o", "ntkrf: fit needs -o MODEL.json, the file to write")
	case fs.NArg() == 0:
		fs.Usage()
		return check.New(check.Option, "", "ntkrf: fit needs data files (or - for standard input)")
	case *maxBytes < 1 || *maxBytes > data.MaxBytesLimit:
		return check.New(check.Option, "max-bytes", "ntkrf: -max-bytes %d is out of range; use 1…%d", *maxBytes, data.MaxBytesLimit)
	case *buffer < 1:
		return check.New(check.Option, "buffer", "ntkrf: -buffer %d is out of range; give a positive number of bytes", *buffer)
	case *maxMem < 1:
		return check.New(check.Option, "max-memory", "ntkrf: -max-memory %d is out of range; give a positive number of bytes", *maxMem)
	}
	if err := checkOutput(*out); err != nil {
		return err
	}
	names, err := expand(fs.Args())
	if err != nil {
		return err
	}
	fl := &files{names: names, stdin: stdin, opt: opt.Data, max: *maxBytes, flag: "-max-bytes", prog: newProgress(stderr)}
	for _, n := range names {
		if n != "-" {
			continue
		}
		// Standard input is read three times: the first pass keeps a copy.
		if fl.spool, err = os.CreateTemp("", "ntkrf-stdin-*"); err != nil {
			return check.New(check.Internal, "", "ntkrf: a file to keep standard input in: %v", err)
		}
		defer func() { fl.spool.Close(); os.Remove(fl.spool.Name()) }()
	}
	model, err := fitFiles(ctx, fl, opt, *buffer, *maxMem)
	if err != nil && ctx.Err() != nil {
		stopped := check.New(check.Aborted, "", "ntkrf: fit interrupted; no model was written to %s", *out)
		stopped.Err = ctx.Err()
		return stopped
	}
	if err != nil {
		return err
	}
	b, err := json.Marshal(model)
	if err != nil {
		return check.New(check.Internal, "", "ntkrf: the model: %v", err)
	}
	return writeAtomic(*out, b)
}

// fitFiles runs the protocol over the files.
func fitFiles(ctx context.Context, fl *files, opt fitflags.Fit, buffer int, maxMem int64) (*pipeline.Pipeline, error) {
	// Pass 1: the census of every chunk, merged, settles the schema.
	var census data.Census
	k := 0
	err := fl.each(ctx, "pass 1/3 (columns)", func(name string, tab data.Table, c chunk) error {
		o := opt.Data
		o.Delimiter, o.Header, o.MaxBytes = tab.Delimiter, data.No, data.MaxBytesLimit
		if tab.Header {
			o.Header = data.Yes
		}
		k++
		s, err := data.Survey(fmt.Sprintf("%09d", k), c.text, o)
		if err == nil {
			s, err = fileLines(s, c)
		}
		if err == nil {
			err = census.Merge(s)
			fl.prog.add(s.Rows())
		}
		return fileErr(name, c.line, c.head, err)
	})
	if err != nil {
		return nil, err
	}
	schema, err := census.Settle()
	if err != nil {
		return nil, fileErr(fileList(fl.names), 0, 0, err)
	}
	rows, cols := census.Rows(), schema.Width()
	cfg := opt.Config()
	cfg.Input = schema // the task, classes and groups are the file's
	plan, err := protocol.NewPlan(cfg, rows, cols, nil)
	if err != nil {
		return nil, err
	}
	if err := fitsMemory(plan, maxMem); err != nil {
		return nil, err
	}
	drop := opt.Data.Missing == data.Drop
	// A chunk's rows, read in the reading goroutine (eachParsed).
	read := func(name string, _ data.Table, c chunk) (rowsOf, error) {
		X, y, err := schema.ReadLabeled(c.text, data.MaxBytesLimit, drop)
		fl.prog.add(len(y))
		return rowsOf{X, y}, fileErr(name, c.line, c.head, err)
	}

	// Pass 2: the statistics, and the rows the selection scores.
	stats := plan.NewStats()
	idx := plan.SearchRows()
	var Xs *mat.Dense
	var ys []float64
	if idx != nil {
		Xs, ys = mat.NewDense(len(idx), cols, nil), make([]float64, len(idx))
	}
	// A buffer never larger than the rows: a file within it is added in
	// one call, as FitDataset adds it.
	buf := newRowBuffer(min(rows, max(1, buffer/(8*cols))), cols, func(X *mat.Dense, _ []float64, first int) error { return stats.AddAt(X, first) })
	at, next := 0, 0 // rows read; the next of idx
	err = eachParsed(ctx, fl, "pass 2/3 (statistics)", read, func(r rowsOf) error {
		X, y := r.X, r.y
		for ; next < len(idx) && idx[next] < at+len(y); next++ {
			Xs.SetRow(next, X.RawRowView(idx[next]-at))
			ys[next] = y[idx[next]-at]
		}
		at += len(y)
		return buf.add(X, y)
	})
	if err == nil {
		err = buf.flush()
	}
	if err != nil {
		return nil, err
	}
	if at != rows {
		return nil, changed(fl.names, rows, at)
	}
	if idx != nil {
		fl.prog.note(fmt.Sprintf("selection: %d candidates on %d rows", plan.Candidates(), len(idx)))
		if plan, _, err = plan.Select(ctx, Xs, ys, stats); err != nil {
			return nil, err
		}
		Xs = nil
		if err := fitsMemory(plan, maxMem); err != nil {
			return nil, err
		}
	}
	scaler, err := plan.Scaler(stats)
	if err != nil {
		return nil, err
	}
	part, err := plan.NewPart(scaler)
	if err != nil {
		return nil, err
	}

	// Pass 3: the parts' sums, a buffer of whole krr blocks at a time (the
	// core sums the rows by their global indices, so any buffer gives
	// FitDataset's bits; whole blocks keep each Add's last block full).
	block := plan.Config().Ridge.BlockRows
	buf = newRowBuffer(min(rows, max(1, buffer/(8*cols)/block)*block), cols, func(X *mat.Dense, y []float64, first int) error {
		return part.Add(ctx, X, y, first)
	})
	at = 0
	err = eachParsed(ctx, fl, "pass 3/3 (features)", read, func(r rowsOf) error {
		at += len(r.y)
		return buf.add(r.X, r.y)
	})
	if err == nil {
		err = buf.flush()
	}
	if err != nil {
		return nil, err
	}
	if at != rows {
		return nil, changed(fl.names, rows, at)
	}
	fl.prog.note("solving")
	return plan.Solve(ctx, scaler, part)
}

// fileLines moves the cells a chunk's census names for Settle's messages
// (the first text cell, the first non-finite number of each column:
// "line 17, column 3 …") from the chunk's lines to the file's, through
// the census's wire form; a census that names none is returned as it is.
func fileLines(s *data.Census, c chunk) (*data.Census, error) {
	b, err := s.MarshalBinary()
	if err != nil || !bytes.Contains(b, []byte(`"bad"`)) && !bytes.Contains(b, []byte(`"firstText"`)) {
		return s, err
	}
	var form map[string]json.RawMessage
	var cols []map[string]json.RawMessage
	if err := json.Unmarshal(b, &form); err != nil {
		return nil, check.New(check.Internal, "", "ntkrf: a census: %v", err)
	}
	if err := json.Unmarshal(form["cols"], &cols); err != nil {
		return nil, check.New(check.Internal, "", "ntkrf: a census: %v", err)
	}
	for _, col := range cols {
		for _, key := range []string{"bad", "firstText"} {
			var at string
			if raw, ok := col[key]; !ok || json.Unmarshal(raw, &at) != nil {
				continue
			}
			col[key], _ = json.Marshal(moveLines(at, c.line, c.head))
		}
	}
	form["cols"], _ = json.Marshal(cols)
	b, _ = json.Marshal(form)
	return data.DecodeCensus(b)
}

// rowsOf are a chunk's rows and targets.
type rowsOf struct {
	X *mat.Dense
	y []float64
}

// fitsMemory refuses, before the rows are read, a plan that keeps every
// row (the dual, an exact kernel, exact leave-one-out) when they, and the
// n×n matrix it solves with, would pass maxMem: the streaming fit is
// bounded only where the parts are sums.
func fitsMemory(plan *protocol.Plan, maxMem int64) error {
	if !plan.Collects() {
		return nil
	}
	n, d := int64(plan.Rows()), int64(plan.Cols()+1)
	need := 8 * (n*d + n*n)
	if need <= maxMem {
		return nil
	}
	return check.New(check.TooLarge, "max-memory", "ntkrf: this fit keeps every row in memory (%d rows at -dim %d: the dual, solved with a %d×%d matrix), about %s, over -max-memory %s; give -dim below the number of rows so that the parts are sums of the features, or raise -max-memory",
		n, plan.Dim(), n, n, check.FormatBytes(float64(need)), check.FormatBytes(float64(maxMem)))
}

func changed(names []string, want, got int) error {
	return check.New(check.Data, "", "ntkrf: %s: %d rows on the first pass, %d on a later one; the files changed while they were read", fileList(names), want, got)
}

func fileList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return fmt.Sprintf("%s and %d more", names[0], len(names)-1)
}

// rowBuffer gathers rows into blocks of size rows (the last shorter) and
// hands each to fn with the index of its first row.
type rowBuffer struct {
	x, y       []float64
	n, size    int
	cols, done int
	fn         func(X *mat.Dense, y []float64, first int) error
}

func newRowBuffer(size, cols int, fn func(X *mat.Dense, y []float64, first int) error) *rowBuffer {
	return &rowBuffer{size: size, cols: cols, fn: fn}
}

func (b *rowBuffer) add(X *mat.Dense, y []float64) error {
	raw := X.RawMatrix()
	for i := 0; i < len(y); {
		if b.x == nil {
			b.x, b.y = make([]float64, 0, b.size*b.cols), make([]float64, 0, b.size)
		}
		k := min(len(y)-i, b.size-b.n)
		for r := i; r < i+k; r++ {
			b.x = append(b.x, raw.Data[r*raw.Stride:r*raw.Stride+b.cols]...)
		}
		b.y = append(b.y, y[i:i+k]...)
		b.n += k
		i += k
		if b.n == b.size {
			if err := b.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (b *rowBuffer) flush() error {
	if b.n == 0 {
		return nil
	}
	err := b.fn(mat.NewDense(b.n, b.cols, b.x[:b.n*b.cols]), b.y[:b.n], b.done)
	b.done += b.n
	b.x, b.y, b.n = b.x[:0], b.y[:0], 0
	return err
}

// checkOutput refuses an output path that cannot be written before the
// passes run: a directory, or a directory that does not exist.
func checkOutput(path string) error {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return check.New(check.Option, "o", "ntkrf: -o %s is %s; give a file name", path, kindOf(st.Mode()))
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return check.New(check.Option, "o", "ntkrf: -o %s: the directory %s does not exist", path, filepath.Dir(path))
	}
	return nil
}

// writeAtomic writes b to path whole or not at all: a temporary file in
// the same directory, synced, then renamed over path, so that an
// interrupted or failed fit never leaves a partial model.
func writeAtomic(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return check.New(check.Option, "o", "ntkrf: -o %s: %v", path, err)
	}
	defer os.Remove(f.Name()) // gone once renamed; removed on any failure
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return check.New(check.Option, "o", "ntkrf: -o %s: %v", path, err)
	}
	return nil
}
