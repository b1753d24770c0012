package main

import (
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"
)

// fashionImages is where Debian's dataset-fashion-mnist package puts the
// training images.
const fashionImages = fashionDir + "train-images-idx3-ubyte.gz"

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

// readIDXImages reads the first n images of a gzipped IDX3 file (magic
// 0x00000803, big-endian counts, one unsigned byte per pixel) as rows of
// pixel/255.
func readIDXImages(path string, n int) (*mat.Dense, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("idx: %w (install the Debian package dataset-fashion-mnist or pass -data)", err)
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		return nil, fmt.Errorf("idx: %s: %w", path, err)
	}
	var hdr [4]uint32
	if err := binary.Read(zr, binary.BigEndian, &hdr); err != nil {
		return nil, fmt.Errorf("idx: %s: reading the header: %w", path, err)
	}
	if hdr[0] != 0x803 {
		return nil, fmt.Errorf("idx: %s is not an IDX image file (magic %#x, want 0x803)", path, hdr[0])
	}
	count, d := int(hdr[1]), int(hdr[2]*hdr[3])
	if n <= 0 || n > count {
		return nil, fmt.Errorf("idx: -n %d is out of range; the file has %d images", n, count)
	}
	buf := make([]byte, n*d)
	if _, err := io.ReadFull(zr, buf); err != nil {
		return nil, fmt.Errorf("idx: %s: %w", path, err)
	}
	X := mat.NewDense(n, d, nil)
	raw := X.RawMatrix().Data
	for i, b := range buf {
		raw[i] = float64(b) / 255
	}
	return X, nil
}

// readIDXLabels reads the first n labels of a gzipped IDX1 file.
func readIDXLabels(path string, n int) ([]float64, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w (install the Debian package dataset-fashion-mnist)", err)
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		return nil, err
	}
	var hdr [2]uint32
	if err := binary.Read(zr, binary.BigEndian, &hdr); err != nil {
		return nil, err
	}
	if hdr[0] != 0x801 || int(hdr[1]) < n {
		return nil, fmt.Errorf("%s: not an IDX label file with %d labels", path, n)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(zr, buf); err != nil {
		return nil, err
	}
	y := make([]float64, n)
	for i, b := range buf {
		y[i] = float64(b)
	}
	return y, nil
}
