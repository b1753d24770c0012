// Package active picks rows to label by greedy experimental design on
// random features (the paper's active-learning experiment, its Figure 3).
//
// SelectActive greedily picks the rows minimizing
// J(S) = −tr(K_{:,S}(K_{S,S}+λI)⁻¹K_{:,S}ᵀ) for K = ΦΦᵀ in O(n·m² + k·n·m)
// (see its documentation for the update).
//
// Errors start with "active: " and say what to change.
package active
