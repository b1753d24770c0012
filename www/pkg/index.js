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
//   index.js    the Engine and createEngine (this file)
import { ntkrfError, typeError, closedError, describe } from './errors.js';
import { SCHEMA, checkKeys, splitControl, matrixData, vectorData, inputBytes, checkCount } from './options.js';
import { isNode, loadModule, Pool } from './pool.js';
import { overRows, concat, take } from './rows.js';
import { fitRidge } from './fit.js';
import { loadModel } from './model.js';

const MAX_WORKERS = 8;

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
  }

  async kernel(X, Z = null, options = {}) {
    const where = 'kernel';
    guard(this.#pool, where);
    const [opts, control] = splitControl(where, options);
    const arrays = [matrixData(where, 'X', X)];
    const args = { ...opts, X: { rows: X.rows, cols: X.cols, array: 0 } };
    if (Z !== null && Z !== undefined) {
      arrays.push(matrixData(where, 'Z', Z));
      args.Z = { rows: Z.rows, cols: Z.cols, array: 1 };
    }
    return this.#pool.call('kernel', args, arrays, control);
  }

  async features(X, options = {}) {
    const where = 'features';
    guard(this.#pool, where);
    const [opts, control] = splitControl(where, options);
    const data = matrixData(where, 'X', X);
    const parts = await overRows(this.#pool, X.rows, control, (lo, hi, ctl) => this.#pool.call('features',
      { ...opts, X: { rows: hi - lo, cols: X.cols, array: 0 } },
      [data.slice(lo * X.cols, hi * X.cols)], ctl, { transfer: true }));
    return { rows: X.rows, cols: parts[0].cols, data: concat(parts.map((p) => p.data)) };
  }

  /** fitRidge(X, y, options), or fitRidge(dataset, options) with a parseCSV result. */
  async fitRidge(...args) {
    guard(this.#pool, 'fitRidge');
    return fitRidge(this.#pool, ...args);
  }

  /** A model file (JSON text or its parsed object, as JSON.stringify(model) writes it) → a Model, checked by Go. */
  async loadModel(file, options = {}) {
    guard(this.#pool, 'loadModel');
    return loadModel(this.#pool, file, options);
  }

  /** X preprocessed exactly as a fit would preprocess it, fitted on X itself. */
  async preprocess(X, options = {}) {
    const where = 'preprocess';
    guard(this.#pool, where);
    const [opts, control] = splitControl(where, options);
    const data = matrixData(where, 'X', X);
    return this.#pool.call(where, { ...opts, X: { rows: X.rows, cols: X.cols, array: 0 } }, [data], control);
  }

  async compare(X, options = {}) {
    const where = 'compare';
    guard(this.#pool, where);
    const [opts, control] = splitControl(where, options);
    const data = matrixData(where, 'X', X);
    return this.#pool.call(where, { ...opts, X: { rows: X.rows, cols: X.cols, array: 0 } }, [data], control);
  }

  async selectActive(X, options = {}) {
    const where = 'selectActive';
    guard(this.#pool, where);
    const [opts, control] = splitControl(where, options);
    const data = matrixData(where, 'X', X);
    if (opts.k === undefined) throw typeError(`${where}: k is required: the number of rows to pick`, 'k');
    return this.#pool.call(where, { ...opts, X: { rows: X.rows, cols: X.cols, array: 0 } }, [data], control);
  }

  async score(yTrue, yPred, options = {}) {
    const where = 'score';
    guard(this.#pool, where);
    const [opts, control] = splitControl(where, options);
    const a = vectorData(where, 'yTrue', yTrue);
    const b = vectorData(where, 'yPred', yPred);
    if (a.length !== b.length) throw ntkrfError('ERR_SHAPE', `${where}: yTrue has ${a.length} values but yPred has ${b.length}`, 'yPred');
    return this.#pool.call(where, { ...opts, yTrue: { array: 0 }, yPred: { array: 1 } }, [a, b], control);
  }

  async parseCSV(input, options = {}) {
    const where = 'parseCSV';
    guard(this.#pool, where);
    const [opts, control] = splitControl(where, options);
    const bytes = inputBytes(where, input, opts.maxBytes);
    return this.#pool.call(where, opts, [], control, { bytes, transfer: true });
  }

  async previewCSV(input, options = {}) {
    const where = 'previewCSV';
    guard(this.#pool, where);
    const [opts, control] = splitControl(where, options);
    // A preview reads the start of the file only; gzip needs its stream start.
    const bytes = inputBytes(where, input, opts.maxBytes);
    return this.#pool.call(where, opts, [], control, { bytes, transfer: true });
  }

  async split(n, options = {}) {
    guard(this.#pool, 'split');
    const [opts, control] = splitControl('split', options);
    checkCount('split', 'n', n);
    return this.#pool.call('split', { ...opts, n }, [], control);
  }

  async kfold(n, options = {}) {
    guard(this.#pool, 'kfold');
    const [opts, control] = splitControl('kfold', options);
    checkCount('kfold', 'n', n);
    return this.#pool.call('kfold', { ...opts, n }, [], control);
  }

  /**
   * The rows idx of a matrix, or the entries idx of a vector (Float64Array,
   * Float32Array or array), as a new matrix or array: pure JavaScript,
   * synchronous, usable after close(). Throws on a bad X or index.
   */
  take(X, idx) {
    return take(X, idx);
  }

  /** Memory of the instances: Go heap in use and memory obtained, in all and per worker. */
  async stats() {
    guard(this.#pool, 'stats');
    const workers = await Promise.all(this.#pool.slots.map((slot) => this.#pool.call('stats', {}, [], {}, { slot })));
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
 * WebAssembly instances, each in its own worker.
 */
export async function createEngine(options = {}) {
  const opts = checkKeys('createEngine', options, ['workers', 'wasmURL']);
  if (opts.wasmURL !== undefined && typeof opts.wasmURL !== 'string' && !(opts.wasmURL instanceof URL)) {
    throw typeError(`createEngine: wasmURL must be a string or URL, got ${describe(opts.wasmURL)}`, 'wasmURL');
  }
  const n = await resolveWorkers(opts.workers);
  const module = await loadModule(opts.wasmURL);
  const pool = new Pool(module, n);
  try {
    await pool.start();
  } catch (e) {
    pool.close();
    throw e;
  }
  return new Engine(pool);
}
