// The lab's pure modules under Node: CSV export round-trips doubles, the
// heatmap sample and the preprocessing follow their definitions, and the
// URL hash is validated. The page itself is tested in browser.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, rng } from './helpers.js';

const lab = (name) => import(pathToFileURL(path.join(root, 'www', 'lab', name)).href);
const { toCSV, sampleRows, prepare, takeRows } = await lab('data.js');

/** Splits the simple CSV toCSV writes (quoted cells hold no line breaks here). */
function cells(line) {
  const out = [];
  let cell = '', quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted && c === '"' && line[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) { out.push(cell); cell = ''; } else cell += c;
  }
  out.push(cell);
  return out;
}

test('toCSV writes doubles that parse back to the same bits, and quotes text', () => {
  const r = rng(7);
  const values = [0.1 + 0.2, 1 / 3, 5e-324, 1.7976931348623157e308, -2.5e-17, 123456789.123456789, ...Array.from({ length: 200 }, () => (r() - 0.5) * 10 ** Math.floor(r() * 40 - 20))];
  const text = toCSV(['x'], values.map((v) => [v]));
  const back = text.trim().split('\n').slice(1).map(Number);
  assert.deepEqual(back, values);

  const tricky = ['a,b', 'say "hi"', ' padded ', '<img src=x onerror=alert(1)>', 'plain'];
  const lines = toCSV(tricky, [tricky]).trim().split('\n');
  assert.deepEqual(cells(lines[0]), tricky);
  assert.deepEqual(cells(lines[1]), tricky);
});

test('sampleRows keeps all rows up to the limit, sorted by target, evenly spread beyond it', () => {
  const y = Float64Array.from([2, 0, 1, 0, 2, 1]);
  assert.deepEqual(sampleRows(y, 10), [1, 3, 2, 5, 0, 4]);
  const big = Float64Array.from({ length: 1000 }, (_, i) => i % 3);
  const s = sampleRows(big, 200);
  assert.equal(s.length, 200);
  assert.equal(new Set(s).size, 200, 'no row twice');
  for (let i = 1; i < s.length; i++) assert.ok(big[s[i - 1]] <= big[s[i]], 'sorted by target');
  // Classes are equally frequent, so each gets a third of the sample (±1 from rounding).
  for (const c of [0, 1, 2]) assert.ok(Math.abs(s.filter((i) => big[i] === c).length - 200 / 3) <= 1);
});

test('prepare imputes means, standardizes with the population deviation, scales rows to unit norm', () => {
  const X = { rows: 4, cols: 3, data: Float64Array.from([1, 5, 2, 3, NaN, 2, 5, 7, 2, 7, 6, 2]) };
  const copy = Float64Array.from(X.data);
  const P = prepare(X, { standardize: false, unitNorm: false });
  assert.deepEqual(Array.from(P.data), [1, 5, 2, 3, 6, 2, 5, 7, 2, 7, 6, 2], 'NaN becomes the column mean (5+7+6)/3');
  assert.deepEqual(X.data, copy, 'input not modified');

  const S = prepare(X, { standardize: true, unitNorm: false });
  const tol = 1e-15; // a few roundings of values of order 1
  for (let j = 0; j < 2; j++) {
    const col = [0, 1, 2, 3].map((i) => S.data[i * 3 + j]);
    const mean = col.reduce((a, b) => a + b) / 4;
    const variance = col.reduce((a, b) => a + (b - mean) ** 2, 0) / 4;
    assert.ok(Math.abs(mean) < tol && Math.abs(variance - 1) < 4 * tol, `column ${j}: mean ${mean}, variance ${variance}`);
  }
  assert.deepEqual([0, 1, 2, 3].map((i) => S.data[i * 3 + 2]), [0, 0, 0, 0], 'a constant column is centred, not divided');

  const U = prepare(X, { standardize: true, unitNorm: true });
  for (let i = 0; i < 4; i++) {
    const norm = Math.hypot(...U.data.subarray(i * 3, i * 3 + 3));
    assert.ok(Math.abs(norm - 1) < 4 * tol, `row ${i} norm ${norm}`);
  }
  assert.deepEqual(Array.from(takeRows(P, [3, 0]).data), [7, 6, 2, 1, 5, 2]);
});

test('the URL hash: defaults omitted, valid values restored, invalid ones reported', async () => {
  let hash = '';
  globalThis.location = { get hash() { return hash; }, pathname: '/', search: '' };
  globalThis.history = { replaceState: (_s, _t, url) => { hash = url.startsWith('#') ? url : ''; } };
  const { readHash, writeHash, defaults, valid } = await lab('state.js');
  writeHash(defaults());
  assert.equal(hash, '', 'defaults need no hash');
  writeHash({ ...defaults(), depth: 3, seed: 42, method: 'rff', target: 'a b&c', exact: false });
  assert.deepEqual(readHash(), { state: { ...defaults(), depth: 3, seed: 42, method: 'rff', target: 'a b&c', exact: false }, rejected: [] });
  hash = '#depth=9&logm=12&method=svm&seed=-1&std=yes&bogus=1';
  const { state, rejected } = readHash();
  assert.equal(state.logm, 12);
  assert.equal(state.depth, defaults().depth);
  assert.deepEqual(rejected, ['depth', 'method', 'seed', 'std', 'bogus']);
  assert.equal(valid('depth', 5), true);
  assert.equal(valid('depth', 6), false);
  assert.equal(valid('seed', 1.5), false);
});
