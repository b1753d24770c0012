// The worker pool: ntkrf.wasm compiled once (after a WebAssembly SIMD
// probe), one Go instance per worker (worker.js), calls queued over the
// workers, results revived from the bridge's JSON and typed arrays,
// aborts and crashes answered by replacing the instance (a bounded number
// of times in a row when the instance fails on its own).
import { ntkrfError, abortError, closedError, typeError, describe } from './errors.js';
import { setSchema, MAX_RESTARTS } from './options.js';

export const isNode = typeof process !== 'undefined' && !!process.versions?.node;
// Node's Worker, loaded once: a slot's start then makes its worker at once
// (slot.worker is set as start() is called, on either host).
const NodeWorker = isNode ? (await import('node:worker_threads')).Worker : null;

/**
 * How long one WebAssembly instance may take to start (instantiate
 * ntkrf.wasm and register its operations) before createEngine, or a
 * restart, gives up on it: createEngine's startTimeoutMs by default. The
 * package host's (jsbridge.StartTimeoutMillis, Engine.limits.startTimeoutMs); it is
 * written here because it is needed before any instance could send it, and
 * a test ties the two.
 */
export const START_TIMEOUT_MS = 60_000;

const NON_FINITE = { NaN, Infinity, '-Infinity': -Infinity };

