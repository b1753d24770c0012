package main

import (
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"
)

// fashionDir is where Debian's dataset-fashion-mnist puts the IDX files.
const fashionDir = "/usr/share/datasets/fashion-mnist/"

// readFashion reads the first n training and nTest test rows of
// Fashion-MNIST from dir, pixels as they are (0…255).
func readFashion(dir string, n, nTest int) (X *mat.Dense, y []float64, Xt *mat.Dense, yt []float64, err error) {
	// One clear message for a missing package, instead of the first
	// reader's error.
	for _, f := range []string{"train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return nil, nil, nil, nil, fmt.Errorf("Fashion-MNIST not found (%v): install the Debian package dataset-fashion-mnist", err)
		}
	}
	read := func(images, labels string, n int) (*mat.Dense, []float64, error) {
		X, err := readIDXImages(filepath.Join(dir, images), n)
		if err != nil {
			return nil, nil, err
		}
		y, err := readIDXLabels(filepath.Join(dir, labels), n)
		return X, y, err
	}
	if X, y, err = read("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", n); err != nil {
		return
	}
	Xt, yt, err = read("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz", nTest)
	return
}
