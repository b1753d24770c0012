// Every call the worker pool takes settles: it resolves, or rejects with a
// code of the documented grammar (errors.js, codes from core/errs), however
// its arrays, its worker or its caller fail it. A call that hangs fails its
// case here after HANG_MS instead of stopping the run.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { root } from './helpers.js';

const { Pool, loadModule, unsendable = () => 'x' } = await import(path.join(root, 'dist', 'npm', 'pool.js'));
const module = await loadModule();

const HANG_MS = 5000;

/** How p settled: {value} or {error}; {hung: true} when it did not within HANG_MS. */
function settled(p) {
  let timer;
  const hang = new Promise((resolve) => { timer = setTimeout(() => resolve({ hung: true }), HANG_MS); });
  return Promise.race([p.then((value) => ({ value }), (error) => ({ error })), hang]).finally(() => clearTimeout(timer));
}

/** Asserts that p rejected with code (and a message matching re) rather than hanging. */
async function rejectsWith(p, code, re) {
  const r = await settled(p);
  assert.ok(!r.hung, `the call hung (${HANG_MS} ms) instead of rejecting with ${code}`);
  assert.ok(r.error, `the call resolved instead of rejecting with ${code}`);
  assert.equal(r.error.code, code, r.error.message);
  if (re) assert.match(r.error.message, re);
  return r.error;
}

const pools = [];
after(() => { for (const p of pools) p.close(); });
async function startPool(n = 1) {
  const pool = new Pool(module, n);
  pools.push(pool);
  await pool.start();
  return pool;
}

/** A kernel call on rows × 2 inputs: its arguments and its array. */
const kernelArgs = (rows = 4) => ({ X: { rows, cols: 2, array: 0 } });
const input = (rows = 4) => Float64Array.from({ length: rows * 2 }, (_, i) => Math.sin(i));
const detached = (a = input()) => { structuredClone(a.buffer, { transfer: [a.buffer] }); return a; };

/** A pool still serves: a fresh call resolves. */
async function serves(pool) {
  const r = await settled(pool.call('kernel', kernelArgs(), [input()]));
  assert.ok(!r.hung && !r.error, `the pool no longer serves: ${r.hung ? 'hung' : r.error?.message}`);
  assert.equal(r.value.rows, 4);
}

// Arrays that cannot be posted: each rejects ERR_INTERNAL (the pool's arrays
// are the call's own copies, so this is ntkrf's fault) and the worker goes on.
const UNSENDABLE = [
  // Node drops a message whose transfer list holds a detached buffer without a word: this call hung.
  { name: 'a detached array, transferred', arrays: () => [detached()], transfer: true, re: /array 0 is detached/ },
  { name: 'a detached array, copied', arrays: () => [detached()], transfer: false, re: /array 0 is detached/ },
  { name: 'a detached array among others, transferred', arrays: () => [input(), detached()], transfer: true, re: /array 1 is detached/ },
  { name: 'a detached array listed to transfer', arrays: () => { const d = detached(); return [input(), d]; }, transfer: (a) => [a[1]], re: /detached/ },
  { name: 'bytes already transferred', arrays: () => [input()], transfer: true, bytes: () => { const b = new Uint8Array(8); structuredClone(b.buffer, { transfer: [b.buffer] }); return b; }, re: /the bytes is detached/ },
  { name: 'an entry that is no typed array', arrays: () => [[1, 2, 3, 4, 5, 6, 7, 8]], transfer: false, re: /array 0 is not a typed array/ },
  { name: 'a shared buffer listed to transfer', arrays: () => [new Float64Array(new SharedArrayBuffer(64))], transfer: true, re: /shared buffer/ },
  // postMessage itself throws (DataCloneError): one buffer listed twice.
  { name: 'one buffer transferred twice (postMessage throws)', arrays: () => { const a = input(); return [a, a]; }, transfer: true, re: /could not be sent/ },
];

for (const c of UNSENDABLE) {
  test(`a call with ${c.name} rejects ERR_INTERNAL, and the worker takes the next call`, async () => {
    const pool = await startPool();
    const arrays = c.arrays();
    const transfer = typeof c.transfer === 'function' ? c.transfer(arrays) : c.transfer;
    await rejectsWith(pool.call('kernel', kernelArgs(), arrays, {}, { transfer, bytes: c.bytes?.() }), 'ERR_INTERNAL', c.re);
    await serves(pool);
  });
}

test('unsendable names what cannot be posted, and passes what can', () => {
  const a = input(), empty = new Float64Array(0);
  assert.equal(unsendable([a, empty], [a, empty]), '', 'an empty array is no detached one');
  assert.equal(unsendable([new Float64Array(new SharedArrayBuffer(8))], []), '', 'a shared buffer may be copied');
  assert.match(unsendable([a], [detached()]), /an array to transfer is detached/);
});

