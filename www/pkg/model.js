// A fitted ridge model. Its numbers live in JavaScript, so any worker can
// predict with it; predictions are split over the workers by rows. The
// model file (toJSON, Engine.loadModel) is Go's: JavaScript passes every
// field through untouched except the two big matrices, which cross the
// bridge as typed arrays (coef, and train for kernel models).
import { ntkrfError, typeError, describe, withArticle } from './errors.js';
import { NAMES, splitControl, readMatrix, snapshotVector, snapshotNames, inputBytes, withPathHint } from './options.js';
import { rowBlocks, overRows, chunkRows, copyRows, concat } from './rows.js';

/** A fitted ridge model; its numbers live in JavaScript, so any worker can predict. */
export class Model {
  #pool;
  #model;
  #coef;
  #train;

  /** From what a fitting op or loadModel returns: {model, coef, train?} with coef and train as {rows, cols, data}. */
  constructor(pool, { model, coef, train }, warnings = []) {
    this.#pool = pool;
    // Go's header, passed through untouched: sent back with every
    // prediction, saved by toJSON.
    this.#model = model;
    this.#coef = coef;
    this.#train = train ?? null;
    /** "kernel" (dual, exact kernel) or "features" (primal, random features). */
    this.kind = model.kind ?? (model.kernel ? NAMES.MethodKernel : NAMES.MethodFeatures);
    this.task = model.task;
    /** Class names (classification), label i ↔ classes[i]; null for regression. */
    this.classes = model.task === NAMES.Classification ? model.classes : null;
    this.lambda = model.lambda;
    // A λ whose criterion could not be evaluated scores +Inf, which JSON
    // (the file, the bridge) writes as null.
    this.curve = model.curve.map(({ lambda, score, accuracy }) => ({ lambda, score: score ?? Infinity, ...(accuracy !== undefined && { accuracy }) }));
    /** What 'auto' chose for depth and preprocessing (every candidate's scores), or null when both were fixed. */
    this.selection = model.selection ?? null;
    /** The dataset schema of a model fitted from a Dataset (what predictCSV reads), or null. */
    this.input = model.input ?? null;
    /** Go's advice on the fit that made this model (its size against the rows' needs), one sentence each; not saved in the file. */
    this.warnings = [...warnings];
  }

  /** The arguments that hand the model to an op: its JSON and references to its two matrices, stored from index `at` on. */
  #args(arrays) {
    const ref = (M) => { arrays.push(M.data); return { rows: M.rows, cols: M.cols, array: arrays.length - 1 }; };
    const args = { model: this.#model, coef: ref(this.#coef) };
    if (this.#train) args.train = ref(this.#train);
    return args;
  }

  #alive(where) {
    if (!this.#model) throw ntkrfError('ERR_CLOSED', `${where}: this model was disposed`);
  }

  async #run(X, options, scores) {
    const where = scores ? 'predictScores' : 'predict';
    const [, control] = splitControl(where, options, 'predict');
    this.#alive(where);
    // The call's copy of X, made now, one chunk per block (see Engine.features).
    return this.#predictRows(where, readMatrix(where, 'X', X, 'predict'), control, scores);
  }

