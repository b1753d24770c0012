package krr

// HoldoutCut is criterion Holdout's rule for which rows to keep out, as
// one number every part of a split fit can apply to its own rows without
// seeing the others: a row is held out when the hash of its key (its index
// among all the rows) is at most Below. NewHoldoutCut sets Below to the
// Rows-th smallest hash of the keys 0…n−1, so that exactly Rows of them
// are held out: the rows of HoldoutRows.
type HoldoutCut struct {
	Rows  int    // the budget: min(n/HoldoutShare, MaxHoldoutRows)
	Below uint64 // the largest hash held out
}

// NewHoldoutCut returns the cut of n rows (Rows 0 when n < 5: nothing is
// held out). It costs O(n log Rows).
func NewHoldoutCut(n int) HoldoutCut {
	v := min(n/HoldoutShare, MaxHoldoutRows)
	if v < 1 {
		return HoldoutCut{}
	}
	// A max-heap of the v smallest hashes seen.
	h := make([]uint64, 0, v)
	for i := range n {
		x := mix(uint64(i))
		switch {
		case len(h) < v:
			h = append(h, x)
			for c := len(h) - 1; c > 0; {
				p := (c - 1) / 2
				if h[p] >= h[c] {
					break
				}
				h[p], h[c] = h[c], h[p]
				c = p
			}
		case x < h[0]:
			h[0] = x
			for p := 0; ; {
				c := 2*p + 1
				if c >= v {
					break
				}
				if c+1 < v && h[c+1] > h[c] {
					c++
				}
				if h[p] >= h[c] {
					break
				}
				h[p], h[c] = h[c], h[p]
				p = c
			}
		}
	}
	return HoldoutCut{Rows: v, Below: h[0]}
}

// Holds reports whether the row of the given key is held out.
func (c HoldoutCut) Holds(key uint64) bool { return c.Rows > 0 && mix(key) <= c.Below }
