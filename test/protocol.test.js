// The package's fit is the core's protocol, scheduled (issue 38): fitRidge
// over chunks and workers gives the bits of pipeline.Fit in one call, in
// the same WebAssembly module (the test build's fitOneCall op,
// jsbridge/testhook_fit.go). Reordering the merges, dropping the
// settled plan after select or the selection itself, or cutting the
// parts by the open plan's chunks all change these bits.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pkg, root, randomMatrix } from './helpers.js';

const { createEngine } = await import(pkg);
const wasm = path.join(root, 'dist', 'test', 'ntkrf-crashtest.wasm');
let eng;
before(async () => {
  eng = await createEngine({ workers: 2, wasmURL: new URL(`file://${wasm}`) });
  // The same module in this thread, for the one-call fit.
  await import(path.join(root, 'dist', 'npm', 'wasm_exec.js'));
  const go = new globalThis.Go();
  const { instance } = await WebAssembly.instantiate(readFileSync(wasm), go.importObject);
  go.run(instance);
});
after(() => eng?.close());

/** The bytes of a Float64Array, to compare bit for bit. */
const bits = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');

/** pipeline.Fit of the same rows and options in one call: its model header and coefficients. */
async function oneCall(X, y, options) {
  const args = { ...options, rows: X.rows, cols: X.cols, X: { rows: X.rows, cols: X.cols, array: 0 }, y: { array: 1 } };
  const r = await globalThis.ntkrf.call('fitOneCall', JSON.stringify(args), [X.data, Float64Array.from(y)]);
  const out = JSON.parse(r.json);
  // The header names no matrices (they travel apart); the file holds them.
  const { coef: _c, train: _t, ...header } = out.model;
  return { header, coef: r.arrays[out.coef.array] };
}

// 24,000 rows × 48 columns are 9.2 MB of X: two chunks of at most 8 MiB
// (protocol.ChunkBytes), scheduled on two workers.
const rows = 24_000;
const cols = 48;
const X = randomMatrix(rows, cols, 11);
const classes = Array.from({ length: rows }, (_, i) => (X.data[i * cols] + X.data[i * cols + 1] > 0 ? 1 : 0) + (X.data[i * cols + 2] > 0.5 ? 1 : 0));
const values = Array.from({ length: rows }, (_, i) => Math.sin(3 * X.data[i * cols]) + X.data[i * cols + 1] ** 2);

for (const [name, y, options] of [
  ['classification, held-out λ', classes, { task: 'classification', features: { dim: 64, depth: 1, seed: 4 }, preprocess: {} }],
  ['regression, GCV, bias', values, { task: 'regression', features: { dim: 48, depth: 2, seed: 4 }, preprocess: { bias: 1 } }],
  ["classification, 'auto' depth and preprocessing (select on both workers, then the settled plan)", classes,
    { task: 'classification', features: { dim: 32, seed: 4 }, search: { rows: 300, depths: [1, 2] } }],
]) {
  test(`fitRidge over chunks and workers is pipeline.Fit in one call, bit for bit: ${name}`, { timeout: 300_000 }, async () => {
    const model = await eng.fitRidge(X, y, options);
    const want = await oneCall(X, y, options);
    const file = model.toJSON();
    const { coef, train: _t, ...header } = file;
    assert.deepEqual(header, want.header, 'the model header (λ, scaler, selection)');
    assert.equal(bits(Float64Array.from(coef.data)), bits(want.coef), 'the coefficients');
  });
}

// A fit's parts stay in the workers that made them until the solve
// (fitPart's keep): none is left behind by a fit, nor by a fit cancelled
// while its parts were being made, and the next fit has the same bits.
test('the parts a fit keeps in its workers are gone after the fit, and after a cancelled fit', { timeout: 300_000 }, async () => {
  const options = { task: 'classification', features: { dim: 64, depth: 1, seed: 4 }, preprocess: {} };
  const kept = async () => (await eng.stats()).workers.map((w) => w.keptParts);
  const first = await eng.fitRidge(X, classes, options);
  assert.deepEqual(await kept(), [0, 0], 'after a fit');
  const ac = new AbortController();
  const cancelled = eng.fitRidge(X, classes, { ...options, signal: ac.signal, onProgress: (p) => p.stage === 'features' && p.done > 0 && ac.abort() });
  await assert.rejects(cancelled, (e) => e.code === 'ERR_ABORTED');
  assert.deepEqual(await kept(), [0, 0], 'after a cancelled fit');
  const again = await eng.fitRidge(X, classes, options);
  assert.equal(bits(Float64Array.from(again.toJSON().coef.data)), bits(Float64Array.from(first.toJSON().coef.data)), 'the next fit');
});

