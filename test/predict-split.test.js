// Model.predict and predictScores of many rows are split over the pool's
// workers (blocks of rows by the core's rule: Engine.limits.minBlockRows,
// chunkBytes; rows.js rowBlocks), each block on its own worker, and joined
// in row order: the labels and scores are the same bits on 1, 2 and 4
// workers, for random-feature models (float32 and float64 features, two
// and three classes, regression) and an exact-kernel model, with a row
// count no worker count divides (blocks of uneven sizes, so the SIMD
// kernels' row tails differ between the splits), and a model.score on
// them gives the same figures.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { pkg, randomMatrix } from './helpers.js';

const { createEngine } = await import(pkg);

const engines = new Map();
after(() => { for (const e of engines.values()) e.close(); });
const engine = async (workers) => {
  if (!engines.has(workers)) engines.set(workers, await createEngine({ workers }));
  return engines.get(workers);
};

const bits = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');

test('predict of many rows: the same bits on 1, 2 and 4 workers, blocks joined in row order', { timeout: 300_000 }, async () => {
  const cols = 6;
  const X = randomMatrix(900, cols, 11);
  const label3 = Float64Array.from({ length: 900 }, (_, i) => (X.data[i * cols] > 0.3 ? 2 : X.data[i * cols + 1] > 0 ? 1 : 0));
  const label2 = Float64Array.from(label3, (v) => (v > 0 ? 1 : 0));
  const value = Float64Array.from({ length: 900 }, (_, i) => Math.sin(3 * X.data[i * cols]) + X.data[i * cols + 1] ** 2);
  const fits = {
    'features float32, 3 classes': [label3, { task: 'classification', features: { dim: 256, depth: 2, seed: 3 } }],
    'features float64, 2 classes': [label2, { task: 'classification', features: { dim: 256, seed: 4, precision: 'float64' } }],
    'features, regression': [value, { task: 'regression', features: { dim: 128, seed: 5 } }],
    'exact kernel, 3 classes': [label3, { task: 'classification', kernel: { kernel: 'ntk', depth: 2 } }],
  };
  // More rows than minBlockRows per worker at 4 workers, and a count none of 2, 3, 4 divides.
  const one = await engine(1);
  const rows = 4 * one.limits.minBlockRows + 37;
  const Xt = randomMatrix(rows, cols, 12);
  const yt = Float64Array.from({ length: rows }, (_, i) => (Xt.data[i * cols] > 0.3 ? 2 : Xt.data[i * cols + 1] > 0 ? 1 : 0));
  for (const [name, [y, options]] of Object.entries(fits)) {
    // One model file, loaded into every engine: only the split differs.
    const file = JSON.stringify(await one.fitRidge(X, y, { lambda: 1e-3, ...options }));
    let first = null;
    for (const workers of [1, 2, 4]) {
      const model = await (await engine(workers)).loadModel(file);
      const labels = await model.predict(Xt);
      const S = await model.predictScores(Xt);
      assert.equal(labels.length, rows, `${name}, ${workers} workers: one label per row`);
      assert.equal(S.rows, rows);
      const got = { labels: bits(labels), scores: bits(S.data), score: options.task === 'classification' ? (await model.score(Xt, name.includes('2 classes') ? Float64Array.from(yt, (v) => (v > 0 ? 1 : 0)) : yt)).accuracy : null };
      if (!first) first = got;
      else assert.deepEqual(got, first, `${name}: ${workers} workers give the bits of one`);
      model.dispose();
    }
    // Row order: the last block's rows are the last rows (a row predicted alone is the same as in the split).
    const model = await (await engine(4)).loadModel(file);
    const tail = await model.predictScores({ rows: 3, cols, data: Xt.data.slice((rows - 3) * cols) });
    const all = await model.predictScores(Xt);
    assert.equal(bits(tail.data), bits(all.data.slice((rows - 3) * all.cols)), `${name}: the last rows' scores are at the end, the same bits alone`);
    model.dispose();
  }
});

test('predictCSV of many rows: read in one worker, predicted in blocks over every worker; the same names on 1, 2 and 4 workers as predict of the parsed rows', { timeout: 300_000 }, async () => {
  const one = await engine(1);
  const rows = 4 * one.limits.minBlockRows + 37;
  const X = randomMatrix(rows + 300, 3, 21);
  const line = (i) => `${X.data[3 * i]},${X.data[3 * i + 1]},${X.data[3 * i + 2]},${X.data[3 * i] > 0.2 ? 'high' : X.data[3 * i + 1] > 0 ? 'mid' : 'low'}`;
  const csv = (lo, hi) => `a,b,c,level\n${Array.from({ length: hi - lo }, (_, i) => line(lo + i)).join('\n')}\n`;
  const ds = await one.parseCSV(csv(0, 300));
  const file = JSON.stringify(await one.fitRidge(ds, { features: { dim: 128, seed: 7 }, lambda: 1e-3 }));
  const text = csv(300, 300 + rows);
  const parsed = await one.parseCSV(text);
  let first = null;
  for (const workers of [1, 2, 4]) {
    const eng = await engine(workers);
    const model = await eng.loadModel(file);
    const stages = new Set();
    const names = await model.predictCSV(text, { onProgress: (p) => stages.add(p.stage) });
    assert.equal(names.length, rows);
    assert.deepEqual(names, model.classNames(await model.predict(parsed.X)), `${workers} workers: predictCSV's names are predict's of the parsed rows`);
    assert.ok(stages.has('parse') && stages.has('predict'), `progress names both stages (${[...stages]})`);
    first ??= names;
    assert.deepEqual(names, first, `${workers} workers give the names of one`);
    model.dispose();
  }
});
