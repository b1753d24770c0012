// Reading data files as a stream of chunks of whole records, for fit,
// predict and score: the core parses each chunk (data.Survey,
// Schema.ReadLabeled, Schema.Read) as it parses a file, with the file's
// header line in front, so that memory is bounded by a chunk and the
// longest record, never by the file's length.

package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"ntkrf/core/data"
	"ntkrf/internal/check"
)

// chunkBytes is how much text a chunk holds (one record more at most):
// large enough that the core's per-call work is paid rarely, small
// enough that the chunk, its cells and its rows stay a few tens of MB.
// A variable so that tests cut small files into many chunks.
var chunkBytes = 4 << 20

// expand turns the command line's data arguments into files in order:
// each glob's matches sorted (filepath.Glob's order), "-" for standard
// input (once). A pattern that matches nothing is an error.
func expand(args []string) ([]string, error) {
	var out []string
	stdin := false
	for _, a := range args {
		if a == "-" {
			if stdin {
				return nil, check.New(check.Option, "", "ntkrf: standard input (-) is named twice; name it once")
			}
			stdin = true
			out = append(out, a)
			continue
		}
		m, err := filepath.Glob(a)
		if err != nil {
			return nil, check.New(check.Option, "", "ntkrf: %s is not a valid pattern (%v)", check.Quote(a), err)
		}
		if m == nil {
			if _, err := os.Lstat(a); err != nil {
				return nil, check.New(check.Option, "", "ntkrf: %s: no such file", check.Quote(a))
			}
			m = []string{a} // a name with glob characters in it
		}
		out = append(out, m...)
	}
	return out, nil
}

// openFile opens a data file for reading; "-" is stdin. Anything but a
// regular file is refused before it is opened (regular).
func openFile(name string, stdin io.Reader) (io.ReadCloser, error) {
	if name == "-" {
		if stdin == nil {
			return nil, check.New(check.Option, "", "ntkrf: -: there is no standard input to read")
		}
		return io.NopCloser(stdin), nil
	}
	if err := regular(name); err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, check.New(check.Option, "", "ntkrf: %s: %v", name, errors.Unwrap(err))
	}
	return f, nil
}

// regular refuses a path that is not a regular file (a directory, a
// FIFO, a device, a socket), from its mode alone: a FIFO would block the
// command and a device such as /dev/zero never ends; standard input is
// the one stream allowed.
func regular(name string) error {
	st, err := os.Stat(name)
	if err != nil {
		return check.New(check.Option, "", "ntkrf: %s: %v", name, errors.Unwrap(err))
	}
	if !st.Mode().IsRegular() {
		return check.New(check.Option, "", "ntkrf: %s is %s, not a regular file; give files, or - for standard input", name, kindOf(st.Mode()))
	}
	return nil
}

func kindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}

// counter counts the bytes read through it (the file's, before
// decompression: the progress of a file whose size is known).
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}

// decompress returns the text of r: gunzipped when it starts with gzip's
// magic bytes (1f 8b), as the core's parser decides, else r itself.
func decompress(name string, r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	magic, _ := br.Peek(2)
	if len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return br, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, check.New(check.Parse, "", "ntkrf: %s starts like gzip but its header is damaged (%v); compress it again or give the plain file", name, err)
	}
	return zr, nil
}

// chunk is a piece of a file the core parses as a file: the header record
// (when the file has one) and then whole records.
type chunk struct {
	text []byte
	// head is the lines the header takes in text; line is the file's line
	// of the body's first line: a message's line head+k is the file's
	// line+k−1.
	head, line int
	empty      bool // the body holds no record (blank lines only)
}

// reader cuts a file's text into chunks of whole records: it reads about
// chunkBytes, cuts after the last record that ends in it (quotes as the
// core's scanner reads them: a field that starts with a quote runs to its
// closing quote), and carries the rest over.
type reader struct {
	name      string
	r         io.Reader
	delim     byte
	maxRecord int    // the longest record, in bytes
	flag      string // the flag that raises maxRecord
	header    []byte // the header record, its line break included; nil without
	headLines int
	carry     []byte
	line      int // the file's line of carry's start
	eof       bool
}

