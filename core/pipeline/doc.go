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
// the NTK, its method (the exact kernel, or random features and their
// number m: the cost model of cost.go, Selection.Method), depth,
// preprocessing and λ chosen for the data ("auto"). Select scores
// every depth of Search.Depths with every preprocessing of
// Search.Preprocess by exact leave-one-out ridge regression with the exact
// kernel on Search.Rows training rows (one reduction to tridiagonal form
// each, about 0.46 CPU-s natively and 1.6 s in WebAssembly at the default
// 1,000 rows), and keeps by the one-standard-error
// rule (Simplest) the lowest depth whose validated accuracy (squared error
// for regression) is within one paired standard error of the best
// candidate's: a 1,000-row sample cannot rank candidates closer than its
// noise, and shallower kernels are cheaper to featurize. On Fashion-MNIST
// (n = 20,000, m = 4096) the best candidate on the sample was depth 3–4,
// which tests at 0.8505–0.8535 against 0.8587–0.8602 for depth 1, the
// rule's choice for each of three sample seeds. The search halves once
// (ScreenRows, ScreenKeep: successive halving): on at least 240 search
// rows every candidate is first scored on a seeded sample of
// min(ScreenRows, rows/2) of them, and only the ScreenKeep best by that
// screen's accuracy (squared error) on all the search rows, where the
// one-standard-error rule chooses; a split selection either scores the
// screen in every worker (protocol.Plan.Score) or splits it in two rounds
// (ScoreScreen, then ScoreKept with every worker's screen scores), and the
// kept candidates are shared among the workers by rank: the scores, and
// the choice, do not depend on the split. At 1,000 search rows and 15 candidates this is 15·250³ +
// 4·1000³ of reduction instead of 15·1000³ (docs/PERFORMANCE.md,
// "Successive halving"). The fit then chooses λ on all rows by the task
// (krr.Criterion: validated accuracy for classification, squared error
// for regression), except that the 'auto' exact fit takes the chosen
// candidate's λ (Selection.Carry: one solve instead of a second n×n
// reduction) where the search scored fewer rows than the fit's, which is
// what lets the cost model choose the exact kernel up to ~5,000 rows, and
// where it scored all of them by the fit's own criterion (classification:
// the same λ and curve, bit for bit). Selection reports every
// candidate with its standard error and the rows it was scored on
// (Candidate.Rows, Selection.Screen); it is saved with the model.
//
// # The model file
//
// The file is the JSON object MarshalJSON writes ("format": "ntkrf-model",
// "version": 2, 3 with a bias input, 4 with float32 features; a file
// without features.precision, every file before version 4 among them,
// has float64 features, although float32 is the default of a
// configuration), and every host reads it with the same code (Load; the
// JavaScript package hands Go the file's text, or what JSON.stringify
// writes of a parsed object), so a file means the same everywhere or is
// refused everywhere. It is read strictly (internal/strict):
//
//   - every number is finite: null (JSON.stringify's NaN and ±Inf) and
//     numbers beyond float64 (1e999) are refused, not read as 0 or ±Inf;
//     the one null that is a number is a λ-curve score, +Inf (a criterion
//     that could not be evaluated);
//   - integers are written as integers (64, not 64.0 or 6.4e1);
//   - field names match exactly, once each; unknown fields are refused at
//     every level, and a field ntkrf always writes may not be missing
//     (only omitempty ones may: features or kernel with train, selection,
//     a curve's or candidate's accuracy and stdErr, the scaler's
//     statistics when it does not standardize, a preprocessing's fields
//     with the option's defaults);
//   - features.seed is at most rf.MaxSeed = 2^53−1, the largest integer a
//     JavaScript number carries exactly (every host refuses larger seeds,
//     at fit time too);
//   - parts agree: coef is one row per feature (features.dim) or training
//     row (train), one column per class; class names are distinct and
//     not empty; input.groups are preprocess.groups; the features and the
//     kernel have every default written out; the selection chose the
//     model's depth and preprocessing; a scaler's scales are positive.
//
// Every check that costs no more than the file's size comes before the
// feature map is drawn: the map's memory over all its layers
// (rf.Config.Resolve) and the coefficients' shape, so a small file naming
// a huge map is refused at once (ERR_TOO_LARGE, ERR_SHAPE).
// testdata/models holds hostile files mutated from real ones, with the
// outcome each host must give.
//
// A fit is also a protocol that hosts with several workers run in steps
// (a plan, column statistics, parts of the rows merged in any order, a
// solve), each with a binary form: ntkrf/core/protocol. Fit is that
// protocol with one part, and gives the model a host of any number of
// workers gives, bit for bit. Decode gives a model fitted in a process
// the feature map its plan drew there: a map drawn from the same
// configuration for the same inputs is the same map, bit for bit.
//
// Errors follow ntkrf's error grammar (ntkrf/core/errs): a bad model file
// is refused with ERR_TYPE (not a model file), ERR_VALUE (other format or
// version, inconsistent fields, a seed past 2^53−1), ERR_SHAPE,
// ERR_NONFINITE or ERR_TOO_LARGE, with the path of the field at fault,
// and loading never panics.
package pipeline
