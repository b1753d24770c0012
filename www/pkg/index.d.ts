/**
 * ntkrf — random features for the Neural Tangent Kernel (Han, Avron, Shoham,
 * Kim, Shin), computed in WebAssembly workers. Works in Node ≥ 20 (the
 * package's engines) and in browsers. All numbers are float64. Every method
 * that computes returns a Promise and takes { signal, onProgress };
 * `take`, `close`, `model.classNames`, `model.toJSON` and `model.dispose`
 * are synchronous.
 */

/** A dense row-major matrix: one data point per row. */
export interface Matrix {
  rows: number;
  cols: number;
  /** rows × cols values, row by row. Float32Array is accepted as input. */
  data: Float64Array | Float32Array;
}

/**
 * A matrix as an array of rows (number[][], as ml.js and scikit-learn users
 * hold data; a row may be a typed array): accepted wherever a Matrix is,
 * copied into one. Rows of different lengths are ERR_SHAPE and a cell that
 * is not a number ERR_TYPE, naming the row or cell; NaN and ±Inf are
 * checked as in a Matrix (a fit imputes NaN as a missing cell; ±Inf is
 * ERR_NONFINITE).
 */
export type Rows = readonly (readonly number[] | Float64Array | Float32Array)[];

/** A vector of labels or targets: a typed array, or an array of numbers. */
export type Vector = Float64Array | Float32Array | readonly number[];

/** A matrix as ntkrf returns it (always float64, owned by the caller). */
export interface Matrix64 extends Matrix {
  data: Float64Array;
}

/**
 * Progress of a long call: done of total steps of the current stage, monotone
 * within a stage ("select" split over workers counts their candidates
 * together; its total grows as each worker reports its share). Stages: "parse"; "kernel"; "features"; "metrics"; "select";
 * "predict"; and for fitRidge "preprocess", "features", "kernel" (exact
 * kernels), "eigen" (the λ search's reduction) and "solve".
 */
export interface Progress {
  done: number;
  total: number;
  stage: string;
}

/** Options every call of the engine accepts. */
export interface CallControl {
  /** Aborting rejects the call with a DOMException named "AbortError" (code ERR_ABORTED) at once and frees what it held; the engine stays usable. */
  signal?: AbortSignal;
  /** Called as the call moves on, ending at done === total. */
  onProgress?: (p: Progress) => void;
}

/**
 * The stable code of every error ntkrf throws or rejects with. The class
 * follows the cause: TypeError for ERR_TYPE and ERR_UNKNOWN_OPTION,
 * RangeError for ERR_OPTION, ERR_NONFINITE, ERR_VALUE, ERR_SHAPE and
 * ERR_TOO_LARGE, a DOMException named "AbortError" for ERR_ABORTED, and Error
 * for the rest.
 *
 * | code | cause |
 * |---|---|
 * | ERR_TYPE | an argument or option of the wrong type |
 * | ERR_UNKNOWN_OPTION | an option the method does not take (the message lists those it takes) |
 * | ERR_OPTION | an option value out of range or not allowed, or options that contradict each other |
 * | ERR_NONFINITE | NaN or ±Inf in a matrix or target |
 * | ERR_VALUE | a data value out of its range, e.g. a class label that is no class index |
 * | ERR_SHAPE | sizes that do not fit together, or empty data |
 * | ERR_TOO_LARGE | more memory than one buffer, the input limit or the parser allows |
 * | ERR_PARSE | a file that cannot be read as a table |
 * | ERR_DATA | data the method cannot use (one class only, a singular system…) |
 * | ERR_PROTOCOL | pieces of a split fit that do not belong together: a part or statistics of another plan, rows held twice or missing, a part scaled with other statistics |
 * | ERR_ABORTED | the caller's signal aborted the call |
 * | ERR_CLOSED | the engine was closed (or the model disposed) |
 * | ERR_INSTANCE | the WebAssembly instance died during the call (it is replaced by a fresh one; when that fails too, up to Engine.limits.maxRestarts times in a row, every call that needs it rejects so: create a new engine) |
 * | ERR_INTERNAL | a bug in ntkrf: please report it (inputs or an answer that could not cross to or from a worker) |
 */
export type ErrorCode =
  | 'ERR_TYPE' | 'ERR_UNKNOWN_OPTION' | 'ERR_OPTION' | 'ERR_NONFINITE' | 'ERR_VALUE' | 'ERR_SHAPE'
  | 'ERR_TOO_LARGE' | 'ERR_PARSE' | 'ERR_DATA' | 'ERR_PROTOCOL' | 'ERR_ABORTED' | 'ERR_CLOSED' | 'ERR_INSTANCE' | 'ERR_INTERNAL';

/** What every ntkrf error carries besides its message ("method: what is wrong; what to do"). */
export interface NtkrfError extends Error {
  code: ErrorCode;
  /** The option at fault, spelled as in the call: "lambda", "features.dim", "grid[2]". */
  option?: string;
  /** From the engine: what went wrong, the message without the method and the advice. */
  fault?: string;
  /** From the engine: what to do, when the message says ("raise classes"). */
  advice?: string;
}

