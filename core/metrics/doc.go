// Package metrics measures random features against their kernel and
// scores predictions.
//
// RelFrobenius, EntryMSE and Spectral measure a feature map against its
// kernel (the paper's Figures 1 and 2); Spectral is the condition number of
// (K+λI)^{-1/2}(ΦΦᵀ+λI)(K+λI)^{-1/2}, computed through the Cholesky factor
// of K + λI. Accuracy, MSE, R2 and Confusion score predictions.
//
// Errors start with "metrics: " and say what to change; Accuracy refuses
// labels that are not integers rather than count them as misses.
package metrics