// newReader reads the start of text to learn the file's delimiter and
// whether its first record is a header, as the core's parser decides
// them (data.Preview on the first megabyte: the delimiter from its first
// 64 kB, the header from the first 1,001 records, Parse's rules), and
// returns the reader positioned at the start (the header is handed in
// front of each chunk). opt's Delimiter and Header, when set, apply.
func newReader(name string, text io.Reader, opt data.Options, maxRecord int, flag string) (*reader, data.Table, error) {
	const peek = 1<<20 + 1 // one byte over Preview's megabyte: it then cuts after the last whole line
	rd := &reader{name: name, r: text, maxRecord: maxRecord, flag: flag, line: 1}
	head := make([]byte, peek)
	n, err := io.ReadFull(text, head)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		rd.eof = true
	case err != nil:
		return nil, data.Table{}, readErr(name, err)
	}
	head = head[:n]
	rd.carry = head
	opt.MaxBytes = 0
	tab, err := data.Preview(head, data.MaxPreviewRows/10, opt)
	if err != nil {
		return nil, data.Table{}, fileErr(name, 0, 0, err)
	}
	rd.delim = byte(tab.Delimiter)
	if tab.Header {
		body := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
		// Blank lines before the header are skipped, as the core skips them.
		for {
			end, _ := recordEnd(body, rd.delim, true, len(body))
			if end <= 0 || len(bytes.TrimSpace(body[:end])) > 0 {
				break
			}
			rd.line += countBreaks(body[:end])
			body = body[end:]
		}
		end, _ := recordEnd(body, rd.delim, true, len(body))
		if end < 0 && !rd.eof {
			return nil, data.Table{}, check.New(check.TooLarge, "", "ntkrf: %s: the header line is longer than %s; a header that long is not a table's", name, check.FormatBytes(peek-1))
		}
		if end < 0 {
			end = len(body)
		}
		rd.header = slices.Clip(append([]byte(nil), body[:end]...))
		if end == len(body) && !bytes.HasSuffix(rd.header, []byte("\n")) && !bytes.HasSuffix(rd.header, []byte("\r")) {
			rd.header = append(rd.header, '\n')
		}
		rd.headLines = countBreaks(rd.header)
		rd.carry = head[len(head)-len(body)+end:]
		rd.line += rd.headLines
	}
	return rd, *tab, nil
}

// next returns the next chunk, or io.EOF after the last. ctx stops it
// between reads.
func (rd *reader) next(ctx context.Context) (chunk, error) {
	for {
		if err := ctx.Err(); err != nil {
			return chunk{}, check.Stopped("ntkrf: reading "+rd.name, err)
		}
		if rd.eof && len(rd.carry) == 0 {
			return chunk{}, io.EOF
		}
		end, long := recordEnd(rd.carry, rd.delim, false, rd.maxRecord)
		if long >= 0 {
			return chunk{}, check.New(check.TooLarge, trimDash(rd.flag), "ntkrf: %s: the record at line %d is longer than the %s limit (%d bytes) on one record; raise it with %s (at most %d)",
				rd.name, rd.line+countBreaks(rd.carry[:long]), check.FormatBytes(float64(rd.maxRecord)), rd.maxRecord, rd.flag, data.MaxBytesLimit)
		}
		if rd.eof {
			end = len(rd.carry)
		}
		if end > 0 && (len(rd.carry) >= chunkBytes || rd.eof) {
			return rd.cut(end), nil
		}
		if bytes.IndexByte(rd.carry, 0) >= 0 {
			// The core refuses a NUL anywhere in text; refused here as soon
			// as it is read, not once a record has grown to the bound.
			return chunk{}, check.New(check.Parse, "", "ntkrf: %s: the input does not look like text (a NUL byte near line %d); give a CSV or TSV file, plain or gzip-compressed", rd.name, rd.line+countBreaks(rd.carry[:bytes.IndexByte(rd.carry, 0)]))
		}
		if err := rd.fill(); err != nil {
			return chunk{}, err
		}
	}
}

func trimDash(flag string) string { return flag[min(1, len(flag)):] }

