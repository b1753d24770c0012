// The shared data sets (../shared/data) and their documented targets,
// read and subsampled the same way by every experiment.

package main

import (
	"fmt"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
)

// baseline is a row of ../shared/data/README.md: the exact-NTK KRR column
// (accuracy for classification, 1 − R² for regression).
type baseline struct {
	file, target string
	exactNTK     float64
}

var baselines = []baseline{
	{"iris.csv", "target", 0.954},
	{"wine.csv", "target", 0.972},
	{"breast_cancer.csv", "target", 0.975},
	{"digits.csv", "target", 0.987},
	{"Sonar.csv", "Class", 0.870},
	{"Ionosphere.csv", "Class", 0.929},
	{"Glass.csv", "Type", 0.692},
	{"Vehicle.csv", "Class", 0.806},
	{"PimaIndiansDiabetes.csv", "diabetes", 0.773},
	{"diabetes.csv", "target", 0.527},
	{"BostonHousing.csv", "medv", 0.176},
}

// largeTargets names the targets of the shared files without a baseline.
var largeTargets = map[string]string{
	"Satellite.csv":         "classes",
	"LetterRecognition.csv": "lettr",
	"Shuttle.csv":           "Class",
	"diamonds.csv":          "price",
}

// loadShared parses one of the shared CSV files with its documented target.
func loadShared(dir, file string) (*data.Dataset, error) {
	target := largeTargets[file]
	for _, b := range baselines {
		if b.file == file {
			target = b.target
		}
	}
	if target == "" {
		return nil, fmt.Errorf("repro: %s is not one of the shared data sets with a known target", file)
	}
	raw, err := readBounded(filepath.Join(dir, file), nil, data.DefaultMaxBytes, "")
	if err != nil {
		return nil, fmt.Errorf("repro: %w (pass -data with the directory of the shared CSV files)", err)
	}
	ds, err := data.Parse(raw, data.Options{Target: target})
	if err != nil {
		return nil, fmt.Errorf("repro: %s: %v", file, err)
	}
	return ds, nil
}

// subset returns k rows of X, and the same entries of y when y is not
// nil, as the core samples rows (data.Sample: one stream and one rule for
// every host and tool), in file order; X and y themselves, not copied,
// when k is 0 (every row) or at least X's rows.
func subset(X *mat.Dense, y []float64, k int, seed uint64) (*mat.Dense, []float64, error) {
	n, _ := X.Dims()
	if k == 0 || k >= n {
		return X, y, nil
	}
	idx, err := data.Sample(n, k, seed)
	if err != nil {
		return nil, nil, err
	}
	if y != nil {
		y = data.Take(y, idx)
	}
	return data.Rows(X, idx), y, nil
}
