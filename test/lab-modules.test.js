// The lab's pure modules under Node: CSV export round-trips doubles and
// neutralises formulas, the heatmap sample and the preprocessing follow
// their definitions, the URL hash is validated and rejected values are
// reported, and engine errors are worded with the page's controls. The page
// itself is tested in browser.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, rng, parseCSV } from './helpers.js';

const lab = (name) => import(pathToFileURL(path.join(root, 'www', 'lab', name)).href);
const { sampleRows, prepare, takeRows, summarizeList } = await lab('data.js');
const { toCSV, csvField } = await lab('csv.js');
const { explain, linkNotice, controlFor } = await lab('messages.js');
const { topConfusions } = await lab('charts.js');
const { short } = await lab('heatmap.js');

test('toCSV writes doubles that parse back to the same bits, negative ones as numbers', () => {
  const r = rng(7);
  const values = [0.1 + 0.2, 1 / 3, 5e-324, 1.7976931348623157e308, -2.5e-17, -1, -0, 123456789.123456789, ...Array.from({ length: 200 }, () => (r() - 0.5) * 10 ** Math.floor(r() * 40 - 20))];
  const text = toCSV(['x'], values.map((v) => [v]));
  const back = text.trim().split('\n').slice(1).map(Number);
  assert.deepEqual(back, values.map((v) => (Object.is(v, -0) ? 0 : v)));
  assert.ok(!text.includes("'"), 'numbers are never prefixed');
  assert.equal(csvField(null), '', 'a missing value is an empty field');
  assert.equal(csvField(undefined), '');
});

test('toCSV neutralises text a spreadsheet would run as a formula (OWASP) and quotes per RFC 4180', () => {
  // Class labels and column names as a hostile file could carry them.
  const hostile = ['=HYPERLINK("http://x","click")', '+1+cmd|\' /C calc\'!A0', '-2+3', '@SUM(A1:A9)', '\tTAB', '\rCR', ' =1+1', '=a,b;c'];
  const safe = ['plain', 'a,b', 'say "hi"', ' padded ', 'two\nlines', 'semi;colon', '<img src=x onerror=alert(1)>', '-1', '+2.5e3', '-.5', 'e=mc2', ''];
  const rows = parseCSV(toCSV([...hostile, ...safe], [[...hostile, ...safe]]));
  assert.equal(rows.length, 2, 'line breaks inside fields are quoted');
  for (const row of rows) {
    assert.deepEqual(row.slice(0, hostile.length), hostile.map((s) => `'${s}`), 'formula text gets a leading quote');
    assert.deepEqual(row.slice(hostile.length), safe, 'other text (plain numbers written as text included) is kept as it is');
  }
  for (const s of hostile) {
    const f = csvField(s);
    assert.ok(f.startsWith('"\''), `${JSON.stringify(s)} is written quoted with a leading ': ${f}`);
  }
  assert.equal(csvField('semi;colon'), '"semi;colon"', "';' is quoted: spreadsheets in decimal-comma locales split at it");
  assert.equal(csvField(-3.5), '-3.5');
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
  assert.deepEqual(prepare(X, { standardize: true, unitNorm: true }, [3, 0]), takeRows(U, [3, 0]), 'rows idx with the statistics of all rows');
});

test('prepare standardizes values near 1e200 without overflowing', () => {
  // Σ(v − mean)² of such values is +Inf in floating point: every column would become 0.
  const X = { rows: 4, cols: 2, data: Float64Array.from([1e200, 1, 3e200, 2, 5e200, 3, 7e200, 4]) };
  const S = prepare(X, { standardize: true, unitNorm: false });
  const z = [-3, -1, 1, 3].map((v) => v / Math.sqrt(5)); // (x − 4)/√5 for x = 1, 3, 5, 7
  const tol = 1e-15;
  [0, 1].forEach((j) => z.forEach((v, i) => assert.ok(Math.abs(S.data[i * 2 + j] - v) < tol, `column ${j} row ${i}: ${S.data[i * 2 + j]} ≠ ${v}`)));
  const U = prepare({ rows: 1, cols: 2, data: Float64Array.from([3e300, 4e300]) }, { standardize: false, unitNorm: true });
  assert.deepEqual(Array.from(U.data), [0.6, 0.8]);
});

