package data

// A parsed data set: its columns, groups and target, and the rules that
// settle them (the task, the classes, the one-hot features).

import (
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/names"
	"ntkrf/internal/check"
)

// MaxClasses bounds the number of classes of a classification target, here
// and in every model (krr.MaxClasses is this value): a model holds one
// column of coefficients per class.
const MaxClasses = 10000

// MaxCategories bounds the distinct values of a categorical feature. A
// column with more than 50 distinct values that also has more than half as
// many values as rows is refused too: it is an identifier or free text,
// and one-hot encoding it would add a column per row and nothing to learn.
const MaxCategories = 1000

// Task is what a target is, and what a model of it predicts (Dataset.Task,
// Schema.Task, Options.Task, krr.Options.Task); its JSON form is its name.
type Task string

// The tasks, in the order of Tasks.
const (
	Classification Task = names.Classification // class labels
	Regression     Task = names.Regression     // values
)

// Tasks returns the tasks in a new slice.
func Tasks() []Task { return []Task{Classification, Regression} }

// Column kinds.
const (
	Numeric     = "numeric"
	Categorical = "categorical"
)

// Column describes one input column, the target included.
type Column struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // Numeric or Categorical
	// Categories of a categorical column in byte order, as they occur in
	// the rows kept; a categorical feature's one-hot columns follow it.
	Categories []string `json:"categories"`
	Missing    int      `json:"missing"` // missing cells among all data rows
}

// Group is the block of X columns made from one input column: one column
// for a numeric feature, one per category for a categorical one. A Scaler
// imputes a categorical group as a whole.
type Group struct {
	Column      int  `json:"column"` // index in Dataset.Columns
	Start       int  `json:"start"`  // first X column
	Width       int  `json:"width"`  // number of X columns
	Categorical bool `json:"categorical"`
}

// Dataset is a parsed data set ready for learning.
type Dataset struct {
	// X is the n×p design matrix, one row per kept data row, numeric
	// features as they are and categorical ones one-hot. Missing values
	// are NaN (across the whole one-hot group); with Missing "drop" there
	// are none.
	X *mat.Dense
	// Y holds class indices 0…len(Classes)−1 for classification and the
	// values for regression.
	Y            []float64
	Task         Task     // Classification or Regression
	Classes      []string // class labels, sorted (numerically for a numeric target)
	FeatureNames []string // p names; one-hot columns are "color=red"
	Groups       []Group  // X column blocks, in order, covering all p columns
	Columns      []Column // input columns in file order, the target included
	Target       int      // index of the target in Columns
	Excluded     []string // input columns left out (Options.Exclude), in file order; not in Columns
	TargetName   string
	Delimiter    rune
	Header       bool // whether the first line was read as column names
	DroppedRows  int  // data rows dropped for a missing target or (Missing "drop") feature
	MissingCells int  // missing cells in all data rows, target included
}

// keptRows lists the data rows to keep: those with a target and, when
// dropping, no missing feature.
func keptRows(cols []column, target int, names []string, drop bool) ([]int, error) {
	n := cols[target].n
	keep := make([]int, 0, n)
rows:
	for i := range n {
		if cols[target].isMissing(i) {
			continue
		}
		if drop {
			for j := range cols {
				if cols[j].isMissing(i) {
					continue rows
				}
			}
		}
		keep = append(keep, i)
	}
	if len(keep) > 0 {
		return keep, nil
	}
	if cols[target].missing == n {
		return nil, dataErr("the target column %s has no values; choose another target", check.Quote(names[target]))
	}
	worst := 0
	for j := range cols {
		if j != target && cols[j].missing > cols[worst].missing {
			worst = j
		}
	}
	return nil, dataErr("every row has a missing value (column %s alone misses %d of %d); use Options.Missing \"impute\" instead of \"drop\"",
		check.Quote(names[worst]), cols[worst].missing, n)
}

// isInteger reports whether v is an integer small enough to be a label.
func isInteger(v float64) bool {
	return v == math.Trunc(v) && math.Abs(v) < 1<<53
}

