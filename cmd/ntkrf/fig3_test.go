package main

import (
	"compress/gzip"
	"encoding/binary"
	"encoding/csv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/rf"
)

// clusters returns n unit rows in d = 8 dimensions, class c (0…classes−1)
// around the basis vector e_c with noise of scale 0.1; counts[c] rows of
// class c, in class order.
func clusters(counts []int, seed uint64) (*mat.Dense, []float64) {
	const d = 8
	r := rand.New(rand.NewPCG(seed, 1))
	var raw, y []float64
	for c, n := range counts {
		for range n {
			row := make([]float64, d)
			var ss float64
			for j := range row {
				row[j] = 0.1 * r.NormFloat64()
				if j == c {
					row[j]++
				}
				ss += row[j] * row[j]
			}
			for j := range row {
				row[j] /= math.Sqrt(ss)
			}
			raw = append(raw, row...)
			y = append(y, float64(c))
		}
	}
	return mat.NewDense(len(y), d, raw), y
}

func TestFig3Designs(t *testing.T) {
	t.Parallel()
	X, _ := clusters([]int{20, 20, 20}, 1)
	const k = 12
	cfg := rf.Config{Method: "ntk", Depth: 2, Dim: 64, Seed: 7}
	a, err := fig3Designs(X, k, cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := fig3Designs(X, k, cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Seed = 8
	c, err := fig3Designs(X, k, cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"greedy", "random"} {
		d := a[name]
		s := slices.Sorted(slices.Values(d))
		if len(d) != k || len(slices.Compact(s)) != k || s[0] < 0 || s[k-1] >= 60 {
			t.Errorf("%s design %v: want %d distinct rows of 0…59", name, d, k)
		}
		if !slices.Equal(d, b[name]) {
			t.Errorf("%s design differs between two runs with seed 7: %v, %v", name, d, b[name])
		}
	}
	// 12 of 60 drawn twice: the chance of the same sequence is 1/(60!/48!).
	if slices.Equal(a["random"], c["random"]) {
		t.Errorf("random design is the same for seeds 7 and 8: %v", a["random"])
	}
	// The random design is the core's draw of rows (one stream, one rule),
	// in the order drawn, so that every size's design is nested in the next.
	for seed, d := range map[uint64][]int{7: a["random"], 8: c["random"]} {
		want, err := data.Draw(60, k, seed)
		if err != nil || !slices.Equal(d, want) {
			t.Errorf("seed %d: random design %v; want the core's data.Draw %v", seed, d, want)
		}
	}
}

// TestFig3CurveHeldOut checks that the curve scores the held-out rows: on
// two classes, flipping every test label turns accuracy a into exactly
// 1 − a, which could not happen if the training rows (or their labels) were
// scored; and well-separated clusters are learned from a few labelled rows.
func TestFig3CurveHeldOut(t *testing.T) {
	t.Parallel()
	Xp, yp := clusters([]int{30, 30}, 2)
	Xte, yte := clusters([]int{25, 25}, 3)
	design := rand.New(rand.NewPCG(4, 4)).Perm(60)[:20]
	sizes := []int{4, 10, 20}
	acc, err := fig3Curve(Xp, yp, Xte, yte, design, sizes, 2)
	if err != nil {
		t.Fatal(err)
	}
	flipped := make([]float64, len(yte))
	for i, v := range yte {
		flipped[i] = 1 - v
	}
	accF, err := fig3Curve(Xp, yp, Xte, flipped, design, sizes, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Accuracies are multiples of 1/50; the sum is exact up to rounding.
	const tol = 1e-12
	for j, k := range sizes {
		if math.Abs(acc[j]+accF[j]-1) > tol {
			t.Errorf("size %d: accuracy %v, with flipped test labels %v; want them to sum to 1", k, acc[j], accF[j])
		}
	}
	if acc[len(acc)-1] < 0.95 {
		t.Errorf("accuracy %v on 20 labelled rows of two separated clusters, want ≥ 0.95", acc[len(acc)-1])
	}
}

// TestFig3GreedyFindsRareClasses: a pool of 3 classes with 90, 5 and 5 rows
// and a balanced test set. Six random picks are likely to miss a rare
// class (all six land in the big class with probability (0.9)⁶ ≈ 0.53),
// while the greedy criterion, which rewards explaining the pool's kernel
// mass not yet covered, reaches the rare clusters after the big one. So
// at size 6 the greedy design must score higher than the random ones.
func TestFig3GreedyFindsRareClasses(t *testing.T) {
	t.Parallel()
	Xp, yp := clusters([]int{90, 5, 5}, 5)
	Xte, yte := clusters([]int{20, 20, 20}, 6)
	sizes := []int{6}
	var greedy, random float64
	const seeds = 4
	for s := range uint64(seeds) {
		d, err := fig3Designs(Xp, 6, rf.Config{Method: "ntk", Depth: 1, Dim: 256, Seed: 10 + s}, 0)
		if err != nil {
			t.Fatal(err)
		}
		g, err := fig3Curve(Xp, yp, Xte, yte, d["greedy"], sizes, 1)
		if err != nil {
			t.Fatal(err)
		}
		r, err := fig3Curve(Xp, yp, Xte, yte, d["random"], sizes, 1)
		if err != nil {
			t.Fatal(err)
		}
		greedy += g[0] / seeds
		random += r[0] / seeds
	}
	if !(greedy > random+0.1) {
		t.Errorf("mean accuracy at size 6: greedy %v, random %v; want greedy ahead by more than 0.1", greedy, random)
	}
}

// writeIDX writes a gzipped IDX file: the magic, the dimensions, then one
// byte per value.
func writeIDX(t *testing.T, path string, magic uint32, dims []uint32, vals []byte) {
	t.Helper()
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(fh)
	binary.Write(zw, binary.BigEndian, append([]uint32{magic}, dims...))
	zw.Write(vals)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestReproFig3Small runs the command on tiny IDX files written in the
// Fashion-MNIST layout (4×4 images of 3 classes: a bright pixel per class
// plus noise) and checks the CSV: one row per size, accuracies in [0, 1],
// and a standard deviation over the 2 seeds.
func TestReproFig3Small(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(9, 9))
	for _, f := range []struct {
		name string
		n    int
	}{{"train", 90}, {"t10k", 30}} {
		imgs, labels := make([]byte, f.n*16), make([]byte, f.n)
		for i := range labels {
			labels[i] = byte(i % 3)
			for j := range 16 {
				imgs[i*16+j] = byte(r.IntN(40))
			}
			imgs[i*16+5*int(labels[i])] = 255
		}
		writeIDX(t, filepath.Join(dir, f.name+"-images-idx3-ubyte.gz"), 0x803, []uint32{uint32(f.n), 4, 4}, imgs)
		writeIDX(t, filepath.Join(dir, f.name+"-labels-idx1-ubyte.gz"), 0x801, []uint32{uint32(f.n)}, labels)
	}
	out := t.TempDir()
	args := []string{"fig3", "-fashion", dir, "-pool", "90", "-test", "30", "-m", "64", "-depth", "1", "-sizes", "3,6,12", "-seeds", "2", "-out", out}
	if err := runRepro(args); err != nil {
		t.Fatal(err)
	}
	fh, err := os.Open(filepath.Join(out, "fig3.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+3 {
		t.Fatalf("fig3.csv has %d records, want a header and 3 rows", len(recs))
	}
	for i, r := range recs[1:] {
		if r[0] != []string{"3", "6", "12"}[i] {
			t.Errorf("row %d: size %s, want %s", i, r[0], []string{"3", "6", "12"}[i])
		}
		for _, c := range []int{1, 2, 3, 4} {
			v, err := strconv.ParseFloat(r[c], 64)
			if err != nil || v < 0 || v > 1 {
				t.Errorf("row %v: column %s = %q, want a number in [0, 1]", r, recs[0][c], r[c])
			}
		}
	}
}

func TestReproFig3Errors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"fig3", "-fashion", t.TempDir()}, "dataset-fashion-mnist"},
		{[]string{"fig3", "-sizes", "50,20"}, "ascending"},
		{[]string{"fig3", "-sizes", "1,20"}, "ascending"},
		{[]string{"fig3", "-pool", "100", "-sizes", "10,200"}, "ascending"},
		{[]string{"fig3", "-seeds", "0"}, "-seeds"},
	}
	for _, tc := range tests {
		if err := runRepro(tc.args); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("runRepro(%q) = %v, want an error containing %q", tc.args, err, tc.want)
		}
	}
}