test('prepare scales a row wider than a call takes arguments', () => {
  // Math.hypot(...row) throws "Maximum call stack size exceeded" at this width.
  const cols = 300_000;
  const X = { rows: 1, cols, data: new Float64Array(cols).fill(2) };
  const U = prepare(X, { standardize: false, unitNorm: true });
  assert.ok(Math.abs(U.data[0] - 1 / Math.sqrt(cols)) < 1e-15);
});

test('the URL hash: defaults omitted, valid values restored, rejected values reported with what was expected', async () => {
  let hash = '';
  globalThis.location = { get hash() { return hash; }, pathname: '/', search: '' };
  globalThis.history = { replaceState: (_s, _t, url) => { hash = url.startsWith('#') ? url : ''; } };
  const { readHash, writeHash, defaults, valid } = await lab('state.js');
  writeHash(defaults());
  assert.equal(hash, '', 'defaults need no hash');
  writeHash({ ...defaults(), depth: 3, seed: 42, method: 'rff', target: 'a b&c', exact: false });
  assert.deepEqual(readHash(), { state: { ...defaults(), depth: 3, seed: 42, method: 'rff', target: 'a b&c', exact: false }, rejected: [] });
  hash = '#depth=9&logm=12&method=svm&seed=-1&std=yes&bogus=1&test=33&constructor=1&__proto__=x';
  const { state, rejected } = readHash();
  assert.equal(state.logm, 12);
  assert.equal(state.depth, defaults().depth);
  assert.deepEqual(rejected.map((r) => [r.key, r.value, r.known]), [
    ['depth', '9', true], ['method', 'svm', true], ['seed', '-1', true], ['std', 'yes', true],
    ['bogus', '1', false], ['test', '33', true], ['constructor', '1', false], ['__proto__', 'x', false],
  ]);
  assert.equal(rejected[0].expected, 'a whole number from 1 to 5');
  assert.equal(rejected[5].expected, 'a multiple of 5 from 10 to 50', 'the test share moves in the slider\'s steps');
  assert.equal(valid('depth', 5), true);
  assert.equal(valid('depth', 6), false);
  assert.equal(valid('seed', 1.5), false);
  assert.equal(valid('test', 35), true);
  assert.equal(valid('test', 33), false);
  assert.equal(valid('constructor', 1), false);

  const notice = linkNotice(rejected, state);
  assert.match(notice, /depth=“9” is not a whole number from 1 to 5; using “1”/);
  assert.match(notice, /test=“33” is not a multiple of 5 from 10 to 50; using “30”/);
  assert.match(notice, /std=“yes” is not 1 or 0; using “1”/);
  assert.match(notice, /“bogus” is not a setting of this page/);
  assert.equal(linkNotice([], state), '', 'nothing to say for a clean link');
});

