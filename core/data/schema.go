package data

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
)

// Schema is what a model needs to read new rows the way its training file
// was read: the input columns (the target among them), how they became the
// columns of X, and the target's classes. Dataset.Schema returns it; a
// saved model carries it. JSON names are those of a parsed Dataset in the
// JavaScript API, so a Dataset object there is a Schema too.
type Schema struct {
	Columns    []Column `json:"columns"` // input columns in file order, the target included
	Target     int      `json:"target"`  // index of the target in Columns
	TargetName string   `json:"targetName"`
	Groups     []Group  `json:"groups"` // X column blocks, one per feature column, in order
	Task       Task     `json:"task"`
	Classes    []string `json:"classes"` // class labels (classification)
	Delimiter  string   `json:"delimiter"`
	Header     bool     `json:"header"`
	// Excluded are input columns the model leaves out (Options.Exclude),
	// not in Columns: a new file may hold them; they are never read.
	Excluded []string `json:"excluded,omitempty"`
}

// Schema returns the schema of d.
func (d *Dataset) Schema() Schema {
	return Schema{Columns: d.Columns, Target: d.Target, TargetName: d.TargetName, Groups: d.Groups,
		Task: d.Task, Classes: d.Classes, Delimiter: string(d.Delimiter), Header: d.Header, Excluded: d.Excluded}
}

// Width is the number of X columns the schema makes.
func (s *Schema) Width() int {
	w := 0
	for _, g := range s.Groups {
		w += g.Width
	}
	return w
}

// Check reports the first inconsistency of s (a schema read from a file):
// groups that do not follow the columns, a target out of range, a
// categorical column without categories, classes that do not fit the task.
func (s *Schema) Check() error {
	bad := func(format string, a ...any) error {
		return check.New(check.Value, "input", "data: input schema: "+format, a...)
	}
	if len(s.Columns) < 2 {
		return bad("%d columns; a data set has at least a feature and a target", len(s.Columns))
	}
	if s.Target < 0 || s.Target >= len(s.Columns) {
		return bad("target %d is not a column index in 0…%d", s.Target, len(s.Columns)-1)
	}
	if s.TargetName != s.Columns[s.Target].Name {
		return bad("targetName %s is not the name of column %d (%s)", check.Quote(s.TargetName), s.Target, check.Quote(s.Columns[s.Target].Name))
	}
	if d := []rune(s.Delimiter); len(d) != 1 || d[0] > 0x7e || d[0] == '"' || d[0] == '\n' || d[0] == '\r' {
		return bad("delimiter %s is not one ASCII character", check.Quote(s.Delimiter))
	}
	seen := make(map[string]bool, len(s.Columns))
	for j, c := range s.Columns {
		if c.Name == "" || seen[c.Name] {
			return bad("column %d has an empty or repeated name %s", j, check.Quote(c.Name))
		}
		seen[c.Name] = true
		if c.Missing < 0 {
			return bad("column %s has %d missing cells; a count is ≥ 0", check.Quote(c.Name), c.Missing)
		}
		switch c.Kind {
		case Numeric:
			if len(c.Categories) > 0 {
				return bad("numeric column %s has categories", check.Quote(c.Name))
			}
		case Categorical:
			if len(c.Categories) == 0 || len(c.Categories) > MaxCategories || !strictlySorted(c.Categories) {
				return bad("categorical column %s needs 1…%d distinct categories in byte order", check.Quote(c.Name), MaxCategories)
			}
		default:
			return bad("column %s has kind %s; use %q or %q", check.Quote(c.Name), check.Quote(c.Kind), Numeric, Categorical)
		}
	}
	for _, name := range s.Excluded {
		if name == "" || seen[name] {
			return bad("excluded column %s is empty, repeated or also read", check.Quote(name))
		}
		seen[name] = true
	}
	j, p := 0, 0
	for i, g := range s.Groups {
		if j == s.Target {
			j++
		}
		if j >= len(s.Columns) || g.Column != j || g.Start != p || g.Categorical != (s.Columns[j].Kind == Categorical) {
			return bad("group %d does not follow the feature columns", i)
		}
		want := 1
		if g.Categorical {
			want = len(s.Columns[j].Categories)
		}
		if g.Width != want {
			return bad("group %d is %d columns wide but column %s makes %d", i, g.Width, check.Quote(s.Columns[j].Name), want)
		}
		j, p = j+1, p+g.Width
	}
	if j == s.Target {
		j++
	}
	if j != len(s.Columns) {
		return bad("%d groups for %d feature columns", len(s.Groups), len(s.Columns)-1)
	}
	switch s.Task {
	case Classification:
		if len(s.Classes) < 1 || len(s.Classes) > MaxClasses {
			return bad("classification needs 1…%d classes, got %d", MaxClasses, len(s.Classes))
		}
		if err := ClassNames(s.Classes); err != nil {
			return bad("%s", strings.TrimPrefix(err.Error(), "data: "))
		}
	case Regression:
		if len(s.Classes) > 0 {
			return bad("regression has no classes")
		}
	default:
		return bad("task %s; use %q or %q", check.Quote(s.Task), Classification, Regression)
	}
	return nil
}

