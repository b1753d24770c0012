// ntkrf: random features for the Neural Tangent Kernel, in WebAssembly.
// The same module works in Node ≥ 20 (worker_threads) and in browsers
// (module Web Workers). See index.d.ts for the documented API.

const isNode = typeof process !== 'undefined' && !!process.versions?.node;
const MAX_WORKERS = 8;

/**
 * An error of the documented grammar (README, index.d.ts ErrorCode): the
 * class by cause, a stable `code`, and `option` naming the offending option
 * as the API spells it ("features.dim"), when one is at fault.
 */
function ntkrfError(code, message, option) {
  const Class = CLASS_OF[code] ?? Error;
  const e = new Class(message);
  e.code = code;
  if (option) e.option = option;
  return e;
}

/** JavaScript class of each code; Go's errs.Code.Class says the same (a test compares them). */
const CLASS_OF = {
  ERR_TYPE: TypeError, ERR_UNKNOWN_OPTION: TypeError,
  ERR_OPTION: RangeError, ERR_NONFINITE: RangeError, ERR_VALUE: RangeError, ERR_SHAPE: RangeError, ERR_TOO_LARGE: RangeError,
  ERR_PARSE: Error, ERR_DATA: Error, ERR_CLOSED: Error, ERR_INSTANCE: Error, ERR_INTERNAL: Error,
};

const typeError = (message, option) => ntkrfError('ERR_TYPE', message, option);

/** Rejects with the same error a cancelled fetch gives, with code ERR_ABORTED. */
function abortError(signal) {
  const reason = signal?.reason;
  const e = reason instanceof Error && reason.name === 'AbortError' ? reason : new DOMException('The ntkrf call was aborted', 'AbortError');
  // DOMException's legacy numeric code is a prototype getter: an own property shadows it.
  try { Object.defineProperty(e, 'code', { value: 'ERR_ABORTED', configurable: true }); } catch { /* frozen reason: leave it */ }
  return e;
}

/** An options argument: undefined (none) or a plain object. */
function optionsObject(where, obj) {
  if (obj === undefined) return {};
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj) || ArrayBuffer.isView(obj)) {
    throw typeError(`${where}: options must be an object, got ${describe(obj)}`);
  }
  return obj;
}

function checkKeys(where, obj, known) {
  const o = optionsObject(where, obj);
  for (const k of Object.keys(o)) {
    if (!known.includes(k)) {
      throw ntkrfError('ERR_UNKNOWN_OPTION', `${where}: unknown option "${k}"; known options: ${known.join(', ')}`, k);
    }
  }
  return o;
}

