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
	idx := nameIndex(names)
	for _, name := range exclude {
		j := lookup(idx, name, names)
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

// excludedSet marks the columns Options.Exclude names (unknown names are
// left to excludeColumns to report).
func excludedSet(exclude []string, names []string) []bool {
	if len(exclude) == 0 {
		return nil
	}
	idx := nameIndex(names)
	out := make([]bool, len(names))
	for _, name := range exclude {
		if j := lookup(idx, name, names); j >= 0 {
			out[j] = true
		}
	}
	return out
}

// nameIndex maps each column name to its index, so that exact names are
// found without a scan (a wide file may exclude many columns).
func nameIndex(names []string) map[string]int {
	idx := make(map[string]int, len(names))
	for j, n := range names {
		idx[n] = j
	}
	return idx
}

// lookup is findColumn with exact names found in idx.
func lookup(idx map[string]int, name string, names []string) int {
	if j, ok := idx[name]; ok {
		return j
	}
	return findColumn(name, names)
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
