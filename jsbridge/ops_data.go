package jsbridge

import (
	"unicode/utf8"

	"ntkrf/core/data"
	"ntkrf/internal/check"
)

type columnJSON struct {
	Name       string   `json:"name"`
	Kind       string   `json:"kind"`
	Categories []string `json:"categories"`
	Missing    int      `json:"missing"`
}

// parseArgs are the options of parseCSV (index.d.ts ParseOptions). target is
// a name or a 0-based index.
type parseArgs struct {
	Target    any       `json:"target"`
	Exclude   []string  `json:"exclude"`
	Task      data.Task `json:"task"`
	Missing   string    `json:"missing"`
	Delimiter string    `json:"delimiter"`
	Header    string    `json:"header"`
	MaxBytes  int       `json:"maxBytes"`
}

// previewArgs are the options of previewCSV.
type previewArgs struct {
	Rows      *int   `json:"rows"`
	Delimiter string `json:"delimiter"`
	Header    string `json:"header"`
	MaxBytes  int    `json:"maxBytes"`
}

func (a parseArgs) options(op string) (data.Options, error) {
	o := data.Options{Exclude: a.Exclude, Task: a.Task, Missing: a.Missing, Header: a.Header, MaxBytes: a.MaxBytes}
	switch t := a.Target.(type) {
	case nil:
	case string:
		o.Target = t
	case float64: // checked by the schema: an integer index
		j := int(t)
		o.TargetIndex = &j
	default:
		return o, typeErr("%s: target must be a column name or index", op)
	}
	if a.Delimiter != "" {
		r, size := utf8.DecodeRuneInString(a.Delimiter)
		if size != len(a.Delimiter) {
			return o, typeErr("%s: delimiter must be one character, got %s", op, check.Quote(a.Delimiter))
		}
		o.Delimiter = r
	}
	return o, nil
}

func opParseCSV(c *call, args []byte) (any, error) {
	var a parseArgs
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	opt, err := a.options(c.op)
	if err != nil {
		return nil, err
	}
	c.progress(0, 1, "parse")
	ds, err := data.Parse(c.bytes, opt)
	if err != nil {
		return nil, err
	}
	c.progress(1, 1, "parse")
	cols := make([]columnJSON, len(ds.Columns))
	for i, col := range ds.Columns {
		cols[i] = columnJSON{Name: col.Name, Kind: col.Kind, Categories: nonNil(col.Categories), Missing: col.Missing}
	}
	groups := ds.Groups
	return struct {
		X            MatrixRef    `json:"X"`
		Y            ArrayRef     `json:"y"`
		Task         data.Task    `json:"task"`
		Classes      []string     `json:"classes"`
		FeatureNames []string     `json:"featureNames"`
		Columns      []columnJSON `json:"columns"`
		Target       int          `json:"target"`
		TargetName   string       `json:"targetName"`
		Excluded     []string     `json:"excluded"`
		Groups       []data.Group `json:"groups"`
		Delimiter    string       `json:"delimiter"`
		Header       bool         `json:"header"`
		DroppedRows  int          `json:"droppedRows"`
		MissingCells int          `json:"missingCells"`
	}{
		X: c.putMatrix(ds.X), Y: c.putArray(ds.Y), Task: ds.Task, Classes: nonNil(ds.Classes),
		FeatureNames: nonNil(ds.FeatureNames), Columns: cols, Target: ds.Target, TargetName: ds.TargetName,
		Excluded: nonNil(ds.Excluded), Groups: groups, Delimiter: string(ds.Delimiter), Header: ds.Header,
		DroppedRows: ds.DroppedRows, MissingCells: ds.MissingCells,
	}, nil
}

func opPreviewCSV(c *call, args []byte) (any, error) {
	var a previewArgs
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	rows := data.DefaultPreviewRows // the schema has checked a given one
	if a.Rows != nil {
		rows = *a.Rows
	}
	opt, err := parseArgs{Delimiter: a.Delimiter, Header: a.Header, MaxBytes: a.MaxBytes}.options(c.op)
	if err != nil {
		return nil, err
	}
	t, err := data.Preview(c.bytes, rows, opt)
	if err != nil {
		return nil, err
	}
	cells := t.Rows
	if cells == nil {
		cells = [][]string{}
	}
	return struct {
		Names     []string   `json:"names"`
		Rows      [][]string `json:"rows"`
		Delimiter string     `json:"delimiter"`
		Header    bool       `json:"header"`
		More      bool       `json:"more"`
		Target    int        `json:"target"`
		TargetWhy string     `json:"targetWhy"`
	}{nonNil(t.Names), cells, string(t.Delimiter), t.Header, t.More, t.Target, t.TargetWhy}, nil
}

func opSplit(c *call, args []byte) (any, error) {
	var a struct {
		N            int      `json:"n"`
		TestFraction *float64 `json:"testFraction"`
		Seed         uint64   `json:"seed"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	frac := 0.0 // the default
	if a.TestFraction != nil {
		frac = *a.TestFraction
	}
	train, test, err := data.Split(a.N, frac, a.Seed)
	if err != nil {
		return nil, err
	}
	return struct {
		Train []int `json:"train"`
		Test  []int `json:"test"`
	}{train, test}, nil
}

func opKFold(c *call, args []byte) (any, error) {
	var a struct {
		N    int    `json:"n"`
		K    *int   `json:"k"`
		Seed uint64 `json:"seed"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	k := 0 // the default
	if a.K != nil {
		k = *a.K
	}
	return data.Folds(a.N, k, a.Seed)
}

// nonNil keeps JSON arrays arrays: a nil slice would encode as null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