// fill reads about chunkBytes more into carry.
func (rd *reader) fill() error {
	at := len(rd.carry)
	want := max(chunkBytes, 1<<16)
	rd.carry = slices.Grow(rd.carry, want)[:at+want]
	n, err := io.ReadFull(rd.r, rd.carry[at:])
	rd.carry = rd.carry[:at+n]
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		rd.eof = true
	case err != nil:
		return readErr(rd.name, err)
	}
	return nil
}

// cut returns carry[:end] as a chunk and keeps the rest.
func (rd *reader) cut(end int) chunk {
	body := rd.carry[:end]
	c := chunk{head: rd.headLines, line: rd.line, empty: len(bytes.TrimSpace(body)) == 0}
	c.text = make([]byte, 0, len(rd.header)+len(body))
	c.text = append(append(c.text, rd.header...), body...)
	rd.line += countBreaks(body)
	// The rest moves to a buffer of its own: carry's array may be large
	// (a long record), and the next fill appends to it.
	rest := rd.carry[end:]
	rd.carry = append(make([]byte, 0, len(rest)+chunkBytes), rest...)
	return c
}

// recordEnd returns the offset just past the last record break in b
// (first: the first) outside a quoted field, or −1 when there is none,
// and the offset of the first record longer than maxLen bytes (its break
// included), or −1. b starts at a record's start. A quote opens a quoted
// field only at the start of a field (after blanks), as the core's
// scanner reads it; a carriage return at b's very end is not taken as a
// break (a line feed may follow in the next read).
func recordEnd(b []byte, delim byte, first bool, maxLen int) (end, long int) {
	end, long = -1, -1
	rec := 0 // the current record's start
	start, quoted := true, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case quoted:
			if c != '"' {
				continue
			}
			if i+1 >= len(b) {
				i = len(b) // "" or the closing quote: the next read decides
				continue
			}
			if b[i+1] == '"' {
				i++
				continue
			}
			quoted = false
		case start && (c == ' ' || c == '\t') && c != delim:
		case start && c == '"':
			quoted, start = true, false
		case c == delim:
			start = true
		case c == '\n' || c == '\r':
			if c == '\r' {
				if i+1 >= len(b) {
					continue
				}
				if b[i+1] == '\n' {
					i++
				}
			}
			if i+1-rec > maxLen {
				return end, rec
			}
			end, start, rec = i+1, true, i+1
			if first {
				return end, -1
			}
		default:
			start = false
		}
	}
	if len(b)-rec > maxLen {
		long = rec
	}
	return end, long
}

// countBreaks counts line breaks as the core does (LF, CRLF, a lone CR).
func countBreaks(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	for i, c := range b {
		if c == '\r' && (i+1 >= len(b) || b[i+1] != '\n') {
			n++
		}
	}
	return n
}

func readErr(name string, err error) error {
	return check.New(check.Parse, "", "ntkrf: %s: reading failed after %v", name, err)
}

// moveLines moves the line numbers in msg, a message about a chunk,
// to the file's: a line past the chunk's header (head lines) by
// line−1−head, where line is the file's line of the chunk's first.
func moveLines(msg string, line, head int) string {
	return lineRE.ReplaceAllStringFunc(msg, func(s string) string {
		sub := lineRE.FindStringSubmatch(s)
		k, err := strconv.Atoi(sub[1])
		if err != nil || k <= head {
			return s
		}
		return s[:len(s)-len(sub[1])] + strconv.Itoa(k+line-1-head)
	})
}

// lineRE finds the line numbers in the core's messages.
var lineRE = regexp.MustCompile(`\blines? (\d+)\b`)

// fileErr names the file in a core error about a chunk, its line numbers
// moved from the chunk's to the file's (lines past the header by
// line−1−head), its code kept.
func fileErr(name string, line, head int, err error) error {
	if err == nil {
		return nil
	}
	var e *check.Error
	if !errors.As(err, &e) {
		return check.New(check.Parse, "", "ntkrf: %s: %v", name, err)
	}
	msg := e.Msg
	if line > 0 {
		msg = moveLines(msg, line, head)
	}
	out := check.New(e.Code, e.Option, "%s: %s", name, msg)
	out.Err = e.Err
	return out
}
