// Package gram accumulates Gram matrices G += AᵀA over row blocks of a
// feature matrix A: the step that decides the cost of kernel ridge regression
// on random features.
package gram
