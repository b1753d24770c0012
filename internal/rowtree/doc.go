// Package rowtree makes a fit's sums a function of its rows, never of how
// the rows were split or in which order the pieces were merged.
//
// Floating-point addition is not associative: summing parts in another
// order, or with another fan-in, changes the last bits. So the core fixes
// one order for every host. The rows are cut into leaves of LeafRows
// consecutive global rows; each leaf is summed on its own, in row order;
// leaves are combined along the fixed binary tree over their indices (node
// (l, i) covers leaves i·2ˡ … (i+1)·2ˡ−1; a node whose right sibling lies
// past the last leaf is its own parent). Tree holds the nodes a piece of
// work has completed and combines two siblings as soon as both are there,
// so a host that feeds leaves in order keeps O(log n) nodes, and any
// partition of the rows, merged in any order and any tree, ends in the
// same root, bit for bit.
//
// Set tracks which rows a piece holds, so that a merge refuses rows held
// twice and a solve refuses rows missing.
package rowtree