// Read parses delimited text (plain or gzip) into rows of X laid out as the
// schema says: columns are matched by name when the schema has a header
// (the file must then have one), by position otherwise. The target column
// may be present or absent; it is never read. A missing cell is NaN, as in
// Parse, for a Scaler to impute; so is a category the model never saw
// (its one-hot block is NaN, imputed with the training's most frequent
// category). Every data row is kept.
func (s *Schema) Read(b []byte, maxBytes int) (*mat.Dense, error) {
	X, _, err := s.read(b, maxBytes, false, false)
	return X, err
}

// ReadLabeled reads a file of the schema's columns, the target among them,
// as Parse reads a training file: rows whose target is missing are left
// out (with drop, so are rows missing any cell), and y holds indices of
// the schema's classes (classification) or the values (regression). A
// host that parses shards one at a time reads each in the schema settled
// from all of them (Census.Settle), so that every shard's rows get the
// same columns and classes; a class or category the schema lacks is then
// an error, not a missing value.
func (s *Schema) ReadLabeled(b []byte, maxBytes int, drop bool) (*mat.Dense, []float64, error) {
	return s.read(b, maxBytes, true, drop)
}

func (s *Schema) read(b []byte, maxBytes int, labeled, drop bool) (*mat.Dense, []float64, error) {
	if err := s.Check(); err != nil {
		return nil, nil, err
	}
	o, err := Options{MaxBytes: maxBytes}.resolve()
	if err != nil {
		return nil, nil, err
	}
	text, err := fullText(b, o)
	if err != nil {
		return nil, nil, err
	}
	t, err := tokenize(text, s.Delimiter[0], 0, false)
	if err != nil {
		return nil, nil, err
	}
	if t.rows() == 0 {
		return nil, nil, parseErr("the input is empty; it needs data rows")
	}
	at, first, err := s.locate(t, labeled)
	if err != nil {
		return nil, nil, err
	}
	n := t.rows() - first
	if n == 0 {
		return nil, nil, parseErr("the input has a header line but no data rows")
	}
	names := make([]string, t.width)
	for j, c := range s.Columns {
		if at[j] >= 0 {
			names[at[j]] = c.Name
		}
	}
	rows, y, err := s.labels(t, first, at, names, labeled, drop)
	if err != nil {
		return nil, nil, err
	}
	p := s.Width()
	if len(rows) == 0 {
		return &mat.Dense{}, nil, nil // a shard whose targets are all missing
	}
	if err := check.Alloc("design matrix", len(rows), p); err != nil {
		return nil, nil, err
	}
	X := mat.NewDense(len(rows), p, nil)
	raw := X.RawMatrix()
	for _, g := range s.Groups {
		c, k := s.Columns[g.Column], at[g.Column]
		for r, i := range rows {
			cell := t.cell(first+i, k)
			row := raw.Data[r*raw.Stride+g.Start : r*raw.Stride+g.Start+g.Width]
			v, kind := parseCell(cell)
			if kind == cellMissing {
				for r := range row {
					row[r] = math.NaN()
				}
				continue
			}
			if !g.Categorical {
				if kind != cellNumber {
					what := "a decimal number"
					if kind == cellNonFinite {
						what = "a finite number"
					}
					return nil, nil, parseErr("%s: %s is not %s; the model reads this column as numbers (leave the cell empty to mark it missing)",
						where(t, first+i, k, names), check.Quote(cell), what)
				}
				row[0] = v
				continue
			}
			if r, ok := slices.BinarySearch(c.Categories, cell); ok {
				row[r] = 1
			} else if labeled {
				return nil, nil, parseErr("%s: %s is not a category of the data set; survey every shard before settling its schema", where(t, first+i, k, names), check.Quote(cell))
			} else {
				for r := range row {
					row[r] = math.NaN()
				}
			}
		}
	}
	return X, y, nil
}