// The worker fails while the call runs: the call rejects, a fresh instance
// serves the next. Node's worker is an EventEmitter: the events it emits are
// those the engine must answer.
const WORKER_FAULTS = [
  // A thread that exits without an error event (terminated, process.exit): this call hung.
  { name: 'its thread exits', fault: (w) => w.terminate(), code: 'ERR_INSTANCE', re: /exited with code/ },
  { name: 'it emits an error', fault: (w) => w.emit('error', new Error('boom')), code: 'ERR_INSTANCE', re: /the worker failed: boom/ },
  // An answer that cannot be deserialized: this call hung.
  { name: 'its answer cannot be read (messageerror)', fault: (w) => w.emit('messageerror', new Error('could not deserialize')), code: 'ERR_INTERNAL', re: /could not be read/ },
];

for (const c of WORKER_FAULTS) {
  test(`a call whose worker fails mid-call (${c.name}) rejects ${c.code}; the next call is served`, async () => {
    const pool = await startPool();
    const p = pool.call('kernel', kernelArgs(400), [input(400)], {}, { where: 'kernel' });
    const queued = pool.call('kernel', kernelArgs(), [input()]);
    c.fault(pool.slots[0].worker);
    await rejectsWith(p, c.code, c.re);
    const q = await settled(queued);
    assert.ok(!q.hung && !q.error, 'the queued call is served by the fresh instance');
    await serves(pool);
  });
}

test('a result the worker cannot post back rejects ERR_INTERNAL; the instance lives on', async () => {
  // Inputs asked back (onInputs) on a shared buffer: the worker's transfer
  // list then holds a SharedArrayBuffer, and its postMessage throws. This
  // call used to reject ERR_INSTANCE through an unhandled rejection (Node),
  // or hang (a browser fires no error for one).
  const pool = await startPool();
  const worker = pool.slots[0].worker;
  const shared = new Float64Array(new SharedArrayBuffer(64));
  shared.set(input());
  await rejectsWith(pool.call('kernel', kernelArgs(), [shared], {}, { onInputs: () => {} }), 'ERR_INTERNAL', /could not be sent back/);
  assert.equal(pool.slots[0].worker, worker, 'the instance was kept');
  await serves(pool);
});

// Aborts: a call waiting for a worker and a call in flight reject ERR_ABORTED at once.
const ABORTS = [
  { name: 'waiting for a worker', when: 'queued' },
  { name: 'in flight', when: 'running' },
  { name: 'before it is made', when: 'before' },
];

for (const c of ABORTS) {
  test(`an aborted call ${c.name} rejects ERR_ABORTED; the pool still serves`, async () => {
    const pool = await startPool();
    const ac = new AbortController();
    if (c.when === 'before') ac.abort();
    const running = pool.call('kernel', kernelArgs(400), [input(400)], c.when === 'running' ? { signal: ac.signal } : {});
    const queued = c.when === 'running' ? null : pool.call('kernel', kernelArgs(), [input()], { signal: ac.signal });
    ac.abort();
    await rejectsWith(queued ?? running, 'ERR_ABORTED');
    if (queued) assert.ok(!(await settled(running)).hung);
    await serves(pool);
  });
}

// A worker whose instance cannot be restarted (its module no longer
// instantiates): the calls waiting for it reject ERR_INSTANCE, and so does
// every later call that needs it, instead of waiting for ever.
test('calls no worker can take any more reject ERR_INSTANCE: those waiting and those made later', async () => {
  const pool = await startPool(2);
  // A module that imports what Go's runtime does not provide: instantiate fails.
  pool.module = await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 2, 10, 1, 1, 120, 4, 110, 111, 110, 101, 0, 0]));
  const [a, b] = pool.slots;
  const inA = pool.call('kernel', kernelArgs(400), [input(400)], {}, { slot: a });
  const waitingForA = pool.call('kernel', kernelArgs(), [input()], {}, { slot: a });
  a.worker.terminate();
  await rejectsWith(inA, 'ERR_INSTANCE', /exited/);
  // This call hung: it waited for a worker that never came back.
  await rejectsWith(waitingForA, 'ERR_INSTANCE', /could not be restarted/);
  await rejectsWith(pool.call('kernel', kernelArgs(), [input()], {}, { slot: a }), 'ERR_INSTANCE', /the worker this call needs/);
  // The other worker still serves calls that any worker may take.
  await serves(pool);
  b.worker.terminate();
  // Once no worker is left, a call that any worker may take rejects too (it hung).
  const r = await settled(pool.call('kernel', kernelArgs(), [input()]));
  assert.ok(!r.hung, 'a call with every worker gone hung');
  assert.equal(r.error?.code, 'ERR_INSTANCE');
  await rejectsWith(pool.call('kernel', kernelArgs(), [input()]), 'ERR_INSTANCE', /every worker/);
});

test('a pool closed while a worker restarts keeps no worker running', async () => {
  const pool = await startPool();
  const p = pool.call('kernel', kernelArgs(400), [input(400)]);
  pool.slots[0].worker.terminate(); // the instance restarts
  await rejectsWith(p, 'ERR_INSTANCE');
  pool.close();
  // The restart that was under way when the pool closed ends without a worker.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  assert.equal(pool.slots[0].worker, null, 'a worker started after close() is left running');
});
