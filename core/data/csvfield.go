package data

import (
	"regexp"
	"strings"
	"sync"
)

// The rule for writing a text cell of a CSV file that a person opens in a
// spreadsheet: every host that writes CSV (ntkrf predict, the lab's
// downloads in www/lab/csv.js) applies it, and testdata/csvfield.json,
// checked by the Go and Node tests, ties the lab's copy to this one.
//
// \s is spelled out as JavaScript's, which differs from Go's and from
// unicode.IsSpace (U+FEFF is a space there, U+0085 is not).
const jsSpace = `[\t\n\v\f\r \x{00a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]`

// The field's regexps, compiled when first needed (not as the program starts).
var (
	// formulaRE: text a spreadsheet runs as a formula (OWASP, CSV
	// injection): = + - @ after any blanks, or a leading tab or CR.
	formulaRE = lazyRE(`^(?:` + jsSpace + `*[=+\-@]|[\t\r])`)
	// plainNumberRE: a decimal number ("-1", "+2.5e3") is read as a
	// number, not a formula, and written as it is.
	plainNumberRE = lazyRE(`^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$`)
	// needsQuotesRE: the delimiter, quotes and line breaks (RFC 4180),
	// leading or trailing blanks (kept only when quoted), and ';', the
	// delimiter of spreadsheets in decimal-comma locales.
	needsQuotesRE = lazyRE(`[",;\r\n]|^` + jsSpace + `|` + jsSpace + `$`)
)

// lazyRE is regexp.MustCompile(expr) on its first call.
func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// CSVField returns s as one CSV field: quoted as RFC 4180 says when it
// holds a delimiter, a quote or a line break (so a field is always one
// line of output per row), and, when a spreadsheet would run it as a
// formula, prefixed with ' and quoted, as OWASP advises.
func CSVField(s string) string {
	quoted := needsQuotesRE().MatchString(s)
	if formulaRE().MatchString(s) && !plainNumberRE().MatchString(s) {
		s, quoted = "'"+s, true
	}
	if !quoted {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
