package data

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
)

// shardsOf splits the data lines of a file (after its header) into shards
// of the given sizes, each with the header.
func shardsOf(header string, lines []string, sizes ...int) [][]byte {
	var out [][]byte
	i := 0
	for _, n := range sizes {
		out = append(out, []byte(header+"\n"+strings.Join(lines[i:i+n], "\n")+"\n"))
		i += n
	}
	return out
}

// settleShards surveys the shards (named s0, s1, … so that their order is
// the order of the names), merges them in reverse and reads each in the
// settled schema.
func settleShards(t *testing.T, shards [][]byte, opt Options) (*Schema, *mat.Dense, []float64, error) {
	t.Helper()
	merged := &Census{}
	for i := len(shards) - 1; i >= 0; i-- {
		c, err := Survey(fmt.Sprintf("s%02d", i), shards[i], opt)
		if err != nil {
			return nil, nil, nil, err
		}
		b, _ := c.MarshalBinary()
		if c, err = DecodeCensus(b); err != nil {
			t.Fatal(err)
		}
		if err := merged.Merge(c); err != nil {
			return nil, nil, nil, err
		}
	}
	s, err := merged.Settle()
	if err != nil {
		return nil, nil, nil, err
	}
	off := merged.Offsets()
	var X *mat.Dense
	var y []float64
	for i, b := range shards {
		Xi, yi, err := s.ReadLabeled(b, 0, opt.Missing == "drop")
		if err != nil {
			return nil, nil, nil, err
		}
		if off[fmt.Sprintf("s%02d", i)] != len(y) {
			t.Fatalf("shard %d: offset %d, want %d", i, off[fmt.Sprintf("s%02d", i)], len(y))
		}
		if len(yi) == 0 {
			continue
		}
		y = append(y, yi...)
		if X == nil {
			X = mat.DenseCopyOf(Xi)
		} else {
			X = stack(X, Xi)
		}
	}
	if merged.Rows() != len(y) {
		t.Fatalf("census rows %d, read %d", merged.Rows(), len(y))
	}
	return s, X, y, nil
}

func stack(a, b *mat.Dense) *mat.Dense {
	var out mat.Dense
	out.Stack(a, b)
	return &out
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestCensusLikeParse: shards surveyed, merged and read in the settled
// schema give what Parse gives the rows as one file: the schema, X and y.
func TestCensusLikeParse(t *testing.T) {
	many := func(n int, row func(i int) string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = row(i)
		}
		return out
	}
	cases := []struct {
		name   string
		header string
		lines  []string
		sizes  []int
		opt    Options
	}{
		{"numeric classes", "a,b,y", many(40, func(i int) string { return fmt.Sprintf("%d,%g,%d", i, float64(i)/7, i%3) }), []int{10, 25, 5}, Options{}},
		// An excluded text column between features, and the target by index.
		{"excluded", "a,id,b,y", many(40, func(i int) string { return fmt.Sprintf("%d,r%d,%g,%d", i, i, float64(i)/7, i%3) }), []int{10, 25, 5},
			Options{Exclude: []string{"ID"}, TargetIndex: func() *int { j := 3; return &j }()}},
		{"regression", "a,b,y", many(40, func(i int) string { return fmt.Sprintf("%d,%g,%g", i, float64(i)/7, float64(i)/3) }), []int{20, 20}, Options{}},
		// A shard sees only some classes and categories.
		{"text classes, categories", "color,x,label", many(30, func(i int) string {
			return fmt.Sprintf("%s,%d,%s", []string{"red", "green", "blue"}[i/10], i, []string{"cat", "dog"}[i/15])
		}), []int{10, 10, 10}, Options{}},
		// Numbers in two shards, text in the third: a categorical column.
		{"mixed column", "k,x,y", many(30, func(i int) string {
			k := fmt.Sprint(i % 2)
			if i >= 20 {
				k = []string{"u", "v"}[i%2]
			}
			return fmt.Sprintf("%s,%d,%g", k, i, float64(i)+0.5)
		}), []int{10, 10, 10}, Options{}},
		// Missing cells and targets; a shard whose targets are all missing.
		{"missing", "a,b,y", many(30, func(i int) string {
			a, y := fmt.Sprint(i), fmt.Sprint(i%2)
			if i%4 == 0 {
				a = "NA"
			}
			if i < 8 || i%5 == 0 {
				y = ""
			}
			return fmt.Sprintf("%s,%d,%s", a, i*i, y)
		}), []int{8, 12, 10}, Options{}},
		{"missing, drop", "a,b,y", many(30, func(i int) string {
			a := fmt.Sprint(i)
			if i%4 == 0 {
				a = "?"
			}
			return fmt.Sprintf("%s,%d,%d", a, i*i, i%2)
		}), []int{15, 15}, Options{Missing: "drop"}},
		// 60 categories in 200 rows: an identifier in a shard of 100 rows,
		// a feature in the whole file.
		{"categories over shards", "id,x,y", many(200, func(i int) string { return fmt.Sprintf("c%02d,%d,%d", i%60, i, i%2) }), []int{100, 100}, Options{}},
		// More distinct numbers than a census keeps levels of.
		{"many distinct numbers", "a,b,y", many(6000, func(i int) string { return fmt.Sprintf("%g,%d,%d", float64(i)/7, i, i%2) }), []int{2500, 3500}, Options{}},
		{"target by name, task given", "y,a,b", many(20, func(i int) string { return fmt.Sprintf("%d,%d,%d", i%4, i, i*3) }), []int{7, 13}, Options{Target: "y", Task: Regression}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			whole := []byte(c.header + "\n" + strings.Join(c.lines, "\n") + "\n")
			want, werr := Parse(whole, c.opt)
			s, X, y, err := settleShards(t, shardsOf(c.header, c.lines, c.sizes...), c.opt)
			if werr != nil || err != nil {
				t.Fatalf("Parse: %v; shards: %v", werr, err)
			}
			if ws := want.Schema(); !reflect.DeepEqual(*s, ws) {
				t.Fatalf("schema\n got %+v\nwant %+v", *s, ws)
			}
			if !sameBits(y, want.Y) || !sameBits(X.RawMatrix().Data, want.X.RawMatrix().Data) {
				t.Fatalf("rows differ:\n y %v\nwant %v", y, want.Y)
			}
		})
	}
}

