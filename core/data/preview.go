package data

import (
	"strings"

	"ntkrf/internal/check"
)

// previewBytes bounds how much (decompressed) text Preview reads.
const previewBytes = 1 << 20

// MinPreviewRows and MaxPreviewRows bound the rows argument of Preview.
const (
	MinPreviewRows = 1
	MaxPreviewRows = 10000
)

// Table is the start of a file as strings, for showing before parsing.
type Table struct {
	Names     []string   // column names: the header, or "column 1"… without one
	Rows      [][]string // the first data rows; cells unquoted and trimmed
	Delimiter rune
	Header    bool // whether the first line was read as column names
	More      bool // whether the input has rows beyond those returned
	// Target is the column SuggestTarget suggests to predict, TargetWhy
	// why (a host's default to change; Parse defaults to the last column).
	Target    int
	TargetWhy string
}

// DefaultPreviewRows is the number of data rows a preview returns when
// the caller does not say.
const DefaultPreviewRows = 10

// Preview returns the column names and up to rows data rows, reading only
// the first megabyte of (decompressed) text, so it is cheap on big files.
// Delimiter and Header options apply; the others are validated only.
func Preview(b []byte, rows int, opt Options) (*Table, error) {
	o, err := opt.resolve()
	if err != nil {
		return nil, err
	}
	if rows < MinPreviewRows || rows > MaxPreviewRows {
		return nil, check.New(check.Option, "rows", "data: preview rows %d is out of range; use %d…%d", rows, MinPreviewRows, MaxPreviewRows)
	}
	text, truncated, err := decode(b, o.MaxBytes, min(previewBytes, o.MaxBytes))
	if err != nil {
		return nil, err
	}
	t, err := split(text, o, rows+2, truncated)
	if err != nil {
		return nil, err
	}
	header, first := o.heading(t)
	names, _ := columnNames(t, header)
	p := &Table{Names: names, Delimiter: rune(t.delim), Header: header}
	if len(names) > 0 {
		p.Target, p.TargetWhy = SuggestTarget(names)
	}
	last := min(t.rows(), first+rows)
	for i := first; i < last; i++ {
		row := make([]string, t.width)
		for j := range row {
			row[j] = strings.Clone(t.cell(i, j))
		}
		p.Rows = append(p.Rows, row)
	}
	p.More = truncated || t.rows() > last
	return p, nil
}
