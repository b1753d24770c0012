package rowtree

import (
	"fmt"
	"slices"
)

// Set is a set of row indices as disjoint, sorted, non-adjacent half-open
// spans [lo, hi). The zero Set is empty.
type Set struct {
	spans [][2]int
}

// Spans returns the spans, sorted (a copy).
func (s *Set) Spans() [][2]int { return slices.Clone(s.spans) }

// NumSpans returns the number of spans, and Span span i.
func (s *Set) NumSpans() int { return len(s.spans) }

// Span returns span i.
func (s *Set) Span(i int) [2]int { return s.spans[i] }

// Len returns the number of rows in the set.
func (s *Set) Len() int {
	n := 0
	for _, sp := range s.spans {
		n += sp[1] - sp[0]
	}
	return n
}

// End returns one past the largest row, or 0 for an empty set.
func (s *Set) End() int {
	if len(s.spans) == 0 {
		return 0
	}
	return s.spans[len(s.spans)-1][1]
}

// Overlap returns a span of rows that both s and o hold, and whether
// there is one.
func (s *Set) Overlap(o *Set) ([2]int, bool) {
	i, j := 0, 0
	for i < len(s.spans) && j < len(o.spans) {
		a, b := s.spans[i], o.spans[j]
		if lo, hi := max(a[0], b[0]), min(a[1], b[1]); lo < hi {
			return [2]int{lo, hi}, true
		}
		if a[1] <= b[1] {
			i++
		} else {
			j++
		}
	}
	return [2]int{}, false
}

// Add adds the rows [lo, hi); it reports rows already in the set as an
// error and then leaves the set unchanged.
func (s *Set) Add(lo, hi int) error {
	if lo >= hi {
		return nil
	}
	o := Set{spans: [][2]int{{lo, hi}}}
	return s.Union(&o)
}

// AddKeys adds the rows keys, in runs of consecutive keys (decoded rows
// are sorted: one span each run); a row already in the set, or twice in
// keys, is an error, and then the rows of the runs before it stay added.
func (s *Set) AddKeys(keys []int) error {
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j] == keys[j-1]+1 {
			j++
		}
		if err := s.Add(keys[i], keys[j-1]+1); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// Union adds the rows of o; rows in both are an error (*OverlapError), and
// then the set is unchanged.
func (s *Set) Union(o *Set) error {
	if sp, ok := s.Overlap(o); ok {
		return &OverlapError{Lo: sp[0], Hi: sp[1]}
	}
	all := append(slices.Clone(s.spans), o.spans...)
	slices.SortFunc(all, func(a, b [2]int) int { return a[0] - b[0] })
	out := all[:0]
	for _, sp := range all {
		if n := len(out); n > 0 && out[n-1][1] == sp[0] {
			out[n-1][1] = sp[1]
			continue
		}
		out = append(out, sp)
	}
	s.spans = out
	return nil
}

// Missing returns the first span of [0, n) that the set does not hold,
// and whether there is one.
func (s *Set) Missing(n int) ([2]int, bool) {
	at := 0
	for _, sp := range s.spans {
		if sp[0] > at {
			return [2]int{at, min(sp[0], n)}, at < n
		}
		at = sp[1]
	}
	return [2]int{at, n}, at < n
}

// Equal reports whether s and o hold the same rows.
func (s *Set) Equal(o *Set) bool { return slices.Equal(s.spans, o.spans) }

// FromSpans returns the set of the given spans, which must be sorted,
// disjoint, non-empty and not adjacent (a decoded form is checked here).
func FromSpans(spans [][2]int) (Set, error) {
	for i, sp := range spans {
		if sp[0] < 0 || sp[0] >= sp[1] || (i > 0 && sp[0] <= spans[i-1][1]) {
			return Set{}, fmt.Errorf("span %d (%d…%d) is empty, negative, unsorted or touches the one before", i, sp[0], sp[1])
		}
	}
	return Set{spans: slices.Clone(spans)}, nil
}

// OverlapError reports rows [Lo, Hi) held by two pieces.
type OverlapError struct{ Lo, Hi int }

func (e *OverlapError) Error() string {
	if e.Hi-e.Lo == 1 {
		return fmt.Sprintf("row %d is held twice", e.Lo)
	}
	return fmt.Sprintf("rows %d…%d are held twice", e.Lo, e.Hi-1)
}