// TestCensusErrors: what Parse refuses in the whole file is refused with
// the same code from the shards, though no shard alone shows it.
func TestCensusErrors(t *testing.T) {
	cases := []struct {
		name   string
		shards []string
		opt    Options
		code   check.Code
	}{
		// 9 numbers to 1 text cell: a typo, not a categorical column.
		{"stray text", []string{"a,y\n1,0\n2,1\n3,0\n4,1\n5,0\n", "a,y\n6,1\n7,0\n8,1\n9,0\nx,1\n"}, Options{}, check.Parse},
		{"other header", []string{"a,y\n1,0\n", "b,y\n1,0\n"}, Options{}, check.Parse},
		{"text regression target", []string{"a,y\n1,2.5\n", "a,y\n2,u\n"}, Options{Task: Regression}, check.Data},
		{"no target values", []string{"a,y\n1,\n", "a,y\n2,\n"}, Options{}, check.Data},
		// 60 names in 60 rows: each shard alone has 30, under the 50 allowed.
		{"identifier", []string{idShard(0, 30), idShard(30, 60)}, Options{}, check.Data},
		// Each shard holds more names than a census keeps.
		{"identifier past the levels kept", []string{idShard(0, 2500), idShard(2500, 5000)}, Options{}, check.Data},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var shards [][]byte
			var whole strings.Builder
			for i, s := range c.shards {
				shards = append(shards, []byte(s))
				if i == 0 {
					whole.WriteString(s)
				} else {
					whole.WriteString(s[strings.IndexByte(s, '\n')+1:])
				}
			}
			_, perr := Parse([]byte(whole.String()), c.opt)
			_, _, _, err := settleShards(t, shards, c.opt)
			if c.name == "other header" {
				perr = check.New(check.Parse, "", "")
			}
			if check.CodeOf(err) != check.CodeOf(perr) || check.CodeOf(err) != c.code {
				t.Fatalf("shards: %v (%s); Parse: %v (%s); want %s", err, check.CodeOf(err), perr, check.CodeOf(perr), c.code)
			}
		})
	}
}

// TestCensusMergeOnce: a shard merged twice is refused.
func TestCensusMergeOnce(t *testing.T) {
	a, err := Survey("a", []byte("x,y\n1,0\n2,1\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := &Census{}
	if err := m.Merge(a); err != nil {
		t.Fatal(err)
	}
	if err := m.Merge(a); check.CodeOf(err) != check.Value {
		t.Fatalf("second merge: %v", err)
	}
}

func idShard(lo, hi int) string {
	var b strings.Builder
	b.WriteString("id,x,y\n")
	for i := lo; i < hi; i++ {
		fmt.Fprintf(&b, "n%d,%d,%d\n", i, i, i%2)
	}
	return b.String()
}

// TestDecodeCensusRefuses: wire forms whose counts do not add up are
// refused with a coded error, not merged.
func TestDecodeCensusRefuses(t *testing.T) {
	c, err := Survey("a", []byte("x,y\n1,0\n2,1\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	good, _ := c.MarshalBinary()
	if _, err := DecodeCensus(good); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct{ from, to string }{
		{`"kept":2`, `"kept":3`},
		{`"numbers":2`, `"numbers":-2`},
		{`"missing":0`, `"missing":5`},
		{`"target":1`, `"target":7`},
		{`"a":2`, `"a":-1`},
		{`"names":["x","y"]`, `"names":["x"]`},
		{`{`, `[`},
	} {
		b := strings.Replace(string(good), bad.from, bad.to, 1)
		if b == string(good) {
			t.Fatalf("%s is not in %s", bad.from, good)
		}
		if _, err := DecodeCensus([]byte(b)); check.CodeOf(err) == "" {
			t.Errorf("%s → %s: decoded", bad.from, bad.to)
		}
	}
}

// TestCensusSize: a census keeps no levels of a column with more distinct
// cells than can be categories, so that its wire form (sent between
// workers for every shard) stays small: columns of continuous numbers
// cost a few bytes each, not thousands of strings.
func TestCensusSize(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b,c,y\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "%g,%g,%d,%d\n", float64(i)/7, float64(i*i)/3, i, i%3)
	}
	c, err := Survey("s", []byte(b.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	one, _ := c.MarshalBinary()
	if len(one) > 2000 {
		t.Fatalf("a census of 3 continuous columns is %d bytes; want < 2000", len(one))
	}
	d, _ := Survey("t", []byte(b.String()), Options{})
	if err := c.Merge(d); err != nil {
		t.Fatal(err)
	}
	if two, _ := c.MarshalBinary(); len(two) > 2000 {
		t.Fatalf("merged, %d bytes; want < 2000", len(two))
	}
}
