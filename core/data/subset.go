package data

import (
	"math"
	"slices"

	"ntkrf/internal/check"
)

// Subset returns the rows idx of the data set (in that order) as a data set
// with the same schema (task, classes, columns, groups, …), so that a model
// fitted on a part of the rows keeps the input schema and reads CSV files
// like one fitted on all of them. DroppedRows is 0 (no row of the part was
// dropped) and MissingCells counts the missing cells of the part's rows:
// one per input column NaN in a row (a one-hot group once; a kept row
// always has its target). The package's split(dataset) and
// kfold(dataset) make their parts by the same rule. An index outside
// 0…rows−1, or none, is an error.
func (d *Dataset) Subset(idx []int) (*Dataset, error) {
	n, p := d.X.Dims()
	if len(idx) == 0 {
		return nil, check.New(check.Shape, "rows", "data: a subset needs at least one row")
	}
	for i, r := range idx {
		if r < 0 || r >= n {
			return nil, check.New(check.Value, "rows", "data: rows[%d] = %d is not a row index of the data set (0…%d)", i, r, n-1)
		}
	}
	part := *d
	part.X = Rows(d.X, idx)
	part.Y = Take(d.Y, idx)
	part.Classes = slices.Clone(d.Classes)
	part.FeatureNames = slices.Clone(d.FeatureNames)
	part.Groups = slices.Clone(d.Groups)
	part.Columns = slices.Clone(d.Columns)
	part.DroppedRows = 0
	part.MissingCells = 0
	starts := make([]int, 0, len(d.Groups))
	for _, g := range d.Groups {
		starts = append(starts, g.Start)
	}
	if len(starts) == 0 {
		for j := range p {
			starts = append(starts, j)
		}
	}
	for i := range idx {
		row := part.X.RawRowView(i)
		for _, j := range starts {
			if math.IsNaN(row[j]) {
				part.MissingCells++
			}
		}
	}
	return &part, nil
}

// SplitRows splits the data set as Split splits its row count (the same
// rows for the same seed), into two data sets that keep its schema
// (Subset).
func (d *Dataset) SplitRows(testFraction float64, seed uint64) (train, test *Dataset, err error) {
	n, _ := d.X.Dims()
	tr, te, err := Split(n, testFraction, seed)
	if err != nil {
		return nil, nil, err
	}
	if train, err = d.Subset(tr); err != nil {
		return nil, nil, err
	}
	test, err = d.Subset(te)
	return train, test, err
}
