package check

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuoteCapsWhatAMessageHolds(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"", `""`},
		{"yes\nreally", `"yes\nreally"`},
		{strings.Repeat("a", MaxQuoted), `"` + strings.Repeat("a", MaxQuoted) + `"`},
		{strings.Repeat("a", 30<<20), `"` + strings.Repeat("a", MaxQuoted) + `"… (31457280 bytes)`},
		// A cut never splits a character: "é" is 2 bytes, so 63 bytes of
		// "a" then "é" keeps only the 63.
		{strings.Repeat("a", MaxQuoted-1) + "é" + strings.Repeat("b", 10), `"` + strings.Repeat("a", MaxQuoted-1) + `"… (75 bytes)`},
	} {
		got := Quote(tc.in)
		if got != tc.want {
			t.Errorf("Quote(%d bytes) = %.100s, want %.100s", len(tc.in), got, tc.want)
		}
		if len(got) > 2*MaxQuoted+40 || !utf8.ValidString(got) {
			t.Errorf("Quote(%d bytes) is %d bytes", len(tc.in), len(got))
		}
	}
}

func TestCutLeavesShortNamesAlone(t *testing.T) {
	if got := Cut("features.dim"); got != "features.dim" {
		t.Errorf("Cut = %q", got)
	}
	if got := Cut(strings.Repeat("é", 1000)); got != strings.Repeat("é", MaxQuoted/2)+"…" {
		t.Errorf("Cut = %q", got)
	}
}

// TestQuoteLimitMatchesThePackage: the JavaScript package cuts a quoted
// value where Go does (errors.js QUOTE_CHARS = MaxQuoted), so a value is
// shown alike whichever side refuses it.
func TestQuoteLimitMatchesThePackage(t *testing.T) {
	js, err := os.ReadFile("../../www/pkg/errors.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^export const QUOTE_CHARS = (\d+);`).FindSubmatch(js)
	if m == nil {
		t.Fatal("errors.js declares no QUOTE_CHARS")
	}
	if n, _ := strconv.Atoi(string(m[1])); n != MaxQuoted {
		t.Errorf("errors.js QUOTE_CHARS is %d; Go's MaxQuoted is %d", n, MaxQuoted)
	}
}
