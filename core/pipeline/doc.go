// Package pipeline is a whole ntkrf model as one value: the preprocessing
// (imputation, standardization, unit-norm rows, one-hot groups), the random
// feature map (stored by its configuration and seed) or the exact kernel,
// and the ridge solution; with the input schema and class names when it
// was fitted from a parsed data set.
//
// Fit and FitDataset fit one; Predict and Scores apply it to a matrix and
// PredictCSV to the rows of a delimited file, read through the saved
// schema. MarshalJSON and Load write and read its versioned JSON form, the
// file every host saves and reads: a model saved by the WebAssembly package
// or the lab predicts the same bits natively, and the other way round.
//
// The zero Config is the documented default of every host (the JavaScript
// package and the lab take the same defaults from the same constants):
// standardized columns, NTK random features of depth 1 with rf.DefaultDim
// columns, λ chosen by GCV (leave-one-out in the dual).
//
// Errors follow ntkrf's error grammar (internal/check): a bad model file
// is refused with ERR_TYPE (not a model file), ERR_VALUE (other format or
// version, inconsistent fields), ERR_SHAPE, ERR_NONFINITE or ERR_TOO_LARGE,
// and loading never panics.
package pipeline
