package data

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"ntkrf/internal/check"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// decode turns the raw input into checked UTF-8 text without a BOM: it
// decompresses gzip (through a reader limited to max bytes, so a gzip bomb
// stops at the limit) and rejects input that is not text. When prefix > 0
// only about the first prefix bytes are returned, cut after the last
// complete line, and truncated reports whether anything was left out.
func decode(b []byte, max, prefix int) (text []byte, truncated bool, err error) {
	if len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b {
		b, truncated, err = gunzip(b, max, prefix)
		if err != nil {
			return nil, false, err
		}
	} else {
		if prefix == 0 && len(b) > max {
			return nil, false, check.New(check.TooLarge, "maxBytes", "data: the input is %s, over the %s limit; use a smaller file or raise Options.MaxBytes",
				check.FormatBytes(float64(len(b))), check.FormatBytes(float64(max)))
		}
		if prefix > 0 && len(b) > prefix {
			b, truncated = b[:prefix], true
		}
	}
	if truncated {
		// Cut after the last line break so neither a record nor a UTF-8
		// sequence is split (a quoted field may still be; callers
		// tolerate that when truncated is set).
		if i := bytes.LastIndexAny(b, "\r\n"); i >= 0 {
			b = b[:i+1]
		}
	}
	if err := checkText(b); err != nil {
		return nil, false, err
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	// Old DOS tools end text files with Ctrl-Z.
	b = bytes.TrimRight(b, "\x1a")
	return b, truncated, nil
}

func gunzip(b []byte, max, prefix int) ([]byte, bool, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, false, parseErr("the input starts like gzip but its header is damaged (%v); compress it again or load the plain file", err)
	}
	limit := max
	if prefix > 0 && prefix < limit {
		limit = prefix
	}
	var buf bytes.Buffer
	buf.Grow(min(limit, 4*len(b)) + 1)
	n, err := io.Copy(&buf, io.LimitReader(zr, int64(limit)+1))
	if err != nil {
		return nil, false, parseErr("the gzip data is damaged after %s of text (%v); compress the file again or load it uncompressed",
			check.FormatBytes(float64(n)), err)
	}
	if n > int64(limit) {
		if prefix > 0 {
			return buf.Bytes()[:limit], true, nil
		}
		return nil, false, check.New(check.TooLarge, "maxBytes", "data: the gzip input decompresses to more than the %s limit; use a smaller file or raise Options.MaxBytes",
			check.FormatBytes(float64(max)))
	}
	return buf.Bytes(), false, nil
}

// checkText rejects binary data and text that is not UTF-8, naming the
// line of the first offending byte.
func checkText(b []byte) error {
	switch {
	case bytes.HasPrefix(b, []byte("PK\x03\x04")):
		return parseErr("the input is a ZIP archive (an .xlsx workbook?), not text; save the sheet as CSV, or unzip it first")
	case bytes.HasPrefix(b, []byte("\xff\xfe")), bytes.HasPrefix(b, []byte("\xfe\xff")):
		return parseErr("the input is UTF-16 text; save it as UTF-8 (\"CSV UTF-8\" in spreadsheet programs)")
	}
	head := b[:min(len(b), 8192)]
	ctl := 0
	for _, c := range head {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' {
			ctl++
		}
	}
	if i := bytes.IndexByte(b, 0); i >= 0 || ctl >= 4 && ctl > len(head)/100 {
		if i < 0 {
			i = len(head)
		}
		return parseErr("the input does not look like text (binary bytes near line %d); load a CSV or TSV file, plain or gzip-compressed", lineAt(b, i))
	}
	if !utf8.Valid(b) {
		i := 0
		for i < len(b) {
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		return parseErr("line %d is not valid UTF-8 (byte 0x%02x); save the file as UTF-8 (\"CSV UTF-8\" in spreadsheet programs)", lineAt(b, i), b[i])
	}
	return nil
}

// lineAt returns the 1-based line of byte offset i, counting LF, CRLF and
// lone CR as line breaks, as a text editor does.
func lineAt(b []byte, i int) int {
	return 1 + countBreaks(b[:i])
}