/** One option of the schema (Engine.schema). */
export interface OptionSchema {
  name: string;
  kind: 'int' | 'number' | 'bool' | 'string' | 'enum' | 'char' | 'object' | 'array' | 'nameOrIndex' | 'any';
  /** The string "auto" is accepted too: the setting is chosen for the data. */
  /** The word ("auto") that leaves the option to the engine, which chooses it for the data; absent when it cannot be left. */
  auto?: string;
  enum?: string[];
  min?: number;
  max?: number;
  minExclusive?: boolean;
  maxExclusive?: boolean;
  fields?: OptionSchema[];
  items?: OptionSchema;
  default?: unknown;
  /** The default is this value divided by the input's columns (gamma: 1 / cols). */
  defaultPerCol?: number;
  /** For an enum, the options each value reads (method: which of depth, sketch, sampler, gibbsSweeps, gamma). */
  uses?: Record<string, string[]>;
  doc: string;
}

export interface KernelOptions extends CallControl {
  /** "ntk" (default): Neural Tangent Kernel of a ReLU network; "nngp": its NNGP kernel; "rbf": exp(−γ‖x−z‖²); "linear": xᵀz (what depth 0 of the NTK was). */
  kernel?: 'ntk' | 'nngp' | 'rbf' | 'linear';
  /** Network depth L for ntk and nngp, 1 ≤ L ≤ 64. Default 1. */
  depth?: number;
  /** RBF scale γ > 0. Default 1 / cols. */
  gamma?: number;
}

/** How rows become random features (see the paper, Algorithms 1 and 2). */
export interface FeatureOptions {
  /**
   * "ntk" (default): NTK random features (Algorithm 1); "nngp": NNGP features
   * from the same pass; "arccos0" / "arccos1": arc-cosine features of order 0
   * (Step) / 1 (ReLU); "naive": explicit tensor products (no sketch);
   * "grad": gradient features of a random finite-width ReLU network;
   * "rff": random Fourier features of the RBF kernel exp(−γ‖x−z‖²).
   */
  method?: 'ntk' | 'nngp' | 'arccos0' | 'arccos1' | 'naive' | 'grad' | 'rff';
  /** Network depth L, 1…64 (default 1); ignored by arccos0, arccos1 and rff. */
  depth?: number;
  /** Output dimension m, 1…2^24 (default 1024); Φ has exactly m columns. For ntk's "split" form (sketch "auto" where it fits) the input's d columns come first and the random blocks share the other m − d; for "tensorsketch" / "tensorsrht", m0 = m1 = ⌊m/2⌋ and sketchDim = m − m1. */
  dim?: number;
  /** TensorSketch / TensorSRHT output dimension m_cs (default dim − m1; not with sketch "split"). Given with m1 and without dim, Φ has m1 + sketchDim columns; given with a dim they contradict, the call is refused. */
  sketchDim?: number;
  /** Step-feature dimension m0 (default m1; with sketch "split", the number of sign features per layer, default the last layer's |·| width). */
  m0?: number;
  /** ReLU-feature dimension m1 (default ⌊dim/2⌋ for ntk, dim for nngp; not with sketch "split"). */
  m1?: number;
  /**
   * How ntk features are built. "split": ReLU = t/2 + |t|/2 and
   * Step = 1/2 + sign/2, so the part of the NTK linear in x is carried exactly
   * by x itself and only zero-mean parts are random (|·| features and a
   * TensorSketch of sign features ⊗ Φ): 2–3× lower kernel error than the
   * paper's features at the same dim; takes m0 but not m1 or sketchDim.
   * "tensorsketch" (the paper's Algorithm 1, FFT of CountSketches) or
   * "tensorsrht" (Rademacher signs + subsampled Hadamard). "auto" (default):
   * split when the input has at most 3/4 of dim columns and neither m1 nor
   * sketchDim is given, else tensorsketch; a model reports the one used.
   */
  sketch?: 'auto' | 'split' | 'tensorsketch' | 'tensorsrht';
  /**
   * How ReLU directions are drawn: "exact" (default; exact draws from the
   * paper's importance distribution), "gibbs" (the paper's Gibbs sampler),
   * "orthogonal" (exact, in orthogonal blocks: lower variance), "gaussian"
   * (plain Gaussian directions, no importance sampling), "hadamard"
   * (structured orthogonal directions H·D·H·D·H·D applied by fast
   * Walsh–Hadamard transforms, for the Step features too: no weight matrix,
   * O(m log d) per row, about 10× faster features in WebAssembly at
   * d ≈ 800; unbiased up to a small structured-sampling bias).
   */
  sampler?: 'exact' | 'gibbs' | 'orthogonal' | 'gaussian' | 'hadamard';
  /** Gibbs sweeps T, 1…1000 (default 1). */
  gibbsSweeps?: number;
  /** Scale each feature row to unit norm (default false). */
  normalize?: boolean;
  /** RBF scale γ > 0 for "rff" (default 1 / cols). */
  gamma?: number;
  /** Seed, an integer 0…2^53−1 (default 0; every host refuses larger seeds, Go too: rf.MaxSeed). Same seed → bit-identical features in Node, browsers and native Go. */
  seed?: number;
  /**
   * Arithmetic of the projections Wx, the bulk of the work: "float32"
   * (weights and rows rounded to float32, sums in float32: twice the SIMD
   * lanes; the same bits in every engine and natively) or "float64" (the
   * reference). Default: float32 where the features have a float32 form,
   * float64 for "grad" and the "hadamard" sampler, which have none (an
   * explicit "float32" there is refused). A model file says "float32" in
   * features.precision; a file without it (float64 models, and every file
   * written before float32 became the default) has float64 features.
   */
  precision?: 'float32' | 'float64';
}

