package data

import (
	"bytes"
	"fmt"
	"strings"

	"ntkrf/internal/check"
)

// MaxColumns bounds the columns of a table, and so a target index: 2^24,
// the widest input any feature map takes (rf.MaxDim).
const MaxColumns = 1 << 24

// split detects the delimiter (unless given) and tokenizes the text.
func split(text []byte, o options, maxRecords int, truncated bool) (*table, error) {
	if len(bytes.TrimSpace(text)) == 0 {
		return nil, parseErr("the input is empty; it needs a header line and data rows")
	}
	if err := pathInstead(text); err != nil {
		return nil, err
	}
	d := o.delim
	if d == 0 {
		var err error
		if d, err = detectDelimiter(text); err != nil {
			return nil, err
		}
	}
	t, err := tokenize(text, d, maxRecords, truncated)
	if err != nil {
		return nil, err
	}
	if t.width < 2 {
		return nil, parseErr("every line is a single field when split at %s; a data set needs at least two columns (features and a target), so check the delimiter", delimName(d))
	}
	return t, nil
}

// pathRE matches a file name or URL: what a caller passes by mistake
// instead of a file's contents. Compiled when first needed (as are this
// package's other regexps), not as the program starts: a WebAssembly
// instance's start is what a page waits for.
var pathRE = lazyRE(`(?i)^(?:[a-z]:[\\/]|[/~.]|file:|https?://)|\.(?:csv|tsv|txt|tab|dat|data|gz|xlsx?|ods|json|zip)$`)

// pathInstead refuses an input that is one line without any delimiter
// and looks like a path: "found no delimiter" would point the wrong way.
func pathInstead(text []byte) error {
	line := bytes.TrimSpace(text)
	if bytes.ContainsAny(line, "\r\n,;\t|") || !pathRE().Match(line) {
		return nil
	}
	return parseErr("the input is the one line %s, which looks like a file name or URL, not a data table: pass the file's contents (its bytes or text), not its path", check.Quote(string(line)))
}

// bytesPerCell is what parsing holds per cell besides the text: its end
// offset (4 bytes), its value in its column (8) and in X (8).
const bytesPerCell = 20

// checkParseMemory refuses text whose parse would need more than limit
// bytes (check.MaxAllocBytes), estimated before any per-cell allocation from an
// upper bound on the cells (every delimiter-like byte and line break ends
// one): a small gzip file can inflate to hundreds of MB of tiny cells, and
// a WebAssembly instance that runs out of memory dies.
func checkParseMemory(inputLen int, text []byte, limit float64) error {
	cells := 1
	for _, c := range text {
		switch c {
		case ',', ';', '\t', '|', '\n':
			cells++
		}
	}
	need := float64(len(text)) + bytesPerCell*float64(cells)
	if need <= limit {
		return nil
	}
	what := fmt.Sprintf("the input is %s", check.FormatBytes(float64(len(text))))
	if inputLen < len(text)/2 {
		what = fmt.Sprintf("the input is too large once decompressed: its %s inflate to %s", check.FormatBytes(float64(inputLen)), check.FormatBytes(float64(len(text))))
	}
	return check.New(check.TooLarge, "", "data: %s with up to %d cells, which would need about %s to parse, over the %s limit; use fewer rows or columns",
		what, cells, check.FormatBytes(need), check.FormatBytes(limit))
}

// fullText decompresses all of b (within o.MaxBytes) and checks that its
// cells will fit in memory as numbers.
func fullText(b []byte, o options) ([]byte, error) {
	text, _, err := decode(b, o.MaxBytes, 0)
	if err != nil {
		return nil, err
	}
	return text, checkParseMemory(len(b), text, check.MaxAllocBytes)
}

// Parse reads a delimited text file (plain, or gzip detected by its magic
// bytes 1f 8b) into a Dataset. See the package doc for the rules.
func Parse(b []byte, opt Options) (*Dataset, error) {
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
	if n == 0 {
		return nil, parseErr("the input has a header line but no data rows")
	}
	if t.width > MaxColumns {
		return nil, check.New(check.TooLarge, "", "data: the input has %d columns, more than the %d a table may have; use fewer columns", t.width, MaxColumns)
	}
	if cells := float64(n) * float64(t.width) * 8; cells > check.MaxAllocBytes {
		return nil, check.New(check.TooLarge, "", "data: the %d rows × %d columns need %s as numbers, over the %s limit; use fewer rows or columns",
			n, t.width, check.FormatBytes(cells), check.FormatBytes(check.MaxAllocBytes))
	}
	names, unnamed := columnNames(t, header)
	cols := make([]column, t.width)
	skip := excludedSet(o.Exclude, names)
	for j := range cols {
		if skip != nil && skip[j] {
			// Never an input: its cells are only counted, never refused.
			cols[j] = surveyColumn(t, first, j)
			continue
		}
		if cols[j], err = readColumn(t, first, j, names); err != nil {
			return nil, err
		}
		if v, ok := decimalComma(&cols[j]); ok {
			return nil, parseErr("column %s holds numbers written with a decimal comma (%s); save the file with a decimal point (%s) so they are read as numbers, not as categories",
				check.Quote(names[j]), check.Quote(v), check.Quote(strings.Replace(v, ",", ".", 1)))
		}
	}
	if w := len(cols); w > 2 && unnamed[w-1] && cols[w-1].missing == n {
		// A delimiter at the end of every line: no column, no data.
		cols, names = cols[:w-1], names[:w-1]
	}
	target, err := pickTarget(o.Target, names)
	if o.TargetIndex != nil {
		target, err = pickIndex(*o.TargetIndex, names)
	}
	if err != nil {
		return nil, err
	}
	cols, names, target, _, excluded, err := applyExclude(o.Exclude, cols, names, target)
	if err != nil {
		return nil, err
	}
	delim := t.delim

	keep, err := keptRows(cols, target, names, o.drop)
	if err != nil {
		return nil, err
	}
	d := &Dataset{
		Target:      target,
		TargetName:  names[target],
		Delimiter:   rune(delim),
		Header:      header,
		DroppedRows: n - len(keep),
		Columns:     make([]Column, len(cols)),
		Excluded:    excluded,
	}
	for j := range cols {
		d.Columns[j] = Column{Name: names[j], Kind: Numeric, Missing: cols[j].missing}
		d.MissingCells += cols[j].missing
	}
	if err := d.setTarget(&cols[target], keep, o.Task); err != nil {
		return nil, err
	}
	if err := d.setFeatures(cols, keep); err != nil {
		return nil, err
	}
	return d, nil
}

// parseErr is an error in the file itself: text that cannot be read as a
// table, or a cell that cannot be read as its column says. Every reader
// (Parse, Preview, Schema.Read) gives this code for these causes.
func parseErr(format string, a ...any) error {
	return check.New(check.Parse, "", "data: "+format, a...)
}

// dataErr is a table that reads but cannot be learned from as asked: a
// target without values, too many classes, a free-text feature.
func dataErr(format string, a ...any) error {
	return check.New(check.Data, "", "data: "+format, a...)
}
