// The passes over the data files that fit, predict and score make: each
// file opened (refused unless regular or standard input), decompressed,
// cut into chunks of whole records and handed on in order, with the
// progress on a terminal.

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"ntkrf/core/data"
	"ntkrf/internal/check"
)

// files are the data files of a command, in order, with what their first
// pass learned.
type files struct {
	names []string
	stdin io.Reader
	// spool, when set, receives standard input's bytes on the first pass
	// (fit reads its files three times); later passes read it instead.
	spool   *os.File
	spooled bool
	opt     data.Options // Delimiter and Header apply
	max     int          // the longest record
	flag    string       // the flag that raises max
	prog    *progress
	read    int64 // the pass's bytes read from the files so far
}

// each runs fn on every chunk of every file in order (empty chunks
// skipped), with the file's preview (its delimiter, header, names).
func (fl *files) each(ctx context.Context, pass string, fn func(name string, tab data.Table, c chunk) error) error {
	fl.prog.start(pass, fl.total())
	fl.read = 0
	for _, name := range fl.names {
		if err := fl.file(ctx, name, fn); err != nil {
			return err
		}
	}
	if fl.spool != nil && !fl.spooled {
		if err := fl.spool.Sync(); err != nil {
			return check.New(check.Internal, "", "ntkrf: spooling standard input: %v", err)
		}
		fl.spooled = true
	}
	fl.prog.done()
	return nil
}

func (fl *files) file(ctx context.Context, name string, fn func(name string, tab data.Table, c chunk) error) error {
	var f io.ReadCloser
	var err error
	if name == "-" && fl.spooled {
		f, err = os.Open(fl.spool.Name())
	} else {
		f, err = openFile(name, fl.stdin)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	if name == "-" && fl.spool != nil && !fl.spooled {
		r = io.TeeReader(r, fl.spool)
	}
	cr := &counter{r: r}
	text, err := decompress(name, cr)
	if err != nil {
		return err
	}
	rd, tab, err := newReader(name, text, fl.opt, fl.max, fl.flag)
	if err != nil {
		return err
	}
	base := fl.read
	for {
		c, err := rd.next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if !c.empty {
			if err := fn(name, tab, c); err != nil {
				return err
			}
		}
		fl.prog.update(base + cr.n)
	}
	// Drain standard input to its end, so the spool holds all of it (a
	// gzip stream ends before trailing bytes).
	if name == "-" && fl.spool != nil && !fl.spooled {
		if _, err := io.Copy(io.Discard, r); err != nil {
			return readErr(name, err)
		}
	}
	fl.read = base + cr.n
	return nil
}

// total is the files' size in bytes, −1 when one is unknown (stdin before
// it is spooled).
func (fl *files) total() int64 {
	var n int64
	for _, name := range fl.names {
		if name == "-" && !fl.spooled {
			return -1
		}
		path := name
		if name == "-" {
			path = fl.spool.Name()
		}
		st, err := os.Stat(path)
		if err != nil {
			return -1
		}
		n += st.Size()
	}
	return n
}

// progress reports a pass on standard error when it is a terminal: rows,
// rows per second, the share of the bytes read and the time left. A nil
// progress reports nothing.
type progress struct {
	w            io.Writer
	pass         string
	rows         int
	bytes, total int64
	begin, shown time.Time
	every        time.Duration
}

// newProgress reports to w when w is a terminal (a character device).
func newProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return &progress{w: w, every: 200 * time.Millisecond}
}

func (p *progress) start(pass string, total int64) {
	if p == nil {
		return
	}
	p.pass, p.rows, p.bytes, p.total, p.begin, p.shown = pass, 0, 0, total, time.Now(), time.Time{}
}

func (p *progress) add(rows int) {
	if p != nil {
		p.rows += rows
	}
}

func (p *progress) update(bytes int64) {
	if p == nil {
		return
	}
	p.bytes = bytes
	if time.Since(p.shown) < p.every {
		return
	}
	p.shown = time.Now()
	p.show("")
}

func (p *progress) show(end string) {
	el := time.Since(p.begin).Seconds()
	line := fmt.Sprintf("\r%s: %d rows, %.0f rows/s", p.pass, p.rows, float64(p.rows)/max(el, 1e-9))
	if p.total > 0 && p.bytes > 0 {
		f := min(1, float64(p.bytes)/float64(p.total))
		line += fmt.Sprintf(", %.0f%%", 100*f)
		if f < 1 && end == "" {
			line += fmt.Sprintf(", ETA %s", (time.Duration(el*(1-f)/f) * time.Second).Round(time.Second))
		}
	}
	fmt.Fprint(p.w, line+"\033[K"+end)
}

func (p *progress) done() {
	if p == nil {
		return
	}
	p.show("\n")
}

// note prints a line of the command's own (a stage without rows).
func (p *progress) note(s string) {
	if p != nil {
		fmt.Fprintln(p.w, s)
	}
}

// eachParsed runs parse on every chunk (as each does) in a goroutine of
// its own, a chunk ahead of use, which takes the results in order in the
// caller's goroutine: reading and parsing the next rows overlaps the
// core's work on these (featurizing, predicting). The progress is the
// parsing goroutine's alone.
func eachParsed[T any](ctx context.Context, fl *files, pass string, parse func(name string, tab data.Table, c chunk) (T, error), use func(T) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type item struct {
		v   T
		err error
	}
	ch := make(chan item, 1)
	go func() {
		defer close(ch)
		err := fl.each(ctx, pass, func(name string, tab data.Table, c chunk) error {
			v, err := parse(name, tab, c)
			if err != nil {
				return err
			}
			select {
			case ch <- item{v: v}:
				return nil
			case <-ctx.Done():
				return check.Stopped("ntkrf: reading "+name, ctx.Err())
			}
		})
		if err != nil {
			select {
			case ch <- item{err: err}:
			case <-ctx.Done():
			}
		}
	}()
	var err error
	for it := range ch {
		if err == nil {
			if err = it.err; err == nil {
				err = use(it.v)
			}
		}
		if err != nil {
			cancel() // the reader stops; the loop drains it until it has
		}
	}
	return err
}
