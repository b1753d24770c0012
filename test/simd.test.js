// WebAssembly SIMD: ntkrf.wasm is built with it, and engines without it
// get an error naming the versions needed instead of a CompileError; the
// hand-written SIMD kernels (kernels.wasm) give the Go kernels' bits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pkg, root, rng, randomMatrix } from './helpers.js';

const { createEngine } = await import(pkg);

test('an engine without WebAssembly SIMD gets an error naming the minimum versions', async () => {
  const validate = WebAssembly.validate;
  // The probe is the only module validated before compiling: reject it as
  // an engine without SIMD would.
  WebAssembly.validate = () => false;
  try {
    // The Node version is the package's engines (test/docs.test.js ties the README to it too).
    const node = /^>=(\d+)$/.exec(JSON.parse(readFileSync(path.join(root, 'www', 'pkg', 'package.json'), 'utf8')).engines.node)[1];
    await assert.rejects(createEngine({ workers: 1 }), new RegExp(`lacks WebAssembly SIMD.*Chrome or Edge 91, Firefox 89, Safari 16\\.4, or Node\\.js ${node} `));
  } finally {
    WebAssembly.validate = validate;
  }
  const eng = await createEngine({ workers: 1 });
  try {
    const K = await eng.kernel({ rows: 1, cols: 2, data: Float64Array.from([3, 4]) }, null, { kernel: 'nngp', depth: 1 });
    assert.equal(K.data[0], 25);
  } finally {
    eng.close();
  }
});

// The hand-written kernels (kernels.wasm, from wasm/kernels/gram32.wat):
// gram32 against the float32 arithmetic it must reproduce, in JavaScript
// (Math.fround: each product and sum rounded to float32, each entry from
// zero in increasing row order, then added to g in float64), bit for bit.
test('kernels.wasm gram32 gives the float32 Gram bits of the Go kernels', async () => {
  const bytes = readFileSync(path.join(path.dirname(pkg), 'kernels.wasm'));
  const memory = new WebAssembly.Memory({ initial: 256 });
  const { instance } = await WebAssembly.instantiate(bytes, { env: { memory } });
  const r = rng(41);
  for (const [k, m] of [[1, 1], [3, 5], [4, 48], [7, 50], [13, 97], [64, 130], [256, 200], [100, 449]]) {
    // The block as linalg's pack32 lays it out: panels of 16 columns, k rows each.
    const np = 3 * Math.ceil(m / 48);
    const A = Float32Array.from({ length: k * m }, () => r() * 4 - 2);
    const packAt = 1024;
    const pack = new Float32Array(memory.buffer, packAt, np * k * 16);
    for (let p = 0; p < np; p++) {
      for (let l = 0; l < k; l++) for (let c = 0; c < 16 && p * 16 + c < m; c++) pack[(p * k + l) * 16 + c] = A[l * m + p * 16 + c];
    }
    const gAt = packAt + pack.byteLength + 64;
    const g = new Float64Array(memory.buffer, gAt, m * m);
    g.set(Float64Array.from({ length: m * m }, () => r()));
    const g0 = g.slice();
    instance.exports.gram32(k, m, packAt, gAt, gAt + g.byteLength + 64);
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < m; j++) {
        let want = g0[i * m + j];
        if (j >= i) {
          let s = 0;
          for (let l = 0; l < k; l++) s = Math.fround(s + Math.fround(A[l * m + i] * A[l * m + j]));
          want += s;
        }
        if (!Object.is(g[i * m + j], want)) assert.fail(`k=${k} m=${m}: g[${i}, ${j}] = ${g[i * m + j]}, want ${want}`);
      }
    }
  }
});

