package rowtree

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// expr is a node that records how it was combined, so that two reductions
// agree exactly when they combined the same leaves in the same shape.
func exprTree() *Tree[string] {
	return &Tree[string]{Combine: func(l, r string) (string, error) { return "(" + l + "+" + r + ")", nil }}
}

// canonical reduces leaves 0…n−1 inserted in order into one tree.
func canonical(t *testing.T, n int) string {
	tr := exprTree()
	for j := range n {
		if err := tr.Insert(Key{0, j}, fmt.Sprint(j)); err != nil {
			t.Fatal(err)
		}
	}
	root, err := tr.Root(n)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestTreeOrderFree: leaves inserted in any order into any number of trees,
// whose nodes are then moved into one in any order, reduce to the same
// expression as in-order insertion.
func TestTreeOrderFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 5, 8, 13, 64, 100} {
		want := canonical(t, n)
		for trial := range 20 {
			k := 1 + rng.IntN(4)
			trees := make([]*Tree[string], k)
			for i := range trees {
				trees[i] = exprTree()
			}
			for _, j := range rng.Perm(n) {
				if err := trees[rng.IntN(k)].Insert(Key{0, j}, fmt.Sprint(j)); err != nil {
					t.Fatal(err)
				}
			}
			all := exprTree()
			for _, i := range rng.Perm(k) {
				for _, key := range trees[i].Keys() {
					v, _ := trees[i].Node(key)
					if err := all.Insert(key, v); err != nil {
						t.Fatal(err)
					}
				}
			}
			got, err := all.Root(n)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("n=%d trial %d: %s, want %s", n, trial, got, want)
			}
		}
	}
}

// TestTreeKeepsFewNodes: in-order insertion holds at most one node per
// level (a binary counter).
func TestTreeKeepsFewNodes(t *testing.T) {
	tr := exprTree()
	for j := range 1000 {
		if err := tr.Insert(Key{0, j}, ""); err != nil {
			t.Fatal(err)
		}
		if tr.Len() > 10 {
			t.Fatalf("%d nodes after %d leaves", tr.Len(), j+1)
		}
	}
}

// TestTreeMissingLeaf: a root over a missing leaf is an error, wherever it
// is missing.
func TestTreeMissingLeaf(t *testing.T) {
	for _, n := range []int{2, 3, 7, 16} {
		for miss := range n {
			tr := exprTree()
			for j := range n {
				if j != miss {
					if err := tr.Insert(Key{0, j}, ""); err != nil {
						t.Fatal(err)
					}
				}
			}
			if _, err := tr.Root(n); err == nil {
				t.Errorf("n=%d: leaf %d missing, but a root was made", n, miss)
			}
		}
	}
	tr := exprTree()
	if err := tr.Insert(Key{0, 0}, ""); err != nil {
		t.Fatal(err)
	}
	if err := tr.Insert(Key{0, 0}, ""); err == nil {
		t.Error("a node inserted twice was accepted")
	}
}

func TestSet(t *testing.T) {
	var s Set
	for _, sp := range [][2]int{{10, 20}, {0, 5}, {5, 10}, {30, 31}} {
		if err := s.Add(sp[0], sp[1]); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.Spans(); len(got) != 2 || got[0] != [2]int{0, 20} || got[1] != [2]int{30, 31} {
		t.Fatalf("spans %v", got)
	}
	if s.Len() != 21 || s.End() != 31 {
		t.Fatalf("len %d end %d", s.Len(), s.End())
	}
	err := s.Add(19, 25)
	if oe, ok := err.(*OverlapError); !ok || oe.Lo != 19 || oe.Hi != 20 {
		t.Fatalf("overlap: %v", err)
	}
	if s.Len() != 21 {
		t.Fatal("a refused add changed the set")
	}
	if m, ok := s.Missing(40); !ok || m != [2]int{20, 30} {
		t.Fatalf("missing %v %v", m, ok)
	}
	if err := s.Add(20, 30); err != nil {
		t.Fatal(err)
	}
	if m, ok := s.Missing(40); !ok || m != [2]int{31, 40} {
		t.Fatalf("missing %v %v", m, ok)
	}
	if _, ok := s.Missing(31); ok {
		t.Fatal("a full set misses rows")
	}
	for _, bad := range [][][2]int{{{3, 3}}, {{-1, 2}}, {{0, 2}, {2, 4}}, {{5, 6}, {0, 1}}} {
		if _, err := FromSpans(bad); err == nil {
			t.Errorf("FromSpans(%v) accepted", bad)
		}
	}
}

func TestSetAddKeys(t *testing.T) {
	var s Set
	if err := s.AddKeys([]int{3, 4, 5, 9, 10, 20}); err != nil {
		t.Fatal(err)
	}
	if got := s.Spans(); len(got) != 3 || got[0] != [2]int{3, 6} || got[1] != [2]int{9, 11} || got[2] != [2]int{20, 21} {
		t.Fatalf("spans %v", got)
	}
	if err := s.AddKeys([]int{7, 7}); err == nil {
		t.Error("a key twice was accepted")
	}
	if err := s.AddKeys([]int{1, 2, 3}); err == nil {
		t.Error("a key already held was accepted")
	}
}
