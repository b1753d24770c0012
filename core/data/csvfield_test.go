package data

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestCSVFieldVectors: the Go rule gives every field of the shared vectors,
// which test/csvfield.test.js holds the lab's csv.js to as well.
func TestCSVFieldVectors(t *testing.T) {
	t.Parallel()
	var v struct {
		Cases [][2]string `json:"cases"`
	}
	b, err := os.ReadFile("../../testdata/csvfield.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Cases) < 20 {
		t.Fatalf("%d cases", len(v.Cases))
	}
	for _, c := range v.Cases {
		if got := CSVField(c[0]); got != c[1] {
			t.Errorf("CSVField(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}

// A field never spans lines unquoted: one line of output per row whatever a
// name holds, and a formula never reaches a spreadsheet as one.
func TestCSVFieldIsOneRecord(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"yes\nreally", "a\rb", "\"", "=cmd|' /C calc'!A0", "@x", "-2+3", "\t=1"} {
		f := CSVField(s)
		unquoted := f
		if strings.HasPrefix(f, `"`) {
			unquoted = strings.ReplaceAll(f[1:len(f)-1], `""`, `"`)
		}
		if !strings.HasPrefix(f, `"`) && strings.ContainsAny(f, "\r\n\"") {
			t.Errorf("CSVField(%q) = %q: a line break or quote outside quotes", s, f)
		}
		if strings.TrimLeft(unquoted, " \t")[0] != '\'' && strings.ContainsAny(unquoted[:1], "=+-@\t\r") {
			t.Errorf("CSVField(%q) = %q: a formula", s, f)
		}
	}
}
