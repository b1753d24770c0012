package krr

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// reluMap is a test featurizer: φ(x) = √(2/m)·ReLU(Wᵀx), W Gaussian d×m,
// whose expected Gram is the order-1 arc-cosine kernel.
type reluMap struct {
	w *mat.Dense
}

func newReluMap(d, m int, seed uint64) *reluMap {
	r := rand.New(rand.NewPCG(seed, 7))
	w := mat.NewDense(d, m, nil)
	for i := 0; i < d; i++ {
		for j := 0; j < m; j++ {
			w.Set(i, j, r.NormFloat64())
		}
	}
	return &reluMap{w: w}
}

func (f *reluMap) Dim() int      { _, m := f.w.Dims(); return m }
func (f *reluMap) InputDim() int { d, _ := f.w.Dims(); return d }

func (f *reluMap) Transform(dst, X *mat.Dense) (*mat.Dense, error) {
	n, d := X.Dims()
	if d != f.InputDim() {
		return nil, fmt.Errorf("reluMap: X has %d columns, want %d", d, f.InputDim())
	}
	if dst == nil {
		dst = mat.NewDense(n, f.Dim(), nil)
	}
	dst.Mul(X, f.w)
	s := math.Sqrt(2 / float64(f.Dim()))
	dst.Apply(func(_, _ int, v float64) float64 { return s * math.Max(v, 0) }, dst)
	return dst, nil
}

// identity is the featurizer φ(x) = x, whose Gram is the linear kernel
// (core's NTK or NNGP at depth 0).
type identity struct{ d int }

func (f identity) Dim() int      { return f.d }
func (f identity) InputDim() int { return f.d }
func (f identity) Transform(dst, X *mat.Dense) (*mat.Dense, error) {
	if dst == nil {
		return mat.DenseCopyOf(X), nil
	}
	dst.Copy(X)
	return dst, nil
}

// randData returns n×d Gaussian inputs and targets: a smooth function plus
// noise (regression) or the argmax of k random linear scores
// (classification, k > 0).
func randData(n, d, k int, seed uint64) (*mat.Dense, []float64) {
	r := rand.New(rand.NewPCG(seed, 11))
	X := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			X.Set(i, j, r.NormFloat64())
		}
	}
	y := make([]float64, n)
	if k == 0 {
		for i := range y {
			x := X.RawRowView(i)
			y[i] = 3 + math.Sin(x[0]) + 0.5*x[1%d]*x[1%d] + 0.1*r.NormFloat64()
		}
		return X, y
	}
	w := make([]float64, d*k)
	for i := range w {
		w[i] = r.NormFloat64()
	}
	for i := range y {
		x := X.RawRowView(i)
		best, bc := math.Inf(-1), 0
		for c := 0; c < k; c++ {
			s := 0.0
			for j, v := range x {
				s += v * w[j*k+c]
			}
			if s > best {
				best, bc = s, c
			}
		}
		y[i] = float64(bc)
	}
	return X, y
}

// relDiff is max|a−b| / max|b| over two matrices of the same shape.
func relDiff(a, b *mat.Dense) float64 {
	var num, den float64
	r, c := b.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			num = math.Max(num, math.Abs(a.At(i, j)-b.At(i, j)))
			den = math.Max(den, math.Abs(b.At(i, j)))
		}
	}
	return num / den
}

func rowsOf(X *mat.Dense, idx []int) *mat.Dense {
	_, d := X.Dims()
	out := mat.NewDense(len(idx), d, nil)
	for i, r := range idx {
		out.SetRow(i, X.RawRowView(r))
	}
	return out
}

func pick(y []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for i, r := range idx {
		out[i] = y[r]
	}
	return out
}

// sharedData is the project's data folder, beside the repository.
const sharedData = "../../../shared/data/"

// loadCSV reads a numeric CSV with a header and a column named target; it
// is just enough for the data sets used here (core/data is the real
// loader).
func loadCSV(t testing.TB, name string) (*mat.Dense, []float64) {
	t.Helper()
	f, err := os.Open(sharedData + name)
	if err != nil {
		t.Fatalf("the shared data sets must sit beside the repository: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	sc.Scan()
	header := strings.Split(sc.Text(), ",")
	ti := -1
	for i, h := range header {
		if strings.Trim(h, `"`) == "target" {
			ti = i
		}
	}
	if ti < 0 {
		t.Fatalf("%s has no target column", name)
	}
	var data, y []float64
	for sc.Scan() {
		for i, s := range strings.Split(sc.Text(), ",") {
			v, err := strconv.ParseFloat(strings.Trim(s, `"`), 64)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if i == ti {
				y = append(y, v)
			} else {
				data = append(data, v)
			}
		}
	}
	return mat.NewDense(len(y), len(header)-1, data), y
}
