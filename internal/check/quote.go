package check

import (
	"strconv"
	"unicode/utf8"
)

// MaxQuoted is the most bytes of a user's string (a cell, a column or class
// name, an option value) that a message quotes: a 30 MB cell quoted whole
// would make a 30 MB message, which no alert or terminal can show.
const MaxQuoted = 64

// MaxListed is the most characters of a list of names (an object's keys)
// that a message of the JavaScript package shows before "… (N more)".
const MaxListed = 200

// MaxMessage is the most characters of any message, whatever it quotes: the
// package cuts every message to it, Go's included, and Go's stay under it
// (a test in jsbridge holds them to it).
const MaxMessage = 2000

// Quote returns s quoted as Go's %q does (so line breaks and control
// characters stay visible), cut to its first MaxQuoted bytes on a character
// boundary with "…" and the full length after the quotes when it is longer:
// "abc…" (31457280 bytes). Every message that quotes a user's string
// quotes it through Quote; v may be of a named string type (rf.Method).
func Quote[S ~string](v S) string {
	s := string(v)
	if len(s) <= MaxQuoted {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:cut(s)]) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// Cut returns s unquoted, cut as Quote cuts it, with "…" at the end when
// it was longer: for names a message shows bare (an option path) or an
// error carries in a field (Error.Option).
func Cut(s string) string {
	if len(s) <= MaxQuoted {
		return s
	}
	return s[:cut(s)] + "…"
}

// cut is the length of s's longest prefix of at most MaxQuoted bytes that
// ends on a character boundary.
func cut(s string) int {
	n := MaxQuoted
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}
