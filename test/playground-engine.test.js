// Engine.playground (Go's core/playground through the bridge's playground
// op): the three models of the lab's playground in one call give exactly
// the scores of fitRidge then predictScores (the path the lab used
// before), on 1, 2 and 4 workers; a call that changes one model's
// settings fits that model alone; bad calls are the engine's errors.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { pkg, randomMatrix } from './helpers.js';

const { createEngine } = await import(pkg);

const engines = [];
after(() => { for (const e of engines) e.close(); });

/** n points in ±1.2 with two classes by a wavy boundary. */
function points(n, seed) {
  const X = randomMatrix(n, 2, seed);
  for (let i = 0; i < X.data.length; i++) X.data[i] = 2.4 * (X.data[i] - Math.floor(X.data[i])) - 1.2;
  const y = Float64Array.from({ length: n }, (_, i) => (X.data[2 * i + 1] > 0.5 * Math.sin(3 * X.data[2 * i]) ? 1 : 0));
  return { X, y };
}

/** The g×g grid over ±1.5 (surface.js gridPoints' order). */
function grid(g) {
  const data = new Float64Array(2 * g * g);
  for (let r = 0; r < g; r++) {
    for (let c = 0; c < g; c++) {
      data[2 * (r * g + c)] = -1.5 + ((c + 0.5) * 3) / g;
      data[2 * (r * g + c) + 1] = 1.5 - ((r + 0.5) * 3) / g;
    }
  }
  return { rows: g * g, cols: 2, data };
}

const models = (depth, m) => [
  { kernel: { kernel: 'ntk', depth } },
  { features: { method: 'ntk', dim: m, depth, seed: 1 } },
  { kernel: { kernel: 'rbf', gamma: 10 } },
];
const shared = (lambda) => ({ lambda, task: 'classification', classes: 2, preprocess: { standardize: true, unitNorm: false, bias: 1 } });

/** The same scores by fitRidge and predictScores, one model at a time. */
async function oldPath(engine, X, y, ms, opts, P) {
  const out = [];
  for (const m of ms) {
    const model = await engine.fitRidge(X, y, { ...m, ...opts });
    out.push({ lambda: model.lambda, scores: await model.predictScores(P) });
    model.dispose();
  }
  return out;
}

test('playground: the scores of fitRidge and predictScores, bit for bit, on 1, 2 and 4 workers; one model refitted per moved setting', { timeout: 300_000 }, async () => {
  const { X, y } = points(120, 3);
  const test = points(60, 4).X;
  const P = grid(24);
  for (const workers of [1, 2, 4]) {
    const engine = await createEngine({ workers });
    engines.push(engine);
    for (const [depth, m, lambda] of [[1, 256, 0.01], [1, 512, 0.01], [2, 512, 0.01], [2, 512, 0.1], [2, 512, 'auto']]) {
      const r = await engine.playground(X, y, { models: models(depth, m), points: [test, P], ...shared(lambda) });
      const want = await oldPath(engine, X, y, models(depth, m), shared(lambda), P);
      assert.equal(r.surfaces.length, 3);
      for (const [i, s] of r.surfaces.entries()) {
        assert.equal(s.lambda, want[i].lambda, `${workers} workers, L ${depth}, m ${m}, λ ${lambda}: model ${i}'s λ`);
        assert.deepEqual(s.scores[1].data, want[i].scores.data, `${workers} workers, L ${depth}, m ${m}, λ ${lambda}: model ${i}'s grid scores`);
        assert.equal(s.scores[0].rows, test.rows);
      }
    }
    // A second lane (another worker, its own models) gives the same bits.
    if (workers > 1) {
      const a = await engine.playground(X, y, { models: models(2, 256), points: [P], ...shared(0.03) });
      const b = await engine.playground(X, y, { models: models(2, 256), points: [P], lane: 1, ...shared(0.03) });
      for (const [i, s] of a.surfaces.entries()) assert.deepEqual(b.surfaces[i].scores[0].data, s.scores[0].data, `${workers} workers: lane 1, model ${i}`);
    }
    // On one worker every call lands on the worker that keeps the models:
    // moving m refits the features alone; the same call again fits nothing.
    if (workers === 1) {
      const a = await engine.playground(X, y, { models: models(1, 512), points: [P], ...shared(0.05) });
      const b = await engine.playground(X, y, { models: models(1, 1024), points: [P], ...shared(0.05) });
      assert.equal(b.fits - a.fits, 1, 'a new m refits the random features alone');
      assert.deepEqual(b.surfaces.map((s) => s.reused), [true, false, true]);
      const c = await engine.playground(X, y, { models: models(1, 1024), points: [P], ...shared(0.05) });
      assert.equal(c.fits, b.fits, 'the same settings again fit nothing');
      assert.deepEqual(c.surfaces.map((s) => s.computed), [0, 0, 0]);
      const d = await engine.playground(X, y, { models: models(1, 1024), points: [P], ...shared(0.2) });
      assert.equal(d.fits - c.fits, 3, 'a new λ refits the three');
      assert.equal(d.bases, c.bases, "but keeps the grid's kernels and features");
    }
  }
});

test('playground: bad calls are the engine\'s errors', async () => {
  const engine = await createEngine({ workers: 1 });
  engines.push(engine);
  const { X, y } = points(20, 5);
  const call = (o) => engine.playground(X, y, { models: models(1, 64), ...shared(0.01), ...o });
  await assert.rejects(call({ models: [] }), { code: 'ERR_OPTION' });
  await assert.rejects(call({ lane: 1 }), { code: 'ERR_OPTION' }, 'one worker: lane 0 only');
  await assert.rejects(call({ lambda: -1 }), { code: 'ERR_OPTION' });
  await assert.rejects(call({ models: [{ features: { dims: 8 } }] }), { code: 'ERR_UNKNOWN_OPTION' });
  await assert.rejects(call({ points: [{ rows: 2, cols: 3, data: new Float64Array(6) }] }), { code: 'ERR_SHAPE' });
  await assert.rejects(engine.playground(X, y.subarray(1), { models: models(1, 64) }), { code: 'ERR_SHAPE' });
  await assert.rejects(call({ models: [{ features: { dim: 8 }, kernel: { kernel: 'rbf' } }] }), { code: 'ERR_OPTION' });
  // The engine still answers.
  const r = await call({ points: [grid(4)] });
  assert.equal(r.surfaces[0].scores[0].rows, 16);
});