/** An exact kernel for the dual (exact) ridge regression and for comparisons. */
export interface KernelSpec {
  kernel?: 'ntk' | 'nngp' | 'rbf' | 'linear';
  depth?: number;
  gamma?: number;
}

/**
 * Preprocessing fitted on training rows and applied to every later row.
 * Missing values (NaN) are always imputed with the training mean (numeric)
 * or most frequent category (one-hot groups).
 */
export interface Preprocess {
  /** Center and scale each column to unit variance (default true). */
  standardize?: boolean;
  /** Then scale each row to unit norm (default false; the paper uses it for images). */
  unitNorm?: boolean;
  /**
   * Then append a constant input to every row: this many times the training
   * rows' root-mean-square norm (0…1000; default 0, none). The kernel and
   * features are then those of a ReLU network whose first layer has biases:
   * without them the NTK is positively homogeneous, so on low-dimensional
   * data (a 2-D spiral) a prediction's sign depends on the angle of x alone.
   * Appended after standardizing, so it is never zeroed; the model file
   * keeps it. 'auto' tries 1 with standardized columns (ReLU kernels only).
   */
  bias?: number;
}

export interface ParseOptions extends CallControl {
  /** Target column: its name (a string: always a name, even "2"), or its 0-based index (a number: always an index, never matched against names). Default: the last column. */
  target?: string | number;
  /**
   * Column names to leave out of X (an identifier, say), each matched as a target name is.
   * Not the target, nor every feature (ERR_OPTION). A model fitted from the Dataset reads
   * new files with or without these columns (`Dataset.excluded`, `model.input.excluded`).
   */
  exclude?: string[];
  /** "auto" (default): classification when the target is not numeric or has few distinct integers. */
  task?: 'auto' | 'classification' | 'regression';
  /** "impute" (default): keep missing cells as NaN for the preprocessor; "drop": drop rows with any missing cell. */
  missing?: 'impute' | 'drop';
  /** Field delimiter; default: detected among , ; tab |. */
  delimiter?: string;
  /** Whether the first line holds column names; default: detected. */
  header?: 'auto' | 'yes' | 'no';
  /** Largest (decompressed) input accepted, in bytes (default 256 MB). */
  maxBytes?: number;
}

export interface Column {
  name: string;
  kind: 'numeric' | 'categorical';
  categories: string[];
  missing: number;
}

export interface Dataset {
  /** Design matrix (one-hot for categorical columns); NaN marks a missing cell. */
  X: Matrix64;
  /** Class indices for classification (labels in `classes`), values for regression. */
  y: Float64Array;
  task: 'classification' | 'regression';
  classes: string[];
  featureNames: string[];
  /** Input columns in file order, the target included. */
  columns: Column[];
  target: number;
  targetName: string;
  /** Input columns left out (ParseOptions.exclude), in file order; not in `columns`. */
  excluded: string[];
  /** Which X columns came from which input column (one-hot groups). Pass to fitRidge for imputation. */
  groups: { column: number; start: number; width: number; categorical: boolean }[];
  delimiter: string;
  header: boolean;
  droppedRows: number;
  missingCells: number;
}

export interface Preview {
  names: string[];
  rows: string[][];
  delimiter: string;
  header: boolean;
  more: boolean;
  /** The column a user most likely means to predict (named like a target: class, target, label, y, …; else the last), an index into names; parseCSV's own default stays the last column. */
  target: number;
  /** Why target was suggested, in words. */
  targetWhy: string;
}

