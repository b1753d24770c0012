package data

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"ntkrf/core/errs"
	"ntkrf/internal/check"
)

const excludeCSV = "Id,Size,Color,Class\n1001,1,red,a\n1002,2,blue,b\n1003,3,red,a\n1004,4,blue,b\n"

// TestParseExclude: excluded columns are left out of X and kept by name in
// the schema, which reads new files with or without them, wherever they
// stand.
func TestParseExclude(t *testing.T) {
	idx := func(j int) *int { return &j }
	cases := []struct {
		name     string
		csv      string
		opt      Options
		excluded []string
		columns  []string
		features []string
		newFile  string // read with the schema; its rows must give X's first rows
	}{
		{"by name", excludeCSV, Options{Exclude: []string{"Id"}}, []string{"Id"}, []string{"Size", "Color", "Class"},
			[]string{"Size", "Color=blue", "Color=red"}, "Color,Size,Id\nred,1,9\nblue,2,8\n"},
		{"case-insensitive, repeated", excludeCSV, Options{Exclude: []string{"id", "Id"}}, []string{"Id"}, []string{"Size", "Color", "Class"},
			[]string{"Size", "Color=blue", "Color=red"}, "Size,Color\n1,red\n2,blue\n"},
		{"two, target by index", excludeCSV, Options{Exclude: []string{"Id", "Class"}, TargetIndex: idx(2)}, []string{"Id", "Class"}, []string{"Size", "Color"},
			[]string{"Size"}, "Id,Size,Color,Class\n5,1,red,z\n6,2,blue,y\n"},
		// An excluded column is never read as an input: its decimal commas are not refused.
		{"not read", "Id;Size;Class\n1,5;1;a\n2,5;2;b\n3,5;3;a\n", Options{Exclude: []string{"Id"}}, []string{"Id"}, []string{"Size", "Class"},
			[]string{"Size"}, "Id;Size\n9,5;1\n8,5;2\n"},
		{"no header", "1001,1,a\n1002,2,b\n1003,3,a\n", Options{Exclude: []string{"column 1"}}, []string{"column 1"}, []string{"column 2", "column 3"},
			[]string{"column 2"}, "77,1\n88,2\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Parse([]byte(c.csv), c.opt)
			if err != nil {
				t.Fatal(err)
			}
			var cols []string
			for _, col := range d.Columns {
				cols = append(cols, col.Name)
			}
			if !slices.Equal(d.Excluded, c.excluded) || !slices.Equal(cols, c.columns) || !slices.Equal(d.FeatureNames, c.features) {
				t.Fatalf("excluded %q, columns %q, features %q; want %q, %q, %q", d.Excluded, cols, d.FeatureNames, c.excluded, c.columns, c.features)
			}
			s := d.Schema()
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
			X, err := s.Read([]byte(c.newFile), 0)
			if err != nil {
				t.Fatal(err)
			}
			r, w := X.Dims()
			for i := range r {
				for j := range w {
					if X.At(i, j) != d.X.At(i, j) {
						t.Fatalf("new row %d: %v, want %v", i, X.RawRowView(i), d.X.RawRowView(i))
					}
				}
			}
		})
	}
}

func TestParseExcludeErrors(t *testing.T) {
	cases := []struct {
		name string
		opt  Options
		want string // in the message
	}{
		{"unknown column", Options{Exclude: []string{"Idx"}}, `"Idx"`},
		{"the target", Options{Exclude: []string{"class"}}, "target"},
		{"the target by index", Options{Exclude: []string{"Size"}, TargetIndex: func() *int { j := 1; return &j }()}, "target"},
		{"every feature", Options{Exclude: []string{"Id", "Size", "Color"}}, "no feature"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, parse := range []func() error{
				func() error { _, err := Parse([]byte(excludeCSV), c.opt); return err },
				func() error { _, err := Survey("s", []byte(excludeCSV), c.opt); return err },
			} {
				err := parse()
				var e *errs.Error
				if check.CodeOf(err) != check.Option || !errors.As(err, &e) || e.Option != "exclude" || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("error %v; want an option error on exclude naming %s", err, c.want)
				}
			}
		})
	}
}

// TestSchemaExcludedChecked: a schema whose excluded names clash with its
// columns is refused.
func TestSchemaExcludedChecked(t *testing.T) {
	d, err := Parse([]byte(excludeCSV), Options{Exclude: []string{"Id"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]string{{"Size"}, {""}, {"Id", "Id"}} {
		s := d.Schema()
		s.Excluded = bad
		if err := s.Check(); check.CodeOf(err) != check.Value {
			t.Errorf("excluded %q: %v, want a value error", bad, err)
		}
	}
}
