package data

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ntkrf/internal/check"
)

// fuzzOptions decodes the option byte of FuzzParse.
func fuzzOptions(o byte) Options {
	opt := Options{MaxBytes: 1 << 20}
	if o&1 != 0 {
		opt.Missing = "drop"
	}
	opt.Header = []string{"", "yes", "no", "auto"}[o>>1&3]
	opt.Task = []Task{"", Classification, Regression, "auto"}[o>>3&3]
	opt.Delimiter = []rune{0, 0, ';', '\t'}[o>>5&3]
	if o&0x80 != 0 {
		opt.TargetIndex = new(0)
	}
	return opt
}

// hangLimit flags a hang, not slowness: fuzz inputs are at most 1 MiB,
// which the linear parser reads in well under a second even in wasm.
const hangLimit = 10 * time.Second

// fuzzSeeds cuts every shared file at a few points and mutates the cuts:
// flipped bytes, other delimiters, a stray quote, CR line endings, gzip.
func fuzzSeeds(f *testing.F) [][]byte {
	files, err := filepath.Glob(filepath.Join(sharedDir, "*.csv"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed files in %s: %v", sharedDir, err)
	}
	var seeds [][]byte
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, cut := range []int{100, 700, 3000} {
			p := b[:min(cut, len(b))]
			seeds = append(seeds, p)
			flipped := bytes.Clone(p)
			for i := 7; i < len(flipped); i += 97 {
				flipped[i] ^= 0x5a
			}
			seeds = append(seeds, flipped,
				bytes.ReplaceAll(p, []byte(","), []byte(";")),
				bytes.ReplaceAll(p, []byte(","), []byte("\t")),
				bytes.ReplaceAll(p, []byte("\n"), []byte("\r")),
				append(bytes.Clone(p[:len(p)/2]), append([]byte{'"'}, p[len(p)/2:]...)...))
		}
		seeds = append(seeds, gz(f, b[:min(1000, len(b))]))
	}
	return seeds
}

// sameRecordsAsEncodingCSV compares the number of data rows and of fields
// per row that Parse found with encoding/csv's reading of the same text,
// on the inputs where the two define a record alike:
//   - the delimiter is a comma and gzip is undone first;
//   - every CR is part of a CRLF: encoding/csv keeps a lone CR as data,
//     where Parse (like a text editor) ends the line;
//   - encoding/csv, strict about quotes and equal field counts, reads the
//     whole text. That leaves out Parse's documented leniencies: blanks
//     around a quoted field, a quote inside an unquoted one, and lines
//     of spaces (which encoding/csv reads as a record of one field while
//     Parse skips them as blank; empty lines both skip).
//
// Otherwise every record is a row: a header (if Parse saw one), then kept
// or dropped data rows. The fields are the columns, but for one documented
// difference: an unnamed last column with no values (a delimiter ending
// every line) is not a column.
func sameRecordsAsEncodingCSV(t *testing.T, b []byte, d *Dataset) {
	t.Helper()
	if d.Delimiter != ',' {
		return
	}
	if len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("Parse read gzip that gzip cannot: %v", err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatalf("Parse read gzip that gzip cannot: %v", err)
		}
	}
	if bytes.Count(b, []byte("\r")) != bytes.Count(b, []byte("\r\n")) {
		return
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil || len(recs) == 0 {
		return
	}
	data := recs
	if d.Header {
		data = recs[1:]
	}
	if rows := len(d.Y) + d.DroppedRows; rows != len(data) {
		t.Fatalf("Parse found %d data rows (%d kept, %d dropped), encoding/csv %d", rows, len(d.Y), d.DroppedRows, len(data))
	}
	width := len(recs[0])
	if len(d.Columns) == width {
		return
	}
	emptyLast := width > 2 && len(d.Columns) == width-1 && (!d.Header || blankCell(recs[0][width-1]))
	for _, r := range data {
		emptyLast = emptyLast && missingCell(r[width-1])
	}
	if !emptyLast {
		t.Fatalf("Parse found %d columns, encoding/csv %d fields per record", len(d.Columns), width)
	}
}

// blankCell reports whether a header cell is empty but for blanks.
func blankCell(s string) bool { return strings.Trim(s, " \t") == "" }

// missingCell reports whether a cell is a missing value as the package doc
// defines it: empty, "?", NA, N/A, NaN or NULL, blanks around ignored.
func missingCell(s string) bool {
	s = strings.Trim(s, " \t")
	for _, m := range []string{"", "?", "NA", "N/A", "NaN", "NULL"} {
		if strings.EqualFold(s, m) {
			return true
		}
	}
	return false
}

func FuzzParse(f *testing.F) {
	for i, s := range fuzzSeeds(f) {
		f.Add(s, byte(i))
	}
	// Records that look blank but are not, and the documented differences
	// from encoding/csv (option byte 0: everything detected).
	for _, s := range []string{"a,y\n1,0.5\n,1.5\n2,2.5\n", "a,y\n1,0.5\n,\n2,2.5\n", "a,b,y,\n1,2,0.5,\n3,4,1.5,NA\n",
		"a,y\n\n1,\"x\n\"\"y\"\"\"\n  \n2,z\n", "a,y\r\n1,2\r\n3,4\r4,5\n"} {
		f.Add([]byte(s), byte(0))
	}
	f.Fuzz(func(t *testing.T, b []byte, o byte) {
		opt := fuzzOptions(o)
		start := time.Now()
		d, err := Parse(b, opt)
		if elapsed := time.Since(start); elapsed > hangLimit {
			t.Fatalf("Parse took %v on %d bytes", elapsed, len(b))
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "data: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			if check.CodeOf(err) == "" {
				t.Fatalf("error without a code: %v", err)
			}
			if len(err.Error()) > 1000 {
				t.Fatalf("a %d-byte message: %.200s", len(err.Error()), err)
			}
		} else {
			checkDataset(t, d, opt)
			sameRecordsAsEncodingCSV(t, b, d)
			if n, _ := d.X.Dims(); n > len(b) {
				t.Fatalf("%d rows from %d bytes", n, len(b))
			}
			s, err := Fit(d.X, d.Groups, Prep{UnitNorm: true})
			if err != nil {
				t.Fatalf("Fit on parsed data: %v", err)
			}
			Z, err := s.Apply(nil, d.X)
			if err != nil {
				t.Fatalf("Apply on parsed data: %v", err)
			}
			for _, v := range Z.RawMatrix().Data {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("preprocessed X holds %v", v)
				}
			}
		}
		p, err := Preview(b, 3, opt)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "data: ") || check.CodeOf(err) == "" {
				t.Fatalf("preview error without prefix or code: %v", err)
			}
			return
		}
		if len(p.Rows) > 3 {
			t.Fatalf("preview of 3 rows has %d", len(p.Rows))
		}
		for _, r := range p.Rows {
			if len(r) != len(p.Names) {
				t.Fatalf("preview row %q for names %q", r, p.Names)
			}
		}
	})
}
