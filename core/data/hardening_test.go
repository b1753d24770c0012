package data

import (
	"bytes"
	"compress/gzip"
	"fmt"
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

// TestNumbersAreDecimal: a cell is a number only in the decimal syntax
// spreadsheets read; Go's extras (underscores, hexadecimal, hexadecimal
// floats) are text, and Inf spellings are refused in a numeric column.
func TestNumbersAreDecimal(t *testing.T) {
	for _, tc := range []struct {
		cell string
		kind cellKind
		v    float64
	}{
		{"12", cellNumber, 12}, {"-1.5", cellNumber, -1.5}, {"1.", cellNumber, 1}, {"+.5", cellNumber, 0.5},
		{".5e1", cellNumber, 5}, {"1E+07", cellNumber, 1e7}, {"-0", cellNumber, 0}, {"007", cellNumber, 7},
		{"1e-999", cellNumber, 0},
		{"1_0", cellText, 0}, {"1_000.5", cellText, 0}, {"0x1p4", cellText, 0}, {"0X1P-2", cellText, 0},
		{"0x_1p4", cellText, 0}, {"-0x1p4", cellText, 0}, {"0x10", cellText, 0}, {"1e", cellText, 0},
		{"1e+", cellText, 0}, {".", cellText, 0}, {"+", cellText, 0}, {"1.2.3", cellText, 0}, {"٣", cellText, 0},
		{"1e999", cellNonFinite, 0}, {"Inf", cellNonFinite, 0}, {"-inf", cellNonFinite, 0},
		{"+Infinity", cellNonFinite, 0}, {"INFINITY", cellNonFinite, 0},
		{"NaN", cellMissing, 0}, {"nan", cellMissing, 0}, {"", cellMissing, 0},
	} {
		v, k := parseCell(tc.cell)
		if k != tc.kind || k == cellNumber && v != tc.v {
			t.Errorf("parseCell(%q) = %v, kind %d; want %v, kind %d", tc.cell, v, k, tc.v, tc.kind)
		}
	}
	// A column of Go-syntax numbers is categorical; one among decimal
	// numbers is refused as a typo, naming the cell.
	ds, err := Parse([]byte("a,b,y\n0x1p4,1,0.5\n1_0,2,1.5\n0x10,3,2.5\n"), Options{})
	if err != nil || ds.Columns[0].Kind != Categorical {
		t.Errorf("hexadecimal column: %v, %+v", err, ds)
	}
	var b strings.Builder
	b.WriteString("a,y\n")
	for i := range 20 {
		fmt.Fprintf(&b, "%d,%d.5\n", i, i)
	}
	b.WriteString("1_000,3\n")
	if _, err := Parse([]byte(b.String()), Options{}); check.CodeOf(err) != check.Parse || !strings.Contains(err.Error(), `"1_000" is not a number`) {
		t.Errorf("1_000 among numbers: %v", err)
	}
	s := Schema{Columns: []Column{{Name: "a", Kind: Numeric}, {Name: "y", Kind: Numeric}}, Target: 1, TargetName: "y",
		Groups: []Group{{Column: 0, Start: 0, Width: 1}}, Task: Regression, Delimiter: ",", Header: true}
	if _, err := s.Read([]byte("a\n0x1p4\n"), 0); check.CodeOf(err) != check.Parse || !strings.Contains(err.Error(), "not a decimal number") {
		t.Errorf("Schema.Read of 0x1p4: %v", err)
	}
}

// TestAPathIsNotData: a file name or URL passed where the contents belong
// is named as such, not reported as a file without a delimiter.
func TestAPathIsNotData(t *testing.T) {
	for _, in := range []string{"testdata/iris.csv", "/home/me/data.tsv", "C:\\Users\\me\\wine.csv", "https://example.org/x", "iris.csv.gz", "./train", "~/data.xlsx"} {
		_, err := Parse([]byte(in), Options{})
		if check.CodeOf(err) != check.Parse || !strings.Contains(err.Error(), "looks like a file name") {
			t.Errorf("%q: %v", in, err)
		}
		if _, err := Preview([]byte(in+"\n"), 5, Options{}); err == nil || !strings.Contains(err.Error(), "looks like a file name") {
			t.Errorf("preview of %q: %v", in, err)
		}
	}
	// One column of words is still a file without a delimiter.
	if _, err := Parse([]byte("apple\npear\n"), Options{}); err == nil || strings.Contains(err.Error(), "file name") {
		t.Errorf("one column: %v", err)
	}
}
