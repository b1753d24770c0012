package rowtree

import (
	"fmt"
	"maps"
	"slices"
)

// LeafRows is the number of consecutive rows summed as one leaf: leaf j
// holds the global rows j·LeafRows … (j+1)·LeafRows−1. Combining two nodes
// costs one pass over an m×m sum, about what the accumulator already spends
// per block of rows (krr's default block, 1024 rows), a fraction of a
// percent of the block's Gram flops; a piece that ends inside a leaf keeps
// those rows whole until the leaf is complete, at most LeafRows rows at
// either end.
const LeafRows = 1024

// Leaf returns the leaf of a row, and LeafSpan the rows of leaf j of a fit
// of n rows.
func Leaf(row int) int { return row / LeafRows }

// LeafSpan returns the rows [lo, hi) of leaf j of a fit of n rows.
func LeafSpan(j, n int) (lo, hi int) { return j * LeafRows, min((j+1)*LeafRows, n) }

// Key names a node: level l, index i, covering leaves i·2ˡ … (i+1)·2ˡ−1.
type Key struct{ Level, Index int }

// first is the first leaf the node covers.
func (k Key) first() int { return k.Index << k.Level }

// Tree holds the completed nodes of a canonical reduction. Combine(left,
// right) must fold right into left and return left (right is dropped
// afterwards); it is called only on siblings, left first.
type Tree[T any] struct {
	nodes   map[Key]T
	Combine func(left, right T) (T, error)
}

// Len returns the number of nodes held.
func (t *Tree[T]) Len() int { return len(t.nodes) }

// Keys returns the keys of the nodes held, sorted by level then index.
func (t *Tree[T]) Keys() []Key {
	ks := slices.Collect(maps.Keys(t.nodes))
	slices.SortFunc(ks, func(a, b Key) int {
		if a.Level != b.Level {
			return a.Level - b.Level
		}
		return a.Index - b.Index
	})
	return ks
}

// Node returns the node at k.
func (t *Tree[T]) Node(k Key) (T, bool) {
	v, ok := t.nodes[k]
	return v, ok
}

// Insert adds the node v at k and combines it with its siblings while
// they are there. The caller makes sure no two nodes cover the same leaf
// (a Set of rows does).
func (t *Tree[T]) Insert(k Key, v T) error {
	if t.nodes == nil {
		t.nodes = map[Key]T{}
	}
	for {
		sib := Key{k.Level, k.Index ^ 1}
		o, ok := t.nodes[sib]
		if !ok {
			if _, dup := t.nodes[k]; dup {
				return fmt.Errorf("node %d/%d inserted twice", k.Level, k.Index)
			}
			t.nodes[k] = v
			return nil
		}
		delete(t.nodes, sib)
		var err error
		if k.Index&1 == 0 {
			v, err = t.Combine(v, o)
		} else {
			v, err = t.Combine(o, v)
		}
		if err != nil {
			return err
		}
		k = Key{k.Level + 1, k.Index >> 1}
	}
}

// Root completes the reduction over leaves leaves, all of which must have
// been inserted: a node whose right sibling starts past the last leaf is
// its own parent. It returns the root and empties the tree.
func (t *Tree[T]) Root(leaves int) (T, error) {
	var zero T
	if leaves < 1 {
		return zero, fmt.Errorf("a reduction over %d leaves", leaves)
	}
	for {
		if len(t.nodes) == 0 {
			return zero, fmt.Errorf("no node to reduce")
		}
		ks := t.Keys()
		k := ks[0]
		if len(ks) == 1 && k.Index == 0 && 1<<k.Level >= leaves {
			v := t.nodes[k]
			clear(t.nodes)
			return v, nil
		}
		// The lowest node that can move: promoted when its right sibling
		// is past the end; otherwise a leaf is missing.
		v := t.nodes[k]
		sib := Key{k.Level, k.Index ^ 1}
		if k.Index&1 == 1 || sib.first() < leaves {
			return zero, fmt.Errorf("leaves are missing next to node %d/%d", k.Level, k.Index)
		}
		delete(t.nodes, k)
		if err := t.Insert(Key{k.Level + 1, k.Index >> 1}, v); err != nil {
			return zero, err
		}
	}
}
