package data

// Options.Exclude: input columns left out of X, recorded by name in the
// schema so new files are read without them.

import (
	"slices"
	"strings"

	"ntkrf/internal/check"
)

// excludeColumns resolves Options.Exclude against the file's column names
// (each as Target is matched: exact, else the only case-insensitive
// match) and returns the columns kept, in file order, and the names left
// out. The target cannot be left out, nor every feature.
func excludeColumns(exclude []string, names []string, target int) (keep []int, excluded []string, err error) {
	out := make([]bool, len(names))
	for _, name := range exclude {
		j := findColumn(name, names)
		if j < 0 {
			return nil, nil, check.New(check.Option, "exclude", "data: cannot exclude %s: no column has that name; the columns are %s", check.Quote(name), listNames(names))
		}
		if j == target {
			return nil, nil, check.New(check.Option, "exclude", "data: cannot exclude %s: it is the target column; choose another target or keep it", check.Quote(names[j]))
		}
		out[j] = true
	}
	for j := range names {
		if out[j] {
			excluded = append(excluded, names[j])
		} else {
			keep = append(keep, j)
		}
	}
	if len(keep) < 2 {
		return nil, nil, check.New(check.Option, "exclude", "data: excluding %s leaves no feature column; keep at least one column besides the target", listNames(excluded))
	}
	return keep, excluded, nil
}

// findColumn is the index of the column named name (exact, else the only
// case-insensitive match), or −1.
func findColumn(name string, names []string) int {
	if j := slices.Index(names, name); j >= 0 {
		return j
	}
	match := -1
	for j, n := range names {
		if strings.EqualFold(strings.TrimSpace(name), n) {
			if match >= 0 {
				return -1
			}
			match = j
		}
	}
	return match
}

// excludes reports whether Options.Exclude names column j.
func excludes(exclude []string, names []string, j int) bool {
	for _, name := range exclude {
		if findColumn(name, names) == j {
			return true
		}
	}
	return false
}

// applyExclude drops the excluded columns from cols and names and returns
// them with the target's new index, the kept columns' places in the file
// and the excluded names.
func applyExclude[C any](exclude []string, cols []C, names []string, target int) ([]C, []string, int, []int, []string, error) {
	if len(exclude) == 0 {
		return cols, names, target, nil, nil, nil
	}
	keep, excluded, err := excludeColumns(exclude, names, target)
	if err != nil {
		return nil, nil, 0, nil, nil, err
	}
	kc, kn := make([]C, len(keep)), make([]string, len(keep))
	t := 0
	for i, j := range keep {
		kc[i], kn[i] = cols[j], names[j]
		if j == target {
			t = i
		}
	}
	return kc, kn, t, keep, excluded, nil
}
