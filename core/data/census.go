package data

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"

	"ntkrf/internal/check"
)

// Census is what the shards of one data set (files that each have their
// own header line) say about its columns, merged in any order: enough to
// settle, before any row is learned from, the schema that Parse would give
// the rows of every shard read as one file. A host that cannot hold the
// data in one place surveys each shard (Survey), merges the censuses and
// settles the schema (Settle); each shard is then read in it
// (Schema.ReadLabeled), so that the classes, the one-hot columns and the
// task are those of the whole data set, not of one shard.
//
// Column kinds follow Parse's rules on the counts of all the shards'
// cells; categories and classes are those of the rows kept.
type Census struct{ c census }

// census is the wire form (JSON: a census is small, its size bounded by
// the columns and MaxCategories).
type census struct {
	Names  []string `json:"names"`
	Delim  string   `json:"delimiter"`
	Header bool     `json:"header"`
	Target int      `json:"target"`
	Task   Task     `json:"task"` // the task asked for ("" detects)
	Drop   bool     `json:"drop"`
	// Excluded are the columns left out (Options.Exclude), not in Names.
	Excluded []string       `json:"excluded,omitempty"`
	Shards   map[string]int `json:"shards"` // rows kept per shard
	Rows     int            `json:"rows"`   // data rows
	Kept     int            `json:"kept"`
	Cols     []censusCol    `json:"cols"`
}

type censusCol struct {
	Numbers int `json:"numbers"`
	Texts   int `json:"texts"`
	Missing int `json:"missing"`
	// Bad is where the first non-finite number is, FirstText the first
	// text cell, for Parse's messages ("" when none).
	Bad       string `json:"bad,omitempty"`
	FirstText string `json:"firstText,omitempty"`
	// Levels are the column's distinct text cells, true when one is in a
	// kept row; Over is set once there are too many to keep, and Levels
	// emptied.
	Levels map[string]bool `json:"levels,omitempty"`
	Over   bool            `json:"over,omitempty"`
	// Values are the distinct numbers of the kept rows (the target only),
	// sorted, at most MaxClasses + 1.
	Values  []float64 `json:"values,omitempty"`
	Integer bool      `json:"integer"` // every kept number is a whole number (the target)
}

// maxLevels bounds a column's levels in a census: past MaxCategories kept
// ones the column cannot be categorical anyway.
const maxLevels = 2 * (MaxCategories + 1)

// Survey reads one shard (its bytes, plain or gzip) named name, which must
// be unique among the shards, and returns its census. opt is Parse's; the
// target, task and missing-value handling must be the same for every
// shard.
func Survey(name string, b []byte, opt Options) (*Census, error) {
	o, err := opt.resolve()
	if err != nil {
		return nil, err
	}
	text, err := fullText(b, o)
	if err != nil {
		return nil, err
	}
	t, err := split(text, o, 0, false)
	if err != nil {
		return nil, err
	}
	header, first := o.heading(t)
	n := t.rows() - first
	names, unnamed := columnNames(t, header)
	cols := make([]column, t.width)
	for j := range cols {
		// readColumn's errors are those of a column read whole; here a
		// shard's cells are only counted, and Settle decides.
		cols[j] = surveyColumn(t, first, j)
	}
	if w := len(cols); w > 2 && unnamed[w-1] && cols[w-1].missing == n {
		cols, names = cols[:w-1], names[:w-1]
	}
	target, err := pickTarget(o.Target, names)
	if o.TargetIndex != nil {
		target, err = pickIndex(*o.TargetIndex, names)
	}
	if err != nil {
		return nil, err
	}
	fileNames := names
	cols, names, target, file, excluded, err := applyExclude(o.Exclude, cols, names, target)
	if err != nil {
		return nil, err
	}
	c := census{Names: names, Delim: string(rune(t.delim)), Header: header, Target: target, Task: o.Task, Drop: o.drop,
		Excluded: excluded, Rows: n, Cols: make([]censusCol, len(cols))}
	kept := make([]bool, n)
	for i := range n {
		kept[i] = !cols[target].isMissing(i)
		for j := range cols {
			if o.drop && cols[j].isMissing(i) {
				kept[i] = false
			}
		}
		if kept[i] {
			c.Kept++
		}
	}
	c.Shards = map[string]int{name: c.Kept}
	for j := range cols {
		k := j // the column's place in the file
		if file != nil {
			k = file[j]
		}
		c.Cols[j] = countColumn(t, first, k, fileNames, kept, j == target)
	}
	return &Census{c}, nil
}