/** Replaces {array: i} and {rows, cols, array: i} references by the arrays. */
export function revive(value, arrays) {
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

/** Throws when the engine lacks WebAssembly SIMD, which ntkrf.wasm needs, naming the versions that have it. */
function needSIMD() {
  if (!WebAssembly.validate(SIMD_PROBE)) {
    throw new Error('ntkrf: this JavaScript engine lacks WebAssembly SIMD; ntkrf needs Chrome or Edge 91, Firefox 89, Safari 16.4, or Node.js 20 (the package.json engines) or later');
  }
}

/**
 * createEngine's module (a WebAssembly.Module, or a promise of one), checked:
 * an engine without SIMD gets loadModule's error, and a promise that
 * rejects (the caller's download or compile failed) ERR_INSTANCE.
 */
export async function givenModule(module) {
  needSIMD();
  let m;
  try {
    m = await module;
  } catch (e) {
    throw ntkrfError('ERR_INSTANCE', `ntkrf: the module given to createEngine could not be loaded: ${e?.message ?? e}`);
  }
  if (!(m instanceof WebAssembly.Module)) {
    throw typeError(`createEngine: module's promise must resolve to a WebAssembly.Module (ntkrf.wasm compiled), got ${describe(m)}`, 'module');
  }
  return m;
}

/** ntkrf.wasm compiled; signal aborts its download (a read or fetch that stalls would hold createEngine). */
export async function loadModule(wasmURL, signal) {
  needSIMD();
  const url = wasmURL ?? new URL('./ntkrf.wasm', import.meta.url);
  if (isNode && (typeof url !== 'string' || !/^https?:/.test(url)) && !(url instanceof URL && url.protocol.startsWith('http'))) {
    const { readFile } = await import('node:fs/promises');
    const { fileURLToPath } = await import('node:url');
    const path = url instanceof URL || String(url).startsWith('file:') ? fileURLToPath(url) : String(url);
    return WebAssembly.compile(await readFile(path, { signal }));
  }
  const response = await fetch(url, { signal });
  if (!response.ok) throw ntkrfError('ERR_INSTANCE', `ntkrf: could not load ${url}: HTTP ${response.status}`);
  if (response.headers.get('content-type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/** One worker with one Go instance; restarted after an abort or a crash. */
export class Slot {
  constructor(pool) {
    this.pool = pool;
    this.job = null;
    /** Failures of this worker's instance in a row that no call caused (see restart). */
    this.failures = 0;
    /** Who waits for this worker's start (Pool.whenStarted). */
    this.waiters = [];
  }

  /** Whether the worker's instance has started (and not died or been dropped since). */
  get started() {
    return !!this.worker && !this.starting;
  }

  /** Tells who waits for this worker's start that it started, or never will. */
  wake() {
    for (const f of this.waiters.splice(0)) f();
  }

  async start() {
    const url = new URL('./worker.js', import.meta.url);
    let w;
    // Messages of a worker already replaced (a late 'exit', say) are dropped.
    const mine = (fn) => (x) => { if (this.worker === w) fn(x); };
    // Every way a worker can end or lose an answer restarts its instance,
    // so that the call on it settles: an error, a message that cannot be
    // read (messageerror), and in Node a thread that exits without a word.
    const unreadable = (e) => this.onCrash(`sent an answer that could not be read (${e?.message || 'messageerror'})`, 'ERR_INTERNAL');
    if (isNode) {
      w = this.worker = new NodeWorker(url);
      w.on('message', mine((m) => this.onMessage(m)));
      w.on('messageerror', mine(unreadable));
      w.on('error', mine((e) => this.onCrash(`the worker failed: ${e?.message ?? e}`)));
      w.on('exit', mine((code) => this.onCrash(`stopped (its thread exited with code ${code})`)));
    } else {
      w = this.worker = new Worker(url, { type: 'module' });
      w.onmessage = mine((e) => this.onMessage(e.data));
      w.onmessageerror = mine(unreadable);
      w.onerror = mine((e) => { e.preventDefault?.(); this.onCrash(`the worker failed: ${e.message || 'it did not load'}`); });
    }
    this.ready = new Promise((resolve, reject) => { this.readyResolve = resolve; this.readyReject = reject; });
    // Awaited below, once the module is compiled: a crash meanwhile is not left unhandled.
    this.ready.catch(() => {});
    // A crash now fails this start (onCrash), and whoever started it decides what follows.
    this.starting = true;
    let timer;
    let started;
    try {
      // The worker loads its scripts while the module compiles (the pool's
      // module is a promise until compiled): the first start waits for the
      // slower of the two, not for both in turn.
      const module = await Promise.race([this.pool.module, this.ready]);
      if (this.pool.closed) throw closedError('createEngine');
      // An instance that never answers (its module loops, its script hangs)
      // is given up after the pool's start timeout, its thread stopped: the
      // start, and every call waiting for this worker, settles.
      const ms = this.pool.startTimeoutMs;
      timer = setTimeout(() => this.readyReject(ntkrfError('ERR_INSTANCE',
        `ntkrf: a WebAssembly instance did not start within ${ms} ms; check that ntkrf.wasm and worker.js load (wasmURL), or give createEngine a larger startTimeoutMs on a slow or busy machine`)), ms);
      w.postMessage({ type: 'init', module });
      started = await this.ready;
    } catch (e) {
      w.terminate();
      if (this.worker === w) this.worker = null;
      throw e;
    } finally {
      clearTimeout(timer);
      this.starting = false;
    }
    const { schema, core } = started;
    // A pool closed while this instance started (a restart) keeps no worker.
    if (this.pool.closed) {
      w.terminate();
      if (this.worker === w) this.worker = null;
      return;
    }
    setSchema(JSON.parse(schema), JSON.parse(core));
    // An idle engine must not keep Node running; run() refs it again.
    if (isNode && !this.job && this.worker === w) w.unref();
    this.wake();
  }

  onMessage(m) {
    switch (m.type) {
      case 'ready': this.readyResolve(m); return;
      case 'init-error': this.readyReject(ntkrfError('ERR_INSTANCE', `ntkrf: could not start WebAssembly: ${m.message}`)); return;
      case 'exit': this.onCrash(m.reason); return;
    }
    const job = this.job;
    if (!job || m.id !== job.id) return;
    if (m.type === 'progress') {
      try { job.onProgress?.({ done: m.done, total: m.total, stage: m.stage }); } catch { /* a user callback must not break the call */ }
      return;
    }
    // The call settles before the worker is handed the next one: whatever
    // befalls the next call, this one has its answer.
    this.detach();
    // An instance that answers lives: its failures start counting again.
    this.failures = 0;
    if (m.type === 'result') {
      try {
        if (m.inputs) job.onInputs(m.inputs);
        job.resolve(revive(JSON.parse(m.json), m.arrays));
      } catch (e) {
        job.reject(ntkrfError('ERR_INTERNAL', `${job.where}: could not read the worker's answer: ${e?.message ?? e}`));
      }
    } else {
      // Go names the operation; the caller knows the engine method.
      const msg = m.message.startsWith(`${job.op}: `) ? `${job.where}: ${m.message.slice(job.op.length + 2)}` : m.message;
      job.reject(ntkrfError(m.code || 'ERR_INTERNAL', msg, m.option, m));
    }
    this.pool.release(this);
    // The first answer is in (and settled): the workers not started yet start now.
    this.pool.startRest();
  }

  /**
   * The instance died (out of memory, say): the call on it rejects with
   * code (ERR_INSTANCE; ERR_INTERNAL when the worker lives but its answer
   * was lost), and a fresh instance takes its place for later calls. An
   * instance that dies while it starts fails that start instead: the start's
   * caller (createEngine, or restart) decides, so that a crash does not
   * start a second restart beside the one under way.
   */
  onCrash(reason, code = 'ERR_INSTANCE') {
    const job = this.job;
    const what = `the WebAssembly instance ${reason || 'stopped'}`;
    this.worker?.terminate();
    this.worker = null; // so that no queued job is handed to it
    if (this.starting) {
      this.readyReject(ntkrfError('ERR_INSTANCE', `ntkrf: ${what}`));
      return;
    }
    if (job) {
      this.detach();
      const hint = /out of memory/.test(what) ? '; use fewer rows or a smaller dim' : '';
      job.reject(ntkrfError(code, `${job.where}: ${what} during this call and was restarted${hint}`));
    }
    // A crash with no call on it is the instance's own failure.
    this.restart(!job);
  }

  /**
   * Posts job to this worker. A job that cannot be posted rejects alone
   * (ERR_INTERNAL: every input is the call's own copy, so this is a fault
   * of ntkrf's, not the caller's), and the worker takes the next one.
   */
  run(job) {
    this.job = job;
    if (isNode) this.worker.ref();
    try {
      // bytes are always the call's own copy (inputBytes): moved, never copied again.
      const moved = job.transfer === true ? job.arrays : job.transfer || [];
      const transfer = [...moved.map((a) => a.buffer), ...(job.bytes ? [job.bytes.buffer] : [])];
      // Node drops a message whose transfer list holds a detached buffer
      // without a word (a browser throws): the call would never settle.
      const bad = unsendable(job.arrays, moved, job.bytes);
      if (bad) throw new Error(bad);
      if (job.port) transfer.push(job.port);
      this.worker.postMessage({ type: 'call', id: job.id, op: job.op, json: job.json, arrays: job.arrays, bytes: job.bytes, giveBack: !!job.onInputs, port: job.port }, transfer);
    } catch (e) {
      this.detach();
      job.reject(ntkrfError('ERR_INTERNAL', `${job.where}: the call could not be sent to a worker: ${e?.message ?? e}`));
      this.pool.release(this);
    }
  }

  /** Ends this worker's hold on its job (its abort listener, Node's ref), without handing it the next. */
  detach() {
    if (this.job?.signal) this.job.signal.removeEventListener('abort', this.job.onAbort);
    this.job = null;
    if (isNode) this.worker?.unref();
  }

  /**
   * Drops the instance (and all the memory it held) and starts a new one.
   * failed: the instance failed on its own (it crashed while idle, or its
   * start failed), not by a call's crash or abort. After the core's
   * MAX_RESTARTS restarts in a row that failed so, with no call answered
   * between them, the worker is given up: no instance will take its calls,
   * and those waiting for it, and later ones that need it, reject
   * ERR_INSTANCE (strandedError).
   */
  restart(failed = false) {
    this.worker?.terminate();
    this.worker = null;
    if (this.pool.closed) return;
    if (failed && ++this.failures > MAX_RESTARTS) {
      this.dead = true;
      this.pool.busy.delete(this);
      this.pool.rejectStranded();
      this.wake();
      return;
    }
    this.startInBackground();
  }

  /**
   * Starts the instance without waiting for it: the slot is busy until it
   * has started (then free for calls), and a start that fails is counted
   * and tried again (restart).
   */
  startInBackground() {
    this.pool.busy.add(this);
    this.start().then(() => this.pool.release(this), () => this.restart(true));
  }
}

/**
 * Why arrays (moved: those transferred; bytes: transferred too) cannot be
 * posted, or '': an entry that is no typed array, or whose buffer was
 * transferred already (detached), or a shared buffer listed to move.
 */
export function unsendable(arrays, moved, bytes) {
  if (!Array.isArray(arrays)) return 'arrays is not an array';
  const all = [...arrays.map((a, i) => [a, `array ${i}`, moved.includes(a)]), ...(bytes ? [[bytes, 'the bytes', true]] : [])];
  for (const a of moved) if (!arrays.includes(a)) all.push([a, 'an array to transfer', true]);
  for (const [a, name, move] of all) {
    if (!ArrayBuffer.isView(a)) return `${name} is not a typed array`;
    if (isDetached(a.buffer)) return `${name} is detached (its buffer was transferred already)`;
    if (move && !(a.buffer instanceof ArrayBuffer)) return `${name} is on a shared buffer, which cannot be transferred`;
  }
  return '';
}

/** Whether an ArrayBuffer was transferred away (Node 20 lacks ArrayBuffer#detached). */
function isDetached(buffer) {
  if (typeof buffer.detached === 'boolean') return buffer.detached;
  if (buffer.byteLength > 0 || !(buffer instanceof ArrayBuffer)) return false;
  try {
    new Uint8Array(buffer); // throws on a detached buffer only
    return false;
  } catch {
    return true;
  }
}

export class Pool {
  /**
   * n workers of module (a compiled WebAssembly.Module, or a promise of
   * one: the workers start loading meanwhile); startTimeoutMs bounds each
   * instance's start once the module is compiled (START_TIMEOUT_MS by default).
   */
  constructor(module, n, { startTimeoutMs = START_TIMEOUT_MS } = {}) {
    this.module = module;
    // Restarts take the compiled module itself.
    Promise.resolve(module).then((m) => { this.module = m; }, () => {});
    this.startTimeoutMs = startTimeoutMs;
    this.slots = Array.from({ length: n }, () => new Slot(this));
    this.busy = new Set();
    this.queue = [];
    this.nextId = 1;
    // Numbers fits by engine: the key of the parts a fit keeps in its workers (fit.js).
    this.nextFit = 1;
    this.closed = false;
  }

  /** Starts every worker's instance; resolves once all have started. */
  async start() {
    await Promise.all(this.slots.map((s) => s.start()));
  }

  /**
   * Starts the first worker's instance and resolves once it has started
   * (createEngine): the others start when a call waits for a worker, or
   * once the first call is answered (startRest). A page's first call then
   * has its worker's instance to itself, not competing with the others'
   * starts for the CPU.
   */
  async startFirst() {
    for (const s of this.slots.slice(1)) s.pending = true;
    await this.slots[0].start();
  }

  /** Starts the workers startFirst left waiting (at most once each). */
  startRest() {
    for (const s of this.slots) {
      if (!s.pending || this.closed) continue;
      s.pending = false;
      s.startInBackground();
    }
  }

  /**
   * Resolves once slot's instance has started, at once when it has (or
   * when it never will: the worker was given up, the pool closed),
   * starting the workers not started yet (startRest).
   */
  whenStarted(slot) {
    if (slot.dead || this.closed || slot.started) return Promise.resolve();
    this.startRest();
    return new Promise((resolve) => slot.waiters.push(resolve));
  }

  release(slot) {
    this.busy.delete(slot);
    if (this.closed || !slot.worker) return;
    const i = this.queue.findIndex((j) => !j.slot || j.slot === slot);
    if (i >= 0) this.assign(slot, this.queue.splice(i, 1)[0]);
  }

  assign(slot, job) {
    this.busy.add(slot);
    job.onSlot?.(slot);
    slot.run(job);
  }

  /**
   * Runs op on the first free worker, or on `slot` when given. bytes (a
   * file's, from inputBytes) are always a copy made for this call and are
   * moved to the worker, not copied again. With transfer true, so are the
   * arrays (with transfer an array, those of the arrays it lists); onInputs then gets them back after a
   * successful call, for the next call to refill. where names the engine
   * method in errors. onSlot(slot) is told the worker the call runs on
   * (an op that keeps a cache there sends its next call to it). urgent: a call that waits goes
   * before the calls waiting already (a page's answer to a moved control
   * before its background work). port: a MessagePort moved to the worker
   * for the call's link to another worker's call (fitSolve's and fitHelp's).
   */
  call(op, args, arrays, { signal, onProgress } = {}, { bytes, transfer = false, slot, onInputs, where = op, onSlot, urgent = false, port } = {}) {
    if (this.closed) return Promise.reject(closedError(where));
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const stranded = this.strandedError(where, slot);
    if (stranded) return Promise.reject(stranded);
    // The arguments as text now, when the call is made (its arrays and
    // bytes are the call's own copies already).
    let json;
    try {
      json = JSON.stringify(args);
    } catch (e) {
      return Promise.reject(ntkrfError('ERR_TYPE', `${where}: an argument cannot be written as JSON (${e?.message ?? e}); pass plain numbers, strings, arrays and objects`));
    }
    return new Promise((resolve, reject) => {
      const job = { id: this.nextId++, op, where, json, arrays, bytes, transfer, slot, onInputs, resolve, reject, onProgress, signal, onSlot, port };
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
      else {
        if (urgent) this.queue.unshift(job);
        else this.queue.push(job);
        // A call waits for a worker, which one not started yet could be:
        // those start now (not for a call that waits for its own busy
        // worker, as a playground lane's next call does).
        if (!slot || slot.pending) this.startRest();
      }
    });
  }

  /**
   * The ERR_INSTANCE error of a call that no worker can take (its slot's,
   * or every worker's, instance failed to restart), or null.
   */
  strandedError(where, slot) {
    const dead = slot ? slot.dead : this.slots.every((s) => s.dead);
    if (!dead) return null;
    return ntkrfError('ERR_INSTANCE', `${where}: ${slot ? 'the worker this call needs' : 'every worker'} lost its WebAssembly instance, which could not be restarted (it failed again after ${MAX_RESTARTS} restarts in a row); create a new engine with createEngine()`);
  }

  /** Rejects the waiting calls that no worker can take any more. */
  rejectStranded() {
    for (const job of [...this.queue]) {
      const e = this.strandedError(job.where, job.slot);
      if (!e) continue;
      this.queue.splice(this.queue.indexOf(job), 1);
      job.signal?.removeEventListener('abort', job.onAbort);
      job.reject(e);
    }
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
      s.wake();
    }
    for (const job of jobs) {
      job.signal?.removeEventListener('abort', job.onAbort);
      job.reject(closedError(job.where));
    }
  }
}
