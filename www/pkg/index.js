// ntkrf: random features for the Neural Tangent Kernel, in WebAssembly.
// The same module works in Node ≥ 20 (worker_threads) and in browsers
// (module Web Workers). See index.d.ts for the documented API.

const isNode = typeof process !== 'undefined' && !!process.versions?.node;
const MAX_WORKERS = 8;

/** Rejects with the same error a cancelled fetch gives. */
function abortError(signal) {
  const reason = signal?.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException('The ntkrf call was aborted', 'AbortError');
}

function checkKeys(where, obj, known) {
  if (obj === undefined || obj === null) return {};
  if (typeof obj !== 'object' || Array.isArray(obj)) {
    throw new TypeError(`${where}: options must be an object, got ${describe(obj)}`);
  }
  for (const k of Object.keys(obj)) {
    if (!known.includes(k)) {
      throw new TypeError(`${where}: unknown option "${k}"; known options: ${known.join(', ')}`);
    }
  }
  return obj;
}

function describe(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an Array';
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name}`;
  return typeof v === 'object' ? `an object with keys ${Object.keys(v).join(', ') || '(none)'}` : `${typeof v} ${String(v)}`;
}

/**
 * Checks a {rows, cols, data} matrix and returns its data as a Float64Array
 * (the caller's array itself when it already is one: it is copied, never
 * detached, when posted to a worker).
 */
function matrixData(where, name, M) {
  if (M === null || typeof M !== 'object' || Array.isArray(M) || ArrayBuffer.isView(M)) {
    throw new TypeError(`${where}: ${name} must be a matrix {rows, cols, data}, got ${describe(M)}`);
  }
  const { rows, cols, data } = M;
  if (!Number.isInteger(rows) || !Number.isInteger(cols)) {
    throw new TypeError(`${where}: ${name}.rows and ${name}.cols must be integers, got ${describe(rows)} and ${describe(cols)}`);
  }
  if (!(data instanceof Float64Array) && !(data instanceof Float32Array)) {
    throw new TypeError(`${where}: ${name}.data must be a Float64Array or Float32Array, got ${describe(data)}; wrap plain arrays with Float64Array.from(array)`);
  }
  if (data.buffer.byteLength === 0 && data.length === 0 && rows * cols > 0) {
    throw new TypeError(`${where}: ${name}.data is detached (its buffer was transferred)`);
  }
  if (rows < 1 || cols < 1) {
    throw new RangeError(`${where}: ${name} is ${rows}×${cols}; it needs at least one row and one column`);
  }
  if (data.length !== rows * cols) {
    throw new RangeError(`${where}: ${name}.data has ${data.length} values but rows×cols = ${rows}×${cols} = ${rows * cols}`);
  }
  return data instanceof Float64Array ? data : new Float64Array(data);
}

const DEFAULT_MAX_BYTES = 256e6;

/**
 * The bytes of a string, ArrayBuffer or Uint8Array, as a copy this call
 * owns. The size is checked before anything is copied.
 */
function inputBytes(where, input, maxBytes) {
  const limit = maxBytes ?? DEFAULT_MAX_BYTES;
  const size = typeof input === 'string' ? input.length : input?.byteLength;
  if (!(typeof input === 'string' || input instanceof ArrayBuffer || input instanceof Uint8Array)) {
    throw new TypeError(`${where}: input must be a string, Uint8Array or ArrayBuffer, got ${describe(input)}`);
  }
  // A string's UTF-8 form is at least as long as its length in UTF-16 units.
  if (size > limit) {
    throw new RangeError(`${where}: the input is ${formatBytes(size)}, over the ${formatBytes(limit)} limit; raise maxBytes or use a sample of the rows`);
  }
  if (typeof input === 'string') {
    const bytes = new TextEncoder().encode(input);
    if (bytes.byteLength > limit) throw new RangeError(`${where}: the input is ${formatBytes(bytes.byteLength)}, over the ${formatBytes(limit)} limit; raise maxBytes or use a sample of the rows`);
    return bytes;
  }
  return input instanceof ArrayBuffer ? new Uint8Array(input.slice(0)) : input.slice();
}

function formatBytes(b) {
  if (b >= 1e9) return `${(b / 1e9).toFixed(1)} GB`;
  if (b >= 1e6) return `${(b / 1e6).toFixed(1)} MB`;
  if (b >= 1e3) return `${(b / 1e3).toFixed(1)} kB`;
  return `${b} B`;
}

function checkCount(where, name, n) {
  if (!Number.isInteger(n) || n < 0) throw new TypeError(`${where}: ${name} must be a non-negative integer, got ${describe(n)}`);
}

/** Replaces {array: i} and {rows, cols, array: i} references by the arrays. */
function revive(value, arrays) {
  if (Array.isArray(value)) return value.map((v) => revive(v, arrays));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'array') return arrays[value.array];
  if (keys.length === 3 && 'rows' in value && 'cols' in value && 'array' in value) {
    return { rows: value.rows, cols: value.cols, data: arrays[value.array] };
  }
  const out = {};
  for (const k of keys) out[k] = revive(value[k], arrays);
  return out;
}

// A module whose one function returns i8x16.splat(0): engines without
// WebAssembly SIMD reject it, as they would reject ntkrf.wasm as a whole.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11]);

async function loadModule(wasmURL) {
  if (!WebAssembly.validate(SIMD_PROBE)) {
    throw new Error('ntkrf: this JavaScript engine lacks WebAssembly SIMD; ntkrf needs Chrome or Edge 91, Firefox 89, Safari 16.4, Node.js 16.4 or later');
  }
  const url = wasmURL ?? new URL('./ntkrf.wasm', import.meta.url);
  if (isNode && (typeof url !== 'string' || !/^https?:/.test(url)) && !(url instanceof URL && url.protocol.startsWith('http'))) {
    const { readFile } = await import('node:fs/promises');
    const { fileURLToPath } = await import('node:url');
    const path = url instanceof URL || String(url).startsWith('file:') ? fileURLToPath(url) : String(url);
    return WebAssembly.compile(await readFile(path));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`ntkrf: could not load ${url}: HTTP ${response.status}`);
  if (response.headers.get('content-type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/** One worker with one Go instance; restarted after an abort or a crash. */
class Slot {
  constructor(pool) {
    this.pool = pool;
    this.job = null;
  }

  async start() {
    const url = new URL('./worker.js', import.meta.url);
    if (isNode) {
      const { Worker } = await import('node:worker_threads');
      this.worker = new Worker(url);
      this.worker.on('message', (m) => this.onMessage(m));
      this.worker.on('error', (e) => this.onCrash(e));
    } else {
      this.worker = new Worker(url, { type: 'module' });
      this.worker.onmessage = (e) => this.onMessage(e.data);
      this.worker.onerror = (e) => { e.preventDefault?.(); this.onCrash(new Error(e.message || 'worker failed to load')); };
    }
    this.ready = new Promise((resolve, reject) => { this.readyResolve = resolve; this.readyReject = reject; });
    this.worker.postMessage({ type: 'init', module: this.pool.module });
    await this.ready;
    // An idle engine must not keep Node running; run() refs it again.
    if (isNode && !this.job) this.worker.unref();
  }

  onMessage(m) {
    switch (m.type) {
      case 'ready': this.readyResolve(); return;
      case 'init-error': this.readyReject(new Error(`ntkrf: could not start WebAssembly: ${m.message}`)); return;
      case 'exit': this.onCrash(new Error(`ntkrf: the WebAssembly instance stopped (exit code ${m.code})`)); return;
    }
    const job = this.job;
    if (!job || m.id !== job.id) return;
    if (m.type === 'progress') {
      try { job.onProgress?.({ done: m.done, total: m.total, stage: m.stage }); } catch { /* a user callback must not break the call */ }
      return;
    }
    this.finish();
    if (m.type === 'result') {
      if (m.inputs) job.onInputs(m.inputs);
      job.resolve(revive(JSON.parse(m.json), m.arrays));
    } else {
      const Class = { TypeError, RangeError }[m.name] ?? Error;
      job.reject(new Class(m.message));
    }
  }

  onCrash(err) {
    this.readyReject?.(err);
    const job = this.job;
    this.worker?.terminate();
    this.worker = null; // so that finish() hands no queued job to it
    this.finish();
    job?.reject(err);
    this.restart();
  }

  run(job) {
    this.job = job;
    if (isNode) this.worker.ref();
    const transfer = job.transfer ? [...job.arrays.map((a) => a.buffer), ...(job.bytes ? [job.bytes.buffer] : [])] : [];
    this.worker.postMessage({ type: 'call', id: job.id, op: job.op, json: job.json, arrays: job.arrays, bytes: job.bytes, giveBack: !!job.onInputs }, transfer);
  }

  finish() {
    if (this.job?.signal) this.job.signal.removeEventListener('abort', this.job.onAbort);
    this.job = null;
    if (isNode) this.worker?.unref();
    this.pool.release(this);
  }

  /** Drops the instance (and all the memory it held) and starts a new one. */
  restart() {
    this.worker?.terminate();
    this.worker = null;
    if (this.pool.closed) return;
    this.pool.busy.add(this);
    this.start().then(() => this.pool.release(this), () => {
      this.worker?.terminate();
      this.worker = null;
      this.pool.release(this);
    });
  }
}

class Pool {
  constructor(module, n) {
    this.module = module;
    this.slots = Array.from({ length: n }, () => new Slot(this));
    this.busy = new Set();
    this.queue = [];
    this.nextId = 1;
    this.closed = false;
  }

  async start() {
    await Promise.all(this.slots.map((s) => s.start()));
  }

  release(slot) {
    this.busy.delete(slot);
    if (this.closed || !slot.worker) return;
    const i = this.queue.findIndex((j) => !j.slot || j.slot === slot);
    if (i >= 0) this.assign(slot, this.queue.splice(i, 1)[0]);
  }

  assign(slot, job) {
    this.busy.add(slot);
    slot.run(job);
  }

  /**
   * Runs op on the first free worker, or on `slot` when given. With
   * transfer set, the arrays (and bytes) are copies made for this call and
   * are moved, not copied again; onInputs then gets them back after a
   * successful call, for the next call to refill.
   */
  call(op, args, arrays, { signal, onProgress } = {}, { bytes, transfer = false, slot, onInputs } = {}) {
    if (this.closed) return Promise.reject(new Error('ntkrf: this engine is closed; create a new one with createEngine()'));
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      const job = { id: this.nextId++, op, json: JSON.stringify(args), arrays, bytes, transfer, slot, onInputs, resolve, reject, onProgress, signal };
      if (signal) {
        job.onAbort = () => {
          const i = this.queue.indexOf(job);
          if (i >= 0) this.queue.splice(i, 1);
          else {
            const slot = this.slots.find((s) => s.job === job);
            if (slot) { slot.job = null; slot.restart(); }
          }
          reject(abortError(signal));
        };
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      const free = this.slots.find((s) => !this.busy.has(s) && s.worker && (!slot || s === slot));
      if (free) this.assign(free, job);
      else this.queue.push(job);
    });
  }

  close() {
    this.closed = true;
    for (const s of this.slots) { s.worker?.terminate(); s.worker = null; }
    for (const job of this.queue) job.reject(new Error('ntkrf: the engine was closed before this call ran'));
    this.queue = [];
  }
}

/** Splits an options object into transport options and the rest. */
function splitControl(where, opts, known) {
  const o = checkKeys(where, opts, [...known, 'signal', 'onProgress']);
  const { signal, onProgress, ...rest } = o;
  if (signal !== undefined && !(typeof signal === 'object' && 'aborted' in signal && typeof signal.addEventListener === 'function')) {
    throw new TypeError(`${where}: signal must be an AbortSignal`);
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new TypeError(`${where}: onProgress must be a function`);
  }
  return [rest, { signal, onProgress }];
}

const FEATURE_KEYS = ['method', 'depth', 'dim', 'sketchDim', 'm0', 'm1', 'sketch', 'sampler', 'gibbsSweeps', 'normalize', 'gamma', 'seed'];
const KERNEL_KEYS = ['kernel', 'depth', 'gamma'];
const PREP_KEYS = ['standardize', 'unitNorm'];
const MIN_BLOCK_ROWS = 64;

/** Rejects unknown keys inside nested option objects, naming the path. */
function checkNested(where, opts, spec) {
  for (const [key, known] of Object.entries(spec)) {
    if (opts[key] !== undefined) checkKeys(`${where}: ${key}`, opts[key], known);
  }
}

/** Checks a vector (Float64Array, or Float32Array converted). */
function vectorData(where, name, v) {
  if (v instanceof Float64Array) return v;
  if (v instanceof Float32Array) return new Float64Array(v);
  throw new TypeError(`${where}: ${name} must be a Float64Array or Float32Array, got ${describe(v)}; wrap plain arrays with Float64Array.from(array)`);
}

/**
 * The most bytes of rows a call sends a worker at once. Larger inputs go in
 * several chunks per worker, so that a worker's memory (the rows in
 * JavaScript, their copy in Go, the scaled copy) stays a few times this,
 * whatever the number of rows: WebAssembly memory never shrinks, and a
 * browser tab has a few GB in all.
 */
const CHUNK_BYTES = 8 << 20;

/**
 * Splits n rows into contiguous chunks: at least one per worker (of at
 * least MIN_BLOCK_ROWS rows), and more when a chunk would exceed maxRows.
 */
function rowBlocks(n, parts, maxRows = Infinity) {
  const wanted = Math.max(parts, Math.ceil(n / Math.max(maxRows, MIN_BLOCK_ROWS)));
  const k = Math.max(1, Math.min(wanted, Math.ceil(n / MIN_BLOCK_ROWS)));
  const blocks = [];
  for (let i = 0; i < k; i++) blocks.push([Math.floor((i * n) / k), Math.floor(((i + 1) * n) / k)]);
  return blocks;
}

/** Rows that fit in CHUNK_BYTES at `values` numbers per row. */
const chunkRows = (values) => Math.floor(CHUNK_BYTES / (8 * values));

/**
 * Runs callBlock(lo, hi, control, spare) for contiguous chunks of rows (see
 * rowBlocks), at most one per worker at a time: callBlock makes its copy of
 * the rows only when a worker is free, so no more than one chunk per worker
 * is in flight. spare is an object of its own per lane, where callBlock
 * keeps the buffers a worker gave back (see copyRange). Progress is
 * reported in rows; resolves to the results in row order.
 */
async function overRows(pool, rows, control, callBlock, maxRows = Infinity) {
  const blocks = rowBlocks(rows, pool.slots.length, maxRows);
  const done = new Array(blocks.length).fill(0);
  let last = -1;
  const progress = (i) => control.onProgress && ((p) => {
    const [lo, hi] = blocks[i];
    done[i] = p.total > 0 ? Math.round((p.done / p.total) * (hi - lo)) : 0;
    const d = done.reduce((a, b) => a + b, 0);
    if (d > last) {
      last = d;
      control.onProgress({ done: d, total: rows, stage: p.stage });
    }
  });
  const results = new Array(blocks.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    const spare = {};
    while (next < blocks.length && !failed) {
      const i = next++;
      try {
        results[i] = await callBlock(blocks[i][0], blocks[i][1], { signal: control.signal, onProgress: progress(i) }, spare);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(pool.slots.length, blocks.length) }, lane));
  return results;
}

/**
 * src[lo:hi] as a new array to transfer to a worker, written into `spare`
 * (an array a worker gave back) when its buffer is large enough: a worker's
 * JavaScript collects the chunks it was sent only rarely, so fresh copies
 * would pile up there, as much as all the rows in all.
 */
function copyRange(src, lo, hi, spare) {
  if (!spare || spare.buffer.byteLength < (hi - lo) * 8) return src.slice(lo, hi);
  const a = new Float64Array(spare.buffer, 0, hi - lo);
  a.set(src.subarray(lo, hi));
  return a;
}

/** A fitted ridge model; its numbers live in JavaScript, so any worker can predict. */
class Model {
  #pool;
  #model;

  constructor(pool, model, classes) {
    this.#pool = pool;
    this.#model = model;
    this.kind = model.kind;
    this.task = model.task;
    this.classes = classes;
    this.lambda = model.lambda;
    this.curve = model.curve;
  }

  async #run(X, options, scores) {
    const where = scores ? 'predictScores' : 'predict';
    const [, control] = splitControl(where, options, []);
    if (!this.#model) throw new Error(`${where}: this model was disposed`);
    const data = matrixData(where, 'X', X);
    const m = this.#model;
    const arrays = [null, m.coef.data];
    const model = { ...m, coef: { rows: m.coef.rows, cols: m.coef.cols, array: 1 } };
    if (m.train) {
      arrays.push(m.train.data);
      model.train = { rows: m.train.rows, cols: m.train.cols, array: 2 };
    }
    const parts = await overRows(this.#pool, X.rows, control, (lo, hi, ctl) => {
      const a = [...arrays];
      a[0] = data.slice(lo * X.cols, hi * X.cols);
      return this.#pool.call('predict', { X: { rows: hi - lo, cols: X.cols, array: 0 }, model, scores }, a, ctl);
    }, chunkRows(X.cols));
    if (!scores) return concat(parts.map((p) => p.labels));
    const cols = parts[0].scores.cols;
    return { rows: X.rows, cols, data: concat(parts.map((p) => p.scores.data)) };
  }

  predict(X, options = {}) { return this.#run(X, options, false); }

  predictScores(X, options = {}) { return this.#run(X, options, true); }

  dispose() { this.#model = null; }
}

function concat(arrays) {
  if (arrays.length === 1) return arrays[0];
  const out = new Float64Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) { out.set(a, at); at += a.length; }
  return out;
}

const FIT_KEYS = ['features', 'kernel', 'lambda', 'criterion', 'grid', 'task', 'classes', 'preprocess', 'groups'];

class Engine {
  #pool;

  constructor(pool) {
    this.#pool = pool;
    /** Number of WebAssembly workers. */
    this.workers = pool.slots.length;
  }

  async kernel(X, Z = null, options = {}) {
    const where = 'kernel';
    const [opts, control] = splitControl(where, options, ['kernel', 'depth', 'gamma']);
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
    const [opts, control] = splitControl(where, options, FEATURE_KEYS);
    const data = matrixData(where, 'X', X);
    const parts = await overRows(this.#pool, X.rows, control, (lo, hi, ctl) => this.#pool.call('features',
      { ...opts, X: { rows: hi - lo, cols: X.cols, array: 0 } },
      [data.slice(lo * X.cols, hi * X.cols)], ctl, { transfer: true }));
    return { rows: X.rows, cols: parts[0].cols, data: concat(parts.map((p) => p.data)) };
  }

  async fitRidge(X, y, options = {}) {
    const where = 'fitRidge';
    const [opts, control] = splitControl(where, options, FIT_KEYS);
    checkNested(where, opts, { features: FEATURE_KEYS, kernel: KERNEL_KEYS, preprocess: PREP_KEYS });
    if (opts.features && opts.kernel) throw new TypeError(`${where}: give features (primal) or kernel (dual), not both`);
    const data = matrixData(where, 'X', X);
    const yd = vectorData(where, 'y', y);
    if (yd.length !== X.rows) throw new RangeError(`${where}: X has ${X.rows} rows but y has ${yd.length} values`);
    const task = opts.task ?? (opts.classes ? 'classification' : 'regression');
    let classes = opts.classes;
    if (task === 'classification' && classes === undefined) {
      classes = 0;
      for (const v of yd) if (Number.isInteger(v) && v >= classes) classes = v + 1;
    }
    const ridge = { lambda: opts.lambda, criterion: opts.criterion, grid: opts.grid, task, classes };
    const Xref = (rows) => ({ rows, cols: X.cols, array: 0 });
    // The scaler needs every row in one worker: the first, see below. A
    // copy moved there peaks lower than posting X, which serializes it
    // into a buffer first.
    const first = this.#pool.slots[0];
    const scaler = await this.#pool.call('fitScaler', { X: Xref(X.rows), preprocess: opts.preprocess, groups: opts.groups }, [data.slice()], { signal: control.signal }, { slot: first, transfer: true });
    let model;
    if (opts.kernel) {
      model = await this.#pool.call('fitKernel', { ...ridge, X: Xref(X.rows), y: { array: 1 }, scaler, kernel: opts.kernel }, [data, yd], control);
    } else {
      const features = opts.features ?? {};
      // With no more rows than features the fit runs in the dual on ΦΦᵀ
      // (smaller than ΦᵀΦ) in one worker, and so does a fit of one chunk.
      // A chunk holds at most CHUNK_BYTES of X but at least 4m² numbers, so
      // that the partial sums waiting for the solve (an m×m ΦᵀΦ per chunk)
      // add up to at most a quarter of X.
      const dim = features.dim ?? 1024;
      const maxRows = Math.max(chunkRows(X.cols), Math.ceil((4 * dim * dim) / X.cols));
      if (rowBlocks(X.rows, this.workers, maxRows).length === 1 || opts.criterion === 'loo' || X.rows <= dim) {
        model = await this.#pool.call('fitFeatures', { ...ridge, X: Xref(X.rows), y: { array: 1 }, scaler, features }, [data, yd], control);
      } else {
        // The bridge collects the copy of X that fitScaler left in the first
        // worker before returning, so the chunks reuse that memory.
        // The workers featurize chunks of rows and accumulate each chunk's
        // ΦᵀΦ and Φᵀy; one worker merges the parts in row order and solves.
        const parts = await overRows(this.#pool, X.rows, control, (lo, hi, ctl, spare) => this.#pool.call('accumulate',
          { X: Xref(hi - lo), y: { array: 1 }, scaler, features, task, classes },
          [copyRange(data, lo * X.cols, hi * X.cols, spare.x), copyRange(yd, lo, hi, spare.y)], ctl,
          { transfer: true, onInputs: ([x, yb]) => { spare.x = x; spare.y = yb; } }), maxRows);
        const arrays = [];
        const ref = (a) => { arrays.push(a); return { array: arrays.length - 1 }; };
        const partRefs = parts.map((p) => ({ rows: p.rows, mu: ref(p.mu), ybar: ref(p.ybar), C: ref(p.C), D: ref(p.D), E: ref(p.E) }));
        model = await this.#pool.call('solve', { ...ridge, parts: partRefs, dim: parts[0].mu.length, features, scaler },
          arrays, { signal: control.signal, onProgress: control.onProgress }, { transfer: true });
      }
    }
    return new Model(this.#pool, model, task === 'classification' ? classes : 0);
  }

  async compare(X, options = {}) {
    const where = 'compare';
    const [opts, control] = splitControl(where, options, ['features', 'kernel', 'lambda', 'matrices', 'preprocess', 'groups']);
    checkNested(where, opts, { features: FEATURE_KEYS, kernel: KERNEL_KEYS, preprocess: PREP_KEYS });
    const data = matrixData(where, 'X', X);
    return this.#pool.call(where, { ...opts, X: { rows: X.rows, cols: X.cols, array: 0 } }, [data], control);
  }

  async selectActive(X, options = {}) {
    const where = 'selectActive';
    const [opts, control] = splitControl(where, options, ['features', 'k', 'lambda', 'preprocess', 'groups']);
    checkNested(where, opts, { features: FEATURE_KEYS, preprocess: PREP_KEYS });
    const data = matrixData(where, 'X', X);
    return this.#pool.call(where, { ...opts, X: { rows: X.rows, cols: X.cols, array: 0 } }, [data], control);
  }

  async score(yTrue, yPred, options = {}) {
    const where = 'score';
    const [opts, control] = splitControl(where, options, ['task', 'classes']);
    const a = vectorData(where, 'yTrue', yTrue);
    const b = vectorData(where, 'yPred', yPred);
    if (a.length !== b.length) throw new RangeError(`${where}: yTrue has ${a.length} values but yPred has ${b.length}`);
    return this.#pool.call(where, { ...opts, yTrue: { array: 0 }, yPred: { array: 1 } }, [a, b], control);
  }

  async parseCSV(input, options = {}) {
    const where = 'parseCSV';
    const [opts, control] = splitControl(where, options, ['target', 'task', 'missing', 'delimiter', 'header', 'maxBytes']);
    const bytes = inputBytes(where, input, opts.maxBytes);
    return this.#pool.call(where, opts, [], control, { bytes, transfer: true });
  }

  async previewCSV(input, options = {}) {
    const where = 'previewCSV';
    const [opts, control] = splitControl(where, options, ['rows', 'delimiter', 'header']);
    // A preview reads the start of the file only; gzip needs its stream start.
    const bytes = inputBytes(where, input, undefined);
    return this.#pool.call(where, opts, [], control, { bytes, transfer: true });
  }

  async split(n, options = {}) {
    const [opts, control] = splitControl('split', options, ['testFraction', 'seed']);
    checkCount('split', 'n', n);
    return this.#pool.call('split', { ...opts, n }, [], control);
  }

  async kfold(n, options = {}) {
    const [opts, control] = splitControl('kfold', options, ['k', 'seed']);
    checkCount('kfold', 'n', n);
    return this.#pool.call('kfold', { ...opts, n }, [], control);
  }

  /** Memory of the instances: Go heap in use and memory obtained, in all and per worker. */
  async stats() {
    const workers = await Promise.all(this.#pool.slots.map((slot) => this.#pool.call('stats', {}, [], {}, { slot })));
    const sum = (k) => workers.reduce((a, w) => a + w[k], 0);
    return { heapBytes: sum('heapBytes'), sysBytes: sum('sysBytes'), workers };
  }

  /** Stops the workers and frees their memory. Later calls reject. */
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
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
    throw new RangeError(`createEngine: workers must be 'auto' or an integer from 1 to 64, got ${describe(workers)}`);
  }
  return workers;
}

/**
 * Starts an engine: compiles ntkrf.wasm once and starts `workers`
 * WebAssembly instances, each in its own worker.
 */
export async function createEngine(options = {}) {
  const opts = checkKeys('createEngine', options, ['workers', 'wasmURL']);
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
