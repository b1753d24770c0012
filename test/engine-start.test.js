// Every await of an engine's start is bounded: an instance that never
// finishes starting (its module loops before it registers, its script
// hangs) rejects createEngine with ERR_INSTANCE after startTimeoutMs, an
// abort signal stops the start with ERR_ABORTED, and either way no worker
// is left running; a restart that hangs settles the calls waiting for it.
// Cases that could hang run in a child process, so that a worker left
// running shows as a process that does not exit.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pkg, root } from './helpers.js';

const { createEngine } = await import(pkg);
const { Pool, loadModule } = await import(path.join(root, 'dist', 'npm', 'pool.js'));

// A module Go's glue runs, whose run(argc, argv) loops for ever: the worker
// instantiates it and then never answers (exports mem and run, imports nothing).
const HANG = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0,
  1, 6, 1, 96, 2, 127, 127, 0, // type: (i32, i32) → ()
  3, 2, 1, 0, // one function of that type
  5, 3, 1, 0, 1, // one page of memory
  7, 13, 2, 3, 109, 101, 109, 2, 0, 3, 114, 117, 110, 0, 0, // export "mem", "run"
  10, 9, 1, 7, 0, 3, 64, 12, 0, 11, 11, // run: loop { br 0 }
]);
const dir = mkdtempSync(path.join(tmpdir(), 'ntkrf-start-'));
const hangURL = path.join(dir, 'hang.wasm');
writeFileSync(hangURL, HANG);
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs body (module code with createEngine and hangURL in scope) in a child
 * Node process; resolves to its stdout, or fails when it does not exit by
 * itself within ms: a worker left running keeps a process alive.
 */
let scripts = 0;
function inChild(body, ms = 30_000) {
  // A file, not -e: workers inherit the process's flags (--input-type).
  const file = path.join(dir, `child-${scripts++}.mjs`);
  writeFileSync(file, `const { createEngine } = await import(${JSON.stringify(pkg)}); const hangURL = ${JSON.stringify(hangURL)};\n${body}`);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file], { timeout: ms, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`the child ${err.killed ? `did not exit within ${ms} ms (a worker left running?)` : `failed: ${err.message}`}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

const CASES = [
  {
    name: 'an instance that never starts rejects ERR_INSTANCE after startTimeoutMs, its workers stopped',
    body: `const t = Date.now();
      try { await createEngine({ workers: 2, wasmURL: hangURL, startTimeoutMs: 300 }); console.log(JSON.stringify({ resolved: true })); }
      catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message, ms: Date.now() - t })); }`,
    code: 'ERR_INSTANCE',
    re: /did not start within 300 ms.*startTimeoutMs/,
    within: 10_000,
  },
  {
    name: 'an abort during the start rejects ERR_ABORTED, its workers stopped',
    body: `const ac = new AbortController(); setTimeout(() => ac.abort(), 300); const t = Date.now();
      try { await createEngine({ workers: 2, wasmURL: hangURL, signal: ac.signal }); console.log(JSON.stringify({ resolved: true })); }
      catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message, ms: Date.now() - t })); }`,
    code: 'ERR_ABORTED',
    within: 10_000,
  },
  {
    name: 'a signal aborted before the start rejects ERR_ABORTED and starts nothing',
    body: `try { await createEngine({ workers: 1, signal: AbortSignal.abort() }); console.log(JSON.stringify({ resolved: true })); }
      catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message, ms: 0 })); }`,
    code: 'ERR_ABORTED',
    within: 1,
  },
];

for (const c of CASES) {
  test(c.name, async () => {
    const out = JSON.parse((await inChild(c.body)).trim().split('\n').at(-1));
    assert.ok(!out.resolved, 'createEngine resolved');
    assert.equal(out.code, c.code, out.message);
    if (c.re) assert.match(out.message, c.re);
    assert.ok(out.ms < c.within, `settled after ${out.ms} ms`);
  });
}

test('startTimeoutMs and signal are checked: ERR_TYPE for a wrong kind, ERR_OPTION out of 1…2^31−1', async () => {
  for (const [v, code] of [['5', 'ERR_TYPE'], [null, 'ERR_TYPE'], [0, 'ERR_OPTION'], [-1, 'ERR_OPTION'], [NaN, 'ERR_OPTION'], [Infinity, 'ERR_OPTION'], [2 ** 31, 'ERR_OPTION']]) {
    await assert.rejects(createEngine({ workers: 1, startTimeoutMs: v }), (e) => e.code === code && e.option === 'startTimeoutMs', `startTimeoutMs ${String(v)}`);
  }
  await assert.rejects(createEngine({ workers: 1, signal: {} }), (e) => e.code === 'ERR_TYPE' && e.option === 'signal');
  // In range, the engine starts.
  const eng = await createEngine({ workers: 1, startTimeoutMs: 120_000 });
  eng.close();
});

// A restart whose instance never starts: the call waiting for that worker
// rejected only at close() (it hung); now it rejects after the pool's start
// timeout, and the hung thread is stopped.
test('a restart that never finishes settles the calls waiting for its worker, and stops its thread', async () => {
  const pool = new Pool(await loadModule(), 1, { startTimeoutMs: 500 });
  try {
    await pool.start();
    const hang = await WebAssembly.compile(HANG);
    const args = { X: { rows: 400, cols: 2, array: 0 } };
    const rows = () => Float64Array.from({ length: 800 }, (_, i) => Math.sin(i));
    const inFlight = pool.call('kernel', args, [rows()]);
    const waiting = pool.call('kernel', args, [rows()]);
    pool.module = hang;
    pool.slots[0].worker.terminate(); // the instance restarts, on a module that hangs
    await assert.rejects(inFlight, (e) => e.code === 'ERR_INSTANCE');
    let timer;
    const hung = new Promise((resolve) => { timer = setTimeout(() => resolve('hung'), 10_000); });
    const r = await Promise.race([waiting.then(() => 'resolved', (e) => e), hung]).finally(() => clearTimeout(timer));
    assert.notEqual(r, 'hung', 'the call waiting for the restarted worker hung');
    assert.equal(r.code, 'ERR_INSTANCE', r.message);
    assert.match(r.message, /could not be restarted/);
    assert.equal(pool.slots[0].worker, null, 'the hung worker is left running');
  } finally {
    pool.close();
  }
});

// createEngine({ module }): ntkrf.wasm compiled by the caller (the lab's
// boot.js compiles it as the page loads), as a WebAssembly.Module or a
// promise of one, instead of wasmURL's download.
test('module: a compiled WebAssembly.Module, or a promise of one, starts the engine without loading wasmURL', async () => {
  const compiled = await loadModule();
  const X = { rows: 3, cols: 2, data: Float64Array.from([1, 0, 0.5, 0.5, -1, 2]) };
  const ref = await createEngine({ workers: 1 });
  const want = await ref.kernel(X);
  ref.close();
  for (const [name, module] of [['a Module', compiled], ['a promise of one', Promise.resolve(compiled)]]) {
    const eng = await createEngine({ workers: 2, module });
    try {
      assert.equal(eng.workers, 2);
      const K = await eng.kernel(X);
      assert.deepEqual(K.data, want.data, `${name}: the same kernel as the engine's own module`);
      // Both workers instantiate it: a call per worker at once.
      const both = await Promise.all([eng.kernel(X), eng.kernel(X)]);
      for (const k of both) assert.deepEqual(k.data, want.data);
      assert.equal((await eng.stats()).workers.length, 2);
    } finally {
      eng.close();
    }
  }
});