export interface FitOptions extends CallControl {
  /**
   * Random features (primal ridge, the default: {} = NTK features with
   * defaults). depth 'auto' (the default) is chosen with the preprocessing:
   * see `search`.
   */
  features?: Omit<FeatureOptions, 'depth'> & { depth?: number | 'auto' };
  /** Or an exact kernel (dual ridge: needs an n×n matrix); depth 'auto' by default. */
  kernel?: Omit<KernelSpec, 'depth'> & { depth?: number | 'auto' };
  /** A fixed λ > 0, or 'auto' (default): chosen over `grid` by `criterion`. */
  lambda?: number | 'auto';
  /**
   * How 'auto' chooses λ. Default by the task: classification by validated
   * accuracy (squared error breaking ties) — "loo", exact leave-one-out, when
   * rows ≤ dim or with a kernel, else "holdout" (a fifth of the rows, at most
   * 2000, held out and scored at 11 λ around the GCV choice of the rest, then
   * the fit on all rows); regression by squared error — "loo", else "gcv".
   */
  criterion?: 'gcv' | 'loo' | 'holdout';
  /** Candidate λ values for 'auto', each > 0, at most 10000 (default: 30 values log-spaced over [1e-6, 100]·trace/m). */
  grid?: number[];
  /**
   * Arithmetic of the Gram step ΦᵀΦ of a primal fit (more rows than
   * features): 'float32' (blocks of up to 256 rows summed in float32, added
   * in float64: about 1.5× faster where the engine has float32 SIMD; entries
   * move by about 1e-7 relative) or 'float64' (the reference). Default:
   * float32 blocks for a classification on float32 features with at least
   * 2 rows per feature, float64 otherwise (regression, whose λ may sit far
   * below the spectrum's scale; fewer rows, whose Gram matrix is near
   * singular; float64 features).
   */
  gram?: 'float32' | 'float64';
  /** Required when y holds only whole numbers (labels or values?); otherwise regression. */
  task?: 'classification' | 'regression';
  /**
   * Number of classes, at most 10000; 0, as when left out: max(y)+1 for
   * classification, none for regression (so a regression Dataset's
   * classes.length passes as it is).
   */
  classes?: number;
  /**
   * The preprocessing fitted on the training rows, or 'auto' (default):
   * chosen with the depth among `search.preprocess`.
   */
  preprocess?: Preprocess | 'auto';
  /**
   * Candidates of the 'auto' depth and preprocessing. They are scored by
   * exact leave-one-out ridge regression with the exact kernel (the one the
   * features approximate) on `rows` training rows, each at its best λ: one
   * reduction of the rows×rows kernel to tridiagonal form per candidate
   * (about 0.45 CPU-s at 1000 rows natively, 1.1–1.6 s in WebAssembly; 15
   * candidates by default).
   */
  search?: {
    /** Default [1, 2, 3, 4, 5]. */
    depths?: number[];
    /** Default [{standardize: true}, {standardize: true, unitNorm: true}, {standardize: true, bias: 1}] (the bias only for ntk and nngp). */
    preprocess?: Preprocess[];
    /**
     * Rows scored, a seeded sample when there are more (3…8000; default 1000, fewer with hundreds of
     * classes). Only these rows go to the workers that score the candidates, with the column
     * statistics of all rows (from which each candidate's scaler is fitted, as the fit's is): never X.
     */
    rows?: number;
  };
  /** One-hot groups from parseCSV, so categorical missing values are imputed by the most frequent category. */
  groups?: Dataset['groups'];
}

/** What 'auto' chose (Model.selection): every candidate at its best λ, and the one chosen. */
export interface Selection {
  /** Training rows the candidates were scored on. */
  rows: number;
  /** "loo": exact leave-one-out with the exact kernel. */
  criterion: string;
  /** stdErr: standard error of the candidate's validated loss minus the best candidate's, paired over the rows (absent when 0: for the best, and for a candidate that ties it). */
  /** kernel: "rbf" for one of 'auto''s RBF candidates (exact kernel fits with the method left open), of scale gamma; absent for the NTK (depth). */
  candidates: { kernel?: 'rbf'; gamma?: number; depth: number; preprocess: Preprocess; lambda: number; score: number; accuracy?: number; stdErr?: number }[];
  /** Index of the chosen candidate: the lowest depth within one standard error of the best (the one-standard-error rule). */
  chosen: number;
  /** Index of the best candidate, the one each stdErr is measured against (absent when 0). */
  best?: number;
  /** What 'auto' fitted with when the method was left to it (no kernel, no features width): "kernel" (the exact kernel) or "features" with dim of them; reason says why with the cost model's figures, seconds and searchSeconds the modelled CPU seconds natively of the fit and the search. */
  method?: 'kernel' | 'features';
  dim?: number;
  reason?: string;
  seconds?: number;
  searchSeconds?: number;
}

export interface CurvePoint {
  lambda: number;
  /** GCV, LOO or held-out mean squared error at this λ (lower is better; Infinity where the criterion is undefined). */
  score: number;
  /** Validated accuracy at this λ (classification by loo or holdout). */
  accuracy?: number;
}

export interface SelectOptions extends CallControl {
  features?: FeatureOptions;
  /** Number of rows to pick (required), 1 … rows. */
  k: number;
  /** Ridge λ > 0 of the design criterion (default 1). */
  lambda?: number;
  preprocess?: Preprocess;
  groups?: Dataset['groups'];
}

export interface ScoreOptions extends CallControl {
  /**
   * "classification" adds accuracy and the confusion matrix. Decided as
   * fitRidge decides it: required (ERR_OPTION, option "task") when yTrue
   * holds only whole numbers, which may be class labels or values; otherwise
   * regression. classes implies classification.
   */
  task?: 'classification' | 'regression';
  /**
   * Number of classes, at most 10000, which implies task "classification";
   * 0, as when left out: the largest label + 1, the task decided as above
   * (so a regression Dataset's classes.length passes as it is).
   */
  classes?: number;
}

export interface PreviewOptions extends CallControl {
  /** Data rows to return, 0…10000 (default 10). */
  rows?: number;
  delimiter?: string;
  header?: 'auto' | 'yes' | 'no';
  /** Largest input accepted, in bytes (default 256 MB). */
  maxBytes?: number;
}

export interface SplitOptions extends CallControl {
  /** Share of rows in the test part, strictly between 0 and 1 (default 0.25). */
  testFraction?: number;
  seed?: number;
}

/**
 * A Dataset split by rows (Engine.split, Engine.kfold): train and test are
 * Datasets with the schema of the one split (task, classes, columns,
 * groups…), so fitRidge(train) makes a model that reads CSV files; rows
 * are their row indices in it. A part's droppedRows is 0 and its
 * missingCells counts the missing cells of its own rows.
 */
