// ntkrf: random features for the Neural Tangent Kernel, in WebAssembly.
// The same module works in Node ≥ 20 (worker_threads) and in browsers
// (module Web Workers). See index.d.ts for the documented API.
//
// The package is plain ES modules, loaded as they are (no bundler):
//   errors.js   the error grammar (codes, classes, messages)
//   options.js  validation against the engine's schema, matrices, vectors, bytes
//   pool.js     loading ntkrf.wasm, the workers (worker.js) and their queue
//   rows.js     splitting rows over the workers, joining the results; take
//   fit.js      the distributed ridge fit, planned by Go (the plan op)
//   model.js    the fitted Model, and its file (toJSON, loadModel)
//   dataset.js  a Dataset split into Datasets that keep its schema (split, kfold)
//   playground.js  the lab's playground models in one call (Go's core/playground)
//   index.js    the Engine and createEngine (this file)
import { ntkrfError, typeError, closedError, abortError, describe } from './errors.js';
import { SCHEMA, NAMES, LIMITS, COSTS, checkKeys, splitControl, readMatrix, snapshotMatrix, snapshotVector, snapshotNames, inputBytes, withPathHint, checkCount } from './options.js';
import { isNode, loadModule, givenModule, Pool, START_TIMEOUT_MS } from './pool.js';
import { rowBlocks, overRows, copyRows, concat, take } from './rows.js';
import { fitRidge } from './fit.js';
import { loadModel } from './model.js';
import { splitDataset } from './dataset.js';
import { playground } from './playground.js';

const MAX_WORKERS = 8;

/** The longest delay setTimeout keeps (2^31−1 ms, about 24.8 days); a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Rejects with the engine's error for calls made on a closed engine. */
function guard(pool, where) {
  if (pool.closed) throw closedError(where);
}

class Engine {
  #pool;

  constructor(pool) {
    this.#pool = pool;
    /** Number of WebAssembly workers. */
    this.workers = pool.slots.length;
    /** Every method's options: name, kind, limits, default and a line of doc (from Go's jsbridge/schema.go). */
    this.schema = SCHEMA;
    /** Every name of the core (Go's core/names) by its Go name: names.Auto is "auto". */
    this.names = NAMES;
    /** The sizes the engine cuts a call's rows by (Go's pipeline): chunkBytes, splitSelectBytes, minBlockRows. */
    this.limits = LIMITS;
    /** The core's cost model (Go's pipeline.Costs): work units per step and the rates natively and in WebAssembly, which 'auto' chooses the method and m by. */
    this.costs = COSTS;
  }

  // Every method takes its inputs when it is called: each argument read
  // once (a getter is never asked twice) into the call's own copy, which is
  // what is checked and what is computed with, however long the call waits
  // for a worker and whatever the caller does with its arrays meanwhile.

