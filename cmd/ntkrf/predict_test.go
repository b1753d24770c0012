package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// TestPredictCommand: `ntkrf predict` prints the saved model's prediction
// for every row, class names for a classifier and %.17g values otherwise,
// reading files with or without the target column.
func TestPredictCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		file string
		task data.Task
	}{{"iris.csv", ""}, {"BostonHousing.csv", "regression"}} {
		text, err := os.ReadFile(filepath.Join("../../testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		ds, err := data.Parse(text, data.Options{Task: tc.task})
		if err != nil {
			t.Fatal(err)
		}
		p, err := pipeline.FitDataset(context.Background(), ds, pipeline.Config{Features: rf.Config{Dim: 256, Seed: 3}})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(p)
		model := filepath.Join(dir, tc.file+".json")
		os.WriteFile(model, b, 0o644)
		csv := filepath.Join(dir, tc.file)
		os.WriteFile(csv, text, 0o644)
		var out bytes.Buffer
		if err := predictTo(&out, nil, []string{model, csv}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		want, _ := p.Predict(ds.X)
		if len(lines) != len(want) {
			t.Fatalf("%s: %d lines for %d rows", tc.file, len(lines), len(want))
		}
		for i, w := range want {
			exp := strconv.FormatFloat(w, 'g', 17, 64)
			if ds.Task == krr.Classification {
				exp = ds.Classes[int(w)]
			}
			if lines[i] != exp {
				t.Fatalf("%s row %d: printed %q, want %q", tc.file, i, lines[i], exp)
			}
		}
	}
	var out bytes.Buffer
	if err := predictTo(&out, nil, []string{filepath.Join(dir, "iris.csv.json"), filepath.Join("../../testdata", "wine.csv")}); err == nil || !strings.Contains(err.Error(), "no column named") {
		t.Errorf("predicting wine with an iris model: %v", err)
	}
}

// fitModelFile fits a small model on text and writes it to dir.
func fitModelFile(t *testing.T, dir, text string) string {
	t.Helper()
	ds, err := data.Parse([]byte(text), data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := pipeline.FitDataset(context.Background(), ds, pipeline.Config{Features: rf.Config{Dim: 16, Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(p)
	name := filepath.Join(dir, "model.json")
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// zeros is an endless input, as /dev/zero or a runaway pipe is.
type zeros struct{}

func (zeros) Read(b []byte) (int, error) { clear(b); return len(b), nil }

// TestPredictBoundsEveryRead: the model file is read up to -max-bytes,
// and so is each record of the data (not the data's length): an endless
// standard input is refused with ERR_TOO_LARGE naming the flag, or
// ERR_PARSE once it shows binary bytes, as soon as one read shows it,
// and a device, FIFO or directory is refused before it is opened.
func TestPredictBoundsEveryRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	model := fitModelFile(t, dir, "a,b,y\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n")
	csv := filepath.Join(dir, "data.csv")
	os.WriteFile(csv, []byte("a,b\n1,2\n"), 0o644)
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, bytes.Repeat([]byte(" "), 5000), 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(dir, "long.csv")
	os.WriteFile(long, []byte("a,b\n1,"+strings.Repeat("2", 9000)+"\n"), 0o644)
	for _, tc := range []struct {
		name  string
		args  []string
		stdin io.Reader
		code  check.Code
		says  string
	}{
		{"a model file over the limit", []string{"-max-bytes", "4096", big, csv}, nil, check.TooLarge, "-max-bytes"},
		{"a record over the limit", []string{"-max-bytes", "8192", model, long}, nil, check.TooLarge, "-max-bytes"},
		{"data from an endless stdin of text", []string{"-max-bytes", "4096", model, "-"}, endless('1'), check.TooLarge, "-max-bytes"},
		{"data from an endless stdin of zeros", []string{model, "-"}, zeros{}, check.Parse, "not look like text"},
		{"model from an endless stdin", []string{"-max-bytes", "4096", "-", csv}, zeros{}, check.TooLarge, "-max-bytes"},
		{"data from /dev/zero", []string{model, "/dev/zero"}, nil, check.Option, "is a device"},
		{"model from /dev/zero", []string{"/dev/zero", csv}, nil, check.Option, "is a device"},
		{"data from a FIFO", []string{model, fifo}, nil, check.Option, "FIFO"},
		{"data from a directory", []string{model, dir}, nil, check.Option, "directory"},
	} {
		var out bytes.Buffer
		start := time.Now()
		err := predictTo(&out, tc.stdin, tc.args)
		if check.CodeOf(err) != tc.code || !strings.Contains(err.Error(), tc.says) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v (code %q), want %s saying %q on one line", tc.name, err, check.CodeOf(err), tc.code, tc.says)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("%s: refused after %v", tc.name, el)
		}
	}
	var out bytes.Buffer
	if err := predictTo(&out, strings.NewReader("a,b\n1,2\n3,4\n"), []string{model, "-"}); err != nil || strings.Count(out.String(), "\n") != 2 {
		t.Errorf("data from stdin: %q, %v", out.String(), err)
	}
	if err := predictTo(&out, nil, []string{"-max-bytes", "-1", model, csv}); check.CodeOf(err) != check.Option {
		t.Errorf("-max-bytes -1: %v", err)
	}
}

// endless is an endless input of one byte, a line without end.
type endless byte

func (e endless) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = byte(e)
	}
	return len(b), nil
}

// TestPredictWritesOneLinePerRow: class names are CSV fields with their
// formulas neutralised, as the page's exports write them (data.CSVField),
// and a line break inside a name is escaped: one line per row.
func TestPredictWritesOneLinePerRow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var train strings.Builder
	train.WriteString("a,b,y\n")
	for i := range 40 {
		label := []string{`"yes` + "\n" + `really"`, `"=1+2"`, `"@x,""q"""`}[i%3]
		fmt.Fprintf(&train, "%d,%d,%s\n", i%3, (i%3)*2, label)
	}
	model := fitModelFile(t, dir, train.String())
	csv := filepath.Join(dir, "data.csv")
	os.WriteFile(csv, []byte(train.String()), 0o644)
	var out bytes.Buffer
	if err := predictTo(&out, nil, []string{model, csv}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 40 {
		t.Fatalf("%d lines for 40 rows:\n%s", len(lines), out.String())
	}
	allowed := map[string]bool{`yes\nreally`: true, `"'=1+2"`: true, `"'@x,""q"""`: true}
	for i, l := range lines {
		if !allowed[l] {
			t.Errorf("line %d: %q is not a neutralised one-line field", i, l)
		}
	}
}

// TestPredictCodesAsParse: a data file refused for one cause gives the
// CLI the code data.Parse gives it (jsbridge's TestSameCauseSameCode ties
// Parse to the other readers), and the CLI prints the code.
func TestPredictCodesAsParse(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	model := fitModelFile(t, dir, "a,b,y\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n")
	for i, in := range [][]byte{
		make([]byte, 4096),
		append([]byte{0xff, 0xfe}, []byte("a\x00,\x00b\x00\n\x00")...),
		[]byte("a,b,y\n1,\"2,x\n3,4,y\n"),
		{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 1, 2, 3},
		[]byte("a,b,y\n1e999,2,x\n"),
	} {
		name := filepath.Join(dir, fmt.Sprintf("bad%d.csv", i))
		os.WriteFile(name, in, 0o644)
		_, want := data.Parse(in, data.Options{})
		var out bytes.Buffer
		err := predictTo(&out, nil, []string{model, name})
		if check.CodeOf(err) != check.Parse || check.CodeOf(want) != check.Parse {
			t.Errorf("file %d: CLI %v (%q), Parse %v (%q); want ERR_PARSE both", i, err, check.CodeOf(err), want, check.CodeOf(want))
		}
	}
}

// predictTo runs predict as the command does, without signals or a
// terminal.
func predictTo(out io.Writer, stdin io.Reader, args []string) error {
	return predictCmd(context.Background(), out, stdin, io.Discard, args)
}
