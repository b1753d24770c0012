// Every wait of the package is bounded by the caller or by the core: every
// method that computes takes a signal (stats too, which waits for each
// worker's call in flight), and a worker whose instance keeps failing on
// its own (crashing while it starts or idles) is restarted at most the
// core's limits.maxRestarts times in a row, then given up: the calls that
// need it reject ERR_INSTANCE instead of a restart starting for ever.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pkg, root } from './helpers.js';

const { createEngine } = await import(pkg);
const { Pool, loadModule } = await import(path.join(root, 'dist', 'npm', 'pool.js'));

const eng = await createEngine({ workers: 2 });
after(() => eng.close());
const { maxRestarts } = eng.limits;

const X = { rows: 3, cols: 2, data: Float64Array.from([1, 2, 3, 4, 5, 6]) };
const y = Float64Array.from([0.5, 1.5, 2.5]);
const csv = 'a,b\n1,2\n3,4\n';

// Every method of Engine that returns a Promise, called with options o.
const CALLS = {
  kernel: (o) => eng.kernel(X, null, o),
  ensembleVariance: (o) => eng.ensembleVariance(X, X, { lambda: 1, ...o }),
  features: (o) => eng.features(X, o),
  fitRidge: (o) => eng.fitRidge(X, y, { task: 'regression', ...o }),
  loadModel: (o) => eng.loadModel('{}', o),
  preprocess: (o) => eng.preprocess(X, o),
  compare: (o) => eng.compare(X, o),
  selectActive: (o) => eng.selectActive(X, { k: 1, ...o }),
  score: (o) => eng.score(y, y, o),
  parseCSV: (o) => eng.parseCSV(csv, o),
  previewCSV: (o) => eng.previewCSV(csv, o),
  split: (o) => eng.split(10, o),
  kfold: (o) => eng.kfold(10, o),
  stats: (o) => eng.stats(o),
  playground: (o) => eng.playground(X, y, { models: [{ features: { dim: 8, depth: 1 } }], task: 'regression', ...o }),
};

test('every method that computes takes a signal: aborted, it rejects ERR_ABORTED; a wrong one is ERR_TYPE', async () => {
  // The table is every async method of Engine: a method added without a row fails here.
  const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(eng)).filter((k) => k !== 'constructor' && k !== 'take' && k !== 'close');
  assert.deepEqual(methods.sort(), Object.keys(CALLS).sort());
  for (const [method, call] of Object.entries(CALLS)) {
    await assert.rejects(call({ signal: AbortSignal.abort() }), (e) => e.name === 'AbortError' && e.code === 'ERR_ABORTED', `${method} with an aborted signal`);
    await assert.rejects(call({ signal: {} }), (e) => e.code === 'ERR_TYPE' && e.option === 'signal', `${method} with a signal that is none`);
  }
});

test('stats takes options as the other calls do: signal stops its wait for a busy worker, unknown options are refused', async () => {
  await assert.rejects(eng.stats({ signall: 1 }), (e) => e.code === 'ERR_UNKNOWN_OPTION' && e.option === 'signall');
  await assert.rejects(eng.stats(3), (e) => e.code === 'ERR_TYPE');
  // A long call holds a worker; stats waits for it, and its signal stops that wait.
  const big = { rows: 3000, cols: 32, data: Float64Array.from({ length: 96000 }, (_, i) => Math.sin(i)) };
  const busy = eng.kernel(big, null, { depth: 3 });
  const ac = new AbortController();
  const t = Date.now();
  const waiting = eng.stats({ signal: ac.signal });
  setTimeout(() => ac.abort(), 50);
  await assert.rejects(waiting, (e) => e.code === 'ERR_ABORTED');
  assert.ok(Date.now() - t < 5000, `stats settled after ${Date.now() - t} ms`);
  await busy.catch(() => {}); // the abort may have restarted the worker it waited on
  const s = await eng.stats();
  assert.equal(s.workers.length, 2);
  assert.ok(s.heapBytes > 0);
});

// A module Go's glue runs whose run(argc, argv) loops for ever: an
// instance of it never answers its start (see engine-start.test.js).
const HANG = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 6, 1, 96, 2, 127, 127, 0, 3, 2, 1, 0, 5, 3, 1, 0, 1,
  7, 13, 2, 3, 109, 101, 109, 2, 0, 3, 114, 117, 110, 0, 0, 10, 9, 1, 7, 0, 3, 64, 12, 0, 11, 11,
]);

