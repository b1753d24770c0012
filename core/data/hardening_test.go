package data

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"

	"ntkrf/internal/check"
)

func TestDecimalCommaIsRefusedWithItsName(t *testing.T) {
	for _, in := range []string{
		"a;b;c\n1,5;2,25;x\n3,1;4;y\n5,2;1,5;x\n",
		"a,b\n\"-0,5\",1\n\"2,0\",2\n\"3\",3\n",
	} {
		_, err := Parse([]byte(in), Options{})
		if err == nil || !strings.Contains(err.Error(), "decimal comma") || check.CodeOf(err) != check.Parse {
			t.Errorf("%q: got %v, want a decimal comma error", in, err)
		}
	}
	// Categories that merely contain commas are categories.
	if _, err := Parse([]byte("a,b\n\"x,1\",1\n\"y,2\",2\n\"3\",3\n"), Options{Task: "regression"}); err != nil {
		t.Errorf("text with commas: %v", err)
	}
}

func TestTargetIndexIsNeverAName(t *testing.T) {
	in := []byte("label,0,1,2\nx,5,0.1,7\ny,6,0.2,8\nx,7,0.3,9\ny,8,0.4,1\n")
	zero := 0
	ds, err := Parse(in, Options{TargetIndex: &zero, Header: "yes"})
	if err != nil {
		t.Fatal(err)
	}
	if ds.TargetName != "label" {
		t.Errorf("TargetIndex 0 picked %q, want the first column", ds.TargetName)
	}
	ds, err = Parse(in, Options{Target: "0", Header: "yes", Task: "regression"})
	if err != nil || ds.TargetName != "0" {
		t.Errorf("Target \"0\" picked %v (%v), want the column named 0", ds, err)
	}
	nine := 9
	if _, err := Parse(in, Options{TargetIndex: &nine}); check.CodeOf(err) != check.Option {
		t.Errorf("index 9: %v", err)
	}
}

// A small gzip file of tiny cells must be refused before its cells are
// allocated: the estimate counts cells, not only bytes.
func TestParseMemoryIsEstimatedPerCell(t *testing.T) {
	text := []byte(strings.Repeat(strings.Repeat("0,", 99)+"0\n", 1000)) // 100,000 cells in 200 kB
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(text)
	w.Close()
	err := checkParseMemory(gz.Len(), text, 1e6)
	if check.CodeOf(err) != check.TooLarge || !strings.Contains(err.Error(), "too large once decompressed") {
		t.Errorf("got %v", err)
	}
	if err := checkParseMemory(len(text), text, 1e6); err == nil || strings.Contains(err.Error(), "decompressed") {
		t.Errorf("plain text: got %v", err)
	}
	if err := checkParseMemory(len(text), text, 3e6); err != nil {
		t.Errorf("within the limit: %v", err)
	}
}
