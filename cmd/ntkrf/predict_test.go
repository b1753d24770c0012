package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
)

// TestPredictCommand: `ntkrf predict` prints the saved model's prediction
// for every row, class names for a classifier and %.17g values otherwise,
// reading files with or without the target column.
func TestPredictCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		file, task string
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
		if err := predictTo(&out, []string{model, csv}); err != nil {
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
	if err := predictTo(&out, []string{filepath.Join(dir, "iris.csv.json"), filepath.Join("../../testdata", "wine.csv")}); err == nil || !strings.Contains(err.Error(), "no column named") {
		t.Errorf("predicting wine with an iris model: %v", err)
	}
}
