package data

import (
	"slices"
	"testing"

	"ntkrf/core/errs"
	"ntkrf/internal/fixture"
)

// Text labels get the classes a CSV file's text class column gets: the
// same names in the same order, each row the same index.
func TestTextLabelsAreTheCSVRule(t *testing.T) {
	labels := []string{"pear", "apple", "Zebra", "pear", "éclair", "apple", "10", "9"}
	classes, y, err := TextLabels(labels)
	if err != nil {
		t.Fatal(err)
	}
	csv := "x,label\n"
	for i, l := range labels {
		csv += string(rune('0'+i)) + "," + l + "\n"
	}
	ds, err := Parse([]byte(csv), Options{Task: Classification})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(classes, ds.Classes) || !slices.Equal(y, ds.Y) {
		t.Errorf("TextLabels: %v %v; the CSV's class column: %v %v", classes, y, ds.Classes, ds.Y)
	}
	if want := []string{"10", "9", "Zebra", "apple", "pear", "éclair"}; !slices.Equal(classes, want) {
		t.Errorf("classes %v, want byte order %v", classes, want)
	}
	fixture.Refuse(t, "an empty label", func() error { _, _, err := TextLabels([]string{"a", ""}); return err }, errs.Value)
}
