package check

import (
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