  /**
   * The labels (or scores) of the rows x (the call's own matrix), predicted
   * in blocks of rows (the core's rule: rowBlocks), each on a free worker,
   * joined in row order: the same bits on any number of workers.
   */
  async #predictRows(where, x, control, scores) {
    const blocks = rowBlocks(x.rows, this.#pool.slots.length, chunkRows(x.cols));
    const chunks = blocks.map(([lo, hi]) => copyRows(x, lo, hi));
    const arrays = [null];
    const model = this.#args(arrays);
    const parts = await overRows(this.#pool, blocks, control, (lo, hi, ctl, spare, i) => {
      const a = [...arrays];
      a[0] = chunks[i];
      chunks[i] = null;
      // The chunk is moved; the model's matrices are copied, staying the model's.
      return this.#pool.call('predict', { X: { rows: hi - lo, cols: x.cols, array: 0 }, ...model, scores }, a, ctl, { where, transfer: [a[0]] });
    });
    if (!scores) return concat(parts.map((p) => p.labels));
    const cols = parts[0].scores.cols;
    return { rows: x.rows, cols, data: concat(parts.map((p) => p.scores.data)) };
  }

  predict(X, options = {}) { return this.#run(X, options, false); }

  predictScores(X, options = {}) { return this.#run(X, options, true); }

  /**
   * Predicts the rows of a CSV file (text, or bytes, gzip or not) read
   * through the model's dataset schema (model.input): class names for
   * classification (classNames of Go's PredictCSV labels), a Float64Array
   * of values for regression. The target column may be absent.
   */
  async predictCSV(input, options = {}) {
    const where = 'predictCSV';
    const [opts, control] = splitControl(where, options);
    this.#alive(where);
    const bytes = inputBytes(where, input, opts.maxBytes);
    const arrays = [];
    // The file read through the model's schema in one worker (readCSV:
    // Go's Pipeline.ReadCSV, predictCSV's reader and errors), its rows
    // then predicted as predict's are, in blocks over every worker.
    // Progress: the parse stage, then the predict stage's rows.
    const x = await withPathHint(where, input, this.#pool.call('readCSV', { ...opts, ...this.#args(arrays) }, arrays, control, { bytes, where }));
    this.#alive(where);
    const labels = await this.#predictRows(where, x, control, false);
    // The names form of the labels Go predicted (see classNames).
    return this.task === NAMES.Classification ? this.classNames(labels) : labels;
  }

  /**
   * The class names of class indices (what predict returns): classes[i]
   * for label i, as Go's Pipeline.ClassNames names them. Synchronous.
   * Throws ERR_DATA for a regression model (its predictions are values),
   * ERR_TYPE or ERR_VALUE (option "labels") for a label that is not a
   * class index of this model.
   */
  classNames(labels) {
    const where = 'classNames';
    if (this.task !== NAMES.Classification) {
      throw ntkrfError('ERR_DATA', `${where}: ${withArticle(this.task)} model predicts values, which have no class names`);
    }
    const v = snapshotVector(where, 'labels', labels);
    const k = this.classes.length;
    return Array.from(v, (x, i) => {
      if (!Number.isInteger(x) || x < 0 || x >= k) {
        throw ntkrfError('ERR_VALUE', `${where}: labels[${i}] = ${describe(x)} is not a class index of this model (an integer in 0…${k - 1})`, 'labels');
      }
      return this.classes[x];
    });
  }

  /**
   * Scores the model's predictions of X against y, with the model's own
   * task: accuracy, the confusion matrix and each class's figures for a
   * classifier (y: class indices, or class names of this model), MSE and
   * R² for a regression (Engine.score's figures).
   */
  async score(X, y, options = {}) {
    const where = 'score';
    const [, control] = splitControl(where, options, 'predict');
    this.#alive(where);
    const names = this.task === NAMES.Classification ? snapshotNames(y) : null;
    let yTrue;
    if (names) {
      const index = new Map(this.classes.map((c, i) => [c, i]));
      yTrue = Float64Array.from(names, (c, i) => {
        if (!index.has(c)) throw ntkrfError('ERR_VALUE', `${where}: y[${i}] = ${describe(c)} is not a class of this model (model.classes)`, 'y');
        return index.get(c);
      });
    } else yTrue = snapshotVector(where, 'y', y);
    const pred = await this.predict(X, control);
    if (pred.length !== yTrue.length) throw ntkrfError('ERR_SHAPE', `${where}: X has ${pred.length} rows but y has ${yTrue.length} values`, 'y');
    const task = this.task === NAMES.Classification ? { task: this.task, classes: this.classes.length } : { task: this.task };
    return this.#pool.call(where, { ...task, yTrue: { array: 0 }, yPred: { array: 1 } }, [yTrue, Float64Array.from(pred)], { signal: control.signal }, { transfer: true });
  }

  /** The model file (JSON.stringify(model) calls this); Engine.loadModel reads it back. */
  toJSON() {
    this.#alive('toJSON');
    const matrix = (M) => ({ rows: M.rows, cols: M.cols, data: Array.from(M.data) });
    const file = { ...this.#model, coef: matrix(this.#coef) };
    if (this.#train) file.train = matrix(this.#train);
    return file;
  }

  dispose() {
    this.#model = null;
    this.#coef = null;
    this.#train = null;
  }
}

/**
 * The bytes of a model file: its text as given, or the text
 * JSON.stringify writes of a parsed file (NaN and ±Inf become null, which
 * Go refuses as non-finite). Go reads them strictly (core/pipeline), so
 * the package accepts exactly the files native ntkrf accepts.
 */
function modelBytes(where, file) {
  if (file instanceof Model) {
    throw typeError(`${where}: this is already a loaded Model; to load it again, pass its file: JSON.stringify(model)`);
  }
  let text = file;
  if (typeof file !== 'string') {
    if (file === null || typeof file !== 'object' || Array.isArray(file) || ArrayBuffer.isView(file) || file instanceof ArrayBuffer) {
      throw typeError(`${where}: a model must be the JSON text of a model file or its parsed object, got ${describe(file)}`);
    }
    try {
      // Matrices held as typed arrays are written as the arrays they hold.
      text = JSON.stringify(file, (k, v) => (v instanceof Float64Array ? Array.from(v) : v));
    } catch (e) {
      // A BigInt, a cycle, or nesting deeper than the stack.
      throw typeError(`${where}: the model object cannot be written as JSON (${e.message}); pass the model file's text or the object JSON.parse made of it`);
    }
    if (typeof text !== 'string') throw typeError(`${where}: the model object cannot be written as JSON (its toJSON returns ${describe(text)})`);
  }
  return new TextEncoder().encode(text);
}

/**
 * Engine.loadModel: a model file (its JSON text, or the parsed object) →
 * a Model, once Go has read and checked it (pipeline.Load), matrices and all.
 */
export async function loadModel(pool, file, options) {
  const where = 'loadModel';
  const [, control] = splitControl(where, options);
  const bytes = modelBytes(where, file);
  const r = await pool.call(where, {}, [], control, { bytes });
  return new Model(pool, r);
}