func countBreaks(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	for i := bytes.IndexByte(b, '\r'); i >= 0; {
		if i+1 >= len(b) || b[i+1] != '\n' {
			n++
		}
		j := bytes.IndexByte(b[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return n
}

// scanner splits RFC 4180 text into records. Cell contents (unquoted,
// doubled quotes undone, surrounding blanks trimmed) are appended to out;
// ends holds the end offset in out of each cell.
type scanner struct {
	b     []byte
	pos   int
	line  int // 1-based line at pos
	delim byte
	out   []byte
	ends  []int32
}

func newScanner(b []byte, delim byte) *scanner {
	return &scanner{b: b, line: 1, delim: delim}
}

func (s *scanner) cellStart(k int) int32 {
	if k == 0 {
		return 0
	}
	return s.ends[k-1]
}

// next appends the cells of the next record that is not blank and returns
// how many there are (0 at the end of the input) and the line it starts on.
func (s *scanner) next() (n, line int, err error) {
	for s.pos < len(s.b) {
		first := len(s.ends)
		line = s.line
		n, err = s.record()
		if err != nil {
			return 0, line, err
		}
		if n == 1 && s.ends[first] == s.cellStart(first) {
			s.out = s.out[:s.cellStart(first)]
			s.ends = s.ends[:first]
			continue
		}
		return n, line, nil
	}
	return 0, s.line, nil
}

func (s *scanner) record() (int, error) {
	for n := 0; ; {
		if err := s.field(n); err != nil {
			return 0, err
		}
		n++
		if s.pos >= len(s.b) {
			return n, nil
		}
		c := s.b[s.pos]
		s.pos++
		if c == s.delim {
			continue
		}
		if c == '\r' && s.pos < len(s.b) && s.b[s.pos] == '\n' {
			s.pos++
		}
		s.line++
		return n, nil
	}
}

func (s *scanner) blank(c byte) bool {
	return (c == ' ' || c == '\t') && c != s.delim
}

// field reads one cell and leaves pos on the delimiter, line break or end
// of input after it. col is the 0-based field number, for messages.
func (s *scanner) field(col int) error {
	b, i := s.b, s.pos
	for i < len(b) && s.blank(b[i]) {
		i++
	}
	if i < len(b) && b[i] == '"' {
		return s.quoted(i+1, col)
	}
	j := i
	for j < len(b) {
		c := b[j]
		if c == s.delim || c == '\n' || c == '\r' {
			break
		}
		j++
	}
	s.pos = j
	for j > i && s.blank(b[j-1]) {
		j--
	}
	s.out = append(s.out, b[i:j]...)
	s.ends = append(s.ends, int32(len(s.out)))
	return nil
}

func (s *scanner) quoted(i, col int) error {
	b, open := s.b, s.line
	start := len(s.out)
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return parseErr("line %d: the quoted value in field %d starts here but has no closing quote; add it (a quote inside a quoted value is written \"\")", open, col+1)
		}
		s.out = append(s.out, b[i:i+j]...)
		s.line += countBreaks(b[i : i+j])
		i += j + 1
		if i < len(b) && b[i] == '"' {
			s.out = append(s.out, '"')
			i++
			continue
		}
		break
	}
	for i < len(b) && s.blank(b[i]) {
		i++
	}
	if i < len(b) && b[i] != s.delim && b[i] != '\n' && b[i] != '\r' {
		r, _ := utf8.DecodeRune(b[i:])
		return parseErr("line %d: %q follows the closing quote of field %d; a quote inside a quoted value is written \"\"", s.line, r, col+1)
	}
	s.pos = i
	cell := s.out[start:]
	lo, hi := 0, len(cell)
	for lo < hi && (cell[lo] == ' ' || cell[lo] == '\t') {
		lo++
	}
	for hi > lo && (cell[hi-1] == ' ' || cell[hi-1] == '\t') {
		hi--
	}
	if lo > 0 || hi < len(cell) {
		s.out = append(s.out[:start], cell[lo:hi]...)
	}
	s.ends = append(s.ends, int32(len(s.out)))
	return nil
}

// delimiters are the candidates tried by detection, in the order they are
// reported.
const delimiters = ",;\t|"

// detectSample bounds the text examined by delimiter detection.
const (
	detectBytes   = 64 << 10
	detectRecords = 200
)

// detectDelimiter picks the candidate that splits every sampled record into
// the same number (≥ 2) of fields. If none does, it accepts the candidate
// that splits most records like the first one (the full parse then names the
// ragged line); two equally good candidates are an error.
func detectDelimiter(b []byte) (byte, error) {
	sample := b
	if len(b) > detectBytes {
		sample = b[:detectBytes]
		if i := bytes.LastIndexAny(sample, "\r\n"); i >= 0 {
			sample = sample[:i+1]
		}
	}
	type score struct {
		d       byte
		width   int
		match   int
		total   int
		perfect bool
	}
	var scores []score
	var scanErr error // the first candidate's syntax error, if no candidate fits
	for k := range len(delimiters) {
		d := delimiters[k]
		s := newScanner(sample, d)
		sc := score{d: d, perfect: true}
		for sc.total < detectRecords {
			n, _, err := s.next()
			if err != nil {
				sc.perfect = false
				if scanErr == nil && len(sample) == len(b) { // a cut sample may split a quoted value
					scanErr = err
				}
				break
			}
			if n == 0 {
				break
			}
			if sc.total == 0 {
				sc.width = n
			}
			sc.total++
			if n == sc.width {
				sc.match++
			} else {
				sc.perfect = false
			}
			s.out, s.ends = s.out[:0], s.ends[:0]
		}
		if sc.width >= 2 && sc.total > 0 {
			scores = append(scores, sc)
		}
	}
	var best []score
	for _, sc := range scores {
		if sc.perfect {
			best = append(best, sc)
		}
	}
	if len(best) == 0 {
		for _, sc := range scores {
			if 2*sc.match <= sc.total {
				continue
			}
			switch {
			case len(best) == 0 || sc.match*best[0].total > best[0].match*sc.total:
				best = []score{sc}
			case sc.match*best[0].total == best[0].match*sc.total:
				best = append(best, sc)
			}
		}
	}
	switch len(best) {
	case 0:
		if scanErr != nil {
			return 0, scanErr
		}
		return 0, parseErr("found no delimiter that splits the lines into columns (tried comma, semicolon, tab and |); a data set needs at least two columns, features and a target, separated by one of these")
	case 1:
		return best[0].d, nil
	}
	var opts []string
	for _, sc := range best {
		opts = append(opts, fmt.Sprintf("%s (%d columns)", delimName(sc.d), sc.width))
	}
	return 0, parseErr("the delimiter is ambiguous: %s all split the lines evenly; choose the delimiter", strings.Join(opts, " and "))
}

func delimName(d byte) string {
	switch d {
	case ',':
		return "comma"
	case ';':
		return "semicolon"
	case '\t':
		return "tab"
	}
	return strconv.QuoteRune(rune(d))
}

// table is the tokenized input: records of equal width, cell (i, j) being
// text[ends[i*width+j-1]:ends[i*width+j]].
type table struct {
	text  string
	ends  []int32
	lines []int32 // 1-based line where each record starts
	width int
	delim byte
}

func (t *table) rows() int { return len(t.lines) }

func (t *table) cell(i, j int) string {
	k := i*t.width + j
	start := int32(0)
	if k > 0 {
		start = t.ends[k-1]
	}
	return t.text[start:t.ends[k]]
}

// tokenize splits all of b into records; maxRecords > 0 stops early (for
// previews), and truncated tolerates a broken final record.
func tokenize(b []byte, delim byte, maxRecords int, truncated bool) (*table, error) {
	s := newScanner(b, delim)
	if maxRecords == 0 {
		s.out = make([]byte, 0, len(b))
		s.ends = make([]int32, 0, len(b)/8+1)
	}
	t := &table{delim: delim}
	for maxRecords == 0 || len(t.lines) < maxRecords {
		n, line, err := s.next()
		if err != nil {
			if truncated {
				s.ends = s.ends[:len(t.lines)*t.width]
				break
			}
			return nil, err
		}
		if n == 0 {
			break
		}
		if len(t.lines) == 0 {
			t.width = n
		} else if n != t.width {
			if truncated && s.pos >= len(b) {
				s.ends = s.ends[:len(t.lines)*t.width]
				break
			}
			return nil, parseErr("line %d has %s but line %d has %d; every line needs the same number (look for a missing or extra %s, or an unquoted %s inside a value)",
				line, fields(n), t.lines[0], t.width, delimName(delim), delimName(delim))
		}
		t.lines = append(t.lines, int32(line))
	}
	t.ends = s.ends
	if len(s.out) > 0 {
		// out is never written again, so the string can share its memory
		// instead of doubling the peak for a large file. Strings kept
		// beyond parsing (names, categories) are cloned.
		t.text = unsafe.String(&s.out[0], len(s.out))
	}
	return t, nil
}

func fields(n int) string {
	if n == 1 {
		return "1 field"
	}
	return strconv.Itoa(n) + " fields"
}

// cellKind classifies a cell's text.
type cellKind uint8

const (
	cellMissing cellKind = iota
	cellNumber
	cellNonFinite // a number outside the float64 range, or Inf
	cellText
)

// isDecimal reports whether s (its sign removed) is a decimal number as
// spreadsheets read one: digits with an optional point ("12", "1.5", "1.",
// ".5") and an optional exponent ("e-3", "E+07"). Underscores, hexadecimal
// and hexadecimal floats, which strconv.ParseFloat also takes, are not.
func isDecimal(s string) bool {
	i, digits := 0, 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// parseCell classifies s and returns its value when it is a number.
// Missing: empty, "?", and (any case) NA, N/A, NaN, NULL.
func parseCell(s string) (float64, cellKind) {
	switch len(s) {
	case 0:
		return 0, cellMissing
	case 1:
		if s == "?" {
			return 0, cellMissing
		}
	case 2, 3, 4:
		if s[0]|0x20 == 'n' && (strings.EqualFold(s, "na") || strings.EqualFold(s, "n/a") || strings.EqualFold(s, "nan") || strings.EqualFold(s, "null")) {
			return 0, cellMissing
		}
	}
	body := s
	if body[0] == '+' || body[0] == '-' {
		body = body[1:]
	}
	if body == "" {
		return 0, cellText
	}
	if c := body[0]; c != '.' && (c < '0' || c > '9') {
		if strings.EqualFold(body, "inf") || strings.EqualFold(body, "infinity") {
			return 0, cellNonFinite
		}
		return 0, cellText
	}
	if !isDecimal(body) {
		// Go's syntax extras (1_000, 0x1p4) are numbers to no spreadsheet.
		return 0, cellText
	}
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case err == nil:
	case errors.Is(err, strconv.ErrRange) && !math.IsInf(v, 0):
		// Underflow rounds to zero or a subnormal: that is the value.
	case errors.Is(err, strconv.ErrRange):
		return 0, cellNonFinite
	default:
		return 0, cellText
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, cellNonFinite
	}
	return v, cellNumber
}
