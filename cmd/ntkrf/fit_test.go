package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"ntkrf/core/data"
	"ntkrf/core/pipeline"
	"ntkrf/internal/fitflags"
)

// fitDataset is the in-memory fit of text with the fit flags args: Parse
// and pipeline.FitDataset, the model's bytes.
func fitDataset(t *testing.T, text []byte, args []string) []byte {
	t.Helper()
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	ff := fitflags.Register(fs)
	fs.Int("buffer", 0, "fit's own: how the rows are read, not what is fitted")
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	opt, err := ff.Fit()
	if err != nil {
		t.Fatal(err)
	}
	ds, err := data.Parse(text, opt.Data)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pipeline.FitDataset(context.Background(), ds, opt.Config())
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fitFile runs `ntkrf fit` and returns the model file's bytes.
func fitFile(t *testing.T, stdin io.Reader, args ...string) ([]byte, error) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "model.json")
	err := fitCmd(context.Background(), stdin, io.Discard, append(args, "-o", out))
	if err != nil {
		if _, serr := os.Stat(out); serr == nil {
			t.Errorf("a failed fit left %s", out)
		}
		return nil, err
	}
	return os.ReadFile(out)
}

// withChunks sets the chunk size for one test.
func withChunks(t *testing.T, n int) {
	old := chunkBytes
	chunkBytes = n
	t.Cleanup(func() { chunkBytes = old })
}

// TestFitIsFitDataset: `ntkrf fit` of a file writes the model bytes
// pipeline.FitDataset gives the same rows parsed whole, for classification
// and regression, with 'auto' and with fixed settings, read in one chunk
// or in many (the census of every chunk merged, every chunk parsed with
// the header in front), plain or gzip, from a file or standard input.
func TestFitIsFitDataset(t *testing.T) {
	gen3000 := func() []byte {
		var b bytes.Buffer
		gen(&b, 3000, 5, 3, 7)
		return b.Bytes()
	}()
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("../../testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	fixed := []string{"-depth", "2", "-lambda", "0.01", "-dim", "128", "-seed", "3", "-preprocess", `{"standardize":true,"bias":1}`}
	for _, tc := range []struct {
		name  string
		text  []byte
		args  []string
		chunk int
		how   string // "", "gzip" or "stdin"
	}{
		{"iris auto", read("iris.csv"), []string{"-dim", "256"}, 0, ""},
		{"iris fixed, 300-byte chunks", read("iris.csv"), fixed, 300, ""},
		{"iris fixed, gzip from stdin", read("iris.csv"), fixed, 0, "stdin"},
		{"boston regression auto, 1 kB chunks", read("BostonHousing.csv"), []string{"-dim", "64"}, 1000, "gzip"},
		{"boston regression fixed", read("BostonHousing.csv"), fixed, 0, ""},
		{"glass quoted classes, fixed, 700-byte chunks", read("Glass.csv"), append([]string{"-task", "classification"}, fixed...), 700, ""},
		{"wine auto, primal (dim < rows)", read("wine.csv"), []string{"-dim", "64", "-method", "nngp"}, 2000, ""},
		{"3,000 rows, primal held-out λ, 4 kB chunks", gen3000, []string{"-dim", "128", "-depth", "1"}, 4096, "gzip"},
		// Statistics and sums buffer by buffer: the core's sums follow the
		// rows, not the buffers (rowtree).
		{"3,000 rows, 20 kB buffers, 'auto'", gen3000, []string{"-dim", "128", "-buffer", "20000"}, 4096, ""},
		{"3,000 rows, 40 kB buffers, fixed", gen3000, []string{"-dim", "128", "-depth", "1", "-buffer", "40000"}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.chunk > 0 {
				withChunks(t, tc.chunk)
			}
			want := fitDataset(t, tc.text, tc.args)
			in := tc.text
			if tc.how != "" {
				var b bytes.Buffer
				zw := gzip.NewWriter(&b)
				zw.Write(tc.text)
				zw.Close()
				in = b.Bytes()
			}
			var got []byte
			var err error
			if tc.how == "stdin" {
				got, err = fitFile(t, bytes.NewReader(in), append(tc.args, "-")...)
			} else {
				name := filepath.Join(t.TempDir(), "data.csv")
				os.WriteFile(name, in, 0o644)
				got, err = fitFile(t, nil, append([]string{name}, tc.args...)...)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("model differs from FitDataset's:\n%.600s\nwant\n%.600s", got, want)
			}
		})
	}
}