function describe(v) {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (Array.isArray(v)) return 'an array';
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name}`;
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'function') return 'a function';
  return typeof v === 'object' ? `an object with keys ${Object.keys(v).join(', ') || '(none)'}` : String(v);
}

/**
 * The option table of the engine's methods, declared once in Go
 * (jsbridge/schema.go) and received from the first worker: every option is
 * checked here with it before anything crosses to Go, and Go checks the
 * same table again.
 */
let SCHEMA = null;

/** Words an option's accepted values as Go's Expect does (a test compares them). */
function expect(o) {
  switch (o.kind) {
    case 'bool': return 'true or false';
    case 'string': return 'a string';
    case 'char': return 'a single character';
    case 'enum': return `one of ${o.enum.map((e) => JSON.stringify(e)).join(', ')}`;
    case 'int': return `an integer ${span(o)}`;
    case 'number': return `a finite number ${span(o)}`;
    case 'numberOrAuto': return `"auto" or a finite number ${span(o)}`;
    case 'nameOrIndex': return `a column name or an integer index ${span(o)}`;
    case 'object': return 'an object';
    case 'array': return o.items ? `an array of ${expect(o.items).replace(/^an? /, '')}s` : 'an array';
  }
  return 'valid';
}

function span(o) {
  const num = (x) => (x === 2 ** 53 - 1 ? '2^53−1' : String(x));
  const hasMin = o.min !== undefined;
  const hasMax = o.max !== undefined;
  if (hasMin && hasMax && !o.minExclusive && !o.maxExclusive) return `in ${num(o.min)}…${num(o.max)}`;
  if (hasMin && hasMax) return `in ${o.minExclusive ? '(' : '['}${num(o.min)}, ${num(o.max)}${o.maxExclusive ? ')' : ']'}`;
  if (hasMin && o.minExclusive) return `> ${num(o.min)}`;
  if (hasMin) return `≥ ${num(o.min)}`;
  if (hasMax) return `≤ ${num(o.max)}`;
  return '';
}

const inRange = (o, x) => Number.isFinite(x)
  && !(o.min !== undefined && (x < o.min || (o.minExclusive && x === o.min)))
  && !(o.max !== undefined && (x > o.max || (o.maxExclusive && x === o.max)));

/** Checks one option value against its schema entry; path names it in errors. */
function checkValue(where, path, o, v) {
  const bad = (code) => ntkrfError(code, `${where}: ${path} must be ${expect(o)}, got ${describe(v)}`, path);
  switch (o.kind) {
    case 'any': return;
    case 'bool': if (typeof v !== 'boolean') throw bad('ERR_TYPE'); return;
    case 'string': if (typeof v !== 'string') throw bad('ERR_TYPE'); return;
    case 'char':
      if (typeof v !== 'string') throw bad('ERR_TYPE');
      if ([...v].length !== 1) throw bad('ERR_OPTION');
      return;
    case 'enum':
      if (typeof v !== 'string') throw bad('ERR_TYPE');
      if (!o.enum.includes(v)) throw bad('ERR_OPTION');
      return;
    case 'int': case 'number':
      if (typeof v !== 'number') throw bad('ERR_TYPE');
      if (!inRange(o, v) || (o.kind === 'int' && !Number.isInteger(v))) throw bad('ERR_OPTION');
      return;
    case 'numberOrAuto':
      if (typeof v === 'string') { if (v !== 'auto') throw bad('ERR_OPTION'); return; }
      if (typeof v !== 'number') throw bad('ERR_TYPE');
      if (!inRange(o, v)) throw bad('ERR_OPTION');
      return;
    case 'nameOrIndex':
      if (typeof v === 'string') return;
      if (typeof v !== 'number') throw bad('ERR_TYPE');
      if (!inRange(o, v) || !Number.isInteger(v)) throw bad('ERR_OPTION');
      return;
    case 'object': {
      if (v === null || typeof v !== 'object' || Array.isArray(v) || ArrayBuffer.isView(v)) throw bad('ERR_TYPE');
      const names = o.fields.map((f) => f.name);
      for (const k of Object.keys(v)) {
        if (!names.includes(k)) {
          throw ntkrfError('ERR_UNKNOWN_OPTION', `${where}: unknown option ${path}.${k}; ${path} takes ${names.join(', ')}`, `${path}.${k}`);
        }
      }
      for (const f of o.fields) if (v[f.name] !== undefined) checkValue(where, `${path}.${f.name}`, f, v[f.name]);
      return;
    }
    case 'array':
      if (!Array.isArray(v)) throw bad('ERR_TYPE');
      if (o.max !== undefined && v.length > o.max) throw ntkrfError('ERR_OPTION', `${where}: ${path} has ${v.length} entries; at most ${o.max} are allowed`, path);
      v.forEach((it, i) => checkValue(where, `${path}[${i}]`, o.items, it));
      return;
  }
  throw new Error(`ntkrf: option ${path} has unknown kind ${o.kind}`);
}

/**
 * Splits a method's options into its own (checked against the schema) and
 * the call control ({signal, onProgress}, checked here). Unknown keys are
 * refused with the method's real list.
 */
function splitControl(where, opts, method = where) {
  const spec = SCHEMA[method];
  const known = [...spec.map((o) => o.name), 'signal', 'onProgress'];
  const o = checkKeys(where, opts, known);
  const { signal, onProgress, ...rest } = o;
  for (const entry of spec) {
    if (rest[entry.name] !== undefined) checkValue(where, entry.name, entry, rest[entry.name]);
  }
  return [rest, control(where, signal, onProgress)];
}

/** Checks signal and onProgress like any option. */
function control(where, signal, onProgress) {
  if (signal !== undefined && !(signal !== null && typeof signal === 'object' && typeof signal.aborted === 'boolean'
    && typeof signal.addEventListener === 'function' && typeof signal.removeEventListener === 'function')) {
    throw typeError(`${where}: signal must be an AbortSignal (from new AbortController().signal), got ${describe(signal)}`, 'signal');
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw typeError(`${where}: onProgress must be a function, got ${describe(onProgress)}`, 'onProgress');
  }
  return { signal, onProgress };
}

/**
 * Checks a {rows, cols, data} matrix and returns its data as a Float64Array
 * (the caller's array itself when it already is one: it is copied, never
 * detached, when posted to a worker).
 */
function matrixData(where, name, M, method = where) {
  if (M === null || typeof M !== 'object' || Array.isArray(M) || ArrayBuffer.isView(M)) {
    throw typeError(`${where}: ${name} must be a matrix {rows, cols, data}, got ${describe(M)}`, name);
  }
  if (!('data' in M) && !('rows' in M)) {
    const opts = SCHEMA?.[method]?.map((o) => o.name) ?? [];
    const keys = Object.keys(M);
    const hint = keys.length > 0 && keys.every((k) => opts.includes(k) || k === 'signal' || k === 'onProgress')
      ? `; it looks like options: they go in the last argument` : '';
    throw typeError(`${where}: ${name} must be a matrix {rows, cols, data}, got ${describe(M)}${hint}`, name);
  }
  const { rows, cols, data } = M;
  if (!Number.isInteger(rows) || !Number.isInteger(cols)) {
    throw typeError(`${where}: ${name}.rows and ${name}.cols must be integers, got ${describe(rows)} and ${describe(cols)}`, name);
  }
  if (!(data instanceof Float64Array) && !(data instanceof Float32Array)) {
    throw typeError(`${where}: ${name}.data must be a Float64Array or Float32Array, got ${describe(data)}; wrap plain arrays with Float64Array.from(array)`, name);
  }
  if (data.buffer.byteLength === 0 && data.length === 0 && rows * cols > 0) {
    throw typeError(`${where}: ${name}.data is detached (its buffer was transferred)`, name);
  }
  if (rows < 1 || cols < 1) {
    throw ntkrfError('ERR_SHAPE', `${where}: ${name} is ${rows}×${cols}; it needs at least one row and one column`, name);
  }
  if (data.length !== rows * cols) {
    throw ntkrfError('ERR_SHAPE', `${where}: ${name}.data has ${data.length} values but rows×cols = ${rows}×${cols} = ${rows * cols}`, name);
  }
  return data instanceof Float64Array ? data : new Float64Array(data);
}

/** An option's entry in the schema, for its default and limits. */
const optionOf = (method, name) => SCHEMA[method].find((o) => o.name === name);

/**
 * The bytes of a string, ArrayBuffer or Uint8Array (a Node Buffer too), as
 * a copy this call owns: the copy is transferred to a worker, the caller's
 * array is never detached. (Buffer#slice returns a view of the same
 * memory, and a small Buffer is a view of Node's shared pool, so copies are
 * made with the Uint8Array constructor.) The size is checked first.
 */
function inputBytes(where, input, maxBytes) {
  const limit = maxBytes ?? optionOf('parseCSV', 'maxBytes').default;
  if (!(typeof input === 'string' || input instanceof ArrayBuffer || input instanceof Uint8Array)) {
    throw typeError(`${where}: input must be a string, Uint8Array or ArrayBuffer, got ${describe(input)}`, 'input');
  }
  const tooLarge = (size) => ntkrfError('ERR_TOO_LARGE', `${where}: the input is ${formatBytes(size)}, over the ${formatBytes(limit)} limit; raise maxBytes or use a sample of the rows`, 'maxBytes');
  // A string's UTF-8 form is at least as long as its length in UTF-16 units.
  const size = typeof input === 'string' ? input.length : input.byteLength;
  if (size > limit) throw tooLarge(size);
  if (typeof input === 'string') {
    const bytes = new TextEncoder().encode(input);
    if (bytes.byteLength > limit) throw tooLarge(bytes.byteLength);
    return bytes;
  }
  if ((input.buffer ?? input).detached === true) { // where the engine can tell
    throw typeError(`${where}: input is detached (its buffer was transferred)`, 'input');
  }
  // new Uint8Array(arrayBuffer) is a view; of a typed array, a copy.
  return input instanceof ArrayBuffer ? new Uint8Array(input.slice(0)) : new Uint8Array(input);
}

function formatBytes(b) {
  if (b >= 1e9) return `${(b / 1e9).toFixed(1)} GB`;
  if (b >= 1e6) return `${(b / 1e6).toFixed(1)} MB`;
  if (b >= 1e3) return `${(b / 1e3).toFixed(1)} kB`;
  return `${b} B`;
}

function checkCount(where, name, n) {
  if (typeof n !== 'number') throw typeError(`${where}: ${name} must be an integer ≥ 0, got ${describe(n)}`, name);
  if (!Number.isInteger(n) || n < 0 || n > 2 ** 31) throw ntkrfError('ERR_OPTION', `${where}: ${name} must be an integer in 0…${2 ** 31}, got ${describe(n)}`, name);
}

const NON_FINITE = { NaN, Infinity, '-Infinity': -Infinity };

/** Replaces {array: i} and {rows, cols, array: i} references by the arrays. */
function revive(value, arrays) {
  if (Array.isArray(value)) return value.map((v) => revive(v, arrays));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'array') return arrays[value.array];
  // NaN and ±Inf, which JSON cannot hold (jsbridge/encode.go).
  if (keys.length === 1 && keys[0] === '$num') return NON_FINITE[value.$num];
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
  if (!response.ok) throw ntkrfError('ERR_INSTANCE', `ntkrf: could not load ${url}: HTTP ${response.status}`);
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
    let w;
    // Messages of a worker already replaced (a late 'exit', say) are dropped.
    const mine = (fn) => (x) => { if (this.worker === w) fn(x); };
    if (isNode) {
      const { Worker } = await import('node:worker_threads');
      w = this.worker = new Worker(url);
      w.on('message', mine((m) => this.onMessage(m)));
      w.on('error', mine((e) => this.onCrash(`the worker failed: ${e?.message ?? e}`)));
    } else {
      w = this.worker = new Worker(url, { type: 'module' });
      w.onmessage = mine((e) => this.onMessage(e.data));
      w.onerror = mine((e) => { e.preventDefault?.(); this.onCrash(`the worker failed: ${e.message || 'it did not load'}`); });
    }
    this.ready = new Promise((resolve, reject) => { this.readyResolve = resolve; this.readyReject = reject; });
    w.postMessage({ type: 'init', module: this.pool.module });
    const schema = await this.ready;
    SCHEMA ??= JSON.parse(schema);
    // An idle engine must not keep Node running; run() refs it again.
    if (isNode && !this.job && this.worker === w) w.unref();
  }

  onMessage(m) {
    switch (m.type) {
      case 'ready': this.readyResolve(m.schema); return;
      case 'init-error': this.readyReject(ntkrfError('ERR_INSTANCE', `ntkrf: could not start WebAssembly: ${m.message}`)); return;
      case 'exit': this.onCrash(m.reason); return;
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
      // Go names the operation; the caller knows the engine method.
      const msg = m.message.startsWith(`${job.op}: `) ? `${job.where}: ${m.message.slice(job.op.length + 2)}` : m.message;
      job.reject(ntkrfError(m.code || 'ERR_INTERNAL', msg, m.option));
    }
  }

  /**
   * The instance died (out of memory, say): the call on it rejects with
   * ERR_INSTANCE, and a fresh instance takes its place for later calls.
   */
  onCrash(reason) {
    const job = this.job;
    const what = `the WebAssembly instance ${reason || 'stopped'}`;
    this.readyReject?.(ntkrfError('ERR_INSTANCE', `ntkrf: ${what}`));
    this.worker?.terminate();
    this.worker = null; // so that finish() hands no queued job to it
    if (job) {
      this.finish();
      const hint = /out of memory/.test(what) ? '; use fewer rows or a smaller dim' : '';
      job.reject(ntkrfError('ERR_INSTANCE', `${job.where}: ${what} during this call and was restarted${hint}`));
    }
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
   * successful call, for the next call to refill. where names the engine
   * method in errors.
   */
  call(op, args, arrays, { signal, onProgress } = {}, { bytes, transfer = false, slot, onInputs, where = op } = {}) {
    if (this.closed) return Promise.reject(closedError(where));
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      const job = { id: this.nextId++, op, where, json: JSON.stringify(args), arrays, bytes, transfer, slot, onInputs, resolve, reject, onProgress, signal };
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

  /** Stops every worker; every call in flight or waiting rejects with ERR_CLOSED. */
  close() {
    if (this.closed) return;
    this.closed = true;
    const jobs = [...this.queue, ...this.slots.map((s) => s.job).filter(Boolean)];
    this.queue = [];
    for (const s of this.slots) {
      s.worker?.terminate();
      s.worker = null;
      s.job = null;
      s.readyReject?.(closedError('createEngine'));
    }
    for (const job of jobs) {
      job.signal?.removeEventListener('abort', job.onAbort);
      job.reject(closedError(job.where));
    }
  }
}

const closedError = (where) => ntkrfError('ERR_CLOSED', `${where}: the engine was closed; create a new one with createEngine()`);

const MIN_BLOCK_ROWS = 64;

/** Checks a vector (Float64Array, or Float32Array converted). */
function vectorData(where, name, v) {
  if (v instanceof Float64Array) return v;
  if (v instanceof Float32Array) return new Float64Array(v);
  throw typeError(`${where}: ${name} must be a Float64Array or Float32Array, got ${describe(v)}; wrap plain arrays with Float64Array.from(array)`, name);
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
    const [, control] = splitControl(where, options, 'predict');
    if (!this.#model) throw ntkrfError('ERR_CLOSED', `${where}: this model was disposed`);
    const data = matrixData(where, 'X', X, 'predict');
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
      return this.#pool.call('predict', { X: { rows: hi - lo, cols: X.cols, array: 0 }, model, scores }, a, ctl, { where });
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

  async fitRidge(X, y, options = {}) {
    const where = 'fitRidge';
    guard(this.#pool, where);
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
    const call = (op, args, arrays, ctl, extra = {}) => this.#pool.call(op, args, arrays, ctl, { where, ...extra });
    // Every stage reports: the scaler, the features (in rows, over the
    // workers) and the solve with its λ search.
    const stage = (name) => control.onProgress && ((p) => control.onProgress({ ...p, stage: p.stage || name }));
    // The scaler needs every row in one worker: the first, see below. A
    // copy moved there peaks lower than posting X, which serializes it
    // into a buffer first.
    const first = this.#pool.slots[0];
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
      if (rowBlocks(X.rows, this.workers, maxRows).length === 1 || opts.criterion === 'loo' || X.rows <= dim) {
        model = await call('fitFeatures', { ...ridge, X: Xref(X.rows), y: { array: 1 }, scaler, features }, [data, yd], control);
      } else {
        // The bridge collects the copy of X that fitScaler left in the first
        // worker before returning, so the chunks reuse that memory.
        // The workers featurize chunks of rows and accumulate each chunk's
        // ΦᵀΦ and Φᵀy; one worker merges the parts in row order and solves.
        const parts = await overRows(this.#pool, X.rows, control, (lo, hi, ctl, spare) => call('accumulate',
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
    return new Model(this.#pool, model, task === 'classification' ? classes : 0);
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

/** The largest class count (Go's MaxClasses, the schema's limit on classes). */
const MAX_CLASSES = () => optionOf('fitRidge', 'classes').max;

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