// A worker restarts when a call on it is cancelled, and the part it kept
// for a fit is then gone. Here the page's own call, queued while both
// workers make the fit's parts, runs on the worker that finishes first and
// is cancelled there, before that worker sends its part: the fit makes its
// parts again as wire forms and ends with the bits of the one-call fit.
test('a fit whose worker restarts between its steps (another call cancelled there) makes its parts again, same bits', { timeout: 300_000 }, async () => {
  const options = { task: 'classification', features: { dim: 64, depth: 1, seed: 4 }, preprocess: {} };
  const want = await oneCall(X, classes, options);
  const big = randomMatrix(4000, cols, 3);
  let other;
  const ac = new AbortController();
  const model = await eng.fitRidge(X, classes, {
    ...options,
    onProgress: (p) => {
      if (other || p.stage !== 'features' || !(p.done > 0)) return;
      other = eng.features(big, { dim: 4096, signal: ac.signal, onProgress: () => ac.abort() });
      other.catch(() => {});
    },
  });
  await assert.rejects(other, (e) => e.code === 'ERR_ABORTED', 'the other call was cancelled on its worker');
  assert.equal(bits(Float64Array.from(model.toJSON().coef.data)), bits(want.coef), 'the coefficients');
  assert.deepEqual((await eng.stats()).workers.map((w) => w.keptParts), [0, 0], 'nothing kept after');
});

// The method left open too: on 600 rows 'auto' fits the exact kernel and
// scores the RBF candidates besides the depths. Every worker scores with
// the plan decoded from its bytes, which must be the plan that was made
// (a decoded open plan once lost the method and the RBF candidates, and
// the package's selection named no method).
test("fitRidge with no method is pipeline.Fit in one call, bit for bit: 'auto' method, exact kernel chosen", { timeout: 300_000 }, async () => {
  const n = 600;
  const Xs = randomMatrix(n, 6, 5);
  const ys = Array.from({ length: n }, (_, i) => (Xs.data[i * 6] * Xs.data[i * 6 + 1] > 0 ? 1 : 0));
  const options = { task: 'classification', search: { rows: 300 } };
  const seen = [];
  const model = await eng.fitRidge(Xs, ys, { ...options, onProgress: (p) => p.stage === 'select' && seen.push(p) });
  const want = await oneCall(Xs, ys, options);
  const { coef, train, ...header } = model.toJSON();
  // The screen (150 of the 300 rows) is split between the two workers,
  // then the candidates it keeps: one count over both rounds, every
  // candidate screened once and the kept ones scored once more (a worker
  // that scored the whole screen itself counted it twice).
  const sel = header.selection;
  const keptRows = sel.candidates.filter((c) => c.rows === sel.rows).length;
  assert.equal(sel.screen, 150, 'the selection screens');
  assert.ok(seen.length > 0 && seen.every((p) => p.total === sel.candidates.length + keptRows), `select's total ${seen.map((p) => p.total)}; want ${sel.candidates.length} + ${keptRows}`);
  assert.ok(seen.every((p, i) => i === 0 || p.done >= seen[i - 1].done), 'the count never runs backwards');
  assert.equal(seen.at(-1).done, seen.at(-1).total, 'the count ends full');
  assert.equal(header.selection.method, 'kernel', 'the selection says what the method was');
  assert.ok(header.selection.candidates.some((c) => c.kernel === 'rbf'), 'the RBF candidates were scored');
  assert.deepEqual(header, want.header, 'the model header (λ, scaler, selection)');
  assert.equal(bits(Float64Array.from(coef.data)), bits(want.coef), 'the coefficients');
  assert.ok(train, 'a kernel model keeps its training rows');
});