// surveyColumn reads column j's cells as readColumn does for a numeric
// column (NaN when missing), for the kept-row rule.
func surveyColumn(t *table, first, j int) column {
	n := t.rows() - first
	c := column{n: n, numeric: true, vals: make([]float64, n)}
	for i := range n {
		v, k := parseCell(t.cell(first+i, j))
		if k == cellMissing {
			v = math.NaN()
			c.missing++
		}
		c.vals[i] = v
	}
	return c
}

// countColumn counts column j's cells by kind, as readColumn does, and
// gathers its text levels (and the target's kept numbers).
func countColumn(t *table, first, j int, names []string, kept []bool, target bool) censusCol {
	c := censusCol{Levels: map[string]bool{}, Integer: true}
	keptLevels := 0
	var values []float64
	for i := range kept {
		s := t.cell(first+i, j)
		v, k := parseCell(s)
		switch k {
		case cellMissing:
			c.Missing++
			continue
		case cellNumber:
			c.Numbers++
		case cellNonFinite:
			c.Numbers++
			if c.Bad == "" {
				c.Bad = where(t, first+i, j, names) + ": " + check.Quote(s)
			}
		case cellText:
			c.Texts++
			if c.FirstText == "" {
				c.FirstText = where(t, first+i, j, names) + ": " + check.Quote(s)
			}
		}
		if target && kept[i] && k == cellNumber {
			c.Integer = c.Integer && isInteger(v)
			values = append(values, v)
		}
		if c.Over {
			continue
		}
		was, seen := c.Levels[s]
		if !seen && len(c.Levels) >= maxLevels || kept[i] && !was && keptLevels > MaxCategories {
			c.Over, c.Levels = true, map[string]bool{} // too many to be categories: none is needed
			continue
		}
		if kept[i] && !was {
			keptLevels++
		}
		c.Levels[string([]byte(s))] = was || kept[i]
	}
	c.Values = distinct(values)
	return c
}

// distinct sorts v, removes repeats, and keeps at most MaxClasses + 1.
func distinct(v []float64) []float64 {
	slices.Sort(v)
	v = slices.Compact(v)
	return slices.Clip(v[:min(len(v), MaxClasses+1)])
}

