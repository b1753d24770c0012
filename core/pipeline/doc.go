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
// NTK random features with rf.DefaultDim columns whose depth,
// preprocessing and λ are chosen for the data ("auto"). Select scores
// every depth of Search.Depths with every preprocessing of
// Search.Preprocess by exact leave-one-out ridge regression with the exact
// kernel on Search.Rows training rows (one eigendecomposition each, about
// 0.7 s at the default 1,000 rows), and keeps by the one-standard-error
// rule (Simplest) the lowest depth whose validated accuracy (squared error
// for regression) is within one paired standard error of the best
// candidate's: a 1,000-row sample cannot rank candidates closer than its
// noise, and shallower kernels are cheaper to featurize. On Fashion-MNIST
// (n = 20,000, m = 4096) the best candidate on the sample was depth 3–4,
// which tests at 0.8505–0.8535 against 0.8587–0.8602 for depth 1, the
// rule's choice for each of three sample seeds. The fit then chooses λ on
// all rows by the task (krr.Criterion: validated accuracy for
// classification, squared error for regression). Selection reports every
// candidate with its standard error; it is saved with the model.
//
// A fit is a protocol every host runs the same way (Plan): NewPlan
// settles the configuration once (task and classes, criterion, feature
// map, primal or dual, the held-out rule); each part of the rows adds its
// column statistics (data.Stats), which merge into the Scaler; each part
// then featurizes and sums its rows (Part, a krr.Accumulator beneath);
// parts merge in any order, also from their binary forms; Solve chooses λ
// and assembles the pipeline. Fit is this protocol with one part, and
// gives the model a host of any number of workers gives (to rounding).
//
// Errors follow ntkrf's error grammar (internal/check): a bad model file
// is refused with ERR_TYPE (not a model file), ERR_VALUE (other format or
// version, inconsistent fields), ERR_SHAPE, ERR_NONFINITE or ERR_TOO_LARGE,
// and loading never panics.
package pipeline
