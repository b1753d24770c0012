package data

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/names"
	"ntkrf/internal/check"
)

// DefaultMaxBytes is the input size limit (after decompression) when
// Options.MaxBytes is 0.
const DefaultMaxBytes = 256_000_000

// MaxBytesLimit is the largest MaxBytes accepted: cell offsets are int32.
const MaxBytesLimit = math.MaxInt32

// MaxClasses bounds the number of classes of a classification target, here
// and in every model (krr.MaxClasses is this value): a model holds one
// column of coefficients per class.
const MaxClasses = 10000

// MaxColumns bounds the columns of a table, and so a target index: 2^24,
// the widest input any feature map takes (rf.MaxDim).
const MaxColumns = 1 << 24

// MaxCategories bounds the distinct values of a categorical feature. A
// column with more than 50 distinct values that also has more than half as
// many values as rows is refused too: it is an identifier or free text,
// and one-hot encoding it would add a column per row and nothing to learn.
const MaxCategories = 1000

// Task names (ntkrf/core/names', where every name is written) and
// column kinds.
const (
	Classification = names.Classification
	Regression     = names.Regression
	Numeric        = "numeric"
	Categorical    = "categorical"
)

// The settings of Options.Missing and Options.Header, the default first
// ("" means it too), and ParseTasks, those of Options.Task.
const (
	Impute = "impute"
	Drop   = "drop"
	Yes    = "yes"
	No     = "no"
)

var (
	MissingSettings = []string{Impute, Drop}
	HeaderSettings  = []string{names.Auto, Yes, No}
	ParseTasks      = append([]string{names.Auto}, names.Tasks...)
)

// Options controls Parse and Preview. The zero value detects everything.
type Options struct {
	// Target is the name of the column to predict (exact, else the only
	// case-insensitive match); "" means the last column. A name is never
	// read as an index ("2" is the column named 2): give an index in
	// TargetIndex.
	// An unnamed last column without values (left by a delimiter at the
	// end of every line) is ignored.
	Target string
	// TargetIndex, when not nil, is the 0-based index of the target column,
	// and Target must be "": an index is never matched against names.
	TargetIndex *int
	// Task is "" or "auto" (detect, see the package doc), "classification"
	// or "regression".
	Task string
	// Missing is "" or "impute": missing feature values stay NaN in X for
	// a Scaler to impute with training statistics; "drop": rows with any
	// missing feature value are dropped. Rows whose target is missing are
	// always dropped.
	Missing string
	// Delimiter is the field separator; 0 detects one of ',', ';', tab
	// and '|'. Any other ASCII punctuation, space or tab may be given.
	Delimiter rune
	// Header is "" or "auto" (detect), "yes" or "no".
	Header string
	// MaxBytes limits the input size after decompression; 0 means
	// DefaultMaxBytes. At most 2³¹−1.
	MaxBytes int
}

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
	Task         string   // Classification or Regression
	Classes      []string // class labels, sorted (numerically for a numeric target)
	FeatureNames []string // p names; one-hot columns are "color=red"
	Groups       []Group  // X column blocks, in order, covering all p columns
	Columns      []Column // input columns in file order, the target included
	Target       int      // index of the target in Columns
	TargetName   string
	Delimiter    rune
	Header       bool // whether the first line was read as column names
	DroppedRows  int  // data rows dropped for a missing target or (Missing "drop") feature
	MissingCells int  // missing cells in all data rows, target included
}

type options struct {
	Options
	delim  byte
	header int // -1 no, 0 auto, 1 yes
	drop   bool
}