// Merge adds the shards of o to c; o is not modified. The shards must have
// the same columns, delimiter, header, target and options, and each shard
// is merged once.
func (c *Census) Merge(o *Census) error {
	a, b := &c.c, &o.c
	if a.Names == nil {
		*a = cloneCensus(b)
		return nil
	}
	if b.Names == nil {
		return nil
	}
	if !slices.Equal(a.Names, b.Names) || a.Delim != b.Delim || a.Header != b.Header || a.Target != b.Target || a.Task != b.Task || a.Drop != b.Drop || !slices.Equal(a.Excluded, b.Excluded) {
		return check.New(check.Parse, "", "data: the shards differ: one has the columns %s (delimiter %s, header %v), another %s (delimiter %s, header %v); every shard needs the same header line and delimiter",
			listNames(a.Names), check.Quote(a.Delim), a.Header, listNames(b.Names), check.Quote(b.Delim), b.Header)
	}
	for name := range b.Shards {
		if _, ok := a.Shards[name]; ok {
			return check.New(check.Value, "", "data: shard %s was surveyed twice; merge each shard's census once", check.Quote(name))
		}
	}
	maps.Copy(a.Shards, b.Shards)
	a.Rows += b.Rows
	a.Kept += b.Kept
	for j := range a.Cols {
		x, y := &a.Cols[j], &b.Cols[j]
		x.Numbers += y.Numbers
		x.Texts += y.Texts
		x.Missing += y.Missing
		x.Bad = cmpOr(x.Bad, y.Bad)
		x.FirstText = cmpOr(x.FirstText, y.FirstText)
		x.Integer = x.Integer && y.Integer
		x.Values = distinct(append(slices.Clone(x.Values), y.Values...))
		x.Over = x.Over || y.Over
		if x.Levels == nil {
			x.Levels = map[string]bool{}
		}
		for s, k := range y.Levels {
			if x.Over {
				break
			}
			x.Levels[s] = x.Levels[s] || k
		}
		if x.Over || len(x.Levels) > maxLevels || kepts(x.Levels) > MaxCategories+1 {
			// Too many to be categories: a census keeps none (they would
			// travel with it between workers for nothing).
			x.Over = true
			clear(x.Levels)
		}
	}
	return nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func kepts(levels map[string]bool) int {
	n := 0
	for _, k := range levels {
		if k {
			n++
		}
	}
	return n
}

func cloneCensus(b *census) census {
	a := *b
	a.Names = slices.Clone(b.Names)
	a.Shards = maps.Clone(b.Shards)
	a.Cols = slices.Clone(b.Cols)
	for j := range a.Cols {
		a.Cols[j].Levels = maps.Clone(b.Cols[j].Levels)
		a.Cols[j].Values = slices.Clone(b.Cols[j].Values)
	}
	return a
}

// Rows is the number of rows kept (with a target) in the merged shards.
func (c *Census) Rows() int { return c.c.Kept }

// Offsets gives each shard the key of its first kept row: the shards in
// byte order of their names, each row keyed by its index among the kept
// rows of all of them, as if they were one file in that order.
func (c *Census) Offsets() map[string]int {
	names := slices.Sorted(maps.Keys(c.c.Shards))
	off := make(map[string]int, len(names))
	k := 0
	for _, name := range names {
		off[name] = k
		k += c.c.Shards[name]
	}
	return off
}

// Settle returns the schema that Parse gives the merged shards' rows read
// as one file (with one header line), or Parse's error for them.
func (c *Census) Settle() (*Schema, error) {
	a := &c.c
	if a.Names == nil {
		return nil, parseErr("no shard was surveyed; give at least one file")
	}
	if a.Rows == 0 {
		return nil, parseErr("the input has a header line but no data rows")
	}
	cols := make([]Column, len(a.Names))
	numeric := make([]bool, len(a.Names))
	for j, x := range a.Cols {
		cols[j] = Column{Name: a.Names[j], Kind: Numeric, Missing: x.Missing}
		if numeric[j] = x.Texts == 0; numeric[j] {
			if x.Bad != "" {
				return nil, parseErr("%s is not a finite number; use values within ±1.7e308, or leave the cell empty to mark it missing", x.Bad)
			}
			continue
		}
		if x.Numbers >= 9*x.Texts {
			return nil, parseErr("%s is not a number, but %d of the column's %d values are; correct it, or leave the cell empty (or write NA) to mark it missing",
				x.FirstText, x.Numbers, x.Numbers+x.Texts)
		}
		if !x.Over {
			col := column{levels: slices.Sorted(maps.Keys(x.Levels))}
			if v, ok := decimalComma(&col); ok {
				return nil, parseErr("column %s holds numbers written with a decimal comma (%s); save the file with a decimal point so they are read as numbers, not as categories",
					check.Quote(a.Names[j]), check.Quote(v))
			}
		}
	}
	if a.Kept == 0 {
		if a.Cols[a.Target].Missing == a.Rows {
			return nil, dataErr("the target column %s has no values; choose another target", check.Quote(a.Names[a.Target]))
		}
		return nil, dataErr("every row has a missing value; use Missing \"impute\" instead of \"drop\"")
	}
	s := &Schema{Columns: cols, Target: a.Target, TargetName: a.Names[a.Target], Delimiter: a.Delim, Header: a.Header, Excluded: a.Excluded}
	if err := settleTarget(s, &a.Cols[a.Target], numeric[a.Target], a.Task, a.Kept); err != nil {
		return nil, err
	}
	p := 0
	for j, x := range a.Cols {
		if j == a.Target {
			continue
		}
		g := Group{Column: j, Start: p, Width: 1}
		if !numeric[j] {
			levels := keptLevels(x.Levels)
			k := len(levels)
			if x.Over { // its levels are not kept
				k = MaxCategories + 1
			}
			if x.Over || k > MaxCategories || k > 50 && 2*k > a.Kept {
				return nil, dataErr("column %d (%s) has %d or more distinct text values in %d rows: an identifier or free text, which one-hot encoding cannot use; remove the column or choose it as the target",
					j+1, check.Quote(a.Names[j]), k, a.Kept)
			}
			s.Columns[j].Kind, s.Columns[j].Categories = Categorical, levels
			g.Width, g.Categorical = len(levels), true
		}
		s.Groups = append(s.Groups, g)
		p += g.Width
	}
	if p == 0 {
		return nil, dataErr("no feature column has a value in the rows kept; the file needs at least one feature besides the target")
	}
	return s, nil
}

func keptLevels(levels map[string]bool) []string {
	var out []string
	for s, k := range levels {
		if k {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// settleTarget sets the task and classes as Dataset.setTarget does.
func settleTarget(s *Schema, x *censusCol, numeric bool, task Task, kept int) error {
	name := check.Quote(s.TargetName)
	if !numeric {
		if task == Regression {
			return dataErr("the target column %s is not numeric (it holds values such as %s), so it cannot be a regression target; use task %q or another target", name, x.FirstText, Classification)
		}
		classes := keptLevels(x.Levels)
		if x.Over || len(classes) > MaxClasses {
			return dataErr("the target column %s has more than the %d classes allowed; choose another target", name, MaxClasses)
		}
		s.Task, s.Classes = Classification, classes
		s.Columns[s.Target].Kind, s.Columns[s.Target].Categories = Categorical, classes
		return nil
	}
	if task == "" {
		task = Regression
		if k := len(x.Values); k <= 20 && (2*k <= kept || k <= 2) && x.Integer {
			task = Classification
		}
	}
	s.Task = task
	if task == Regression {
		return nil
	}
	if len(x.Values) > MaxClasses {
		return dataErr("the target column %s has more than the %d classes allowed; use task %q", name, MaxClasses, Regression)
	}
	s.Classes = make([]string, len(x.Values))
	for k, v := range x.Values {
		s.Classes[k] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return nil
}

// MarshalBinary returns the census's wire form (DecodeCensus reads it).
func (c *Census) MarshalBinary() ([]byte, error) { return json.Marshal(&c.c) }

// DecodeCensus reads a census's wire form; forms that do not add up are
// refused.
func DecodeCensus(b []byte) (*Census, error) {
	var c census
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, check.New(check.Parse, "", "data: census: %v", err)
	}
	if c.Names != nil && (len(c.Cols) != len(c.Names) || c.Target < 0 || c.Target >= len(c.Names) || c.Kept > c.Rows || c.Kept < 0) {
		return nil, check.New(check.Shape, "", "data: census: %d columns for %d names, target %d, %d of %d rows kept", len(c.Cols), len(c.Names), c.Target, c.Kept, c.Rows)
	}
	kept := 0
	for _, k := range c.Shards {
		if k < 0 {
			kept = -1
			break
		}
		kept += k
	}
	if c.Names != nil && kept != c.Kept {
		return nil, check.New(check.Shape, "", "data: census: its shards keep %d rows, not its %d", kept, c.Kept)
	}
	for j := range c.Cols {
		x := &c.Cols[j]
		if x.Numbers < 0 || x.Texts < 0 || x.Missing < 0 || x.Numbers+x.Texts+x.Missing != c.Rows || len(x.Values) > MaxClasses+1 {
			return nil, check.New(check.Shape, "", "data: census: column %d counts %d numbers, %d texts and %d missing cells in %d rows", j, x.Numbers, x.Texts, x.Missing, c.Rows)
		}
		if x.Levels == nil {
			x.Levels = map[string]bool{}
		}
	}
	return &Census{c}, nil
}
