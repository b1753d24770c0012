package data

import (
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
)

// holes has 4 missing feature cells in 6 rows: size in rows 1 and 3,
// color (a one-hot group of 3 columns) in rows 2 and 3.
const holes = "size,color,kind\n1,red,a\n,green,b\n2,,a\n,,b\n3,red,a\n4,blue,b\n"

// sameMatrix compares two matrices bit for bit (NaN equal to NaN).
func sameMatrix(a, b *mat.Dense) bool {
	ra, rb := a.RawMatrix(), b.RawMatrix()
	return ra.Rows == rb.Rows && ra.Cols == rb.Cols && sameBits(ra.Data, rb.Data)
}

func TestSubset(t *testing.T) {
	ds, err := Parse([]byte(holes), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.MissingCells != 4 {
		t.Fatalf("the fixture has %d missing cells, want 4", ds.MissingCells)
	}
	tests := []struct {
		rows    []int
		missing int
	}{
		{[]int{0, 1, 2, 3, 4, 5}, 4},
		{[]int{1, 3}, 3}, // size in row 1; size and color in row 3
		{[]int{3, 0, 3}, 4},
		{[]int{4, 5}, 0},
	}
	for _, tc := range tests {
		part, err := ds.Subset(tc.rows)
		if err != nil {
			t.Fatal(err)
		}
		if !sameMatrix(part.X, Rows(ds.X, tc.rows)) || !slices.Equal(part.Y, Take(ds.Y, tc.rows)) {
			t.Errorf("rows %v: X or Y are not the rows taken", tc.rows)
		}
		if part.MissingCells != tc.missing || part.DroppedRows != 0 {
			t.Errorf("rows %v: %d missing cells and %d dropped rows, want %d and 0", tc.rows, part.MissingCells, part.DroppedRows, tc.missing)
		}
		if part.Task != ds.Task || part.Target != ds.Target || part.TargetName != ds.TargetName || !slices.Equal(part.Classes, ds.Classes) ||
			!slices.Equal(part.Groups, ds.Groups) || !slices.Equal(part.FeatureNames, ds.FeatureNames) || len(part.Columns) != len(ds.Columns) {
			t.Errorf("rows %v: the schema changed: %+v", tc.rows, part)
		}
	}
	for _, bad := range [][]int{nil, {0, 6}, {-1}} {
		if _, err := ds.Subset(bad); err == nil || (check.CodeOf(err) != check.Value && check.CodeOf(err) != check.Shape) {
			t.Errorf("Subset(%v): %v, want a coded error", bad, err)
		}
	}
}

func TestSplitRows(t *testing.T) {
	ds, err := Parse([]byte(holes), Options{})
	if err != nil {
		t.Fatal(err)
	}
	train, test, err := ds.SplitRows(0.5, 3)
	if err != nil {
		t.Fatal(err)
	}
	tr, te, _ := Split(6, 0.5, 3)
	if !sameMatrix(train.X, Rows(ds.X, tr)) || !sameMatrix(test.X, Rows(ds.X, te)) {
		t.Errorf("SplitRows does not take Split's rows %v / %v", tr, te)
	}
	if train.MissingCells+test.MissingCells != ds.MissingCells {
		t.Errorf("missing cells %d + %d, want %d in all", train.MissingCells, test.MissingCells, ds.MissingCells)
	}
	if _, _, err := ds.SplitRows(1.5, 3); check.CodeOf(err) == "" {
		t.Errorf("SplitRows(1.5): %v, want a coded error", err)
	}
}