export interface DatasetSplit {
  train: Dataset;
  test: Dataset;
  rows: { train: number[]; test: number[] };
}

export interface KFoldOptions extends CallControl {
  /** Number of folds, 2 … n (default 4). */
  k?: number;
  seed?: number;
}

/**
 * What a model keeps of the Dataset it was fitted from, to read new rows
 * of the same kind of file (Model.predictCSV): the Dataset's fields of the
 * same names.
 */
export interface InputSchema {
  columns: Column[];
  target: number;
  targetName: string;
  /** Columns left out (ParseOptions.exclude): a file to predict may hold them; they are never read. Absent when none. */
  excluded?: string[];
  groups: Dataset['groups'];
  classes: string[];
  task: 'classification' | 'regression';
  delimiter: string;
  header: boolean;
}

/** A matrix in a model file: row-major numbers. */
export interface FileMatrix {
  rows: number;
  cols: number;
  data: number[];
}

/**
 * A model file: what JSON.stringify(model) writes and Engine.loadModel
 * reads, in Node, browsers and native Go alike. Numbers are written as the
 * shortest text that reads back to the same bits, so a loaded model
 * predicts exactly as the saved one. Treat the fields as opaque: the engine
 * checks every one on load.
 */
export interface ModelFile {
  format: 'ntkrf-model';
  /** 2 (version 1 files, without selection and accuracy, are read too). */
  version: 1 | 2;
  task: 'classification' | 'regression';
  /** Class names, label i ↔ classes[i] (classification), or null. */
  classes: string[] | null;
  lambda: number;
  /** The λ curve; a score of +Inf (criterion undefined) is written as null. */
  curve: { lambda: number; score: number | null; accuracy?: number }[];
  /** What 'auto' chose, or absent when depth and preprocessing were fixed. */
  selection?: Selection;
  /** The dataset schema (a model fitted from a Dataset), or null. */
  input: InputSchema | null;
  /** The fitted preprocessing (opaque). */
  preprocess: unknown;
  /** The feature map by its options and seed (features models). */
  features?: FeatureOptions;
  /** The exact kernel (kernel models). */
  kernel?: KernelSpec;
  /** The ridge coefficients: feature dimension (or training rows) × outputs. */
  coef: FileMatrix;
  bias: number[];
  /** The preprocessed training rows (kernel models only; with the bias input, one more column than X). */
  train?: FileMatrix;
}

export interface Model {
  readonly kind: 'features' | 'kernel';
  readonly task: 'classification' | 'regression';
  /**
   * Class names, label i ↔ classes[i] (classification): the Dataset's
   * for a model fitted from one, "0", "1", … for labels given as numbers.
   * null for regression.
   */
  readonly classes: string[] | null;
  /** The λ used. */
  readonly lambda: number;
  /** The λ curve searched (empty when λ was fixed). */
  readonly curve: CurvePoint[];
  /** What 'auto' chose for depth and preprocessing, or null when both were fixed. */
  readonly selection: Selection | null;
  /** The schema of the Dataset the model was fitted from (what predictCSV reads), or null. */
  readonly input: InputSchema | null;
  /** Go's advice on the fit that made the model (features far beyond the rows' needs, with their memory), one sentence each; not saved in the file. */
  readonly warnings: string[];
  /**
   * Scores the predictions of X against y with the model's own task: for a
   * classifier y holds class indices or the model's class names.
   */
  score(X: Matrix | Rows, y: Vector | readonly string[], options?: CallControl): Promise<Scores>;
  /**
   * Class indices (classification) or values (regression), one per row:
   * numbers, as Go's Predict returns them. classNames names class indices.
   */
  predict(X: Matrix | Rows, options?: CallControl): Promise<Float64Array>;
  /** Raw scores: one column per class, or one for regression. */
  predictScores(X: Matrix | Rows, options?: CallControl): Promise<Matrix64>;
  /**
   * The class name of each class index (what predict returns): classes[i]
   * for label i, the rule of Go's Pipeline.ClassNames. Synchronous. Throws
   * ERR_DATA for a regression model, ERR_TYPE or ERR_VALUE (option
   * "labels") for a label that is not a class index of the model.
   */
  classNames(labels: Vector): string[];
  /**
   * Predicts the rows of a CSV file (text or bytes, gzip or not), read
   * through the model's input schema: the columns by name, the target
   * column optional. Class names for classification (the classNames of the
   * labels Go's PredictCSV returns; a file answers in its own terms, as
   * `ntkrf predict` prints them), values for regression, one per data row.
   * Needs a model fitted from a Dataset (or from a part of one: Engine.split).
   */
  predictCSV(input: string | Uint8Array | ArrayBuffer, options?: PredictCSVOptions): Promise<string[] | Float64Array>;
  /** The model file; JSON.stringify(model) calls it. Throws ERR_CLOSED after dispose(). */
  toJSON(): ModelFile;
  /** Frees the model's arrays; later predictions reject. */
  dispose(): void;
}

export interface PredictCSVOptions extends CallControl {
  /** Largest (decompressed) input accepted, in bytes (default 256 MB). */
  maxBytes?: number;
}