// setTarget fills Y, Task and Classes from the target column.
func (d *Dataset) setTarget(c *column, keep []int, task Task) error {
	name := d.TargetName
	d.Y = make([]float64, len(keep))
	if !c.numeric {
		if task == Regression {
			return dataErr("the target column %s is not numeric (it holds values such as %s), so it cannot be a regression target; use task %q or another target",
				check.Quote(name), check.Quote(c.levels[0]), Classification)
		}
		d.Task = Classification
		d.Classes, d.Y = relevel(c, keep)
		d.Columns[d.Target].Kind = Categorical
		d.Columns[d.Target].Categories = d.Classes
		if len(d.Classes) > MaxClasses {
			return dataErr("the target column %s has %d distinct values, more than the %d classes allowed; choose another target", check.Quote(name), len(d.Classes), MaxClasses)
		}
		return nil
	}
	for r, i := range keep {
		d.Y[r] = c.vals[i]
	}
	distinct := slices.Clone(d.Y)
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	if task == "" {
		task = Regression
		if len(distinct) <= 20 && (2*len(distinct) <= len(keep) || len(distinct) <= 2) && !slices.ContainsFunc(distinct, func(v float64) bool { return !isInteger(v) }) {
			task = Classification
		}
	}
	d.Task = task
	if task == Regression {
		return nil
	}
	if len(distinct) > MaxClasses {
		return dataErr("the target column %s has %d distinct values, more than the %d classes allowed; use task %q", check.Quote(name), len(distinct), MaxClasses, Regression)
	}
	d.Classes = make([]string, len(distinct))
	for k, v := range distinct {
		d.Classes[k] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	for r, v := range d.Y {
		k, _ := slices.BinarySearch(distinct, v)
		d.Y[r] = float64(k)
	}
	return nil
}

// relevel returns the sorted levels of a categorical column present in
// the kept rows, and each kept row's index into them (NaN when missing).
func relevel(c *column, keep []int) ([]string, []float64) {
	used := make([]bool, len(c.levels))
	for _, i := range keep {
		if c.codes[i] >= 0 {
			used[c.codes[i]] = true
		}
	}
	var levels []string
	for k, u := range used {
		if u {
			levels = append(levels, c.levels[k])
		}
	}
	slices.Sort(levels)
	remap := make([]int, len(c.levels))
	for k, s := range c.levels {
		remap[k], _ = slices.BinarySearch(levels, s)
	}
	idx := make([]float64, len(keep))
	for r, i := range keep {
		if c.codes[i] < 0 {
			idx[r] = math.NaN()
		} else {
			idx[r] = float64(remap[c.codes[i]])
		}
	}
	return levels, idx
}

// setFeatures builds X, FeatureNames and Groups from every column but the
// target.
func (d *Dataset) setFeatures(cols []column, keep []int) error {
	n := len(keep)
	idx := make([][]float64, len(cols))
	p := 0
	for j := range cols {
		if j == d.Target {
			continue
		}
		c := &cols[j]
		g := Group{Column: j, Start: p, Width: 1}
		if !c.numeric {
			levels, codes := relevel(c, keep)
			name := d.Columns[j].Name
			if k := len(levels); k > MaxCategories || k > 50 && 2*k > n {
				return dataErr("column %d (%s) has %d distinct text values in %d rows: an identifier or free text, which one-hot encoding cannot use; remove the column or choose it as the target",
					j+1, check.Quote(name), k, n)
			}
			d.Columns[j].Kind = Categorical
			d.Columns[j].Categories = levels
			idx[j] = codes
			g.Width, g.Categorical = len(levels), true
		}
		d.Groups = append(d.Groups, g)
		p += g.Width
	}
	if p == 0 {
		return dataErr("no feature column has a value in the rows kept; the file needs at least one feature besides the target")
	}
	if float64(n)*float64(p)*8 > check.MaxAllocBytes {
		return check.New(check.TooLarge, "", "data: the %d×%d design matrix needs %s, over the %s limit; use fewer rows or columns",
			n, p, check.FormatBytes(float64(n)*float64(p)*8), check.FormatBytes(check.MaxAllocBytes))
	}
	d.X = mat.NewDense(n, p, nil)
	d.FeatureNames = make([]string, 0, p)
	raw := d.X.RawMatrix()
	for _, g := range d.Groups {
		name := d.Columns[g.Column].Name
		if !g.Categorical {
			d.FeatureNames = append(d.FeatureNames, name)
			vals := cols[g.Column].vals
			for r, i := range keep {
				raw.Data[r*raw.Stride+g.Start] = vals[i]
			}
			continue
		}
		for _, level := range d.Columns[g.Column].Categories {
			d.FeatureNames = append(d.FeatureNames, name+"="+level)
		}
		for r, k := range idx[g.Column] {
			row := raw.Data[r*raw.Stride+g.Start : r*raw.Stride+g.Start+g.Width]
			if math.IsNaN(k) {
				for c := range row {
					row[c] = math.NaN()
				}
			} else {
				row[int(k)] = 1
			}
		}
	}
	return nil
}
