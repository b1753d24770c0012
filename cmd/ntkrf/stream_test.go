package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/metrics"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
)

// wholePredict is what predict printed before it streamed: the whole file
// read, PredictCSV, one line per row.
func wholePredict(t *testing.T, p *pipeline.Pipeline, text []byte) string {
	t.Helper()
	pred, err := p.PredictCSV(text, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	if p.Task() == krr.Classification {
		names, _ = p.ClassNames(pred)
	}
	var b strings.Builder
	for i, v := range pred {
		if names != nil {
			name := names[i]
			if strings.ContainsAny(name, "\r\n") {
				name = lineBreaks.Replace(name)
			}
			b.WriteString(data.CSVField(name))
		} else {
			b.WriteString(strconv.FormatFloat(v, 'g', 17, 64))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// lineBreaks is the escape of a class name's line breaks, as predict
// wrote it before it streamed.
var lineBreaks = strings.NewReplacer(`\`, `\\`, "\r", `\r`, "\n", `\n`)

// TestPredictStreamsTheSameBytes: predict prints, chunk by chunk, the
// bytes it printed reading each file whole, whatever the chunk size, plain
// or gzip, one file or several (their lines in order); score gives
// core/metrics' figures on the rows read whole.
func TestPredictStreamsTheSameBytes(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		file string
		opt  data.Options
	}{{"iris.csv", data.Options{}}, {"BostonHousing.csv", data.Options{Task: krr.Regression}}, {"Glass.csv", data.Options{}}} {
		text, err := os.ReadFile(filepath.Join("../../testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		ds, err := data.Parse(text, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pipeline.FitDataset(context.Background(), ds, pipeline.Config{Features: rf.Config{Dim: 128, Depth: 1, Seed: 2}, Ridge: krr.Options{Lambda: 0.1}})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(p)
		model := filepath.Join(dir, tc.file+".json")
		os.WriteFile(model, b, 0o644)
		plain := filepath.Join(dir, tc.file)
		os.WriteFile(plain, text, 0o644)
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(text)
		zw.Close()
		gz := plain + ".gz"
		os.WriteFile(gz, z.Bytes(), 0o644)
		want := wholePredict(t, p, text)

		for _, chunk := range []int{0, 97, 1000} {
			t.Run(fmt.Sprintf("%s/%d", tc.file, chunk), func(t *testing.T) {
				if chunk > 0 {
					withChunks(t, chunk)
				}
				for _, args := range [][]string{{model, plain}, {model, gz}, {model, plain, gz}} {
					var out bytes.Buffer
					if err := predictTo(&out, nil, args); err != nil {
						t.Fatal(err)
					}
					if w := strings.Repeat(want, len(args)-1); out.String() != w {
						t.Fatalf("%q: %d bytes, want the %d of the whole-file predict", args, out.Len(), len(w))
					}
				}
				var out bytes.Buffer
				if err := scoreCmd(context.Background(), &out, nil, io.Discard, []string{model, plain}); err != nil {
					t.Fatal(err)
				}
				pred, _ := p.Predict(ds.X)
				var line string
				if ds.Task == krr.Classification {
					acc, _ := metrics.Accuracy(ds.Y, pred)
					line = fmt.Sprintf("accuracy %.6g (%d of %d rows)", acc, int(acc*float64(len(pred))+0.5), len(pred))
				} else {
					r2, _ := metrics.R2(ds.Y, pred)
					mse, _ := metrics.MSE(ds.Y, pred)
					line = fmt.Sprintf("R² %.6g, MSE %.6g (%d rows)", r2, mse, len(pred))
				}
				if got := strings.TrimSpace(out.String()); got != line {
					t.Fatalf("score %q, want %q", got, line)
				}
			})
		}
	}
}
