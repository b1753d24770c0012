package main

import (
	"compress/gzip"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/kernel"
	"ntkrf/core/rf"
)

// fashionImages is where Debian's dataset-fashion-mnist package puts the
// training images.
const fashionImages = "/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz"

// authorsError holds the relative Frobenius errors the authors' code gives
// on the same task (REFERENCE.md: Fashion-MNIST, n = 2000 unit rows,
// m = 5120, mean over m_cs/m ∈ {0.3, 0.5, 0.7}, one seed).
var authorsError = map[int]float64{1: 0.053, 2: 0.068, 4: 0.124}

// runQuality measures how well NTK random features approximate the exact
// NTK on Fashion-MNIST: for each depth, the relative Frobenius error
// ‖ΦΦᵀ − K‖_F / ‖K‖_F averaged over the sketch shares m_cs/m, printed next
// to the authors' figure.
func runQuality(args []string) error {
	fs := flag.NewFlagSet("quality", flag.ContinueOnError)
	path := fs.String("data", fashionImages, "gzipped IDX image file")
	n := fs.Int("n", 2000, "number of rows (the first n images)")
	m := fs.Int("m", 5120, "feature dimension")
	depths := fs.String("depths", "1,2,4", "comma-separated network depths")
	ratios := fs.String("ratios", "0.3,0.5,0.7", "comma-separated sketch shares m_cs/m")
	sampler := fs.String("sampler", "exact", "ReLU direction sampler: exact, gibbs, orthogonal, gaussian or hadamard")
	sketch := fs.String("sketch", "tensorsketch", "tensorsketch or tensorsrht")
	seed := fs.Uint64("seed", 1, "random seed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	Ls, err := parseList(*depths, strconv.Atoi)
	if err != nil {
		return fmt.Errorf("quality: -depths: %w", err)
	}
	rs, err := parseList(*ratios, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) })
	if err != nil {
		return fmt.Errorf("quality: -ratios: %w", err)
	}
	X, err := readIDXImages(*path, *n)
	if err != nil {
		return err
	}
	for i := range *n {
		row := X.RawRowView(i)
		if s := math.Sqrt(mat.Dot(X.RowView(i), X.RowView(i))); s > 0 {
			for j := range row {
				row[j] /= s
			}
		}
	}
	_, d := X.Dims()
	fmt.Printf("Fashion-MNIST: n=%d unit rows, d=%d, m=%d, sampler=%s, sketch=%s, seed=%d\n", *n, d, *m, *sampler, *sketch, *seed)
	fmt.Printf("%-6s %-28s %-10s %-8s %s\n", "depth", "error per m_cs/m", "mean", "authors", "time")
	for _, L := range Ls {
		start := time.Now()
		K, err := kernel.NTK(X, L)
		if err != nil {
			return err
		}
		kNorm := mat.Norm(K, 2)
		var errs []string
		var mean float64
		for _, r := range rs {
			mcs := int(math.Round(r * float64(*m)))
			cfg := rf.Config{Method: "ntk", Depth: L, M1: *m - mcs, M0: *m - mcs, SketchDim: mcs,
				Sampler: *sampler, Sketch: *sketch, Seed: *seed}
			f, err := rf.New(cfg, d)
			if err != nil {
				return err
			}
			F, err := f.Transform(nil, X)
			if err != nil {
				return err
			}
			var G mat.Dense
			G.Mul(F, F.T())
			G.Sub(&G, K)
			e := mat.Norm(&G, 2) / kNorm
			mean += e / float64(len(rs))
			errs = append(errs, fmt.Sprintf("%.4f", e))
		}
		ref := "-"
		if a, ok := authorsError[L]; ok && *m == 5120 && *n == 2000 {
			ref = fmt.Sprintf("%.3f", a)
		}
		fmt.Printf("%-6d %-28s %-10.4f %-8s %.1fs\n", L, strings.Join(errs, " "), mean, ref, time.Since(start).Seconds())
	}
	return nil
}

func parseList[T any](s string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, f := range strings.Split(s, ",") {
		v, err := parse(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// readIDXImages reads the first n images of a gzipped IDX3 file (magic
// 0x00000803, big-endian counts, one unsigned byte per pixel) as rows of
// pixel/255.
func readIDXImages(path string, n int) (*mat.Dense, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("quality: %w (install the Debian package dataset-fashion-mnist or pass -data)", err)
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		return nil, fmt.Errorf("quality: %s: %w", path, err)
	}
	var hdr [4]uint32
	if err := binary.Read(zr, binary.BigEndian, &hdr); err != nil {
		return nil, fmt.Errorf("quality: %s: reading the header: %w", path, err)
	}
	if hdr[0] != 0x803 {
		return nil, fmt.Errorf("quality: %s is not an IDX image file (magic %#x, want 0x803)", path, hdr[0])
	}
	count, d := int(hdr[1]), int(hdr[2]*hdr[3])
	if n <= 0 || n > count {
		return nil, fmt.Errorf("quality: -n %d is out of range; the file has %d images", n, count)
	}
	buf := make([]byte, n*d)
	if _, err := io.ReadFull(zr, buf); err != nil {
		return nil, fmt.Errorf("quality: %s: %w", path, err)
	}
	X := mat.NewDense(n, d, nil)
	raw := X.RawMatrix().Data
	for i, b := range buf {
		raw[i] = float64(b) / 255
	}
	return X, nil
}
