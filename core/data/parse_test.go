package data

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// sharedDir holds the project's real data sets (see its README.md).
const sharedDir = "../../../shared/data"

func gz(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkDataset verifies the invariants every successful Parse must keep.
func checkDataset(t testing.TB, d *Dataset, opt Options) {
	t.Helper()
	n, p := d.X.Dims()
	if len(d.Y) != n || len(d.FeatureNames) != p {
		t.Fatalf("X is %d×%d, len(Y) = %d, %d feature names", n, p, len(d.Y), len(d.FeatureNames))
	}
	if d.Target < 0 || d.Target >= len(d.Columns) || d.Columns[d.Target].Name != d.TargetName {
		t.Fatalf("target %d %q does not match the columns", d.Target, d.TargetName)
	}
	start := 0
	for _, g := range d.Groups {
		if g.Start != start || g.Column == d.Target || g.Categorical != (d.Columns[g.Column].Kind == Categorical) {
			t.Fatalf("group %+v out of place (want start %d)", g, start)
		}
		if g.Categorical && g.Width != len(d.Columns[g.Column].Categories) {
			t.Fatalf("group %+v has width %d, column has %d categories", g, g.Width, len(d.Columns[g.Column].Categories))
		}
		start += g.Width
	}
	if start != p || len(d.Groups) != len(d.Columns)-1 {
		t.Fatalf("groups cover %d of %d columns, %d groups for %d columns", start, p, len(d.Groups), len(d.Columns))
	}
	for i := range n {
		for j, v := range d.X.RawRowView(i) {
			if math.IsInf(v, 0) || math.IsNaN(v) && opt.Missing == "drop" {
				t.Fatalf("X[%d,%d] = %v", i, j, v)
			}
		}
	}
	for i, y := range d.Y {
		switch {
		case math.IsNaN(y) || math.IsInf(y, 0):
			t.Fatalf("Y[%d] = %v", i, y)
		case d.Task == Classification && (y != math.Trunc(y) || y < 0 || int(y) >= len(d.Classes)):
			t.Fatalf("Y[%d] = %v with %d classes", i, y, len(d.Classes))
		}
	}
	if d.Task != Classification && d.Task != Regression {
		t.Fatalf("task %q", d.Task)
	}
	missing := 0
	for _, c := range d.Columns {
		missing += c.Missing
	}
	if missing != d.MissingCells {
		t.Fatalf("MissingCells %d, columns sum to %d", d.MissingCells, missing)
	}
}

func TestSharedFiles(t *testing.T) {
	t.Parallel()
	// Rows, columns, target and task from ../../../shared/data/README.md;
	// classes counted with `cut`/`sort -u` on the target column; p is the
	// number of numeric features plus the categories of categorical ones.
	tests := []struct {
		file    string
		rows    int
		cols    int
		target  string
		task    Task
		classes int
		p       int
	}{
		{"iris.csv", 150, 5, "target", Classification, 3, 4},
		{"wine.csv", 178, 14, "target", Classification, 3, 13},
		{"breast_cancer.csv", 569, 31, "target", Classification, 2, 30},
		{"digits.csv", 1797, 65, "target", Classification, 10, 64},
		{"Sonar.csv", 208, 61, "Class", Classification, 2, 60},
		{"Ionosphere.csv", 351, 35, "Class", Classification, 2, 34},
		{"Glass.csv", 214, 10, "Type", Classification, 6, 9},
		{"Vehicle.csv", 846, 19, "Class", Classification, 4, 18},
		{"PimaIndiansDiabetes.csv", 768, 9, "diabetes", Classification, 2, 8},
		{"Satellite.csv", 6435, 37, "classes", Classification, 6, 36},
		{"LetterRecognition.csv", 20000, 17, "lettr", Classification, 26, 16},
		{"Shuttle.csv", 58000, 10, "Class", Classification, 7, 9},
		{"diabetes.csv", 442, 11, "target", Regression, 0, 10},
		{"BostonHousing.csv", 506, 14, "medv", Regression, 0, 13},
		// cut (5), color (7) and clarity (8) one-hot, six numeric.
		{"diamonds.csv", 53940, 10, "price", Regression, 0, 26},
	}
	files, err := filepath.Glob(filepath.Join(sharedDir, "*.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(tests) {
		t.Errorf("%s has %d CSV files, the table %d; add the new ones", sharedDir, len(files), len(tests))
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			b := readFile(t, filepath.Join(sharedDir, tc.file))
			opt := Options{Target: tc.target}
			d, err := Parse(b, opt)
			if err != nil {
				t.Fatal(err)
			}
			checkDataset(t, d, opt)
			n, p := d.X.Dims()
			if n != tc.rows || p != tc.p || len(d.Columns) != tc.cols || d.TargetName != tc.target ||
				d.Task != tc.task || len(d.Classes) != tc.classes || !d.Header || d.Delimiter != ',' {
				t.Errorf("got %d×%d from %d columns, target %q, %s with %d classes, header %v, delimiter %q",
					n, p, len(d.Columns), d.TargetName, d.Task, len(d.Classes), d.Header, d.Delimiter)
			}
			sameAsEncodingCSV(t, b, d)
			if d.DroppedRows != 0 || d.MissingCells != 0 {
				t.Errorf("dropped %d rows, %d missing cells; the file has none", d.DroppedRows, d.MissingCells)
			}
			if tc.target == d.Columns[len(d.Columns)-1].Name {
				d2, err := Parse(b, Options{})
				if err != nil || d2.TargetName != tc.target {
					t.Errorf("default target: %v, %v", d2.TargetName, err)
				}
			}
		})
	}
}

