package data

import "testing"

// TestSuggestTarget: the column named like a target wins over the last
// column (HouseVotes84's Class comes first, Soybean's Class before roots),
// the most telling name first, the last of equal names; without one, the
// last column.
func TestSuggestTarget(t *testing.T) {
	for _, tc := range []struct {
		name  string
		names []string
		want  int
		named bool
	}{
		{"HouseVotes84", []string{"Class", "V1", "V2", "V16"}, 0, true},
		{"Soybean", []string{"Class", "date", "plant.stand", "roots"}, 0, true},
		{"iris", []string{"Sepal.Length", "Petal.Width", "Species"}, 2, true},
		{"Glass", []string{"RI", "Na", "Type"}, 2, true},
		{"class over type", []string{"type", "x", "CLASS ", "z"}, 2, true},
		{"the last of two", []string{"label", "x", "label"}, 2, true},
		{"mtcars", []string{"mpg", "cyl", "carb"}, 2, false},
		{"one column", []string{"x"}, 0, false},
		{"a name that only contains one", []string{"classy", "typeface", "v"}, 2, false},
	} {
		got, why := SuggestTarget(tc.names)
		if got != tc.want || why == "" {
			t.Errorf("%s: %d (%s), want %d", tc.name, got, why, tc.want)
		}
		if named := why != "" && why[:len("the last column (")] != "the last column ("; named != tc.named {
			t.Errorf("%s: why %q: named like a target %v, want %v", tc.name, why, named, tc.named)
		}
	}
}
