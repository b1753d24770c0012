package rf

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// dataDir holds the project's shared real datasets (../shared/data beside
// the repository).
var dataDir = filepath.Join("..", "..", "..", "shared", "data")

// loadRows reads the named CSV from dataDir (header row, last column the
// target, which is dropped), standardizes every column over all rows, scales
// each row to unit norm and returns the listed rows.
func loadRows(t testing.TB, name string, rows []int) *mat.Dense {
	t.Helper()
	fh, err := os.Open(filepath.Join(dataDir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	recs = recs[1:]
	d := len(recs[0]) - 1
	all := make([][]float64, len(recs))
	for i, rec := range recs {
		all[i] = make([]float64, d)
		for j := range d {
			if all[i][j], err = strconv.ParseFloat(rec[j], 64); err != nil {
				t.Fatal(err)
			}
		}
	}
	for j := range d {
		var s, ss float64
		for _, r := range all {
			s += r[j]
		}
		mean := s / float64(len(all))
		for _, r := range all {
			ss += (r[j] - mean) * (r[j] - mean)
		}
		sd := math.Sqrt(ss / float64(len(all)))
		for _, r := range all {
			if sd > 0 {
				r[j] = (r[j] - mean) / sd
			}
		}
	}
	X := mat.NewDense(len(rows), d, nil)
	for i, k := range rows {
		row := append([]float64(nil), all[k]...)
		normalize(row)
		X.SetRow(i, row)
	}
	return X
}

// meanSE returns the sample mean and its standard error.
func meanSE(v []float64) (mean, se float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(v)-1) / float64(len(v)))
}

// pairEstimates returns, for each pair of rows of X, the feature inner
// products ⟨φ(xᵢ), φ(xⱼ)⟩ of the maps drawn with seeds firstSeed …
// firstSeed+seeds−1, one estimate per seed.
func pairEstimates(t *testing.T, cfg Config, X *mat.Dense, pairs [][2]int, firstSeed, seeds int) [][]float64 {
	t.Helper()
	_, d := X.Dims()
	est := make([][]float64, len(pairs))
	for s := range seeds {
		cfg.Seed = uint64(firstSeed + s)
		f, err := New(cfg, d)
		if err != nil {
			t.Fatal(err)
		}
		F, err := f.Transform(nil, X)
		if err != nil {
			t.Fatal(err)
		}
		for k, p := range pairs {
			est[k] = append(est[k], mat.Dot(F.RowView(p[0]), F.RowView(p[1])))
		}
	}
	return est
}