test('engine errors name the page control to change, and drop advice the page cannot follow', () => {
  const err = (Class, message, code, option) => Object.assign(new Class(message), code ? { code } : {}, option ? { option } : {});
  const dim = explain(err(RangeError, 'fitRidge: features.dim must be an integer in 1…16777216, got 0', 'ERR_OPTION', 'features.dim'));
  assert.equal(dim.text, 'Features m must be an integer in 1…16777216, got 0; change Features m');
  assert.equal(dim.control.id, 'dim');
  for (const [option, id] of [['target', 'target'], ['features.depth', 'depth'], ['kernel.depth', 'depth'], ['features.seed', 'seed'], ['testFraction', 'testfrac'], ['k', 'kfolds'], ['preprocess.unitNorm', 'unitnorm'], ['features.sampler', 'sampler']]) {
    assert.equal(controlFor(option)?.id, id, option);
  }
  assert.equal(controlFor('groups'), null, 'groups come from the file');
  const classes = explain(err(RangeError, 'fitRidge: classes must be an integer in 2…10000, got 1', 'ERR_OPTION', 'classes'));
  assert.equal(classes.text, 'classes must be an integer in 2…10000, got 1; change Target', 'the page counts the classes of its Target');

  const lambda = explain(err(RangeError, 'fitRidge: lambda must be a positive finite number or "auto", got -1', 'ERR_OPTION', 'lambda'));
  assert.match(lambda.text, /λ is chosen automatically here/);
  assert.doesNotMatch(explain(err(Error, 'krr: no λ in the grid gave a finite score; use a grid of larger λ or set Lambda')).text, /Lambda|grid of/, 'advice about options the page lacks is dropped');
  assert.equal(explain(err(Error, 'krr: no λ in the grid gave a finite score; use a grid of larger λ or set Lambda'), { fallback: 'try Standardize columns' }).text,
    'no λ in the grid gave a finite score; try Standardize columns', 'and replaced by advice the page can follow');
  const big = explain(err(RangeError, 'parseCSV: the input is 300 MB, over the 256 MB limit; raise maxBytes or use a sample of the rows', 'ERR_TOO_LARGE', 'maxBytes'), { where: 'load' });
  assert.doesNotMatch(big.text, /maxBytes/);
  assert.match(big.text, /smaller file/);
  const id = 'parseCSV: column 1 ("id") has 300 distinct text values in 300 rows: an identifier or free text, which one-hot encoding cannot use; remove the column or choose it as the target';
  assert.match(explain(new Error(id), { where: 'load' }).text, /cannot use; remove the column$/, 'a new file has no Target to choose yet');
  assert.match(explain(new Error(id), { where: 'run' }).text, /choose it as the target$/);

  // Without code or option the message is shown, less the method prefixes.
  assert.equal(explain(new Error('parseCSV: line 4: expected 5 fields, found 3')).text, 'line 4: expected 5 fields, found 3');
  assert.equal(explain('a plain string').text, 'a plain string');
  assert.equal(explain(new DOMException('stopped', 'AbortError')), null, 'aborts are not errors');
  assert.equal(explain(err(Error, 'x', 'ERR_ABORTED')), null);
  assert.match(explain(err(Error, 'fitRidge: the WebAssembly instance ran out of memory during this call and was restarted; use fewer rows or a smaller dim', 'ERR_INSTANCE')).text, /restarted; a smaller Features m or a smaller file/);
});

test('summaries stay short for many classes', () => {
  const labels = Array.from({ length: 1000 }, (_, i) => `c${i}`);
  assert.equal(summarizeList(labels.slice(0, 3)), 'c0, c1, c2');
  assert.equal(summarizeList(labels, 3), 'c0, c1, c2 … and 997 more');
  // A 1000-class confusion matrix: the diagonal right, a few pairs confused.
  const M = labels.map((_, i) => labels.map((__, j) => (i === j ? 5 : 0)));
  M[7][9] = 4; M[3][2] = 2; M[500][1] = 3;
  const top = topConfusions(M, labels, 2);
  assert.deepEqual(top.map((p) => [p.trueClass, p.predicted, p.count]), [['c7', 'c9', 4], ['c500', 'c1', 3]]);
  assert.ok(Math.abs(top[0].share - 4 / 9) < 1e-15);
});

test('labels of undefined values are a dash, not a crash', () => {
  // The engine encodes non-finite results (a criterion at a singular λ) as null.
  assert.equal(short(null), '—');
  assert.equal(short(NaN), '—');
  assert.equal(short(Infinity), '∞');
  assert.equal(short(-0.000123), '-1.2e-4');
});