func (o Options) resolve() (options, error) {
	r := options{Options: o}
	if o.TargetIndex != nil && (*o.TargetIndex < 0 || *o.TargetIndex >= MaxColumns) {
		return r, check.New(check.Option, "target", "data: target column index %d is out of range; a table has at most %d columns, indexed 0…%d", *o.TargetIndex, MaxColumns, MaxColumns-1)
	}
	switch o.Task {
	case "", names.Auto:
		r.Task = ""
	case Classification, Regression:
	default:
		return r, check.New(check.Option, "task", "data: unknown task %s; use one of %q", check.Quote(o.Task), ParseTasks)
	}
	switch o.Missing {
	case "", Impute:
	case Drop:
		r.drop = true
	default:
		return r, check.New(check.Option, "missing", "data: unknown missing-value handling %s; use one of %q", check.Quote(o.Missing), MissingSettings)
	}
	switch o.Header {
	case "", names.Auto:
	case Yes:
		r.header = 1
	case No:
		r.header = -1
	default:
		return r, check.New(check.Option, "header", "data: unknown header setting %s; use one of %q", check.Quote(o.Header), HeaderSettings)
	}
	if d := o.Delimiter; d != 0 {
		if d > 0x7e || d == '"' || d == '\r' || d == '\n' || d == '.' || d == '+' || d == '-' ||
			('0' <= d && d <= '9') || ('a' <= d && d <= 'z') || ('A' <= d && d <= 'Z') || (d < ' ' && d != '\t') {
			return r, check.New(check.Option, "delimiter", "data: delimiter %q cannot separate fields; use an ASCII punctuation character, space or tab (or 0 to detect)", d)
		}
		r.delim = byte(d)
	}
	switch {
	case o.MaxBytes == 0:
		r.MaxBytes = DefaultMaxBytes
	case o.MaxBytes < 0 || o.MaxBytes > MaxBytesLimit:
		return r, check.New(check.Option, "maxBytes", "data: Options.MaxBytes %d is out of range; use 1…%d, or 0 for the default %d", o.MaxBytes, MaxBytesLimit, DefaultMaxBytes)
	}
	return r, nil
}

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
// instead of a file's contents.
var pathRE = regexp.MustCompile(`(?i)^(?:[a-z]:[\\/]|[/~.]|file:|https?://)|\.(?:csv|tsv|txt|tab|dat|data|gz|xlsx?|ods|json|zip)$`)

// pathInstead refuses an input that is one line without any delimiter
// and looks like a path: "found no delimiter" would point the wrong way.
func pathInstead(text []byte) error {
	line := bytes.TrimSpace(text)
	if bytes.ContainsAny(line, "\r\n,;\t|") || !pathRE.Match(line) {
		return nil
	}
	return parseErr("the input is the one line %s, which looks like a file name or URL, not a data table: pass the file's contents (its bytes or text), not its path", check.Quote(string(line)))
}

// hasHeader decides whether the first record names the columns: yes when
// a text cell sits above a column of numbers, or when the record holds no
// number at all.
func hasHeader(t *table) bool {
	anyNumber := false
	for j := range t.width {
		if _, k := parseCell(t.cell(0, j)); k == cellNumber || k == cellNonFinite {
			anyNumber = true
		}
	}
	if !anyNumber {
		return true
	}
	last := min(t.rows(), 1001)
	for j := range t.width {
		if _, k := parseCell(t.cell(0, j)); k != cellText {
			continue
		}
		numbers := 0
		for i := 1; i < last; i++ {
			_, k := parseCell(t.cell(i, j))
			if k == cellText {
				numbers = -1
				break
			}
			if k != cellMissing {
				numbers++
			}
		}
		if numbers > 0 {
			return true
		}
	}
	return false
}

// columnNames returns unique names: "column j" (1-based) for unnamed
// columns, and a ".1", ".2"… suffix on repeats, as pandas does.
func columnNames(t *table, header bool) (names []string, unnamed []bool) {
	names = make([]string, t.width)
	unnamed = make([]bool, t.width)
	seen := make(map[string]bool, t.width)
	for j := range t.width {
		name := ""
		if header {
			name = strings.Clone(t.cell(0, j))
		}
		if name == "" {
			unnamed[j] = true
			name = "column " + strconv.Itoa(j+1)
		}
		for k, base := 1, name; seen[name]; k++ {
			name = base + "." + strconv.Itoa(k)
		}
		seen[name] = true
		names[j] = name
	}
	return names, unnamed
}

// column holds one input column's parsed cells.
type column struct {
	n       int // rows
	numeric bool
	vals    []float64 // numeric: the values, NaN when missing
	codes   []int32   // categorical: index into levels, −1 when missing
	levels  []string  // categorical: distinct values, first-seen order
	missing int
}

func (c *column) isMissing(i int) bool {
	if c.numeric {
		return math.IsNaN(c.vals[i])
	}
	return c.codes[i] < 0
}

// where names a cell for messages: "line 17, column 3 ("width")".
func where(t *table, row, j int, names []string) string {
	return fmt.Sprintf("line %d, column %d (%s)", t.lines[row], j+1, check.Quote(names[j]))
}

