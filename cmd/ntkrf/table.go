// The experiments' result tables: printed aligned, saved as CSV.

package main

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
)

// table is a result table, printed with aligned columns and written as CSV.
type table struct {
	header []string
	rows   [][]string
}

func (t *table) add(cells ...any) {
	row := make([]string, len(cells))
	for i, c := range cells {
		switch v := c.(type) {
		case string:
			row[i] = v
		case int:
			row[i] = strconv.Itoa(v)
		case float64:
			row[i] = fmtNum(v)
		default:
			row[i] = fmt.Sprint(v)
		}
	}
	t.rows = append(t.rows, row)
}

// fmtNum prints four significant digits, or "-" for a missing value (NaN).
func fmtNum(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

func (t *table) print() {
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, strings.Join(t.header, "\t")+"\t")
	for _, r := range t.rows {
		fmt.Fprintln(w, strings.Join(r, "\t")+"\t")
	}
	w.Flush()
}

// write saves the table as dir/name.csv (full precision is not needed:
// the cells are what was printed).
func (t *table) write(dir, name string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("repro: %w", err)
	}
	path := filepath.Join(dir, name+".csv")
	fh, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("repro: %w", err)
	}
	w := csv.NewWriter(fh)
	w.Write(t.header)
	w.WriteAll(t.rows)
	if err := w.Error(); err != nil {
		fh.Close()
		return fmt.Errorf("repro: writing %s: %w", path, err)
	}
	if err := fh.Close(); err != nil {
		return fmt.Errorf("repro: %w", err)
	}
	fmt.Println("# wrote", path)
	return nil
}