test('module: a wrong kind is ERR_TYPE, module with wasmURL ERR_OPTION, a promise to a non-module ERR_TYPE', async () => {
  for (const v of [null, 5, 'ntkrf.wasm', new Uint8Array(8), {}]) {
    await assert.rejects(createEngine({ workers: 1, module: v }), (e) => e.code === 'ERR_TYPE' && e.option === 'module' && /WebAssembly\.Module/.test(e.message), `module ${String(v)}`);
  }
  await assert.rejects(createEngine({ workers: 1, module: await loadModule(), wasmURL: hangURL }), (e) => e.code === 'ERR_OPTION' && e.option === 'module');
  await assert.rejects(createEngine({ workers: 1, module: Promise.resolve(new Uint8Array(8)) }), (e) => e.code === 'ERR_TYPE' && e.option === 'module' && /Uint8Array/.test(e.message));
});

test('module: a promise that rejects (the caller\'s download or compile failed) rejects ERR_INSTANCE naming why, its workers stopped', async () => {
  const out = JSON.parse((await inChild(`const t = Date.now();
    const module = new Promise((_, reject) => setTimeout(() => reject(new Error('HTTP 404')), 300));
    try { await createEngine({ workers: 2, module }); console.log(JSON.stringify({ resolved: true })); }
    catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message, ms: Date.now() - t })); }`)).trim().split('\n').at(-1));
  assert.ok(!out.resolved, 'createEngine resolved');
  assert.equal(out.code, 'ERR_INSTANCE', out.message);
  assert.match(out.message, /module given to createEngine could not be loaded: HTTP 404/);
});

test('module: the module given is the one the workers run (one that never starts times out), not wasmURL\'s', async () => {
  const out = JSON.parse((await inChild(`const { readFile } = await import('node:fs/promises');
    const module = await WebAssembly.compile(await readFile(hangURL));
    try { await createEngine({ workers: 2, module, startTimeoutMs: 300 }); console.log(JSON.stringify({ resolved: true })); }
    catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); }`)).trim().split('\n').at(-1));
  assert.ok(!out.resolved, 'createEngine resolved: it ran its own module, not the one given');
  assert.equal(out.code, 'ERR_INSTANCE', out.message);
  assert.match(out.message, /did not start within 300 ms/);
});