// locate returns the file column of each schema column (−1: the target,
// absent, when not labeled) and the first data record.
func (s *Schema) locate(t *table, labeled bool) (at []int, first int, err error) {
	at = make([]int, len(s.Columns))
	// With excluded columns a file without a header is matched by the
	// names it gets ("column 1"…), so those columns are skipped by name.
	if s.Header || len(s.Excluded) > 0 {
		idx := make(map[string]int, t.width)
		names, _ := columnNames(t, s.Header)
		for k, name := range names {
			idx[name] = k
		}
		var lost []string
		for j, c := range s.Columns {
			k, ok := idx[c.Name]
			switch {
			case ok:
				at[j] = k
			case j == s.Target && !labeled:
				at[j] = -1
			default:
				lost = append(lost, c.Name)
			}
		}
		if len(lost) > 0 {
			if !s.Header {
				return nil, 0, parseErr("lines have %s, but the model reads the columns %s by their place in the training file, excluded ones included; give the columns in the training file's order", fields(t.width), listNames(lost))
			}
			return nil, 0, parseErr("the file has no column named %s, which the model reads; its first line must name the columns as the training file did", listNames(lost))
		}
		if !s.Header {
			return at, 0, nil
		}
		return at, 1, nil
	}
	switch {
	case t.width == len(s.Columns):
		for j := range at {
			at[j] = j
		}
	case t.width == len(s.Columns)-1 && !labeled:
		k := 0
		for j := range at {
			if j == s.Target {
				at[j] = -1
				continue
			}
			at[j], k = k, k+1
		}
	default:
		return nil, 0, parseErr("lines have %s, but the model reads %d columns (%d with the target); give the columns in the training file's order",
			fields(t.width), len(s.Columns)-1, len(s.Columns))
	}
	return at, 0, nil
}

// labels returns the data records to read (all of them unless labeled)
// and, when labeled, their targets as Parse makes them.
func (s *Schema) labels(t *table, first int, at []int, names []string, labeled, drop bool) ([]int, []float64, error) {
	n := t.rows() - first
	if !labeled {
		rows := make([]int, n)
		for i := range rows {
			rows[i] = i
		}
		return rows, nil, nil
	}
	class := make(map[string]int, len(s.Classes))
	for k, c := range s.Classes {
		class[c] = k
	}
	numeric := s.Columns[s.Target].Kind == Numeric
	var rows []int
	var y []float64
rows:
	for i := range n {
		cell := t.cell(first+i, at[s.Target])
		v, kind := parseCell(cell)
		if kind == cellMissing {
			continue
		}
		if drop {
			for j := range s.Columns {
				if _, k := parseCell(t.cell(first+i, at[j])); k == cellMissing {
					continue rows
				}
			}
		}
		if numeric && kind != cellNumber {
			return nil, nil, parseErr("%s: %s is not a finite number, but the target column holds numbers", where(t, first+i, at[s.Target], names), check.Quote(cell))
		}
		if s.Task == Classification {
			name := cell
			if numeric {
				name = strconv.FormatFloat(v, 'g', -1, 64)
			}
			k, ok := class[name]
			if !ok {
				return nil, nil, parseErr("%s: %s is not a class of the data set; survey every shard before settling its schema", where(t, first+i, at[s.Target], names), check.Quote(cell))
			}
			v = float64(k)
		}
		rows = append(rows, i)
		y = append(y, v)
	}
	return rows, y, nil
}

// strictlySorted reports whether s is in increasing byte order without
// repeats.
func strictlySorted(s []string) bool {
	for i := 1; i < len(s); i++ {
		if s[i-1] >= s[i] {
			return false
		}
	}
	return true
}

// TextLabels returns the classes of text labels (an array of names a host
// was given in place of class indices) and each label's class index, by
// the rule of a CSV file's text class column: the distinct labels sorted in
// increasing byte order, each label the index of its name. An empty label
// is refused (a class name is never empty), as are more than MaxClasses
// distinct labels.
func TextLabels(labels []string) (classes []string, y []float64, err error) {
	c := column{n: len(labels), codes: make([]int32, len(labels))}
	index := make(map[string]int32)
	for i, s := range labels {
		if s == "" {
			return nil, nil, check.New(check.Value, "", "data: label %d is empty; a class name is never empty", i)
		}
		k, ok := index[s]
		if !ok {
			k = int32(len(c.levels))
			index[s] = k
			c.levels = append(c.levels, s)
			if len(c.levels) > MaxClasses {
				return nil, nil, dataErr("the labels have more than the %d classes allowed", MaxClasses)
			}
		}
		c.codes[i] = k
	}
	keep := make([]int, len(labels))
	for i := range keep {
		keep[i] = i
	}
	classes, y = relevel(&c, keep)
	return classes, y, nil
}

// ClassNames reports the first class name that is empty or repeated: a
// prediction names its class, so two classes cannot share a name.
func ClassNames(names []string) error {
	seen := make(map[string]bool, len(names))
	for i, c := range names {
		if c == "" || seen[c] {
			return check.New(check.Value, "", "data: class %d is %s, empty or a repeat; class names are distinct and not empty", i, check.Quote(c))
		}
		seen[c] = true
	}
	return nil
}
