// The package API under Node: reference values, errors, abort, progress, close.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pkg, refX, reference, randomMatrix } from './helpers.js';

const { createEngine } = await import(pkg);
let eng;
before(async () => { eng = await createEngine({ workers: 2 }); });
after(() => eng?.close());

const rel = (a, b) => Math.abs(a - b) / Math.abs(b);

test('kernel matches the reference values to 1e-11 relative, exact diagonal', async () => {
  for (const kernel of ['ntk', 'nngp']) {
    for (const depth of [1, 2, 3]) {
      const K = await eng.kernel(refX(), null, { kernel, depth });
      assert.equal(K.rows, 3);
      assert.equal(K.cols, 3);
      assert.ok(K.data instanceof Float64Array);
      const got = [K.data[1], K.data[2], K.data[5]];
      got.forEach((v, i) => assert.ok(rel(v, reference[kernel][depth][i]) < 1e-11, `${kernel} L=${depth} pair ${i}: ${v}`));
      const scale = kernel === 'ntk' ? depth + 1 : 1;
      assert.deepEqual([K.data[0], K.data[4], K.data[8]], [5, 10.25, 5.0625].map((s) => scale * s));
    }
  }
});

test('cross kernel, Float32Array input, rbf default gamma', async () => {
  const X = refX();
  const Z = { rows: 1, cols: 3, data: Float32Array.from([0.5, -1, 3]) };
  const K = await eng.kernel(X, Z, { depth: 1 });
  assert.equal(K.rows, 3);
  assert.equal(K.cols, 1);
  assert.ok(rel(K.data[0], reference.ntk[1][0]) < 1e-11);
  const R = await eng.kernel(X, null, { kernel: 'rbf' });
  // ‖x1 − x2‖² = 0.25 + 9 + 9 = 18.25, γ = 1/3.
  assert.ok(rel(R.data[1], Math.exp(-18.25 / 3)) < 1e-14);
});

test('inputs are not modified or detached', async () => {
  const X = refX();
  const copy = X.data.slice();
  await eng.kernel(X, null, { depth: 2 });
  assert.deepEqual(X.data, copy);
  assert.equal(X.data.length, 9);
});

test('bad calls reject with clear errors, then a good call works', async () => {
  const X = refX();
  const cases = [
    [() => eng.kernel(X, null, { depth: -1 }), RangeError, 'ERR_OPTION', /kernel: depth must be an integer in 1…64, got -1/],
    [() => eng.kernel(X, null, { depth: 65 }), RangeError, 'ERR_OPTION', /depth must be an integer in 1…64, got 65/],
    [() => eng.kernel(X, null, { kernel: 'poly' }), RangeError, 'ERR_OPTION', /kernel must be one of "ntk", "nngp", "rbf", "linear", got "poly"/],
    [() => eng.kernel(X, null, { dpeth: 2 }), TypeError, 'ERR_UNKNOWN_OPTION', /unknown option "dpeth"; known options: kernel, depth, gamma, signal, onProgress/],
    [() => eng.kernel(X, null, { depth: '2' }), TypeError, 'ERR_TYPE', /depth must be an integer in 1…64, got "2"/],
    [() => eng.kernel({ rows: 3, cols: 3, data: [1, 2, 3, 4, 5, 6, 7, 8, 9] }), TypeError, 'ERR_TYPE', /Float64Array\.from/],
    [() => eng.kernel({ rows: 3, cols: 3, data: new Int32Array(9) }), TypeError, 'ERR_TYPE', /got an Int32Array/],
    [() => eng.kernel({ rows: 2, cols: 3, data: new Float64Array(9) }), RangeError, 'ERR_SHAPE', /has 9 values but rows×cols = 2×3 = 6/],
    [() => eng.kernel({ rows: 0, cols: 0, data: new Float64Array(0) }), RangeError, 'ERR_SHAPE', /0×0/],
    [() => eng.kernel(X, { rows: 1, cols: 2, data: new Float64Array(2) }), RangeError, 'ERR_SHAPE', /X has 3 columns but Z has 2/],
    [() => eng.kernel({ rows: 1, cols: 2, data: Float64Array.from([1, NaN]) }), RangeError, 'ERR_NONFINITE', /NaN at row 0, column 1/],
    [() => eng.kernel({ rows: 1, cols: 2, data: Float64Array.from([Infinity, 0]) }), RangeError, 'ERR_NONFINITE', /\+Inf at row 0, column 0/],
    [() => eng.kernel(null), TypeError, 'ERR_TYPE', /X must be a matrix/],
    [() => eng.kernel(X, null, 'ntk'), TypeError, 'ERR_TYPE', /options must be an object/],
  ];
  for (const [call, Class, code, pattern] of cases) {
    await assert.rejects(call, (e) => e instanceof Class && e.code === code && pattern.test(e.message), String(call));
  }
  const K = await eng.kernel(X, null, { depth: 1 });
  assert.ok(rel(K.data[1], reference.ntk[1][0]) < 1e-11);
});

test('a detached buffer is refused', async () => {
  const X = refX();
  structuredClone(X.data.buffer, { transfer: [X.data.buffer] });
  await assert.rejects(eng.kernel(X), TypeError);
});

test('progress is monotone and ends at total', async () => {
  const seen = [];
  await eng.kernel(randomMatrix(200, 5), null, { depth: 2, onProgress: (p) => seen.push(p) });
  assert.ok(seen.length >= 2);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i].done >= seen[i - 1].done);
  const last = seen.at(-1);
  assert.equal(last.done, last.total);
});

test('abort rejects quickly with AbortError and the engine stays usable', async () => {
  const ac = new AbortController();
  const big = randomMatrix(4000, 64, 7);
  const started = performance.now();
  const p = eng.kernel(big, null, { depth: 4, signal: ac.signal });
  setTimeout(() => ac.abort(), 30);
  await assert.rejects(p, (e) => e.name === 'AbortError');
  const took = performance.now() - started;
  assert.ok(took < 1500, `abort took ${took} ms`);
  // Already-aborted signals reject before any work.
  await assert.rejects(eng.kernel(refX(), null, { signal: AbortSignal.abort() }), (e) => e.name === 'AbortError');
  const K = await eng.kernel(refX(), null, { depth: 3 });
  assert.ok(rel(K.data[5], reference.ntk[3][2]) < 1e-11);
});

test('many calls at once are queued over the workers', async () => {
  const results = await Promise.all(Array.from({ length: 12 }, (_, i) => eng.kernel(refX(), null, { depth: 1 + (i % 3) })));
  results.forEach((K, i) => assert.ok(rel(K.data[1], reference.ntk[1 + (i % 3)][0]) < 1e-11));
});

test('createEngine validates its options; close rejects later calls', async () => {
  await assert.rejects(createEngine({ workers: 0 }), RangeError);
  await assert.rejects(createEngine({ worker: 2 }), /unknown option "worker"/);
  const e = await createEngine({ workers: 1 });
  assert.equal(e.workers, 1);
  e.close();
  await assert.rejects(e.kernel(refX()), (err) => err.code === 'ERR_CLOSED' && /engine was closed/.test(err.message));
});
