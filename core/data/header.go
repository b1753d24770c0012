package data

// The head of a table, shared by Parse and Preview: whether the first
// record names the columns, the names, and which column is the target.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"ntkrf/internal/check"
)

// heading decides whether t's first record names the columns (the Header
// option, else hasHeader) and so which record is the first data row: the
// one rule of Parse and Preview.
func (o options) heading(t *table) (header bool, first int) {
	header = o.header > 0 || o.header == 0 && hasHeader(t)
	if header {
		first = 1
	}
	return header, first
}

// hasHeader decides whether the first record names the columns: yes when
// a text cell sits above a column of numbers, or when the record holds no
// number at all.
func hasHeader(t *table) bool {
	anyNumber := false
	for j := range t.width {
		if _, k := parseCell(t.cell(0, j)); k == cellNumber || k == cellNonFinite {
			anyNumber = true
		}
	}
	if !anyNumber {
		return true
	}
	last := min(t.rows(), 1001)
	for j := range t.width {
		if _, k := parseCell(t.cell(0, j)); k != cellText {
			continue
		}
		numbers := 0
		for i := 1; i < last; i++ {
			_, k := parseCell(t.cell(i, j))
			if k == cellText {
				numbers = -1
				break
			}
			if k != cellMissing {
				numbers++
			}
		}
		if numbers > 0 {
			return true
		}
	}
	return false
}

// columnNames returns unique names: "column j" (1-based) for unnamed
// columns, and a ".1", ".2"… suffix on repeats, as pandas does.
func columnNames(t *table, header bool) (names []string, unnamed []bool) {
	names = make([]string, t.width)
	unnamed = make([]bool, t.width)
	seen := make(map[string]bool, t.width)
	for j := range t.width {
		name := ""
		if header {
			name = strings.Clone(t.cell(0, j))
		}
		if name == "" {
			unnamed[j] = true
			name = "column " + strconv.Itoa(j+1)
		}
		for k, base := 1, name; seen[name]; k++ {
			name = base + "." + strconv.Itoa(k)
		}
		seen[name] = true
		names[j] = name
	}
	return names, unnamed
}

// pickTarget resolves Options.Target to a column index.
func pickTarget(target string, names []string) (int, error) {
	if target == "" {
		return len(names) - 1, nil
	}
	if j := slices.Index(names, target); j >= 0 {
		return j, nil
	}
	match := -1
	for j, name := range names {
		if strings.EqualFold(strings.TrimSpace(target), name) {
			if match >= 0 {
				match = -2
				break
			}
			match = j
		}
	}
	if match >= 0 {
		return match, nil
	}
	hint := ""
	if strings.Trim(strings.TrimSpace(target), "0123456789") == "" {
		hint = "; to choose a column by its index, give the index as a number, not a string"
	}
	return 0, check.New(check.Option, "target", "data: no column is named %s; the columns are %s%s", check.Quote(target), listNames(names), hint)
}

func pickIndex(j int, names []string) (int, error) {
	if j < 0 || j >= len(names) {
		return 0, check.New(check.Option, "target", "data: target column index %d is out of range; the file has %d columns, indexed 0…%d", j, len(names), len(names)-1)
	}
	return j, nil
}

func listNames(names []string) string {
	const show = 20
	var b strings.Builder
	for j, name := range names[:min(len(names), show)] {
		if j > 0 {
			b.WriteString(", ")
		}
		b.WriteString(check.Quote(name))
	}
	if len(names) > show {
		fmt.Fprintf(&b, " and %d more", len(names)-show)
	}
	return b.String()
}