// The package with the kernels (NTKRF_KERNELS=require: a worker that
// cannot load them fails to start) on 1, 2 and 4 workers and without them
// (NTKRF_KERNELS=go): a primal classification at m = 520, λ searched (the
// two-stage reduction from m = 512: its rank-2k updates on gram64, its
// VᵀA₂₂ on rect64, the chase's Q₂ on the held-out bracket on chase64; the
// Cholesky on gram64), with float32 features
// (float32 Gram blocks: gram32) and float64 ones (the float64 Gram:
// gram64): the same λ, weights and predictions bit for bit.
test('the kernels give the Go kernels\' bits on 1, 2 and 4 workers', async () => {
  const X = randomMatrix(1300, 6, 41);
  const y = Float64Array.from({ length: 1300 }, (_, i) => (X.data[i * 6] > 0.3 ? 2 : X.data[i * 6 + 1] > 0 ? 1 : 0));
  const Xt = randomMatrix(60, 6, 42);
  const saved = process.env.NTKRF_KERNELS;
  try {
    for (const [precision, cases] of [['float32', [['go', 1], ['require', 1], ['require', 2], ['require', 4]]], ['float64', [['go', 1], ['require', 2]]]]) {
      const runs = [];
      for (const [kernels, workers] of cases) {
        process.env.NTKRF_KERNELS = kernels;
        const eng = await createEngine({ workers });
        try {
          const m = await eng.fitRidge(X, y, { features: { dim: 520, depth: 1, seed: 5, precision }, task: 'classification' });
          runs.push({ name: `${precision}: ${kernels}, ${workers} workers`, lambda: m.lambda, coef: m.toJSON().coef.data, p: await m.predict(Xt) });
        } finally {
          eng.close();
        }
      }
      for (const run of runs.slice(1)) {
        assert.equal(run.lambda, runs[0].lambda, run.name);
        assert.deepEqual(run.coef, runs[0].coef, run.name);
        assert.deepEqual(run.p, runs[0].p, run.name);
      }
    }
  } finally {
    if (saved === undefined) delete process.env.NTKRF_KERNELS;
    else process.env.NTKRF_KERNELS = saved;
  }
});

// mul64 (linalg.Mul's rows, a and b read in place) against the float64
// arithmetic it must reproduce, in JavaScript: each entry from zero in
// increasing inner index, each product and sum rounded; shapes around its
// 4×4 blocks and 128-column strips, and nothing written past c.
test('kernels.wasm mul64 gives mulPortable\'s bits', async () => {
  const bytes = readFileSync(path.join(path.dirname(pkg), 'kernels.wasm'));
  const memory = new WebAssembly.Memory({ initial: 256 });
  const { instance } = await WebAssembly.instantiate(bytes, { env: { memory } });
  const r = rng(43);
  for (const [n, k, m] of [[1, 1, 1], [1, 3, 2], [3, 2, 5], [4, 4, 4], [5, 7, 9], [8, 1, 130], [13, 40, 131], [64, 100, 257], [7, 634, 6]]) {
    const aAt = 1024, bAt = aAt + 8 * n * k + 64, cAt = bAt + 8 * k * m + 64;
    const a = new Float64Array(memory.buffer, aAt, n * k);
    const b = new Float64Array(memory.buffer, bAt, k * m);
    const c = new Float64Array(memory.buffer, cAt, n * m + 4);
    a.set(Float64Array.from({ length: n * k }, () => r() * 4 - 2));
    b.set(Float64Array.from({ length: k * m }, () => (r() * 4 - 2) * 2 ** Math.floor(r() * 40 - 20)));
    c.fill(-7);
    instance.exports.mul64(n, k, m, aAt, bAt, cAt);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < m; j++) {
        let s = 0;
        for (let l = 0; l < k; l++) s += a[i * k + l] * b[l * m + j];
        if (!Object.is(c[i * m + j], s)) assert.fail(`${n}×${k}·${k}×${m}: c[${i}, ${j}] = ${c[i * m + j]}, want ${s}`);
      }
    }
    for (let i = n * m; i < n * m + 4; i++) assert.equal(c[i], -7, `${n}×${k}·${k}×${m}: wrote past c`);
  }
});

// The exact kernel's fit (no features: the λ search's exact leave-one-out
// on ReduceQ, Quad and Mul, the Q and residuals on mul64) with the kernels
// on 1, 2 and 4 workers and without them: the same model bit for bit.
test('the exact-kernel fit with the kernels gives the Go kernels\' bits on 1, 2 and 4 workers', async () => {
  const X = randomMatrix(400, 5, 44);
  const y = Float64Array.from({ length: 400 }, (_, i) => (X.data[i * 5] + X.data[i * 5 + 1] > 0.4 ? 2 : X.data[i * 5 + 2] > 0 ? 1 : 0));
  const Xt = randomMatrix(40, 5, 45);
  const saved = process.env.NTKRF_KERNELS;
  try {
    const runs = [];
    for (const [kernels, workers] of [['go', 1], ['require', 1], ['require', 2], ['require', 4]]) {
      process.env.NTKRF_KERNELS = kernels;
      const eng = await createEngine({ workers });
      try {
        const m = await eng.fitRidge(X, y, { task: 'classification' });
        runs.push({ name: `${kernels}, ${workers} workers`, json: JSON.stringify(m), p: await m.predict(Xt) });
      } finally {
        eng.close();
      }
    }
    for (const run of runs.slice(1)) {
      assert.equal(run.json, runs[0].json, run.name);
      assert.deepEqual(run.p, runs[0].p, run.name);
    }
  } finally {
    if (saved === undefined) delete process.env.NTKRF_KERNELS;
    else process.env.NTKRF_KERNELS = saved;
  }
});
