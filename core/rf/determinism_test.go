package rf

import (
	"fmt"
	"hash/fnv"
	"math"
	"ntkrf/core/kernel"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// checksum is FNV-64a over the IEEE bits of the entries, row by row.
func checksum(F *mat.Dense) uint64 {
	h := fnv.New64a()
	r, c := F.Dims()
	var b [8]byte
	for i := range r {
		for j := range c {
			u := math.Float64bits(F.At(i, j))
			for k := range b {
				b[k] = byte(u >> (8 * k))
			}
			h.Write(b[:])
		}
	}
	return h.Sum64()
}

// goldenConfigs cover every method, sketch and sampler, a non-power-of-two
// TensorSketch (Bluestein FFT) and Normalize.
var goldenConfigs = []struct {
	cfg  Config
	want uint64
}{
	// Precision "float64", the reference: the checksums pinned before
	// float32 became the default (grad and the hadamard sampler, which
	// have no float32 form, still default to it).
	// The paper's form, pinned since before the split form became the
	// default (the same checksums as then, now with the sketch named).
	{Config{Method: "ntk", Depth: 2, Dim: 64, Sketch: "tensorsketch", Precision: "float64"}, 0xba6b4680d1aeee77},
	{Config{Method: "ntk", Depth: 2, Dim: 64, Sketch: "tensorsrht", Precision: "float64"}, 0x7e9d29b93e147634},
	{Config{Method: "ntk", Depth: 1, M1: 20, SketchDim: 24, M0: 10, Precision: "float64"}, 0xfb6b200010fd2a1e},
	{Config{Method: "ntk", Depth: 2, Dim: 64, Sketch: "tensorsketch", Sampler: "gibbs", GibbsSweeps: 2, Precision: "float64"}, 0x91518379718382f0},
	{Config{Method: "ntk", Depth: 2, Dim: 64, Sketch: "tensorsketch", Sampler: "orthogonal", Precision: "float64"}, 0xa16e0988e2b69019},
	{Config{Method: "ntk", Depth: 3, Dim: 64, Sketch: "tensorsketch", Sampler: "gaussian", Normalize: true, Precision: "float64"}, 0x21ee1953c6912629},
	{Config{Method: "ntk", Depth: 2, Dim: 64, Sketch: "tensorsketch", Sampler: "hadamard"}, 0x36fe599011556435},
	// The split form (the default where it fits), with every sampler, a
	// Bluestein-length sketch (Dim 100) and an explicit M0.
	{Config{Method: "ntk", Depth: 2, Dim: 64, Precision: "float64"}, 0xb7ff0a04c4afd0d6},
	{Config{Method: "ntk", Depth: 1, Dim: 100, M0: 10, Precision: "float64"}, 0x27ba3961421b15f7},
	{Config{Method: "ntk", Depth: 3, Dim: 128, Sampler: "orthogonal", Normalize: true, Precision: "float64"}, 0x2c865efae0e37eda},
	{Config{Method: "ntk", Depth: 2, Dim: 64, Sampler: "gibbs", GibbsSweeps: 2, Precision: "float64"}, 0x8945209cf38e6c20},
	{Config{Method: "ntk", Depth: 2, Dim: 64, Sampler: "gaussian", Precision: "float64"}, 0x30a4bccb8969fbda},
	{Config{Method: "ntk", Depth: 2, Dim: 64, Sampler: "hadamard"}, 0x31be9e69cb0e0457},
	{Config{Method: "nngp", Depth: 2, Dim: 32, Precision: "float64"}, 0x158e23dfabc6e422},
	{Config{Method: "arccos0", Dim: 32, Precision: "float64"}, 0xd21a7d06f50bb405},
	{Config{Method: "arccos1", Dim: 32, Sampler: "gibbs", Precision: "float64"}, 0x4f0c689ea0db2751},
	{Config{Method: "naive", Depth: 2, Dim: 400, Precision: "float64"}, 0xa4699db0007a7f4f},
	{Config{Method: "grad", Depth: 2, Dim: 400}, 0x363a56b64894fb76},
	{Config{Method: "rff", Dim: 32, Gamma: 0.3, Precision: "float64"}, 0x3315599435963b46},
	// Precision "float32" (linalg.Mul32) for every method and form that
	// has it: widths past a 64-column AVX-512 strip and odd tails.
	{Config{Method: "ntk", Depth: 2, Dim: 200, Precision: "float32"}, 0x3cc68b57b42bab30},
	{Config{Method: "ntk", Depth: 1, Dim: 100, M0: 10, Precision: "float32"}, 0xada3c984e8c29021},
	{Config{Method: "ntk", Depth: 3, Dim: 128, Sampler: "orthogonal", Normalize: true, Precision: "float32"}, 0x74e693d314a5743f},
	{Config{Method: "ntk", Depth: 2, Dim: 64, Sampler: "gibbs", GibbsSweeps: 2, Precision: "float32"}, 0x1f1ed5e266a0183c},
	{Config{Method: "ntk", Depth: 2, Dim: 96, Sketch: "tensorsketch", Sampler: "gaussian", Precision: "float32"}, 0x841487e5d2a754d5},
	{Config{Method: "ntk", Depth: 2, Dim: 64, Sketch: "tensorsrht", Precision: "float32"}, 0x36fa539d287e269a},
	{Config{Method: "nngp", Depth: 2, Dim: 32, Precision: "float32"}, 0x523d2060764757cc},
	{Config{Method: "arccos0", Dim: 80, Precision: "float32"}, 0xb4e2a935c4ed7c2d},
	{Config{Method: "arccos1", Dim: 70, Precision: "float32"}, 0x4f5fd55b4c72ff1b},
	{Config{Method: "naive", Depth: 2, Dim: 400, Precision: "float32"}, 0x74a21539ab5b2057},
	{Config{Method: "rff", Dim: 90, Gamma: 0.3, Precision: "float32"}, 0x043274e69e2632e5},
	// The defaults (Precision unset: float32 where there is a float32
	// form), the float32 bits of the float64 entries above.
	{Config{Method: "ntk", Depth: 2, Dim: 64}, 0x7a2e26bb4f97c796},
	{Config{Method: "ntk", Depth: 2, Dim: 64, Sketch: "tensorsketch"}, 0xc21e12ae7f4759fd},
	{Config{Method: "nngp", Depth: 2, Dim: 32}, 0x523d2060764757cc},
	{Config{Method: "rff", Dim: 32, Gamma: 0.3}, 0xad300fee8c26453c},
}

// TestGolden pins the features of every method at a fixed seed to a
// checksum of their bits. The same constants must come out natively and
// under GOOS=js GOARCH=wasm: that is what shows the features are
// bit-identical across platforms (portable exp/log/erfc, own Gaussian
// sampler, deterministic linalg.Mul and FFT). The constants were produced by
// this test natively on amd64 and confirmed in wasm under Node.
func TestGolden(t *testing.T) {
	t.Parallel()
	X := loadRows(t, "wine.csv", []int{0, 1, 60, 61, 130, 131})
	for _, g := range goldenConfigs {
		cfg := g.cfg
		cfg.Seed = 42
		f, err := New(cfg, 13)
		if err != nil {
			t.Fatal(err)
		}
		F, err := f.Transform(nil, X)
		if err != nil {
			t.Fatal(err)
		}
		if got := checksum(F); got != g.want {
			t.Errorf("%+v: checksum %#x, want %#x", g.cfg, got, g.want)
		}
	}
}

// TestBlocking checks that a row's features do not depend on the other
// rows: Transform of row ranges (within one block, across the block
// boundary at blockRows, single rows) equals the matching rows of
// Transform of all rows, bit for bit.
func TestBlocking(t *testing.T) {
	// Not parallel: it sets blockRows, so that 150 rows span three blocks.
	defer func(b int) { blockRows = b }(blockRows)
	blockRows = 64
	rows := make([]int, 150)
	for i := range rows {
		rows[i] = i
	}
	X := loadRows(t, "wine.csv", rows)
	for _, g := range goldenConfigs {
		cfg := g.cfg
		cfg.Seed = 5
		f, err := New(cfg, 13)
		if err != nil {
			t.Fatal(err)
		}
		all, err := f.Transform(nil, X)
		if err != nil {
			t.Fatal(err)
		}
		// Into a dst whose rows are not contiguous (the blocks' output is
		// then copied, not written in place).
		wide := mat.NewDense(150, f.Dim()+3, nil)
		strided := wide.Slice(0, 150, 0, f.Dim()).(*mat.Dense)
		if _, err := f.Transform(strided, X); err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(strided, all) {
			t.Errorf("%+v: features into a strided dst differ from the full Transform", g.cfg)
		}
		for _, r := range [][2]int{{0, 10}, {60, 150}, {100, 101}, {63, 65}} {
			part, err := f.Transform(nil, mat.DenseCopyOf(X.Slice(r[0], r[1], 0, 13)))
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(part, all.Slice(r[0], r[1], 0, f.Dim())) {
				t.Errorf("%+v rows %v: features differ from the full Transform", g.cfg, r)
			}
		}
	}
}

// TestNotFiniteFirstRow checks that Transform names the first row whose
// features overflow, whichever block and worker meets it first: 1e39 is
// finite in float64 and +Inf once rounded for the float32 projection.
func TestNotFiniteFirstRow(t *testing.T) {
	// Not parallel: it sets blockRows, so that 150 rows span three blocks.
	defer func(b int) { blockRows = b }(blockRows)
	blockRows = 64
	rows := make([]int, 150)
	for i := range rows {
		rows[i] = i
	}
	for _, first := range []int{70, 3, 149} {
		X := loadRows(t, "wine.csv", rows)
		for _, i := range []int{first, 130, 140} {
			X.Set(i, 2, 1e39)
		}
		f, err := New(Config{Depth: 2, Dim: 64, Seed: 1, Precision: "float32"}, 13)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.Transform(nil, X)
		if want := fmt.Sprintf("row %d are not finite", min(first, 130)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("rows %d, 130, 140 overflowed: error %v, want one naming %q", first, err, want)
		}
	}
}

// TestSeed checks that equal seeds give equal maps and different seeds
// different ones.
func TestSeed(t *testing.T) {
	t.Parallel()
	X := loadRows(t, "wine.csv", wineRows)
	sum := func(seed uint64) uint64 {
		f, err := New(Config{Depth: 2, Dim: 32, Seed: seed}, 13)
		if err != nil {
			t.Fatal(err)
		}
		F, err := f.Transform(nil, X)
		if err != nil {
			t.Fatal(err)
		}
		return checksum(F)
	}
	if a, b, c := sum(1), sum(1), sum(2); a != b || a == c {
		t.Errorf("checksums for seeds 1, 1, 2: %#x %#x %#x", a, b, c)
	}
}

func ExampleMap_Transform() {
	X := mat.NewDense(2, 3, []float64{1, 0, 0, 0.6, 0.8, 0})
	f, err := New(Config{Method: "ntk", Depth: 1, Dim: 4096, Seed: 1}, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	F, err := f.Transform(nil, X)
	if err != nil {
		fmt.Println(err)
		return
	}
	K, err := kernel.NTK(X, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(F.Dims())
	fmt.Printf("Φ(x)·Φ(y) = %.2f, NTK(x, y) = %.2f\n", mat.Dot(F.RowView(0), F.RowView(1)), K.At(0, 1))
	// Output:
	// 2 4096
	// Φ(x)·Φ(y) = 1.10, NTK(x, y) = 1.10
}