// sameAsEncodingCSV compares the first 2000 rows of d with the records
// read by encoding/csv (slow in wasm, hence the limit), cell by cell:
// numbers by value, categories by the one-hot position of their label, the
// target by its class label or value.
func sameAsEncodingCSV(t *testing.T, b []byte, d *Dataset) {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(b))
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil || !slices.Equal(header, columnNamesOf(d)) {
		t.Fatalf("encoding/csv reads header %q, %v", header, err)
	}
	for i := range min(len(d.Y), 2000) {
		rec, err := r.Read()
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range d.Groups {
			cell := rec[g.Column]
			if g.Categorical {
				k := slices.Index(d.Columns[g.Column].Categories, cell)
				if k < 0 || d.X.At(i, g.Start+k) != 1 {
					t.Fatalf("row %d: %q not one-hot in %s", i, cell, d.Columns[g.Column].Name)
				}
				continue
			}
			if v, _ := strconv.ParseFloat(cell, 64); d.X.At(i, g.Start) != v {
				t.Fatalf("row %d, %s: X = %v, file has %q", i, d.Columns[g.Column].Name, d.X.At(i, g.Start), cell)
			}
		}
		cell := rec[d.Target]
		if d.Task == Classification {
			if label := d.Classes[int(d.Y[i])]; label != cell && strconv.FormatFloat(mustFloat(t, cell), 'g', -1, 64) != label {
				t.Fatalf("row %d: class %q, file has %q", i, label, cell)
			}
		} else if v := mustFloat(t, cell); d.Y[i] != v {
			t.Fatalf("row %d: y = %v, file has %q", i, d.Y[i], cell)
		}
	}
}

