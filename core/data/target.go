package data

import "strings"

// TargetNames are the column names that usually mean "what to predict",
// most telling first; SuggestTarget matches them case-insensitively.
var TargetNames = []string{"class", "target", "label", "y", "outcome", "response", "species", "diagnosis", "type", "category"}

// SuggestTarget returns the column a user most likely means to predict,
// for hosts that offer a default to change: the column named like a target
// (TargetNames, the most telling name first; the last such column when
// several share it), else the last column; and why, in words. Parse's own
// default stays the last column, so a script's result does not depend on
// the names. names must not be empty.
func SuggestTarget(names []string) (int, string) {
	for _, want := range TargetNames {
		for j := len(names) - 1; j >= 0; j-- {
			if strings.EqualFold(strings.TrimSpace(names[j]), want) {
				if j == len(names)-1 {
					return j, "the last column, and named like a target"
				}
				return j, "named like a target (" + strings.Join(TargetNames, ", ") + ")"
			}
		}
	}
	return len(names) - 1, "the last column (no column is named like a target: " + strings.Join(TargetNames, ", ") + ")"
}