const kernelArgs = { X: { rows: 400, cols: 2, array: 0 } };
const rows = () => Float64Array.from({ length: 800 }, (_, i) => Math.sin(i));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Ends every instance of slot's worker that starts from now on, before it
 * answers (its thread stops: Node's 'exit'); .count says how many.
 */
function crashEveryStart(slot) {
  const seen = new Set([slot.worker]);
  const killer = { count: 0 };
  killer.timer = setInterval(() => {
    const w = slot.worker;
    if (w && !seen.has(w)) {
      seen.add(w);
      killer.count++;
      w.terminate();
    }
  }, 2);
  return killer;
}

/** p settled within ms: {value} or {error}, or 'hung'. */
function within(p, ms) {
  let timer;
  const hung = new Promise((resolve) => { timer = setTimeout(() => resolve('hung'), ms); });
  return Promise.race([p.then((value) => ({ value }), (error) => ({ error })), hung]).finally(() => clearTimeout(timer));
}

test('an instance that crashes during every restart is given up after limits.maxRestarts restarts: waiting and new calls reject ERR_INSTANCE', async () => {
  assert.ok(Number.isInteger(maxRestarts) && maxRestarts > 0, `limits.maxRestarts = ${maxRestarts}`);
  // A start timeout far longer than the test: only the crashes end the starts.
  const pool = new Pool(await loadModule(), 1, { startTimeoutMs: 60_000 });
  let killer;
  try {
    await pool.start();
    const slot = pool.slots[0];
    // Everything that awaits happens before the calls: the first call is
    // posted and its instance ended in one synchronous step, so it cannot
    // answer first (an await here once let it, and CI saw it resolve).
    pool.module = await WebAssembly.compile(HANG);
    const inFlight = pool.call('kernel', kernelArgs, [rows()]);
    const waiting = pool.call('kernel', kernelArgs, [rows()]);
    waiting.catch(() => {}); // settled below; a failed assertion above must not leave it unhandled
    assert.equal(slot.job?.op, 'kernel', 'the first call is on the worker');
    killer = crashEveryStart(slot);
    slot.worker.terminate(); // the call's instance dies; every instance after it dies while it starts
    await assert.rejects(inFlight, (e) => e.code === 'ERR_INSTANCE' && /during this call/.test(e.message));
    const r = await within(waiting, 10_000);
    assert.notEqual(r, 'hung', 'the call waiting for the worker hung');
    assert.equal(r.error?.code, 'ERR_INSTANCE', r.error?.message);
    // No restart goes on after the worker is given up.
    await sleep(300);
    assert.equal(killer.count, maxRestarts + 1, 'instances started: the restart after the call\'s crash, then maxRestarts more');
    assert.equal(slot.worker, null, 'a worker is left running');
    assert.match(r.error.message, new RegExp(`could not be restarted \\(it failed again after ${maxRestarts} restarts in a row\\)`));
    await assert.rejects(pool.call('kernel', kernelArgs, [rows()]), (e) => e.code === 'ERR_INSTANCE' && /could not be restarted/.test(e.message));
  } finally {
    clearInterval(killer?.timer);
    pool.close();
  }
});

test('crashes while idle count too; a call answered starts the count again', async () => {
  const pool = new Pool(await loadModule(), 1);
  try {
    await pool.start();
    const slot = pool.slots[0];
    /** Ends the idle instance n times, each after its restart has started. */
    const crashIdle = async (n) => {
      for (let i = 0; i < n; i++) {
        const w = slot.worker;
        w.terminate();
        for (let t = 0; (slot.worker === w || slot.worker === null || pool.busy.has(slot)) && !slot.dead && t < 3000; t++) await sleep(5);
      }
    };
    const serves = async () => assert.equal((await pool.call('kernel', kernelArgs, [rows()])).rows, 400);
    // maxRestarts idle crashes, then a call answered, then as many again: the worker serves throughout.
    await crashIdle(maxRestarts);
    assert.ok(!slot.dead);
    await serves();
    await crashIdle(maxRestarts);
    assert.ok(!slot.dead, 'the count did not start again after a call was answered');
    await serves();
    // One idle crash more than maxRestarts in a row, no call between: given up.
    await crashIdle(maxRestarts);
    const last = slot.worker;
    last.terminate();
    for (let t = 0; !slot.dead && t < 400; t++) await sleep(5);
    assert.ok(slot.dead, 'a worker whose instance keeps dying while idle is restarted for ever');
    await assert.rejects(pool.call('kernel', kernelArgs, [rows()]), (e) => e.code === 'ERR_INSTANCE');
  } finally {
    pool.close();
  }
});