// readColumn parses column j of the data rows (records first…).
func readColumn(t *table, first, j int, names []string) (column, error) {
	n := t.rows() - first
	c := column{n: n, vals: make([]float64, n)}
	numbers, texts, firstText, firstBad := 0, 0, -1, -1
	for i := range n {
		v, k := parseCell(t.cell(first+i, j))
		switch k {
		case cellMissing:
			v = math.NaN()
			c.missing++
		case cellNumber:
			numbers++
		case cellNonFinite:
			numbers++
			if firstBad < 0 {
				firstBad = i
			}
		case cellText:
			texts++
			if firstText < 0 {
				firstText = i
			}
		}
		c.vals[i] = v
	}
	if texts == 0 {
		if firstBad >= 0 {
			return c, parseErr("%s: %s is not a finite number; use values within ±1.7e308, or leave the cell empty to mark it missing",
				where(t, first+firstBad, j, names), check.Quote(t.cell(first+firstBad, j)))
		}
		c.numeric = true
		return c, nil
	}
	if numbers >= 9*texts {
		return c, parseErr("%s: %s is not a number, but %d of the column's %d values are; correct it, or leave the cell empty (or write NA) to mark it missing",
			where(t, first+firstText, j, names), check.Quote(t.cell(first+firstText, j)), numbers, numbers+texts)
	}
	c.vals = nil
	c.codes = make([]int32, n)
	index := make(map[string]int32)
	for i := range n {
		s := t.cell(first+i, j)
		if _, k := parseCell(s); k == cellMissing {
			c.codes[i] = -1
			continue
		}
		code, ok := index[s]
		if !ok {
			code = int32(len(c.levels))
			index[s] = code
			c.levels = append(c.levels, strings.Clone(s))
		}
		c.codes[i] = code
	}
	return c, nil
}

// decimalCommaRE matches a number written with a decimal comma: "-1,25".
var decimalCommaRE = regexp.MustCompile(`^[+-]?[0-9]*,[0-9]+$`)

// decimalComma reports a categorical column whose every category is a
// number written with a decimal comma (or an integer), at least one with
// the comma: read as categories, such a column silently becomes one-hot
// columns instead of a number.
func decimalComma(c *column) (string, bool) {
	if c.numeric || len(c.levels) == 0 {
		return "", false
	}
	example := ""
	for _, l := range c.levels {
		l = strings.TrimSpace(l)
		switch {
		case decimalCommaRE.MatchString(l):
			example = l
		case strings.Trim(l, "+-0123456789") == "" && l != "":
		default:
			return "", false
		}
	}
	return example, example != ""
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

// pickTarget resolves Options.Target to a column index.
func pickTarget(target string, names []string) (int, error) {
	if target == "" {
		return len(names) - 1, nil
	}
	if j := slices.Index(names, target); j >= 0 {
		return j, nil
	}
	match := -1
	for j, name := range names {
		if strings.EqualFold(strings.TrimSpace(target), name) {
			if match >= 0 {
				match = -2
				break
			}
			match = j
		}
	}
	if match >= 0 {
		return match, nil
	}
	hint := ""
	if strings.Trim(strings.TrimSpace(target), "0123456789") == "" {
		hint = "; to choose a column by its index, give the index as a number, not a string"
	}
	return 0, check.New(check.Option, "target", "data: no column is named %s; the columns are %s%s", check.Quote(target), listNames(names), hint)
}

func pickIndex(j int, names []string) (int, error) {
	if j < 0 || j >= len(names) {
		return 0, check.New(check.Option, "target", "data: target column index %d is out of range; the file has %d columns, indexed 0…%d", j, len(names), len(names)-1)
	}
	return j, nil
}

func listNames(names []string) string {
	const show = 20
	var b strings.Builder
	for j, name := range names[:min(len(names), show)] {
		if j > 0 {
			b.WriteString(", ")
		}
		b.WriteString(check.Quote(name))
	}
	if len(names) > show {
		fmt.Fprintf(&b, " and %d more", len(names)-show)
	}
	return b.String()
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
	header := o.header > 0 || o.header == 0 && hasHeader(t)
	first := 0
	if header {
		first = 1
	}
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
	for j := range cols {
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
func (d *Dataset) setTarget(c *column, keep []int, task string) error {
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
