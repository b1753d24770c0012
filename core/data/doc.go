// Package data loads delimited text files that users drop on a web page
// into a design matrix and a target, and prepares them for learning:
// imputation and scaling fitted on training rows, seeded train/test splits
// and k-fold cross-validation.
//
// It runs in WebAssembly on arbitrary files, so every input either parses
// or returns an error that says what to change, naming the line (1-based,
// as a text editor counts, with LF, CRLF or a lone CR ending a line) and
// the column (1-based number and name). Time and memory are linear in the
// input size.
//
// # Input
//
// [Parse] takes the file's bytes: plain text, or gzip (recognized by its
// magic bytes 1f 8b and decompressed through a reader limited to
// Options.MaxBytes, so a gzip bomb stops at the limit; plain input over
// the limit is refused before any work). A UTF-8 byte order mark is
// skipped. Input with zero bytes or many control characters "does not look
// like text"; ZIP archives (.xlsx) and UTF-16 are named as such; other
// text that is not valid UTF-8 is refused with the line of the first bad
// byte rather than silently altered.
//
// Fields follow RFC 4180: a quoted field may hold the delimiter, line
// breaks and doubled quotes (""); a quote inside an unquoted field is an
// ordinary character; spaces and tabs around a field, inside or outside
// the quotes, are ignored. Blank lines are skipped; the last line needs no
// line break. Every line needs the same number of fields ("line 17 has 4
// fields but line 1 has 5"). A delimiter at the end of every line (an
// unnamed, empty last column) is ignored, and so is a DOS end-of-file
// Ctrl-Z.
//
// The delimiter, unless given, is the one of ',', ';', tab and '|' that
// splits every line of the first 64 KiB (up to 200 lines) into the same
// number (at least two) of fields. When none does, the one that splits
// most lines like the first is taken, so the ragged line gets reported;
// two equally good candidates are an error asking for the delimiter.
//
// The first line is a header when one of its cells is text above a column
// of numbers, or when it holds no number at all (Header "auto"). Unnamed
// columns are called "column 3" (1-based); a repeated name gets ".1",
// ".2"… appended, as pandas does.
//
// [Preview] applies the same rules to the first megabyte only and returns
// the column names and first rows as strings, for showing a file before
// loading it.
//
// # Values
//
// A cell is missing when it is empty, "?", or (in any case) "NA", "N/A",
// "NaN" or "NULL", quoted or not. A cell is a number when it is a decimal
// number as spreadsheets write one: an optional sign, digits with an
// optional decimal point ("12", "-1.5", "1.", "+.5") and an optional
// exponent ("2e-3", "1E+07"); quoted numbers ("5.1") are numbers. Go's
// other number syntax (underscores "1_000", hexadecimal "0x1p4") is text,
// as in a spreadsheet: a column of such cells is categorical, and one among
// numbers is refused as a typo (below). A number beyond the float64 range
// ("1e999") and "Inf"/"Infinity" (any case, signed) in a numeric column
// are errors, not missing values: they are usually a unit or export
// mistake to fix. Underflow ("1e-999") is 0.
//
// A column whose values are all numbers (or missing) is numeric; any other
// column is categorical, one-hot encoded with its categories in byte order
// (so the encoding does not depend on row order). A column where at least
// nine in ten values are numbers and the rest text is taken for a typo and
// refused, naming the first text cell. A categorical feature may have at
// most [MaxCategories] values, and not more than 50 when that is over half
// the rows (an identifier or free text).
//
// # Target and task
//
// Options.Target names the target column (a name, never read as an index,
// even when written as digits), or Options.TargetIndex gives its 0-based
// index; the default is the last column. Rows whose target is missing are always
// dropped and counted in DroppedRows. With Task "auto", a categorical
// target means classification, and so does a numeric one whose values are
// all integers with at most 20 distinct values and at most half as many
// distinct values as rows (or at most 2: binary labels in a tiny file);
// anything else is regression. Class labels are sorted (numerically for a
// numeric target, written in shortest form: "1.0" becomes "1"); Y holds
// their indices. A single class is allowed here; learners may refuse it.
//
// Options.Exclude names columns that are not inputs (an identifier), each
// matched as Target is; they are read for nothing but the row count (not
// for the Missing "drop" rule), are not in Columns or X, and are kept by
// name in Dataset.Excluded and the Schema, so that [Schema.Read] skips
// them in new files by name (in a file without a header, by the names
// "column 1"… it gets: such a file keeps the training file's columns).
// Excluding an unknown column, the target or every feature is an
// ERR_OPTION error on "exclude".
//
// # Missing values and preprocessing
//
// With Missing "impute" (the default) a missing feature stays NaN in X,
// across its whole one-hot block for a categorical feature, and [Fit]
// learns the training mean (numeric) or most frequent category
// (categorical) that [Scaler.Apply] fills in, on training and test rows
// alike, before optional standardization (training mean and population
// standard deviation; constant columns are centred to 0 and not divided)
// and optional scaling of rows to unit norm (zero rows stay zero), then an
// optional bias input (Prep.Bias: a constant column, Bias times the
// training rows' root-mean-square norm, appended last so that
// standardizing never zeroes it; the NTK of the rows is then that of a
// network whose first layer has biases). With Missing "drop", rows with
// any missing feature are dropped.
// [Fit] is [Collect] then [Stats.Scaler]: the statistics (per column count,
// magnitude, mean, M2, minimum, maximum; per one-hot block the category
// counts) of row blocks collected apart merge (Chan's update) and travel
// as a versioned binary form ([Stats.AppendBinary], [DecodeStats]), so
// workers that never see each other's rows fit Fit's scaler (bit for bit
// from one block without missing values, to rounding otherwise).
//
// # Shards
//
// Files too big for one place are read as shards, each with its header
// line: [Survey] counts a shard's cells (kinds, categories, target values),
// censuses merge in any order ([Census.Merge]) and travel as JSON, and
// [Census.Settle] gives the [Schema] that Parse gives all the rows read as
// one file; [Schema.ReadLabeled] then reads each shard in it (X and the
// targets as Parse makes them), and [Census.Offsets] keys each shard's
// rows by their index in that file (the shards in byte order of their
// names).
//
// # Splits
//
// [Split] and [KFold] shuffle with math/rand/v2's PCG seeded by the caller,
// so a seed reproduces the same partition on every platform; [Sample]
// draws k of n rows the same way (sorted; [Draw] in the order drawn, for
// nested designs), the one rule for a subset of rows: the fit's search
// sample and the CLI's subsets; [Rows],
// [Take] and [Complement] turn index sets into matrices, targets and
// training sets.
//
// # Errors and panics
//
// Bad input and bad options return an error starting with "data: ".
// [Rows] and [Take] panic on an index out of range, like slice indexing.
// Any other panic is a bug.
package data