func columnNamesOf(d *Dataset) []string {
	names := make([]string, len(d.Columns))
	for j, c := range d.Columns {
		names[j] = c.Name
	}
	return names
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSampleFiles(t *testing.T) {
	t.Parallel()
	// ../../testdata/README.md describes these files.
	tests := []struct {
		file    string
		rows, p int
		errs    []string // substrings of the error; nil means it loads
	}{
		{"iris.csv", 150, 4, nil},
		{"iris.csv.gz", 150, 4, nil},
		{"wine.csv", 178, 13, nil},
		{"BostonHousing.csv", 506, 13, nil},
		{"Glass.csv", 214, 9, nil},
		{"xss-header.csv", 4, 2, nil},
		{"bad-ragged.csv", 0, 0, []string{"line 4 has 4 fields but line 1 has 5"}},
		{"bad-number.csv", 0, 0, []string{`line 3, column 2 ("x2")`, `"1e999" is not a finite number`}},
	}
	files, _ := filepath.Glob("../../testdata/*.csv*")
	if len(files) != len(tests) {
		t.Errorf("../../testdata has %d data files, the table %d", len(files), len(tests))
	}
	for _, tc := range tests {
		d, err := Parse(readFile(t, filepath.Join("../../testdata", tc.file)), Options{})
		if tc.errs != nil {
			checkErr(t, tc.file, err, tc.errs)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if n, p := d.X.Dims(); n != tc.rows || p != tc.p {
			t.Errorf("%s: X is %d×%d, want %d×%d", tc.file, n, p, tc.rows, tc.p)
		}
	}
	plain, _ := Parse(readFile(t, "../../testdata/iris.csv"), Options{})
	zipped, _ := Parse(readFile(t, "../../testdata/iris.csv.gz"), Options{})
	if !mat.Equal(plain.X, zipped.X) || !slices.Equal(plain.Y, zipped.Y) {
		t.Error("iris.csv.gz parses differently from iris.csv")
	}
	x, _ := Parse(readFile(t, "../../testdata/xss-header.csv"), Options{})
	if x.FeatureNames[0] != "<img src=x onerror=alert(1)>" || x.Task != Classification {
		t.Errorf("xss-header.csv: names %q, task %s", x.FeatureNames, x.Task)
	}
}

func checkErr(t *testing.T, name string, err error, want []string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %q", name, want)
		return
	}
	if !strings.HasPrefix(err.Error(), "data: ") {
		t.Errorf("%s: error %q lacks the \"data: \" prefix", name, err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q does not contain %q", name, err, w)
		}
	}
}

func nan() float64 { return math.NaN() }

// sameFloats compares with NaN equal to NaN.
func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) })
}

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		opt     Options
		x       []float64 // row-major X
		y       []float64
		task    Task
		classes []string
		feat    []string
		dropped int
		missing int
	}{
		{name: "BOM, CRLF, no final newline", in: "\ufeffa,b,y\r\n1,2,0\r\n3,4,1",
			x: []float64{1, 2, 3, 4}, y: []float64{0, 1}, task: Classification, classes: []string{"0", "1"}, feat: []string{"a", "b"}},
		{name: "lone CR line endings", in: "a,b,y\r1,2,3.5\r3,4,1.25\r",
			x: []float64{1, 2, 3, 4}, y: []float64{3.5, 1.25}, task: Regression, feat: []string{"a", "b"}},
		{name: "blank lines", in: "\n\na,y\n\n1,2.5\n  \n3,4.5\n\n",
			x: []float64{1, 3}, y: []float64{2.5, 4.5}, task: Regression, feat: []string{"a"}},
		{name: "quoted numbers, delimiters, quotes and newlines", in: "\"a\",\"b, c\",y\n\"5.1\",\"x \"\"q\"\"\",1.5\n\" 2 \",\"multi\nline\",2.5\n",
			x: []float64{5.1, 0, 1, 2, 1, 0}, y: []float64{1.5, 2.5}, task: Regression, feat: []string{"a", "b, c=multi\nline", "b, c=x \"q\""}},
		{name: "semicolon", in: "a;b;y\n1;2;0.5\n3;4;1.5\n",
			x: []float64{1, 2, 3, 4}, y: []float64{0.5, 1.5}, task: Regression, feat: []string{"a", "b"}},
		{name: "tab with spaces in values", in: "a\tb\ty\n1\tbig red\t0.5\n3\tsmall\t1.5\n",
			x: []float64{1, 1, 0, 3, 0, 1}, y: []float64{0.5, 1.5}, task: Regression, feat: []string{"a", "b=big red", "b=small"}},
		{name: "pipe", in: "a|y\n1|0.5\n3|1.5\n",
			x: []float64{1, 3}, y: []float64{0.5, 1.5}, task: Regression, feat: []string{"a"}},
		{name: "no header detected", in: "1,2,0\n3,4,1\n",
			x: []float64{1, 2, 3, 4}, y: []float64{0, 1}, task: Classification, classes: []string{"0", "1"}, feat: []string{"column 1", "column 2"}},
		{name: "header of numbers over a text target", in: "0,1,label\n1,2,a\n3,4,b\n",
			x: []float64{0, 1, 1, 2, 3, 4}, y: []float64{2, 0, 1}, task: Classification, classes: []string{"a", "b", "label"}, feat: []string{"column 1", "column 2"}},
		{name: "header forced", in: "0,1,label\n1,2,a\n3,4,b\n", opt: Options{Header: "yes"},
			x: []float64{1, 2, 3, 4}, y: []float64{0, 1}, task: Classification, classes: []string{"a", "b"}, feat: []string{"0", "1"}},
		{name: "pandas index header", in: ",x,y\n0,1.5,a\n1,2.5,b\n",
			x: []float64{0, 1.5, 1, 2.5}, y: []float64{0, 1}, task: Classification, classes: []string{"a", "b"}, feat: []string{"column 1", "x"}},
		{name: "categories sorted, one-hot", in: "color,y\nred,1.5\nblue,2.5\ngreen,3.5\nred,4.5\n",
			x: []float64{0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1}, y: []float64{1.5, 2.5, 3.5, 4.5}, task: Regression, feat: []string{"color=blue", "color=green", "color=red"}},
		{name: "missing values impute", in: "a,c,y\n1,u,0.5\nNA,?,1.5\n,v,2.5\nNaN,null,3.5\nn/a,u,4.5\n",
			x: []float64{1, 1, 0, nan(), nan(), nan(), nan(), 0, 1, nan(), nan(), nan(), nan(), 1, 0}, y: []float64{0.5, 1.5, 2.5, 3.5, 4.5},
			task: Regression, feat: []string{"a", "c=u", "c=v"}, missing: 6},
		{name: "missing values drop", in: "a,c,y\n1,u,0.5\nNA,?,1.5\n,v,2.5\n2,v,3.5\n", opt: Options{Missing: "drop"},
			x: []float64{1, 1, 0, 2, 0, 1}, y: []float64{0.5, 3.5}, task: Regression, feat: []string{"a", "c=u", "c=v"}, dropped: 2, missing: 3},
		{name: "missing target dropped", in: "a,y\n1,a\n2,\n3,b\n",
			x: []float64{1, 3}, y: []float64{0, 1}, task: Classification, classes: []string{"a", "b"}, feat: []string{"a"}, dropped: 1, missing: 1},
		{name: "numeric classes sorted by value", in: "a,y\n1,10\n2,9\n3,1.0\n4,10\n5,9\n6,1\n",
			x: []float64{1, 2, 3, 4, 5, 6}, y: []float64{2, 1, 0, 2, 1, 0}, task: Classification, classes: []string{"1", "9", "10"}, feat: []string{"a"}},
		{name: "few integers but one per row is regression", in: "a,y\n1,10\n2,9\n3,1\n",
			x: []float64{1, 2, 3}, y: []float64{10, 9, 1}, task: Regression, feat: []string{"a"}},
		{name: "task forced to classification", in: "a,y\n1,0.5\n2,1.5\n3,0.5\n", opt: Options{Task: Classification},
			x: []float64{1, 2, 3}, y: []float64{0, 1, 0}, task: Classification, classes: []string{"0.5", "1.5"}, feat: []string{"a"}},
		{name: "task forced to regression", in: "a,y\n1,0\n2,1\n3,0\n4,1\n", opt: Options{Task: Regression},
			x: []float64{1, 2, 3, 4}, y: []float64{0, 1, 0, 1}, task: Regression, feat: []string{"a"}},
		{name: "single row", in: "1,2,3\n",
			x: []float64{1, 2}, y: []float64{0}, task: Classification, classes: []string{"3"}, feat: []string{"column 1", "column 2"}},
		{name: "single class", in: "a,y\n1,k\n2,k\n",
			x: []float64{1, 2}, y: []float64{0, 0}, task: Classification, classes: []string{"k"}, feat: []string{"a"}},
		{name: "duplicate names", in: "a,a,a.1,y\n1,2,3,0.5\n4,5,6,1.5\n",
			x: []float64{1, 2, 3, 4, 5, 6}, y: []float64{0.5, 1.5}, task: Regression, feat: []string{"a", "a.1", "a.1.1"}},
		{name: "target by index", in: "y,a\n0.5,1\n1.5,2\n", opt: Options{TargetIndex: new(0)},
			x: []float64{1, 2}, y: []float64{0.5, 1.5}, task: Regression, feat: []string{"a"}},
		{name: "target named with digits", in: "a,7,b\n1,0.5,2\n3,1.5,4\n", opt: Options{Target: "7"},
			x: []float64{1, 2, 3, 4}, y: []float64{0.5, 1.5}, task: Regression, feat: []string{"a", "b"}},
		{name: "target any case", in: "a,Price\n1,0.5\n2,1.5\n", opt: Options{Target: " price"},
			x: []float64{1, 2}, y: []float64{0.5, 1.5}, task: Regression, feat: []string{"a"}},
		{name: "extreme finite values", in: "a,y\n1e308,0.5\n-1.7976931348623157e308,1.5\n1e-999,2.5\n",
			x: []float64{1e308, -math.MaxFloat64, 0}, y: []float64{0.5, 1.5, 2.5}, task: Regression, feat: []string{"a"}},
		{name: "trailing delimiter", in: "a,b,y,\n1,2,0.5,\n3,4,1.5,\n",
			x: []float64{1, 2, 3, 4}, y: []float64{0.5, 1.5}, task: Regression, feat: []string{"a", "b"}},
		{name: "explicit delimiter", in: "a b y\n1 2 0.5\n3 4 1.5\n", opt: Options{Delimiter: ' '},
			x: []float64{1, 2, 3, 4}, y: []float64{0.5, 1.5}, task: Regression, feat: []string{"a", "b"}},
		{name: "Ctrl-Z at the end", in: "a,y\n1,0.5\n2,1.5\n\x1a",
			x: []float64{1, 2}, y: []float64{0.5, 1.5}, task: Regression, feat: []string{"a"}},
		// A record whose first field is empty is a record with a missing
		// value, not a blank line; only a line with nothing on it is blank.
		{name: "empty first field of two", in: "a,y\n1,0.5\n,1.5\n2,2.5\n",
			x: []float64{1, nan(), 2}, y: []float64{0.5, 1.5, 2.5}, task: Regression, feat: []string{"a"}, missing: 1},
		{name: "empty first field, no header", in: "1,0.5\n,1.5\n2,2.5\n", opt: Options{Header: "no"},
			x: []float64{1, nan(), 2}, y: []float64{0.5, 1.5, 2.5}, task: Regression, feat: []string{"column 1"}, missing: 1},
		{name: "record of empty fields", in: "a,y\n1,0.5\n,\n2,2.5\n",
			x: []float64{1, 2}, y: []float64{0.5, 2.5}, task: Regression, feat: []string{"a"}, dropped: 1, missing: 2},
		{name: "quote inside an unquoted field", in: "h,y\n5'11\",0.5\n6'1\",1.5\n",
			x: []float64{1, 0, 0, 1}, y: []float64{0.5, 1.5}, task: Regression, feat: []string{"h=5'11\"", "h=6'1\""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, in := range [][]byte{[]byte(tc.in), gz(t, []byte(tc.in))} {
				d, err := Parse(in, tc.opt)
				if err != nil {
					t.Fatal(err)
				}
				checkDataset(t, d, tc.opt)
				if got := d.X.RawMatrix().Data; !sameFloats(got, tc.x) {
					t.Errorf("X = %v, want %v", got, tc.x)
				}
				if !slices.Equal(d.Y, tc.y) || d.Task != tc.task || !slices.Equal(d.Classes, tc.classes) {
					t.Errorf("Y = %v (%s, classes %q), want %v (%s, %q)", d.Y, d.Task, d.Classes, tc.y, tc.task, tc.classes)
				}
				if !slices.Equal(d.FeatureNames, tc.feat) {
					t.Errorf("features %q, want %q", d.FeatureNames, tc.feat)
				}
				if d.DroppedRows != tc.dropped || d.MissingCells != tc.missing {
					t.Errorf("dropped %d, missing %d; want %d, %d", d.DroppedRows, d.MissingCells, tc.dropped, tc.missing)
				}
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	manyIDs := "id,y\n"
	for i := range 200 {
		manyIDs += "u" + strings.Repeat("x", i) + ",1\n"
	}
	tests := []struct {
		name string
		in   []byte
		opt  Options
		want []string
	}{
		{"empty", nil, Options{}, []string{"empty"}},
		{"blank lines only", []byte("\n\r\n  \n"), Options{}, []string{"empty"}},
		{"binary", []byte("a,b\n\x00\x01\x02\x03,\x04\n"), Options{}, []string{"does not look like text", "line 2"}},
		{"control characters", bytes.Repeat([]byte{7, 'a', ',', 'b', '\n'}, 50), Options{}, []string{"does not look like text"}},
		{"zip", []byte("PK\x03\x04rest"), Options{}, []string{"ZIP", "save the sheet as CSV"}},
		{"utf-16", []byte("\xff\xfea\x00,\x00"), Options{}, []string{"UTF-16"}},
		{"latin-1", []byte("a,b\n1,caf\xe9\n"), Options{}, []string{"line 2 is not valid UTF-8", "0xe9"}},
		{"one column", []byte("a\n1\n2\n"), Options{}, []string{"no delimiter"}},
		{"one column, given delimiter", []byte("a\n1\n2\n"), Options{Delimiter: ','}, []string{"single field", "comma"}},
		{"ragged", []byte("a,b,c,d,y\n1,2,3,4,5\n1,2,3,4,5\n\n1,2,3,4\n"), Options{}, []string{"line 5 has 4 fields but line 1 has 5"}},
		{"ragged after a multi-line quote", []byte("a,b\n\"x\ny\",1\n1,2,3\n"), Options{Delimiter: ','}, []string{"line 4 has 3 fields"}},
		{"ragged by one field", []byte("a\tb\n1\t2\n3\n"), Options{}, []string{"line 3 has 1 field but line 1 has 2", "tab"}},
		{"unterminated quote, delimiter detected", []byte("a,b\n\"1,2\n3,4\n"), Options{}, []string{"line 2: the quoted value in field 1", "no closing quote"}},
		{"header only", []byte("a,b,c\n"), Options{}, []string{"no data rows"}},
		{"unknown target", []byte("a,b\n1,2\n"), Options{Target: "c"}, []string{`no column is named "c"; the columns are "a", "b"`}},
		{"target index out of range", []byte("a,b\n1,2\n"), Options{TargetIndex: new(2)}, []string{"index 2 is out of range", "0…1"}},
		{"digits are a name", []byte("a,b\n1,2\n"), Options{Target: "1"}, []string{`no column is named "1"`, "give the index as a number"}},
		{"overflow", []byte("x1,x2,y\n1,2,3\n4,-1e999,6\n"), Options{}, []string{`line 3, column 2 ("x2")`, "not a finite number"}},
		{"inf literal", []byte("x1,x2,y\r\n1,2,3\r\nInf,5,6\r\n"), Options{}, []string{`line 3, column 1 ("x1")`, `"Inf"`}},
		{"typo in a numeric column", []byte("a,y\n1,1\n2,2\n3,3\n4,4\n5,5\n6,6\n7,7\n8,8\n9,9\n1O,10\n"), Options{}, []string{`line 11, column 1 ("a"): "1O" is not a number, but 9 of the column's 10`}},
		{"unterminated quote", []byte("a,b\n1,\"2\n3,4\n"), Options{Delimiter: ','}, []string{"line 2", "field 2", "no closing quote"}},
		{"text after a closing quote", []byte("a,b\n1,\"2\"x\n"), Options{Delimiter: ','}, []string{"line 2", `'x' follows the closing quote of field 2`}},
		{"ambiguous delimiter", []byte("a;b,c\n1;2,3\n"), Options{}, []string{"ambiguous", "comma (2 columns) and semicolon (2 columns)"}},
		{"over the size limit", []byte("a,b\n1,2\n"), Options{MaxBytes: 5}, []string{"8 B, over the 5 B limit"}},
		{"gzip bomb", gz(t, []byte("a,b\n"+strings.Repeat("1,2\n", 1<<18))), Options{MaxBytes: 1 << 20}, []string{"decompresses to more than the 1.0 MB limit"}},
		{"damaged gzip header", []byte{0x1f, 0x8b, 1, 2}, Options{}, []string{"gzip", "damaged"}},
		{"damaged gzip data", func() []byte { b := gz(t, []byte("a,b\n1,2\n")); b[len(b)-6] ^= 0xff; return b }(), Options{}, []string{"gzip data is damaged"}},
		{"text target for regression", []byte("a,y\n1,u\n2,v\n"), Options{Task: Regression}, []string{`"y" is not numeric`, `"u"`}},
		{"target without values", []byte("a,y\n1,NA\n2,\n"), Options{}, []string{`"y" has no values`}},
		{"every row missing something", []byte("a,b,y\n1,,1\n,2,2\n"), Options{Missing: "drop"}, []string{"every row has a missing value", "impute"}},
		{"identifier column", []byte(manyIDs), Options{}, []string{`column 1 ("id") has 200 distinct text values in 200 rows`}},
		{"too many classes", []byte("a,y\n" + strings.Repeat("1,2.5\n", 3) + func() string {
			var b strings.Builder
			for i := range MaxClasses + 1 {
				b.WriteString("1," + strings.Repeat("z", i+1) + "\n")
			}
			return b.String()
		}()), Options{Task: Classification}, []string{fmt.Sprintf("more than the %d classes", MaxClasses)}},
		{"bad task", []byte("a,b\n1,2\n"), Options{Task: "cluster"}, []string{`unknown task "cluster"`}},
		{"bad missing", []byte("a,b\n1,2\n"), Options{Missing: "zero"}, []string{`unknown missing-value handling "zero"`}},
		{"bad header", []byte("a,b\n1,2\n"), Options{Header: "maybe"}, []string{`unknown header setting "maybe"`}},
		{"bad delimiter", []byte("a,b\n1,2\n"), Options{Delimiter: 'x'}, []string{`delimiter 'x' cannot separate fields`}},
		{"non-ASCII delimiter", []byte("a,b\n1,2\n"), Options{Delimiter: '·'}, []string{"cannot separate fields"}},
		{"bad MaxBytes", []byte("a,b\n1,2\n"), Options{MaxBytes: -1}, []string{"MaxBytes -1 is out of range"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tc.in, tc.opt)
			checkErr(t, tc.name, err, tc.want)
		})
	}
}

func TestPreview(t *testing.T) {
	t.Parallel()
	iris := readFile(t, "../../testdata/iris.csv")
	big := append([]byte("a,\"b\"\n"), bytes.Repeat([]byte("1,\"x\ny\"\n"), previewBytes/4)...)
	tests := []struct {
		name  string
		in    []byte
		rows  int
		names []string
		first []string
		n     int
		more  bool
	}{
		{"iris", iris, 2, []string{"sepal_length_(cm)", "sepal_width_(cm)", "petal_length_(cm)", "petal_width_(cm)", "target"}, []string{"5.1", "3.5", "1.4", "0.2", "0"}, 2, true},
		{"iris gzip", readFile(t, "../../testdata/iris.csv.gz"), 200, nil, []string{"5.1", "3.5", "1.4", "0.2", "0"}, 150, false},
		{"cut inside a quoted field", big, 10, []string{"a", "b"}, []string{"1", "x\ny"}, 10, true},
		{"big gzip cut inside a quoted field", gz(t, big), MaxPreviewRows, []string{"a", "b"}, []string{"1", "x\ny"}, MaxPreviewRows, true},
		{"no header", []byte("1;2\n3;4\n"), 5, []string{"column 1", "column 2"}, []string{"1", "2"}, 2, false},
	}
	for _, tc := range tests {
		p, err := Preview(tc.in, tc.rows, Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if tc.names != nil && !slices.Equal(p.Names, tc.names) || !slices.Equal(p.Rows[0], tc.first) || len(p.Rows) != tc.n || p.More != tc.more {
			t.Errorf("%s: names %q, first row %q, %d rows, more %v", tc.name, p.Names, p.Rows[0], len(p.Rows), p.More)
		}
	}
	for _, rows := range []int{0, MaxPreviewRows + 1} {
		_, err := Preview(iris, rows, Options{})
		checkErr(t, "preview rows", err, []string{"preview rows"})
	}
	_, err := Preview([]byte("a\x00b"), 3, Options{})
	checkErr(t, "preview binary", err, []string{"does not look like text"})
}

var sinkDataset *Dataset

func benchmarkParse(b *testing.B, file, target string) {
	buf := readFile(b, filepath.Join(sharedDir, file))
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		d, err := Parse(buf, Options{Target: target})
		if err != nil {
			b.Fatal(err)
		}
		sinkDataset = d
	}
}

func BenchmarkParse_Diamonds(b *testing.B) { benchmarkParse(b, "diamonds.csv", "price") }
func BenchmarkParse_Shuttle(b *testing.B)  { benchmarkParse(b, "Shuttle.csv", "Class") }
func BenchmarkParse_Digits(b *testing.B)   { benchmarkParse(b, "digits.csv", "target") }

func ptr(j int) *int { return &j }
