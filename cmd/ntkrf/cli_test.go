package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ntkrf/core/data"
	"ntkrf/internal/check"
)

// TestUsage: ntkrf alone lists the user's commands first, each with a
// line of help, and the research group; -h does the same on standard
// output; the research harnesses run as "research NAME" and by their old
// names; an unknown command is a usage error.
func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		status   int
		out, err []string // text each must hold
	}{
		{nil, 2, nil, []string{"fit ", "predict ", "score ", "research "}},
		{[]string{"-h"}, 0, []string{"fit ", "predict ", "score ", "research "}, nil},
		{[]string{"research"}, 2, nil, []string{"quality", "repro", "gen", "fitmem"}},
		{[]string{"research", "-h"}, 0, []string{"quality", "accuracy", "defaults", "bench", "autocost", "repro"}, nil},
		{[]string{"nope"}, 2, nil, []string{`unknown command "nope"`, "fit "}},
		{[]string{"fit", "-h"}, 0, nil, []string{"-dim int", fmt.Sprintf("(default %d)", 1024), "-lambda", `(default "auto")`, "-o string"}},
		{[]string{"predict", "-h"}, 0, nil, []string{"MODEL.json DATA", "-max-bytes"}},
		{[]string{"score", "-h"}, 0, nil, []string{"accuracy", "R²"}},
		{[]string{"research", "gen", "-rows", "2", "-cols", "1", "-classes", "2"}, 0, []string{"x1,class\n"}, nil},
		{[]string{"gen", "-rows", "2", "-cols", "1", "-classes", "2"}, 0, []string{"x1,class\n"}, nil},
		{[]string{"fit", "-dim", "0", "x.csv", "-o", "m.json"}, 1, nil, []string{"(ERR_OPTION)"}},
	} {
		var out, errb bytes.Buffer
		status := dispatchTo(tc.args, &out, &errb)
		if status != tc.status {
			t.Errorf("%q: status %d, want %d (%s)", tc.args, status, tc.status, errb.String())
		}
		for _, s := range tc.out {
			if !strings.Contains(out.String(), s) {
				t.Errorf("%q: standard output lacks %q:\n%s", tc.args, s, out.String())
			}
		}
		for _, s := range tc.err {
			if !strings.Contains(errb.String(), s) {
				t.Errorf("%q: standard error lacks %q:\n%s", tc.args, s, errb.String())
			}
		}
	}
}

// dispatchTo runs dispatch with the commands' own output (gen writes to
// os.Stdout, flags' help to the flag set's output) captured.
func dispatchTo(args []string, out, errw io.Writer) int {
	ro, wo, _ := os.Pipe()
	re, we, _ := os.Pipe()
	oldOut, oldErr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = wo, we
	done := make(chan struct{})
	go func() { io.Copy(out, ro); done <- struct{}{} }()
	go func() { io.Copy(errw, re); done <- struct{}{} }()
	status := dispatch(args, wo, we)
	os.Stdout, os.Stderr = oldOut, oldErr
	wo.Close()
	we.Close()
	<-done
	<-done
	return status
}

// TestFitRefuses: fit refuses what it cannot read or write, before any
// work, with one coded line, and leaves no model file: a FIFO, a device,
// a directory, a pattern without a match, no -o, an -o that is a
// directory, and a plan that would keep every row over -max-memory.
func TestFitRefuses(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Fatal(err)
	}
	iris := "../../testdata/iris.csv"
	out := filepath.Join(dir, "m.json")
	for _, tc := range []struct {
		name string
		args []string
		code check.Code
		says string
	}{
		{"a FIFO", []string{fifo, "-o", out}, check.Option, "FIFO"},
		{"a device", []string{"/dev/null", "-o", out}, check.Option, "device"},
		{"a directory", []string{dir, "-o", out}, check.Option, "directory"},
		{"no match", []string{filepath.Join(dir, "*.csv"), "-o", out}, check.Option, "no such file"},
		{"no -o", []string{iris}, check.Option, "-o"},
		{"-o a directory", []string{iris, "-o", dir}, check.Option, "directory"},
		{"-o in no directory", []string{iris, "-o", filepath.Join(dir, "none", "m.json")}, check.Option, "does not exist"},
		{"standard input twice", []string{"-", "-", "-o", out}, check.Option, "twice"},
		{"a dual plan over -max-memory", []string{iris, "-dim", "512", "-depth", "1", "-max-memory", "100000", "-o", out}, check.TooLarge, "-dim below the number of rows"},
	} {
		err := fitCmd(context.Background(), strings.NewReader(""), io.Discard, tc.args)
		if check.CodeOf(err) != tc.code || !strings.Contains(err.Error(), tc.says) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v (%q), want %s saying %q, one line", tc.name, err, check.CodeOf(err), tc.code, tc.says)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%s: left %s", tc.name, out)
		}
	}
}

