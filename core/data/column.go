package data

// One column of a table read as numbers or as text levels.

import (
	"fmt"
	"math"
	"strings"

	"ntkrf/internal/check"
)

// column holds one input column's parsed cells.
type column struct {
	n       int // rows
	numeric bool
	vals    []float64 // numeric: the values, NaN when missing
	codes   []int32   // categorical: index into levels, −1 when missing
	levels  []string  // categorical: distinct values, first-seen order
	missing int
}

func (c *column) isMissing(i int) bool {
	if c.numeric {
		return math.IsNaN(c.vals[i])
	}
	return c.codes[i] < 0
}

// where names a cell for messages: "line 17, column 3 ("width")".
func where(t *table, row, j int, names []string) string {
	return fmt.Sprintf("line %d, column %d (%s)", t.lines[row], j+1, check.Quote(names[j]))
}

// readColumn parses column j of the data rows (records first…).
func readColumn(t *table, first, j int, names []string) (column, error) {
	n := t.rows() - first
	c := column{n: n, vals: make([]float64, n)}
	numbers, texts, firstText, firstBad := 0, 0, -1, -1
	for i := range n {
		v, k := parseCell(t.cell(first+i, j))
		switch k {
		case cellMissing:
			v = math.NaN()
			c.missing++
		case cellNumber:
			numbers++
		case cellNonFinite:
			numbers++
			if firstBad < 0 {
				firstBad = i
			}
		case cellText:
			texts++
			if firstText < 0 {
				firstText = i
			}
		}
		c.vals[i] = v
	}
	if texts == 0 {
		if firstBad >= 0 {
			return c, parseErr("%s: %s is not a finite number; use values within ±1.7e308, or leave the cell empty to mark it missing",
				where(t, first+firstBad, j, names), check.Quote(t.cell(first+firstBad, j)))
		}
		c.numeric = true
		return c, nil
	}
	if numbers >= 9*texts {
		return c, parseErr("%s: %s is not a number, but %d of the column's %d values are; correct it, or leave the cell empty (or write NA) to mark it missing",
			where(t, first+firstText, j, names), check.Quote(t.cell(first+firstText, j)), numbers, numbers+texts)
	}
	c.vals = nil
	c.codes = make([]int32, n)
	index := make(map[string]int32)
	for i := range n {
		s := t.cell(first+i, j)
		if _, k := parseCell(s); k == cellMissing {
			c.codes[i] = -1
			continue
		}
		code, ok := index[s]
		if !ok {
			code = int32(len(c.levels))
			index[s] = code
			c.levels = append(c.levels, strings.Clone(s))
		}
		c.codes[i] = code
	}
	return c, nil
}

// decimalCommaRE matches a number written with a decimal comma: "-1,25".
var decimalCommaRE = lazyRE(`^[+-]?[0-9]*,[0-9]+$`)

// decimalComma reports a categorical column whose every category is a
// number written with a decimal comma (or an integer), at least one with
// the comma: read as categories, such a column silently becomes one-hot
// columns instead of a number.
func decimalComma(c *column) (string, bool) {
	if c.numeric || len(c.levels) == 0 {
		return "", false
	}
	example := ""
	for _, l := range c.levels {
		l = strings.TrimSpace(l)
		switch {
		case decimalCommaRE().MatchString(l):
			example = l
		case strings.Trim(l, "+-0123456789") == "" && l != "":
		default:
			return "", false
		}
	}
	return example, example != ""
}