  async kernel(X, Z = null, options = {}) {
    const where = 'kernel';
    guard(this.#pool, where);
    const [opts, control] = splitControl(where, options);
    const x = snapshotMatrix(where, 'X', X);
    const arrays = [x.data];
    const args = { ...opts, X: { rows: x.rows, cols: x.cols, array: 0 } };
    if (Z !== null && Z !== undefined) {
      const z = snapshotMatrix(where, 'Z', Z);
      arrays.push(z.data);
      args.Z = { rows: z.rows, cols: z.cols, array: 1 };
    }
    return this.#pool.call(where, args, arrays, control, { transfer: true });
  }

  /**
   * The variance, at each row of Z, of the predictions of an infinitely
   * wide ensemble of ReLU networks trained on the rows of X (the NTK/NNGP
   * Gaussian process: Go's krr.EnsembleVariance): Float64Array.
   */
  async ensembleVariance(X, Z, options = {}) {
    const where = 'ensembleVariance';
    guard(this.#pool, where);
    const [opts, control] = splitControl(where, options);
    const x = snapshotMatrix(where, 'X', X);
    const z = snapshotMatrix(where, 'Z', Z);
    const args = { ...opts, X: { rows: x.rows, cols: x.cols, array: 0 }, Z: { rows: z.rows, cols: z.cols, array: 1 } };
    return this.#pool.call(where, args, [x.data, z.data], control, { transfer: true });
  }

  async features(X, options = {}) {
    const where = 'features';
    guard(this.#pool, where);
    const [opts, control] = splitControl(where, options);
    const x = readMatrix(where, 'X', X);
    // The call's copy of X is made now, one chunk per block, each moved to its worker.
    const blocks = rowBlocks(x.rows, this.#pool.slots.length);
    const chunks = blocks.map(([lo, hi]) => copyRows(x, lo, hi));
    const parts = await overRows(this.#pool, blocks, control, (lo, hi, ctl, spare, i) => this.#pool.call(where,
      { ...opts, X: { rows: hi - lo, cols: x.cols, array: 0 } }, [chunks[i]], ctl, { transfer: true }));
    return { rows: x.rows, cols: parts[0].cols, data: concat(parts.map((p) => p.data)) };
  }

  /** fitRidge(X, y, options), or fitRidge(dataset, options) with a parseCSV result. */
  async fitRidge(...args) {
    guard(this.#pool, 'fitRidge');
    return fitRidge(this.#pool, ...args);
  }

  /**
   * The lab's playground in one call: each of models ({ features } or {
   * kernel }, sharing λ, task, classes and preprocess) fitted on X and y,
   * and every matrix of points scored with each; the worker keeps its
   * models and scores, so a call that changes one model fits that one.
   */
  async playground(X, y, options = {}) {
    guard(this.#pool, 'playground');
    return playground(this.#pool, X, y, options);
  }

  /** A model file (JSON text or its parsed object, as JSON.stringify(model) writes it) → a Model, checked by Go. */
  async loadModel(file, options = {}) {
    guard(this.#pool, 'loadModel');
    return loadModel(this.#pool, file, options);
  }

  /** X preprocessed exactly as a fit would preprocess it, fitted on X itself. */
  async preprocess(X, options = {}) {
    return this.#overX('preprocess', X, options);
  }

  async compare(X, options = {}) {
    return this.#overX('compare', X, options);
  }

  async selectActive(X, options = {}) {
    return this.#overX('selectActive', X, options, (opts) => {
      if (opts.k === undefined) throw typeError('selectActive: k is required: the number of rows to pick', 'k');
    });
  }

  /** A method of one matrix X and options, run in one worker. */
  async #overX(where, X, options, checkOpts) {
    guard(this.#pool, where);
    const [opts, control] = splitControl(where, options);
    const x = snapshotMatrix(where, 'X', X);
    checkOpts?.(opts);
    return this.#pool.call(where, { ...opts, X: { rows: x.rows, cols: x.cols, array: 0 } }, [x.data], control, { transfer: true });
  }

  async score(yTrue, yPred, options = {}) {
    const where = 'score';
    guard(this.#pool, where);
    const [opts, control] = splitControl(where, options);
    // Class names (as scikit-learn's scorers take them): both vectors
    // through Go's class rule together (data.TextLabels), so a name means
    // one class in both; the scores' classes are those names.
    const ta = snapshotNames(yTrue), tb = snapshotNames(yPred);
    if (ta && tb) {
      if (ta.length !== tb.length) throw ntkrfError('ERR_SHAPE', `${where}: yTrue has ${ta.length} values but yPred has ${tb.length}`, 'yPred');
      if (opts.task === NAMES.Regression) throw ntkrfError('ERR_OPTION', `${where}: yTrue and yPred are class names, which have no regression scores; leave task out`, 'task');
      const { y, classes } = await this.#pool.call('labels', { labels: [...ta, ...tb] }, [], control, { where });
      const [a, b] = [y.slice(0, ta.length), y.slice(ta.length)];
      const s = await this.#pool.call(where, { task: NAMES.Classification, classes: classes.length, yTrue: { array: 0 }, yPred: { array: 1 } }, [a, b], control, { transfer: true });
      return { ...s, classes };
    }
    const a = snapshotVector(where, 'yTrue', yTrue);
    const b = snapshotVector(where, 'yPred', yPred);
    if (a.length !== b.length) throw ntkrfError('ERR_SHAPE', `${where}: yTrue has ${a.length} values but yPred has ${b.length}`, 'yPred');
    return this.#pool.call(where, { ...opts, yTrue: { array: 0 }, yPred: { array: 1 } }, [a, b], control, { transfer: true });
  }

  async parseCSV(input, options = {}) {
    return this.#csv('parseCSV', input, options);
  }

  async previewCSV(input, options = {}) {
    // A preview reads the start of the file only; gzip needs its stream start.
    return this.#csv('previewCSV', input, options);
  }

  /** parseCSV and previewCSV: the bytes are the call's own copy (inputBytes), moved to the worker. */
  async #csv(where, input, options) {
    guard(this.#pool, where);
    const [opts, control] = splitControl(where, options);
    const bytes = inputBytes(where, input, opts.maxBytes);
    return withPathHint(where, input, this.#pool.call(where, opts, [], control, { bytes }));
  }

  /** split(n): train and test row indices; split(dataset): train and test Datasets that keep its schema. */
  async split(n, options = {}) {
    return this.#rows('split', n, options);
  }

  /** kfold(n): the folds' row indices; kfold(dataset): the folds as Datasets that keep its schema. */
  async kfold(n, options = {}) {
    return this.#rows('kfold', n, options);
  }

  /** split and kfold: Go draws the rows (data.Split, data.KFold), of a count or of a Dataset. */
  async #rows(where, n, options) {
    guard(this.#pool, where);
    const [opts, control] = splitControl(where, options);
    if (n !== null && typeof n === 'object') return splitDataset(this.#pool, where, n, opts, control);
    checkCount(where, 'n', n);
    return this.#pool.call(where, { ...opts, n }, [], control);
  }

  /**
   * The rows idx of a matrix, or the entries idx of a vector (Float64Array,
   * Float32Array or array), as a new matrix or array: pure JavaScript,
   * synchronous, usable after close(). Throws on a bad X or index.
   */
  take(X, idx) {
    return take(X, idx);
  }

  /**
   * Memory of the instances: Go heap in use and memory obtained, in all and
   * per worker, and per worker the fits whose parts it keeps. It asks every worker, so it waits for each one's call in
   * flight: signal stops that wait (ERR_ABORTED), as for every other call.
   */
  async stats(options = {}) {
    const where = 'stats';
    guard(this.#pool, where);
    const [opts, control] = splitControl(where, options);
    const workers = await Promise.all(this.#pool.slots.map((slot) => this.#pool.call(where, opts, [], control, { slot })));
    const sum = (k) => workers.reduce((a, w) => a + w[k], 0);
    return { heapBytes: sum('heapBytes'), sysBytes: sum('sysBytes'), workers };
  }

  /** Stops the workers and frees their memory. Calls in flight and later calls reject with ERR_CLOSED. */
  close() {
    this.#pool.close();
  }
}

async function resolveWorkers(workers) {
  if (workers === undefined || workers === 'auto') {
    const hc = isNode
      ? (await import('node:os')).availableParallelism()
      : globalThis.navigator?.hardwareConcurrency ?? 2;
    return Math.max(1, Math.min(MAX_WORKERS, hc));
  }
  if (typeof workers !== 'number') throw typeError(`createEngine: workers must be 'auto' or an integer in 1…64, got ${describe(workers)}`, 'workers');
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
    throw ntkrfError('ERR_OPTION', `createEngine: workers must be 'auto' or an integer in 1…64, got ${describe(workers)}`, 'workers');
  }
  return workers;
}

/**
 * Starts an engine: compiles ntkrf.wasm once and starts `workers`
 * WebAssembly instances, each in its own worker: it resolves once the
 * first has started; the others start when a call waits for a worker or
 * once the first call is answered. module: ntkrf.wasm compiled already (a
 * WebAssembly.Module, or a promise of one: a page that starts the download
 * and compile before its scripts arrive, with compileStreaming, which lets
 * Chrome serve a returning visitor's compiled code from its cache), instead
 * of wasmURL's. Every await of the start
 * is bounded: an instance that does not start within startTimeoutMs
 * rejects ERR_INSTANCE, and signal aborts the download and the start
 * (ERR_ABORTED); either way every worker started is stopped.
 */
export async function createEngine(options = {}) {
  const opts = checkKeys('createEngine', options, ['workers', 'wasmURL', 'module', 'startTimeoutMs', 'signal']);
  if (opts.wasmURL !== undefined && typeof opts.wasmURL !== 'string' && !(opts.wasmURL instanceof URL)) {
    throw typeError(`createEngine: wasmURL must be a string or URL, got ${describe(opts.wasmURL)}`, 'wasmURL');
  }
  if (opts.module !== undefined && !(opts.module instanceof WebAssembly.Module) && typeof opts.module?.then !== 'function') {
    throw typeError(`createEngine: module must be a WebAssembly.Module (ntkrf.wasm compiled) or a promise of one, got ${describe(opts.module)}`, 'module');
  }
  if (opts.module !== undefined && opts.wasmURL !== undefined) {
    throw ntkrfError('ERR_OPTION', 'createEngine: module and wasmURL both say where ntkrf.wasm comes from; give one of them', 'module');
  }
  const startTimeoutMs = checkStartTimeout(opts.startTimeoutMs);
  const { signal } = opts;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw typeError(`createEngine: signal must be an AbortSignal, got ${describe(signal)}`, 'signal');
  }
  if (signal?.aborted) throw abortError(signal);
  const n = await resolveWorkers(opts.workers);
  // The module compiles while the workers load their scripts (Pool starts
  // them on the promise): the first pictures of a page wait for the slower
  // of the two, not for both in turn.
  const module = opts.module === undefined ? loadModule(opts.wasmURL, signal) : givenModule(opts.module);
  const pool = new Pool(module, n, { startTimeoutMs });
  let onAbort;
  const aborted = new Promise((resolve, reject) => {
    onAbort = () => reject(abortError(signal));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    // Ready with its first instance: the others start when a call waits
    // for a worker or once the first call is answered (Pool.startFirst).
    await Promise.race([pool.startFirst(), aborted]);
  } catch (e) {
    pool.close();
    throw signal?.aborted ? abortError(signal) : e;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return new Engine(pool);
}

/** createEngine's startTimeoutMs: the core's START_TIMEOUT_MS when undefined, else milliseconds in 1…2^31−1 (setTimeout's range). */
function checkStartTimeout(ms) {
  if (ms === undefined) return START_TIMEOUT_MS;
  const expect = `createEngine: startTimeoutMs must be a number of milliseconds in 1…${MAX_TIMER_MS}, got ${describe(ms)}`;
  if (typeof ms !== 'number') throw typeError(expect, 'startTimeoutMs');
  if (!Number.isFinite(ms) || ms < 1 || ms > MAX_TIMER_MS) throw ntkrfError('ERR_OPTION', expect, 'startTimeoutMs');
  return ms;
}