// TestFitStopped: a cancelled fit (Ctrl-C) returns ERR_ABORTED, which the
// command exits 130 with, and leaves the model file that was there as it
// was, with no temporary file beside it.
func TestFitStopped(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.json")
	os.WriteFile(out, []byte("old"), 0o644)
	var b bytes.Buffer
	gen(&b, 5000, 4, 3, 1)
	os.WriteFile(filepath.Join(dir, "d.csv"), b.Bytes(), 0o644)
	withChunks(t, 4096)
	// Standard input that cancels the fit after some reads: in the first
	// pass, or once it has all been read (a later pass then stops).
	for _, stopAt := range []int{1, 3, 1 << 30} {
		ctx, cancel := context.WithCancel(context.Background())
		in := &cancelling{r: bytes.NewReader(b.Bytes()), after: stopAt, cancel: cancel}
		err := fitCmd(ctx, in, io.Discard, []string{"-", "-dim", "64", "-o", out})
		cancel()
		if check.CodeOf(err) != check.Aborted {
			t.Errorf("stopped after %d reads: %v, want ERR_ABORTED", stopAt, err)
		}
		if got, _ := os.ReadFile(out); string(got) != "old" {
			t.Errorf("stopped after %d reads: the model file holds %.40q", stopAt, got)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the directory holds %d entries, want the data and the old model", len(entries))
	}
	if s := errorLine(check.Stopped("ntkrf: fit", context.Canceled)); s != "ntkrf: fit stopped: context canceled (ERR_ABORTED)" {
		t.Errorf("the stop's line: %q", s)
	}
}

// cancelling reads r and calls cancel after its after-th read, or at its
// end.
type cancelling struct {
	r      io.Reader
	after  int
	cancel func()
}

func (c *cancelling) Read(b []byte) (int, error) {
	n, err := c.r.Read(b[:min(len(b), 1000)])
	if c.after--; c.after <= 0 || err == io.EOF {
		c.cancel()
	}
	return n, err
}

// TestRecordEnd: chunks end after a record's line break outside quotes,
// as the core's scanner reads quotes: only at a field's start, "" inside.
func TestRecordEnd(t *testing.T) {
	for _, tc := range []struct {
		in        string
		first     bool
		end, long int
	}{
		{"a,b\n1,2\n3", false, 8, -1},
		{"a,b\n1,2\n3", true, 4, -1},
		{"a,\"b\n c\"\n1", false, 9, -1},                           // a quoted line break
		{"a,\"b\"\"\n\"\n1", false, 9, -1},                         // "" inside quotes
		{"a,5\"\n1,2\n", false, 9, -1},                             // a quote inside a field is a character
		{"a, \"x\ny\",b\r\n1", false, 12, -1},                      // blanks before the quote; CRLF
		{"a,b\r", false, -1, -1},                                   // a CR at the end: a LF may follow
		{"a,b\r1,2\r", false, 4, -1},                               // lone CRs
		{"a,\"open\n1,2\n", false, -1, -1},                         // a quote never closed: no end yet
		{"a,b\n" + strings.Repeat("x", 20) + "\n1\n", false, 4, 4}, // a record over the bound
		{strings.Repeat("x", 20), false, -1, 0},                    // unfinished and over it
	} {
		end, long := recordEnd([]byte(tc.in), ',', tc.first, 16)
		if end != tc.end || long != tc.long {
			t.Errorf("%q: end %d, long %d; want %d, %d", tc.in, end, long, tc.end, tc.long)
		}
	}
}

// TestErrorsNameTheFileLine: a file read in many chunks is refused with
// data.Parse's message and code for the whole file, its line numbers the
// file's: a ragged line, a text cell in a numeric column, a non-finite
// number, a quote never closed.
func TestErrorsNameTheFileLine(t *testing.T) {
	withChunks(t, 2048)
	var b bytes.Buffer
	gen(&b, 3000, 3, 2, 5)
	lines := strings.SplitAfter(b.String(), "\n")
	dir := t.TempDir()
	for _, tc := range []struct {
		name, line string // line 2500's replacement
	}{
		{"ragged", "1.5,2.5,1\n"},
		{"text in a number column", "1.5,abc,2.5,1\n"},
		{"non-finite", "1.5,1e999,2.5,1\n"},
		{"unclosed quote", "1.5,\"2.5,2.5,1\n"},
	} {
		l := append([]string(nil), lines...)
		l[2499] = tc.line
		text := []byte(strings.Join(l, ""))
		_, want := data.Parse(text, data.Options{})
		name := filepath.Join(dir, "d.csv")
		os.WriteFile(name, text, 0o644)
		_, err := fitFile(t, nil, name, "-dim", "32", "-depth", "1")
		if want == nil || err == nil || err.Error() != name+": "+want.Error() || check.CodeOf(err) != check.CodeOf(want) {
			t.Errorf("%s:\n fit   %v (%s)\n Parse %v (%s)", tc.name, err, check.CodeOf(err), want, check.CodeOf(want))
		}
	}
}
