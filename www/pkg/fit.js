// The distributed ridge fit: the scaler fitted in one worker, then either
// one worker fitting everything (the dual, a kernel, or a small problem) or
// every worker accumulating ΦᵀΦ and Φᵀy over chunks of rows, merged and
// solved in one.
import { ntkrfError } from './errors.js';
import { splitControl, matrixData, vectorData, optionOf } from './options.js';
import { Model } from './model.js';
import { rowBlocks, overRows, chunkRows, copyRange } from './rows.js';

/** The largest class count (Go's MaxClasses, the schema's limit on classes). */
const MAX_CLASSES = () => optionOf('fitRidge', 'classes').max;

/**
 * The task of a fit: as given, or regression when y holds a non-integer
 * value. Whole-number targets are class labels as often as counts, so
 * they are not guessed: the caller says which.
 */
function fitTask(where, opts, y) {
  if (opts.task) return opts.task;
  if (opts.classes !== undefined) return 'classification';
  if (y.every(Number.isInteger)) {
    throw ntkrfError('ERR_OPTION', `${where}: y holds only whole numbers, which may be class labels or values: pass task: 'classification' or task: 'regression'`, 'task');
  }
  return 'regression';
}

/**
 * The number of feature columns, for planning the chunks of a fit: dim,
 * or m1 + sketchDim when both are given (rf refuses the two together when
 * they disagree with dim).
 */
function featureDim(f, cols) {
  if (f.depth === 0 && ['ntk', 'nngp'].includes(f.method ?? 'ntk')) return cols;
  if (f.dim !== undefined) return f.dim;
  if (f.m1 !== undefined && f.sketchDim !== undefined) return f.m1 + f.sketchDim;
  return optionOf('features', 'dim').default;
}

/** Engine.fitRidge(X, y, options) on the engine's pool. */
export async function fitRidge(pool, X, y, options) {
  const where = 'fitRidge';
  const [opts, control] = splitControl(where, options);
  if (opts.features && opts.kernel) throw ntkrfError('ERR_OPTION', `${where}: give features (primal) or kernel (dual), not both`, 'kernel');
  const data = matrixData(where, 'X', X);
  const yd = vectorData(where, 'y', y);
  if (yd.length !== X.rows) throw ntkrfError('ERR_SHAPE', `${where}: X has ${X.rows} rows but y has ${yd.length} values`, 'y');
  const task = fitTask(where, opts, yd);
  let classes = opts.classes;
  if (task === 'classification') {
    const i = yd.findIndex((v) => !Number.isInteger(v) || v < 0);
    if (i >= 0) throw ntkrfError('ERR_VALUE', `${where}: y[${i}] = ${yd[i]} is not a class index; encode classes as 0…k−1`, 'y');
  }
  if (task === 'classification' && classes === undefined) {
    classes = 0;
    for (const v of yd) if (Number.isInteger(v) && v >= classes) classes = v + 1;
    if (classes > MAX_CLASSES()) {
      throw ntkrfError('ERR_VALUE', `${where}: y holds the label ${classes - 1}, which would make ${classes} classes; labels must be class indices 0…${MAX_CLASSES() - 1}`, 'y');
    }
  }
  const ridge = { lambda: opts.lambda, criterion: opts.criterion, grid: opts.grid, task, classes };
  const Xref = (rows) => ({ rows, cols: X.cols, array: 0 });
  const call = (op, args, arrays, ctl, extra = {}) => pool.call(op, args, arrays, ctl, { where, ...extra });
  // Every stage reports: the scaler, the features (in rows, over the
  // workers) and the solve with its λ search.
  const stage = (name) => control.onProgress && ((p) => control.onProgress({ ...p, stage: p.stage || name }));
  // The scaler needs every row in one worker: the first, see below. A
  // copy moved there peaks lower than posting X, which serializes it
  // into a buffer first.
  const first = pool.slots[0];
  const scaler = await call('fitScaler', { X: Xref(X.rows), preprocess: opts.preprocess, groups: opts.groups }, [data.slice()],
    { signal: control.signal, onProgress: stage('preprocess') }, { slot: first, transfer: true });
  let model;
  if (opts.kernel) {
    model = await call('fitKernel', { ...ridge, X: Xref(X.rows), y: { array: 1 }, scaler, kernel: opts.kernel }, [data, yd], control);
  } else {
    const features = opts.features ?? {};
    // With no more rows than features the fit runs in the dual on ΦΦᵀ
    // (smaller than ΦᵀΦ) in one worker, and so does a fit of one chunk.
    // A chunk holds at most CHUNK_BYTES of X but at least 4m² numbers, so
    // that the partial sums waiting for the solve (an m×m ΦᵀΦ per chunk)
    // add up to at most a quarter of X.
    const dim = featureDim(features, X.cols);
    const maxRows = Math.max(chunkRows(X.cols), Math.ceil((4 * dim * dim) / X.cols));
    if (rowBlocks(X.rows, pool.slots.length, maxRows).length === 1 || opts.criterion === 'loo' || X.rows <= dim) {
      model = await call('fitFeatures', { ...ridge, X: Xref(X.rows), y: { array: 1 }, scaler, features }, [data, yd], control);
    } else {
      // The bridge collects the copy of X that fitScaler left in the first
      // worker before returning, so the chunks reuse that memory.
      // The workers featurize chunks of rows and accumulate each chunk's
      // ΦᵀΦ and Φᵀy; one worker merges the parts in row order and solves.
      const parts = await overRows(pool, X.rows, control, (lo, hi, ctl, spare) => call('accumulate',
        { X: Xref(hi - lo), y: { array: 1 }, scaler, features, task, classes },
        [copyRange(data, lo * X.cols, hi * X.cols, spare.x), copyRange(yd, lo, hi, spare.y)], ctl,
        { transfer: true, onInputs: ([x, yb]) => { spare.x = x; spare.y = yb; } }), maxRows);
      const arrays = [];
      const ref = (a) => { arrays.push(a); return { array: arrays.length - 1 }; };
      const partRefs = parts.map((p) => ({ rows: p.rows, mu: ref(p.mu), ybar: ref(p.ybar), C: ref(p.C), D: ref(p.D), E: ref(p.E) }));
      model = await call('solve', { ...ridge, parts: partRefs, dim: parts[0].mu.length, features, scaler },
        arrays, { signal: control.signal, onProgress: stage('solve') }, { transfer: true });
    }
  }
  return new Model(pool, model, task === 'classification' ? classes : 0);
}