/** Engine.playground's options: the models, the points to score, and the options they share. */
export interface PlaygroundOptions extends Pick<FitOptions, 'lambda' | 'criterion' | 'task' | 'classes' | 'preprocess'>, CallControl {
  /** One model each: random features or an exact kernel. */
  models: ReadonlyArray<Pick<FitOptions, 'features'> | Pick<FitOptions, 'kernel'>>;
  /** Sets of points of X's columns, each scored with every model. */
  points?: ReadonlyArray<Matrix | Rows>;
  /** Which worker keeps these models: 0 (default) … workers − 1; different lanes, different workers. */
  lane?: number;
}

/** What Engine.playground returns: per model, its λ and its scores of each set of points. */
export interface PlaygroundResult {
  surfaces: Array<{ lambda: number; reused: boolean; computed: number; scores: Matrix[] }>;
  /** Models fitted and bases computed by the lane's worker so far. */
  fits: number;
  bases: number;
}

/** FitOptions for fitRidge(dataset, options): the dataset brings task, classes and groups. */
export type DatasetFitOptions = Omit<FitOptions, 'task' | 'classes' | 'groups'>;

export interface PreprocessOptions extends CallControl {
  preprocess?: Preprocess;
  /** One-hot groups from parseCSV, so categorical missing values are imputed by the most frequent category. */
  groups?: Dataset['groups'];
}

export interface CompareOptions extends CallControl {
  features?: FeatureOptions;
  /**
   * The exact kernel to compare with. Default: the one the features
   * approximate — ntk (same depth) for ntk, naive and grad; nngp for nngp;
   * nngp of depth 1 for arccos1; rbf (same γ) for rff. arccos0 has no exact
   * counterpart here and needs an explicit kernel.
   */
  kernel?: KernelSpec;
  /** Preprocessing fitted on X itself before both kernels (default: none). */
  preprocess?: Preprocess;
  /** One-hot groups from parseCSV, for imputation. */
  groups?: Dataset['groups'];
  /** λ of the spectral measure; default 1e-4 · rows (the paper's Figure 1). */
  lambda?: number;
  /** Also return the exact and approximate kernel matrices (for heatmaps). */
  matrices?: boolean;
}

export interface Comparison {
  /** Number of feature columns. */
  dim: number;
  /** ‖ΦΦᵀ − K‖_F / ‖K‖_F */
  relFrobenius: number;
  /** mean of (ΦΦᵀ − K)² over entries */
  mse: number;
  /** condition number of (K+λI)^{-1/2}(ΦΦᵀ+λI)(K+λI)^{-1/2}; 1 is perfect */
  spectral: number;
  lambda: number;
  /** Seconds spent on the exact kernel and on the features. */
  seconds: { exact: number; features: number };
  K?: Matrix64;
  approx?: Matrix64;
}

/** One class's figures (Go's metrics.ClassScore); a share of no rows is 0. */
export interface ClassScore {
  precision: number;
  recall: number;
  f1: number;
  /** Rows of the class. */
  support: number;
}

/**
 * Classification: accuracy, the confusion matrix and each class's figures
 * (perClass[i] for class i; classes: the names, when the labels were
 * names). Regression: MSE and R². Never the squared error of class indices.
 */
export interface Scores {
  accuracy?: number;
  confusion?: number[][];
  perClass?: ClassScore[];
  classes?: string[];
  mse?: number;
  r2?: number;
}

/** Row or entry indices for Engine.take: integers 0…n−1, any order, repeats allowed. */
export type Indices = readonly number[] | Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

export interface EngineOptions {
  /** Number of WebAssembly workers: 'auto' (default) = hardware concurrency, at most 8. */
  workers?: 'auto' | number;
  /** Where ntkrf.wasm is; default: beside this module. */
  wasmURL?: string | URL;
  /**
   * ntkrf.wasm compiled already, or a promise of it, instead of wasmURL's
   * download (give one of the two): a page can start
   * `WebAssembly.compileStreaming(fetch(url))` in a script of its own
   * before the package's modules arrive (the first worker loads while it
   * compiles), and Chrome serves such a compile from its WebAssembly code
   * cache on a later visit. A promise that rejects rejects createEngine with
   * ERR_INSTANCE; an engine without WebAssembly SIMD gets the same error as
   * without this option.
   */
  module?: WebAssembly.Module | PromiseLike<WebAssembly.Module>;
  /**
   * Milliseconds each WebAssembly instance may take to start (and to
   * restart after a crash or an abort), 1…2^31−1; default the core's
   * (Engine.limits.startTimeoutMs, 60000). An instance that does not start
   * in time rejects createEngine with ERR_INSTANCE, every worker stopped.
   * A restart that does not start in time, or crashes, is tried again, at
   * most Engine.limits.maxRestarts times in a row (see Engine.limits).
   */
  startTimeoutMs?: number;
  /** Aborts the download of ntkrf.wasm and the start: createEngine rejects with ERR_ABORTED, every worker stopped. */
  signal?: AbortSignal;
}

/**
 * Every method takes its inputs when it is called: each matrix, vector,
 * byte input, dataset and option is read once and copied then, so a call
 * waiting for a busy worker computes with what it was given, whatever the
 * caller writes into or transfers of its arrays afterwards.
 */
export interface Engine {
  /** Number of WebAssembly workers. */
  readonly workers: number;
  /** Every method's options (name, kind, limits, default, doc), as the engine checks them. */
  readonly schema: Record<'kernel' | 'features' | 'fitRidge' | 'compare' | 'selectActive' | 'score' | 'parseCSV' | 'previewCSV' | 'split' | 'kfold' | 'predict' | 'loadModel' | 'predictCSV' | 'preprocess' | 'ensembleVariance' | 'stats', OptionSchema[]>;
  /**
   * Every name of the core (Go's core/names), by its Go name: names.Auto is
   * "auto", names.RBF "rbf", names.Classification "classification". Compare
   * with these rather than writing the words again.
   */
  readonly names: Readonly<Record<string, string>>;
  /**
   * The core's limits for a host (Go's pipeline and internal/check):
   * chunkBytes, the most bytes of rows one worker is sent at once;
   * splitSelectBytes, the largest sample whose 'auto' selection is split
   * over the workers; minBlockRows, the fewest rows of a block;
   * startTimeoutMs, createEngine's default startTimeoutMs; maxRestarts, how
   * many times in a row a worker whose instance fails on its own (crashes
   * while starting or idle, or does not start in time) is restarted before
   * it is given up: the calls waiting for it and later calls that need it
   * then reject ERR_INSTANCE (a restart after a call's own crash or abort
   * is not counted; a call answered starts the count again); maxArrayValues, the
   * most values of one array of rows (a matrix built from rows, what take copies); quoteChars, listChars and messageChars, the most
   * characters an error message shows of a value, of a list of names and
   * in all.
   */
  readonly limits: Readonly<{
    chunkBytes: number; splitSelectBytes: number; minBlockRows: number; startTimeoutMs: number; maxRestarts: number;
    maxArrayValues: number; quoteChars: number; listChars: number; messageChars: number;
    /** Bytes of one feature value at the default precision, by method, then sampler (4: float32, 8: float64). */
    featureBytes: Record<string, Record<string, number>>;
  }>;
  /**
   * The core's cost model (Go's pipeline.Costs), by which 'auto' chooses
   * the exact kernel or features and m: work units per step (features per
   * n·m·d, layers per n·m²/2, gram per n·m·min(n,m), lambda per k³, kernel
   * per n²·(d+2L), candidate per s³, loo per s²·outputs·λs, exact per n³),
   * units a second natively per core (nativeRate) and per WebAssembly worker
   * (wasmRate), seconds of overhead per fit (overhead, wasmOverhead), the
   * seconds a page's first training run takes more (wasmWarmup: the engine
   * optimising its code as it first runs it), and
   * lambdas, the λ values a search scores.
   */
  readonly costs: Readonly<{
    features: number; layers: number; gram: number; lambda: number; kernel: number; candidate: number; loo: number; exact: number;
    nativeRate: number; wasmRate: number; overhead: number; wasmOverhead: number; wasmWarmup: number; lambdas: number;
  }>;
  /**
   * Exact kernel matrix between the rows of X and the rows of Z
   * (X.rows × Z.rows), or of X with itself when Z is null (symmetric, with
   * an exact diagonal: (L+1)‖x‖² for the NTK).
   * Rejects with an NtkrfError (see ErrorCode): ERR_SHAPE, ERR_NONFINITE,
   * ERR_OPTION, ERR_TOO_LARGE… like every method.
   */
  kernel(X: Matrix | Rows, Z?: Matrix | Rows | null, options?: KernelOptions): Promise<Matrix64>;
  /**
   * Random features Φ (X.rows × dim) with E[ΦΦᵀ] = the target kernel. Rows
   * are split over the workers; the result is bit-identical for any number
   * of workers.
   */
  /**
   * The variance at each row of Z of the predictions of an infinitely wide ensemble of ReLU
   * networks of the given depth trained (ridge λ, required) on the rows of X: the NTK/NNGP
   * Gaussian process (Lee et al. 2019), whose mean is the exact NTK ridge regression. The
   * preprocessing is fitted on X and applied to both.
   */
  ensembleVariance(X: Matrix, Z: Matrix, options: { lambda: number; depth?: number; preprocess?: Preprocess; groups?: Dataset['groups'] } & CallControl): Promise<Float64Array>;
  features(X: Matrix | Rows, options?: FeatureOptions & CallControl): Promise<Matrix64>;
  /** Parses CSV or TSV text (a string, or bytes, gzip-compressed or not). */
  parseCSV(input: string | Uint8Array | ArrayBuffer, options?: ParseOptions): Promise<Dataset>;
  /** The header and first rows as text, cheaply, for a preview. */
  previewCSV(input: string | Uint8Array | ArrayBuffer, options?: PreviewOptions): Promise<Preview>;
  /**
   * Kernel ridge regression. With features, rows are split over the workers
   * in chunks of a few MB: each chunk's ΦᵀΦ and Φᵀy are accumulated and the
   * parts are summed, so results agree across worker counts to rounding
   * (predictions to 1e-9 relative), not bitwise. Training never holds Φ for
   * all rows: memory is the rows themselves, the preprocessing fitted on all
   * of them in one worker (about two copies of X there), and per worker a
   * chunk plus O(m²).
   */
  fitRidge(X: Matrix | Rows, y: Vector | readonly string[], options?: FitOptions): Promise<Model>;
  /**
   * Kernel ridge regression on a parsed file: the Dataset's X and y with
   * its task, class names and one-hot groups (giving task, classes or groups
   * as options is refused). The model keeps the Dataset's schema
   * (model.input), so model.predictCSV reads new rows of the same file
   * format. To fit on a part of the rows, split the Dataset (Engine.split
   * or kfold): the parts keep the schema.
   */
  fitRidge(dataset: Dataset, options?: DatasetFitOptions): Promise<Model>;
  /**
   * The lab's playground in one call: each of models (FitOptions'
   * features or kernel, sharing the other options) fitted on X and y, and
   * every matrix of points scored with each (one column per class, or one
   * value per row). The worker of the call's lane keeps the models and the
   * scores, so a call that changes one model's settings fits that model
   * alone, and a new λ scores the points with the kernels or features kept.
   * The scores are fitRidge's then predictScores', bit for bit.
   */
  playground(X: Matrix | Rows, y: Vector, options: PlaygroundOptions): Promise<PlaygroundResult>;
  /**
   * Reads a model file (its JSON text, or the parsed object) as
   * JSON.stringify(model) wrote it, in this or another host. Go reads the
   * text (an object: the text JSON.stringify writes of it) strictly, as
   * native ntkrf does, so every host accepts the same files. Rejects with
   * ERR_TYPE (not a model file: malformed or truncated JSON, an unknown,
   * repeated or missing field, a value of the wrong type, 64.0 for an
   * integer; a loaded Model, a BigInt, a cycle), ERR_VALUE (another format
   * or version, inconsistent fields, a seed past 2^53−1), ERR_SHAPE
   * (matrices that do not fit the model), ERR_NONFINITE (NaN, ±Inf, null or
   * 1e999 numbers) or ERR_TOO_LARGE (a feature map that would not fit in
   * memory, refused before it is drawn); messages name the field at fault.
   */
  loadModel(file: string | ModelFile, options?: CallControl): Promise<Model>;
  /**
   * X preprocessed exactly as fitRidge would preprocess it (missing cells
   * imputed, then standardized, then rows scaled to unit norm, then the bias
   * input appended as one more column, as asked), fitted on X itself.
   */
  preprocess(X: Matrix | Rows, options?: PreprocessOptions): Promise<Matrix64>;
  /** How well random features approximate the exact kernel on the rows of X. */
  compare(X: Matrix | Rows, options?: CompareOptions): Promise<Comparison>;
  /** Greedy experimental design: k rows to label that minimize the paper's criterion on random features. */
  selectActive(X: Matrix | Rows, options: SelectOptions): Promise<number[]>;
  /** Seeded shuffle split into train and test row indices; n at most 10,000,000 (Go's data.MaxIndices; more is ERR_TOO_LARGE). */
  split(n: number, options?: SplitOptions): Promise<{ train: number[]; test: number[] }>;
  /** The same split of a Dataset's rows, as Datasets that keep its schema (fit on train, predictCSV still works). */
  split(dataset: Dataset, options?: SplitOptions): Promise<DatasetSplit>;
  /** Seeded k-fold split: per fold, the held-out rows (test) and the rest (train); the test parts partition 0…n−1. k·n at most 10,000,000 indices in all (Go's data.MaxIndices; more is ERR_TOO_LARGE). */
  kfold(n: number, options?: KFoldOptions): Promise<{ train: number[]; test: number[] }[]>;
  /** The same folds of a Dataset's rows, each as Datasets that keep its schema. */
  kfold(dataset: Dataset, options?: KFoldOptions): Promise<DatasetSplit[]>;
  /**
   * Accuracy, confusion matrix and per-class figures (classification), or
   * MSE and R² (regression). Class names (two arrays of strings) are
   * classification; whole numbers need the task (or model.score).
   */
  score(yTrue: Vector | readonly string[], yPred: Vector | readonly string[], options?: ScoreOptions): Promise<Scores>;
  /**
   * The rows idx of X as a new matrix (float64), in the order given. Pure
   * JavaScript and synchronous (no worker, no Promise; works after close()):
   * throws ERR_TYPE (option "idx") for an index that is not a number, and
   * ERR_VALUE (option "idx") for one that is not an integer in 0…X.rows−1.
   */
  take(X: Matrix, idx: Indices): Matrix64;
  /** The entries idx of a vector, as a new array of the same type (the same checks). */
  take(v: Float64Array, idx: Indices): Float64Array;
  take(v: Float32Array, idx: Indices): Float32Array;
  take<T>(v: readonly T[], idx: Indices): T[];
  /**
   * Memory of the WebAssembly instances: Go heap in use and memory obtained
   * (in WebAssembly it never shrinks, so it is each worker's peak), summed
   * over the workers and per worker. It asks every worker, so it waits
   * for each one's call in flight; signal stops that wait (ERR_ABORTED).
   */
  stats(options?: CallControl): Promise<{ heapBytes: number; sysBytes: number; workers: { heapBytes: number; sysBytes: number; keptParts: number }[] }>;
  /** Stops the workers and frees their memory; calls in flight and later calls reject with ERR_CLOSED. */
  close(): void;
}

/** Compiles ntkrf.wasm once and starts the workers. */
export function createEngine(options?: EngineOptions): Promise<Engine>;
