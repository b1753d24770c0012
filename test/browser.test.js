// The lab page (dist/www) in Chromium, served by dist/bin/serve with its
// strict CSP: no request leaves the local server, no console or page
// errors, and the main user paths work. Screenshots go to test-results/.
// Run after ./build.sh build: node --test --test-concurrency=1 test/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { root, pkg, parseCSV, crossHostDir, CROSSHOST_SKIP, randomMatrix } from './helpers.js';
import { startSite, openLab, colours, idle, TIMEOUT } from './site.js';

const shots = path.join(root, 'test-results');
const testdata = (name) => path.join(root, 'testdata', name);
/** Iris, NTK RF at the defaults (m = 512, 30 % test rows): the floor the brief sets; exact NTK KRR scores about 0.91 on this split. */
const IRIS_ACCURACY_FLOOR = 0.85;
/** Glass: refractive index from the oxides is nearly linear (R² ≈ 0.9 with ridge); 0.5 catches a broken pipeline. */
const GLASS_RI_R2_FLOOR = 0.5;

let site, base, browser, tmp;

before(async () => {
  await mkdir(shots, { recursive: true });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ntkrf-lab-'));
  site = await startSite();
  ({ base, browser } = site);
});

after(async () => {
  await site?.close();
});

/** Opens the lab (site.js openLab). */
const open = (options) => openLab(site, options);
/** A link to iris (opened without a link, the page shows the playground's spiral). */
const IRIS = '#data=iris';

/** Waits for a training result; a failure shown in the alert region fails at once with its text. */
async function trained(page, timeout = TIMEOUT) {
  await page.waitForSelector('#metric-value, #alert:not([hidden])', { timeout });
  if (!(await page.$('#metric-value'))) assert.fail(`the page shows an error: ${await page.textContent('#alert-text')}`);
  return Number(await page.getAttribute('#metric-value', 'data-value'));
}

/** Waits until the page shows name as the loaded data set. */
function sourceIs(page, name, timeout = TIMEOUT) {
  return page.waitForFunction((name) => document.getElementById('source').textContent === `Loaded: ${name}`, name, { timeout });
}

/** Elements in the page: SVG charts of n² cells would make millions. */
const domNodes = (page) => page.evaluate(() => document.getElementsByTagName('*').length);

/** Fails with the alert's text when one shows. */
async function noAlert(page) {
  if (await page.isVisible('#alert')) assert.fail(`the page shows an error: ${await page.textContent('#alert-text')}`);
}

/** Writes a CSV test file: header names, rows from row(i). */
async function csvFile(name, header, n, row) {
  const file = path.join(tmp, name);
  const lines = [header.join(',')];
  for (let i = 0; i < n; i++) lines.push(row(i).join(','));
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

/** Asserts that nothing is wider than the window. */
async function fits(page, width, what) {
  const w = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(w <= width, `${what}: the page is ${w} px wide in a ${width} px window`);
}

async function downloaded(page, button) {
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT }), page.click(button)]);
  return { name: dl.suggestedFilename(), text: await readFile(await dl.path(), 'utf8') };
}

test('loads offline with iris and draws the exact NTK heatmap', { timeout: TIMEOUT }, async () => {
  const { page, context, check } = await open({ hash: IRIS });
  await page.waitForFunction(() => document.getElementById('map-exact').width > 1, null, { timeout: TIMEOUT });
  assert.match(await page.textContent('#source'), /iris\.csv/);
  assert.match(await page.textContent('#facts'), /150/);
  const n = await colours(page, 'map-exact');
  assert.ok(n >= 20, `the exact kernel heatmap has ${n} colours; a drawn 150×150 kernel has many`);
  assert.equal(await page.getAttribute('#map-exact', 'width'), '150');
  await idle(page);
  await page.screenshot({ path: path.join(shots, '01-loaded.png') });
  check();
  await context.close();
});

test('iris: compare, error vs m, train above the accuracy floor, export comparison', { timeout: 2 * TIMEOUT }, async () => {
  const { page, context, check } = await open({ hash: IRIS });
  await page.waitForFunction(() => document.getElementById('map-approx').width > 1, null, { timeout: TIMEOUT });
  assert.ok(await colours(page, 'map-approx') >= 20, 'random-feature heatmap drawn');
  assert.ok(await colours(page, 'map-diff') >= 5, 'difference heatmap drawn');
  const rel = Number(await page.getAttribute('#compare-numbers', 'data-rel'));
  assert.ok(Number.isFinite(rel) && rel > 0 && rel < 1, `relative error at the default m is finite and below 1: ${rel}`);

  await idle(page);
  await page.click('#run-sweep');
  await page.waitForFunction(() => /Error vs m:/.test(document.getElementById('status').textContent), null, { timeout: TIMEOUT });
  const lines = await page.$$eval('#sweep-chart polyline', (ps) => ps.map((p) => p.getAttribute('points')));
  assert.equal(lines.length, 4, 'one line per method');
  for (const l of lines) assert.ok(!/NaN|Infinity/.test(l) && l.split(' ').length === 7, `7 finite points: ${l}`);

  const cmp = await downloaded(page, '#export-compare');
  const rows = parseCSV(cmp.text);
  assert.equal(rows.length, 1 + 1 + 28, 'header, the current comparison, 4 methods × 7 sizes');
  for (const r of rows.slice(1)) {
    const v = r[3];
    assert.ok(Number.isFinite(Number(v)) && String(Number(v)) === v, `relative error ${v} is written at full precision`);
  }

  await page.click('#train');
  const acc = await trained(page);
  assert.ok(acc >= IRIS_ACCURACY_FLOOR, `iris accuracy ${acc} ≥ ${IRIS_ACCURACY_FLOOR}`);
  assert.ok(await page.$$eval('#train-chart rect', (r) => r.length) >= 9, 'a 3×3 confusion matrix');
  assert.ok(await page.$$eval('#lambda-chart polyline', (p) => p.length) === 1, 'the λ curve');
  assert.match(await page.textContent('#train-result'), /Exact NTK/);
  await idle(page);
  await page.screenshot({ path: path.join(shots, '02-iris-trained.png'), fullPage: true });
  check();
  await context.close();
});

test('upload a CSV, pick a regression target, train, export predictions that round-trip', { timeout: TIMEOUT }, async () => {
  const { page, context, check } = await open();
  await page.setInputFiles('#file', testdata('Glass.csv'));
  await page.waitForFunction(() => /Glass\.csv/.test(document.getElementById('source').textContent), null, { timeout: TIMEOUT });
  assert.match(await page.textContent('#facts'), /classification, 6 classes/);
  await page.selectOption('#target', { label: 'RI' });
  await page.waitForFunction(() => /regression/.test(document.getElementById('facts').textContent), null, { timeout: TIMEOUT });
  assert.match(page.url(), /target=RI/, 'the target is in the link');
  await idle(page);
  await page.click('#train');
  const r2 = await trained(page);
  assert.ok(r2 >= GLASS_RI_R2_FLOOR, `R² of RI ${r2} ≥ ${GLASS_RI_R2_FLOOR}`);
  assert.ok(await page.$$eval('#train-chart circle', (c) => c.length) > 20, 'predicted-vs-true scatter');

  const { name, text } = await downloaded(page, '#export-pred');
  assert.equal(name, 'Glass-predictions.csv');
  const rows = parseCSV(text);
  const expected = Number(await page.getAttribute('#train-result', 'data-rows'));
  assert.equal(rows.length - 1, expected, 'one line per test row');
  assert.deepEqual(rows[0].slice(0, 4), ['row', 'fold', 'true RI', 'predicted']);
  for (const r of rows.slice(1)) {
    for (const v of r.slice(2)) assert.ok(Number.isFinite(Number(v)) && String(Number(v)) === v, `${v} round-trips`);
  }
  await page.screenshot({ path: path.join(shots, '03-upload-regression.png'), fullPage: true });

  // The trained model predicts a file: a number per row, written at full precision.
  const saved = await downloaded(page, '#download-model');
  assert.equal(saved.name, 'ntkrf-Glass-ntk.json');
  assert.equal(JSON.parse(saved.text).task, 'regression');
  await page.setInputFiles('#predict-file', testdata('Glass.csv'));
  await predicted(page, 214);
  const values = parseCSV((await downloaded(page, '#export-model-pred')).text);
  assert.deepEqual(values[0], ['row', 'predicted RI']);
  assert.equal(values.length, 1 + 214);
  for (const r of values.slice(1)) assert.ok(Number.isFinite(Number(r[1])) && String(Number(r[1])) === r[1], `${r[1]} round-trips`);

  await page.focus('#dim');
  await page.keyboard.press('Home'); // m = 64
  const features = await downloaded(page, '#export-features');
  assert.equal(features.name, 'Glass-features-ntk-m64.csv');
  const frows = parseCSV(features.text);
  assert.equal(frows.length, 1 + 214, 'header and one line per row');
  assert.equal(frows[0].length, 64 + 1, '64 features and the target');
  assert.equal(frows[0][64], 'RI');
  for (const r of frows.slice(1, 20)) {
    for (const v of r) assert.ok(Number.isFinite(Number(v)) && String(Number(v)) === v, `${v} round-trips`);
  }
  check();
  await context.close();
});

test('cancel the sweep and a long training run, then a new run succeeds', { timeout: TIMEOUT }, async () => {
  const { page, context, check } = await open();
  await page.selectOption('#dataset', 'BostonHousing');
  await page.waitForFunction(() => /BostonHousing/.test(document.getElementById('source').textContent), null, { timeout: TIMEOUT });
  await idle(page);
  await page.click('#run-sweep');
  await page.waitForFunction(() => /error vs m/.test(document.getElementById('stage').textContent));
  await page.waitForTimeout(300);
  await page.click('#cancel');
  await page.waitForFunction(() => /Cancelled.*error vs m/.test(document.getElementById('status').textContent), null, { timeout: 5000 });
  await idle(page);
  assert.equal(await page.isDisabled('#run-sweep'), false, 'the sweep can start again');

  await page.uncheck('#exact');
  await page.focus('#dim');
  await page.keyboard.press('End'); // m = 8192: Φ is 506 × 8192, ΦᵀΦ takes seconds
  assert.match(await page.textContent('#dim-out'), /8192/);
  await page.waitForFunction(() => /m = 8192/.test(document.getElementById('compare-numbers').textContent), null, { timeout: TIMEOUT });
  await idle(page);
  await page.click('#train');
  await page.waitForFunction(() => /training/.test(document.getElementById('stage').textContent) || !document.getElementById('alert').hidden);
  if (await page.isVisible('#alert')) assert.fail(`the page shows an error: ${await page.textContent('#alert-text')}`);
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(shots, '04-running.png') });
  await page.click('#cancel');
  await page.waitForFunction(() => /Cancelled.*training/.test(document.getElementById('status').textContent), null, { timeout: 5000 });
  assert.equal(await page.$('#metric-value'), null, 'no result from the cancelled run');
  await idle(page);
  assert.equal(await page.isDisabled('#train'), false, 'train is available again');

  await page.focus('#dim');
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft'); // back to m = 256
  assert.match(await page.textContent('#dim-out'), /256/);
  await page.click('#train');
  const r2 = await trained(page);
  assert.ok(r2 > 0.5, `Boston housing R² ${r2} after the cancel`);
  check();
  await context.close();
});

test('a malformed CSV shows a clear message and keeps iris; an XSS header renders as text', { timeout: TIMEOUT }, async () => {
  const { page, context, seen, check } = await open({ hash: IRIS });
  await page.waitForFunction(() => document.getElementById('map-exact').width > 1, null, { timeout: TIMEOUT });
  await page.setInputFiles('#file', testdata('bad-ragged.csv'));
  await page.waitForSelector('#alert:not([hidden])', { timeout: TIMEOUT });
  const msg = await page.textContent('#alert-text');
  assert.match(msg, /bad-ragged\.csv/);
  assert.match(msg, /line 4/);
  assert.match(msg, /iris\.csv is still loaded/);
  assert.match(await page.textContent('#source'), /iris\.csv/);
  assert.match(await page.textContent('#facts'), /150/);
  await page.screenshot({ path: path.join(shots, '05-malformed.png') });

  await page.setInputFiles('#file', testdata('bad-number.csv'));
  await page.waitForFunction(() => /bad-number\.csv/.test(document.getElementById('alert-text').textContent), null, { timeout: TIMEOUT });
  assert.match(await page.textContent('#alert-text'), /x2/);

  await page.click('#alert-close');
  await idle(page);
  await page.selectOption('#eval', 'kfold');
  await page.fill('#kfolds', '3');
  await page.press('#kfolds', 'Enter');
  await page.click('#train');
  assert.ok(await trained(page) >= IRIS_ACCURACY_FLOOR, 'iris still trains after the failed loads (3-fold cross-validation)');
  assert.match(await page.textContent('#train-result'), /3-fold cross-validation \(150 rows\)/);

  const xss = '<img src=x onerror=alert(1)>';
  await page.setInputFiles('#file', testdata('xss-header.csv'));
  await page.waitForFunction(() => /xss-header\.csv/.test(document.getElementById('source').textContent), null, { timeout: TIMEOUT });
  await page.locator('.preview summary').click();
  assert.equal(await page.$$eval('img', (i) => i.length), 0, 'no img element was created');
  assert.equal(await page.textContent('#preview th'), xss, 'the column name shows as text');
  assert.ok((await page.$$eval('#target option', (o) => o.map((x) => x.textContent))).includes(xss));
  assert.equal(seen.dialogs.length, 0);
  await idle(page);
  await page.screenshot({ path: path.join(shots, '06-xss-header.png') });

  await page.setInputFiles('#file', testdata('iris.csv.gz'));
  await page.waitForFunction(() => /iris\.csv\.gz/.test(document.getElementById('source').textContent), null, { timeout: TIMEOUT });
  assert.match(await page.textContent('#facts'), /150/, 'gzip input is inflated by the engine');
  check();
  await context.close();
});

test('a narrow window has no horizontal scroll; a link restores the settings, also when pasted into an open page', { timeout: TIMEOUT }, async () => {
  const { page, context, check } = await open({ viewport: { width: 400, height: 800 }, hash: '#depth=3&logm=8&method=rff&seed=7&depth=x9' });
  assert.equal(await page.inputValue('#depth'), '3');
  assert.equal(await page.inputValue('#method'), 'rff');
  assert.equal(await page.inputValue('#seed'), '7');
  assert.match(await page.textContent('#dim-out'), /256/);
  await page.waitForFunction(() => document.getElementById('map-approx').width > 1, null, { timeout: TIMEOUT });
  assert.match(await page.textContent('#cap-exact'), /RBF/);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 400, `page width ${width} px fits a 400 px window`);
  await idle(page);
  await page.screenshot({ path: path.join(shots, '07-narrow.png'), fullPage: true });

  await page.evaluate(() => { location.hash = '#data=wine&depth=2'; });
  await page.waitForFunction(() => /wine\.csv/.test(document.getElementById('source').textContent), null, { timeout: TIMEOUT });
  assert.equal(await page.inputValue('#depth'), '2', 'a changed hash applies without a reload');
  assert.equal(await page.inputValue('#method'), 'ntk', 'settings missing from the new link go back to their defaults');
  check();
  await context.close();
});

test('the package in Chromium gives the feature bits native Go pins (testdata/checksums.json)', { timeout: TIMEOUT }, async () => {
  const golden = JSON.parse(await readFile(testdata('checksums.json'), 'utf8'));
  const { page, context, check } = await open();
  const sums = await page.evaluate(async ({ url, golden }) => {
    const { createEngine } = await import(url);
    const eng = await createEngine({ workers: 2 });
    const { rows, cols } = golden;
    const data = new Float64Array(rows * cols);
    for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) data[i * cols + j] = (((7 * i + 3 * j) % 11) - 5) / 4;
    const out = [];
    for (const { options } of golden.entries) {
      const P = await eng.features({ rows, cols, data }, options);
      const bytes = new Uint8Array(P.data.buffer, P.data.byteOffset, P.data.byteLength);
      let h = 0xcbf29ce484222325n;
      for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & ((1n << 64n) - 1n);
      out.push(h.toString(16).padStart(16, '0'));
    }
    eng.close();
    return out;
  }, { url: `${base}/ntkrf/index.js`, golden });
  assert.deepEqual(sums, golden.entries.map((e) => e.fnv64a));
  check();
  await context.close();
});

test('the hand-written kernels (kernels.wasm) load in Chromium and give the bits of the Go kernels in Node', { timeout: 2 * TIMEOUT }, async () => {
  // A primal classification with float32 Gram blocks: in Node on the Go
  // kernels (NTKRF_KERNELS=go), in Chromium's workers on kernels.wasm.
  const X = randomMatrix(1300, 6, 41);
  const y = Array.from({ length: 1300 }, (_, i) => (X.data[i * 6] > 0.3 ? 2 : X.data[i * 6 + 1] > 0 ? 1 : 0));
  const options = { features: { dim: 200, depth: 1, seed: 5 }, task: 'classification' };
  const saved = process.env.NTKRF_KERNELS;
  process.env.NTKRF_KERNELS = 'go';
  let want;
  try {
    const { createEngine } = await import(pkg);
    const eng = await createEngine({ workers: 2 });
    const m = await eng.fitRidge(X, Float64Array.from(y), options);
    want = { lambda: m.lambda, coef: Array.from(m.toJSON().coef.data) };
    eng.close();
  } finally {
    if (saved === undefined) delete process.env.NTKRF_KERNELS;
    else process.env.NTKRF_KERNELS = saved;
  }
  const { page, context, seen, check } = await open();
  const got = await page.evaluate(async ({ url, data, y, options }) => {
    const { createEngine } = await import(url);
    const eng = await createEngine({ workers: 2 });
    const m = await eng.fitRidge({ rows: 1300, cols: 6, data: Float64Array.from(data) }, Float64Array.from(y), options);
    eng.close();
    return { lambda: m.lambda, coef: Array.from(m.toJSON().coef.data) };
  }, { url: `${base}/ntkrf/index.js`, data: Array.from(X.data), y, options });
  assert.ok(seen.requests.some((u) => u.endsWith('/ntkrf/kernels.wasm')), 'the workers fetched kernels.wasm');
  assert.equal(got.lambda, want.lambda);
  assert.deepEqual(got.coef, want.coef);
  check();
  await context.close();
});

test('an exact fit in Chromium shares its factorization between two workers (fitHelp over a MessageChannel) and gives one Node worker\'s bits', { timeout: 2 * TIMEOUT }, async () => {
  // 1,600 rows: above Go's linalg.ShareMin, where the plan's solve shares.
  const X = randomMatrix(1600, 6, 43);
  const y = Array.from({ length: 1600 }, (_, i) => (X.data[i * 6] + X.data[i * 6 + 2] ** 2 > 0.4 ? 1 : 0));
  const options = { kernel: { kernel: 'ntk', depth: 2 }, task: 'classification', lambda: 0.01 };
  const { createEngine } = await import(pkg);
  const eng = await createEngine({ workers: 1 });
  const alone = await eng.fitRidge(X, Float64Array.from(y), options);
  const want = Array.from(alone.toJSON().coef.data);
  eng.close();
  const { page, context, check } = await open();
  const got = await page.evaluate(async ({ url, data, y, options }) => {
    const ops = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (m, ...rest) {
      if (m?.type === 'call') ops.push(m.op);
      return post.call(this, m, ...rest);
    };
    const { createEngine } = await import(url);
    const eng = await createEngine({ workers: 2 });
    const m = await eng.fitRidge({ rows: 1600, cols: 6, data: Float64Array.from(data) }, Float64Array.from(y), options);
    eng.close();
    Worker.prototype.postMessage = post;
    return { ops, coef: Array.from(m.toJSON().coef.data) };
  }, { url: `${base}/ntkrf/index.js`, data: Array.from(X.data), y, options });
  assert.ok(got.ops.includes('fitHelp'), `the second worker helped (calls: ${got.ops.join(', ')})`);
  assert.deepEqual(got.coef, want);
  check();
  await context.close();
});

test('the newest file choice wins: a slow file then a quick one, and a quick one then a slow one', { timeout: 6 * TIMEOUT }, async () => {
  const { page, context, check } = await open();
  // 800,000 rows (about 60 MB): parsing takes seconds, long enough to choose another file meanwhile.
  const slowRow = (i) => [(i * 0.37) % 11, (i * 0.11) % 7, i % 13, (i * 1.7) % 5, i % 3, (i * 0.91) % 17, (i * 0.5) % 9];
  const header = ['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'y'];
  const slow = await csvFile('slow.csv', header, 800_000, slowRow);
  const measure = await csvFile('slow-alone.csv', header, 800_000, slowRow);
  const quick = await csvFile('quick.csv', ['a', 'b', 'label'], 40, (i) => [i % 5, (i * 3) % 7, i % 2 ? 'odd' : 'even']);
  await page.waitForFunction(() => document.getElementById('map-exact').width > 1, null, { timeout: TIMEOUT });

  // How long the slow file takes alone: below, it gets twice that (and more) to take over wrongly.
  let t = Date.now();
  await page.setInputFiles('#file', measure);
  await sourceIs(page, 'slow-alone.csv', 3 * TIMEOUT);
  const alone = Date.now() - t;
  await idle(page);

  await page.setInputFiles('#file', slow);
  await page.setInputFiles('#file', quick);
  await sourceIs(page, 'quick.csv');
  await page.waitForTimeout(2 * alone + 3000);
  assert.equal(await page.textContent('#source'), 'Loaded: quick.csv', 'the slow file chosen first did not take over');
  assert.match(await page.textContent('#facts'), /rows\s*40(?!\d)/);
  assert.equal(await page.inputValue('#dataset'), 'file');
  assert.match(await page.textContent('#dataset option[value="file"]'), /quick\.csv/);
  await noAlert(page);

  t = Date.now();
  await page.setInputFiles('#file', quick);
  await page.setInputFiles('#file', slow);
  await sourceIs(page, 'slow.csv', 3 * TIMEOUT);
  await idle(page);
  assert.equal(await page.textContent('#source'), 'Loaded: slow.csv', 'the slow file chosen last is loaded');
  assert.match(await page.textContent('#facts'), /rows\s*800000(?!\d)/);
  await noAlert(page);
  check();
  await context.close();
});

test('a file chosen while the engine starts is loaded, and the default data set does not replace it', { timeout: 2 * TIMEOUT }, async () => {
  const quick = await csvFile('early.csv', ['a', 'b', 'label'], 30, (i) => [i % 5, (i * 3) % 7, i % 3 ? 'x' : 'y']);
  let release, requested;
  const held = new Promise((r) => { release = r; });
  const asked = new Promise((r) => { requested = r; });
  // The engine cannot start until the test lets its .wasm through.
  const { page, context, check } = await open({
    ready: false,
    prepare: (ctx) => ctx.route('**/ntkrf.wasm', async (route) => { requested(); await held; await route.continue(); }),
  });
  await asked;
  // The controls come from the engine's option table: until it has started they say so and cannot be used.
  await page.waitForFunction(() => document.getElementById('stage').textContent === 'starting…');
  for (const id of ['#method', '#sampler', '#sketch', '#depth', '#dim', '#seed', '#eval']) assert.equal(await page.isDisabled(id), true, `${id} waits for the engine`);
  assert.deepEqual(await page.$$eval('#method option', (o) => o.map((x) => x.textContent)), ['loading…']);
  assert.equal(await page.isVisible('#kernel-panel .pending-note'), true);
  await page.screenshot({ path: path.join(shots, '13-engine-loading.png') });
  await page.setInputFiles('#file', quick);
  await page.waitForTimeout(500); // a choice that sat for a while before the engine came up
  release();
  await page.waitForSelector('body[data-ready="1"]', { timeout: TIMEOUT });
  assert.equal(await page.isVisible('#kernel-panel .pending-note'), false);
  assert.equal(await page.isDisabled('#method'), false);
  const schema = await page.evaluate(async (url) => {
    const { createEngine } = await import(url);
    const eng = await createEngine({ workers: 1 });
    const s = eng.schema;
    eng.close();
    return s;
  }, `${base}/ntkrf/index.js`);
  const enumOf = (name) => schema.features.find((o) => o.name === name).enum;
  assert.deepEqual(await page.$$eval('#method option', (o) => o.map((x) => x.value)), enumOf('method').filter((v) => v !== 'arccos0'), 'the engine\'s methods (less arccos0, which has no exact kernel to compare with)');
  assert.deepEqual(await page.$$eval('#sampler option', (o) => o.map((x) => x.value)), enumOf('sampler'));
  assert.deepEqual(await page.$$eval('#sketch option', (o) => o.map((x) => x.value)), enumOf('sketch'));
  assert.equal(await page.inputValue('#method'), schema.features.find((o) => o.name === 'method').default);
  assert.deepEqual(await page.$eval('#depth', (d) => [d.min, d.max]), ['1', '5']);
  await page.waitForFunction(() => /early\.csv/.test(document.getElementById('source').textContent) || !document.getElementById('alert').hidden, null, { timeout: TIMEOUT });
  await noAlert(page);
  await idle(page);
  assert.equal(await page.textContent('#source'), 'Loaded: early.csv', 'the user\'s file, not iris');
  assert.match(await page.textContent('#facts'), /rows\s*30(?!\d)/);
  assert.match(page.url(), /data=file/);
  check();
  await context.close();
});

test('exports neutralise spreadsheet formulas in labels and names, and keep negative numbers as numbers', { timeout: 2 * TIMEOUT }, async () => {
  const labels = ['=1+2', '+AB', '-CD', '@EF', 'ok'];
  const file = await csvFile('formulas.csv', ['=SUM(A1:A2)', '-x2', '@label'], 150, (i) => [(i % 5) + ((i * 7) % 3) / 10, -((i % 5) * 2) + ((i * 5) % 4) / 10, labels[i % 5]]);
  const { page, context, check } = await open({ hash: '#logm=6' });
  await page.setInputFiles('#file', file);
  await sourceIs(page, 'formulas.csv');
  await idle(page);
  await page.click('#train');
  await trained(page);
  const safe = new Set(["'=1+2", "'+AB", "'-CD", "'@EF", 'ok']);
  const pred = parseCSV((await downloaded(page, '#export-pred')).text);
  assert.deepEqual(pred[0].slice(0, 4), ['row', 'fold', 'true @label', 'predicted']);
  for (const r of pred.slice(1)) {
    assert.ok(safe.has(r[2]) && safe.has(r[3]), `labels are neutralised: ${r.slice(2).join(' | ')}`);
  }
  const features = parseCSV((await downloaded(page, '#export-features')).text);
  assert.equal(features[0].at(-1), "'@label", 'the target column name is neutralised');
  let negatives = 0;
  for (const r of features.slice(1)) {
    assert.ok(safe.has(r.at(-1)), `target label ${r.at(-1)}`);
    for (const v of r.slice(0, -1)) {
      assert.ok(Number.isFinite(Number(v)) && String(Number(v)) === v, `${v} is a number, written as one`);
      if (v.startsWith('-')) negatives++;
    }
  }
  assert.ok(negatives > 0, 'negative feature values are written as numbers, without a quote');
  check();
  await context.close();
});

test('1,000 classes, 20,000 regression rows and 3,000 columns keep the page light', { timeout: 6 * TIMEOUT }, async () => {
  const { page, context, check } = await open({ hash: '#logm=6' });
  const classes = await csvFile('classes1000.csv', ['a', 'b', 'c', 'label'], 3000, (i) => [(i % 1000) / 100, ((i * 7) % 1000) / 250, (i % 3) / 3, `class-${i % 1000}`]);
  await page.setInputFiles('#file', classes);
  await sourceIs(page, 'classes1000.csv');
  assert.match(await page.textContent('#facts'), /1000 classes/);
  await idle(page);
  await page.click('#train');
  // 'auto' scores 15 candidates with 1000 outputs each on 182 rows (the
  // core's defaultRows): a few seconds in WebAssembly on 2 cores.
  await trained(page, 2 * TIMEOUT);
  // An SVG cell per class pair would be 3 million nodes and ~50 s of frozen tab.
  const nodes = await domNodes(page);
  assert.ok(nodes < 3000, `${nodes} elements in the page`);
  assert.equal(await page.$$eval('#train-chart image', (i) => i.length), 1, 'the matrix is one picture');
  assert.equal(await page.$$eval('#train-chart rect', (r) => r.length), 1, 'only the frame is a rect');
  assert.ok((await page.$$eval('#confused-pairs li', (l) => l.length)) >= 1, 'the most-confused pairs are listed');
  assert.match(await page.textContent('#facts'), /and 988 more/, 'the class list is summarised');
  await page.screenshot({ path: path.join(shots, '08-1000-classes.png'), fullPage: true });

  const regression = await csvFile('regression20k.csv', ['u', 'v', 'y'], 20_000, (i) => [(i % 101) / 10, (i % 37) / 5, ((i % 101) / 10) * 2 + ((i % 37) / 5) + (i % 7) / 10]);
  await page.setInputFiles('#file', regression);
  await sourceIs(page, 'regression20k.csv');
  await idle(page);
  // Depth and preprocessing fixed: 'auto' scores 15 candidates by exact
  // leave-one-out on 1,000 rows, 11–23 s in WebAssembly on 2 cores (74–81 s
  // before loofast: docs/PERFORMANCE.md); this test is about the page's
  // size, not the fit, and must not hang on the machine's load.
  await page.uncheck('#auto');
  await page.click('#train');
  await trained(page);
  await page.waitForSelector('#train-chart image', { timeout: TIMEOUT });
  assert.equal(await page.$$eval('#train-chart circle', (c) => c.length), 0, '6,000 test rows are painted, not 6,000 circles');
  assert.ok((await domNodes(page)) < 3000);
  await page.screenshot({ path: path.join(shots, '09-regression-20k.png'), fullPage: true });

  const names = Array.from({ length: 3000 }, (_, j) => `c${j}`);
  const wide = await csvFile('wide3000.csv', [...names, 'y'], 30, (i) => [...names.map((_, j) => ((i * 31 + j * 17) % 23) / 7), i % 2 ? 'p' : 'q']);
  await page.setInputFiles('#file', wide);
  await sourceIs(page, 'wide3000.csv');
  await page.locator('.preview summary').click();
  assert.ok((await page.$$eval('#preview th', (t) => t.length)) <= 41, 'the preview shows the first columns and a count of the rest');
  assert.match(await page.textContent('#preview thead'), /\+2961 more columns/);
  await idle(page);
  check();
  await context.close();
});

test('every run ends in a state that says what happened, and a later success clears the old error', { timeout: 3 * TIMEOUT }, async () => {
  // Values near 1e200 overflow the features unless the columns are standardized (off in this link, and not left to auto).
  const file = await csvFile('huge-values.csv', ['a', 'b', 'y'], 90, (i) => [`${(i % 7) + 1}e200`, `${(i % 5) + 1}e199`, i % 2 ? 'yes' : 'no']);
  const { page, context, check } = await open({ hash: '#std=0&auto=0&logm=6' });
  await page.setInputFiles('#file', file);
  await sourceIs(page, 'huge-values.csv');
  await page.waitForFunction(() => /Kernel pictures failed/.test(document.getElementById('alert-text').textContent), null, { timeout: TIMEOUT });
  assert.match(await page.textContent('#status'), /Kernel pictures failed/);
  assert.match(await page.textContent('#compare-numbers'), /No comparison/);
  await idle(page);

  await page.click('#train');
  await page.waitForFunction(() => /Training failed/.test(document.getElementById('alert-text').textContent), null, { timeout: TIMEOUT });
  await idle(page);
  assert.match(await page.textContent('#status'), /Training failed/, 'the status no longer says "Training on …"');
  assert.match(await page.textContent('#train-result'), /No result: training failed/);
  assert.doesNotMatch(await page.textContent('#alert-text'), /\b(fitRidge|krr|rf):/, 'no engine method names');
  await page.screenshot({ path: path.join(shots, '10-train-failed.png') });

  await page.click('#run-sweep');
  await page.waitForFunction(() => /Error vs m failed after 0 of 28/.test(document.getElementById('status').textContent), null, { timeout: TIMEOUT });
  await idle(page);
  await page.click('#export-features');
  await page.waitForFunction(() => /Features export failed/.test(document.getElementById('status').textContent), null, { timeout: TIMEOUT });
  await idle(page);

  await page.check('#standardize');
  await page.waitForFunction(() => /relative error/.test(document.getElementById('compare-numbers').textContent), null, { timeout: TIMEOUT });
  await idle(page);
  await page.click('#train');
  // trained() would stop at the old alert, which stays until the run succeeds.
  await page.waitForSelector('#metric-value', { timeout: TIMEOUT });
  assert.equal(await page.isVisible('#alert'), false, 'the success cleared the old errors');
  assert.match(await page.textContent('#status'), /Trained on huge-values\.csv/);
  check();
  await context.close();
});

test('a link\'s settings that cannot be used are named in a notice, with what was used instead', { timeout: 2 * TIMEOUT }, async () => {
  const { page, context, check } = await open({ hash: '#target=nosuch&depth=x9&bogus=1&test=33' });
  await sourceIs(page, 'iris.csv');
  const notice = await page.textContent('#notice');
  assert.equal(await page.isVisible('#notice'), true);
  assert.match(notice, /target “nosuch” is not a column of iris\.csv; using “target”: the last column, and named like a target/);
  assert.match(notice, /depth=“x9” is not a whole number from 1 to 5; using “1”/);
  assert.match(notice, /“bogus” is not a setting of this page/);
  assert.match(notice, /test=“33” is not a multiple of 5 from 10 to 50; using “30”/);
  assert.equal(await page.inputValue('#testfrac'), '30');
  assert.equal(await page.textContent('#testfrac-out'), '= 30%', 'the slider and its label agree');
  await page.screenshot({ path: path.join(shots, '11-link-notice.png') });

  await page.evaluate(() => { location.hash = '#data=wine&target=zzz'; });
  await sourceIs(page, 'wine.csv');
  await page.waitForFunction(() => /“zzz” is not a column of wine\.csv/.test(document.getElementById('notice').textContent), null, { timeout: TIMEOUT });
  await idle(page);
  await page.evaluate(() => { location.hash = '#data=file'; });
  await page.waitForFunction(() => /links cannot carry; wine\.csv stays loaded/.test(document.getElementById('notice').textContent), null, { timeout: TIMEOUT });
  await page.click('#notice-close');
  assert.equal(await page.isVisible('#notice'), false);
  check();
  await context.close();
});

test('at 320 px nothing overflows: a 200-character file name, long column names and class labels', { timeout: 3 * TIMEOUT }, async () => {
  // One word: no hyphen or space where a line could break.
  const long = `${'ARatherLongFileName'.repeat(11)}`.slice(0, 196);
  const col = (k) => `measurement_${k}_${'x'.repeat(70)}`;
  const cls = (k) => `category-${k}-${'LongLabelWithoutSpaces'.repeat(3)}`;
  const file = await csvFile(`${long}.csv`, [col(1), col(2), col(3), `target_${'y'.repeat(80)}`], 60, (i) => [i % 7, (i * 3) % 5, (i * 7) % 11, cls(i % 3)]);
  const bad = path.join(tmp, `${long}.tsv`);
  await writeFile(bad, 'a\tb\n1\t2\t3\n');
  const { page, context, check } = await open({ viewport: { width: 320, height: 700 }, hash: `#logm=6&target=${'q'.repeat(150)}` });
  await fits(page, 320, 'with a notice about a long link value');
  await page.setInputFiles('#file', file);
  await sourceIs(page, `${long}.csv`);
  await page.locator('.preview summary').click();
  await idle(page);
  await fits(page, 320, 'after loading');
  await page.click('#train');
  await trained(page);
  await idle(page);
  await fits(page, 320, 'after training');
  await page.setInputFiles('#file', bad);
  await page.waitForSelector('#alert:not([hidden])', { timeout: TIMEOUT });
  assert.match(await page.textContent('#alert-text'), new RegExp(`${long}\\.tsv`));
  await fits(page, 320, 'with an alert naming the file');
  await page.screenshot({ path: path.join(shots, '12-narrow-320.png'), fullPage: true });
  check();
  await context.close();
});

test('a Target that cannot be used leaves the loaded target selected, and the message names the control', { timeout: 2 * TIMEOUT }, async () => {
  // The names are an identifier: fine as the (many-class) target, unusable as an input.
  const file = await csvFile('named-rows.csv', ['x', 'y', 'name'], 60, (i) => [i % 7, (i * 3) % 5, `row${i}`]);
  const { page, context, check } = await open({ hash: '#logm=6' });
  await page.setInputFiles('#file', file);
  await sourceIs(page, 'named-rows.csv');
  await idle(page);
  assert.equal(await page.$eval('#target', (s) => s.selectedOptions[0].textContent), 'name');
  await page.selectOption('#target', { label: 'y' });
  await page.waitForSelector('#alert:not([hidden])', { timeout: TIMEOUT });
  assert.match(await page.textContent('#alert-text'), /Could not load named-rows\.csv: .*"name".*; remove the column or choose it as the target\. named-rows\.csv is still loaded\./);
  assert.equal(await page.$eval('#target', (s) => s.selectedOptions[0].textContent), 'name', 'the select shows the target in use');
  assert.match(await page.textContent('#facts'), /60 classes/);
  await idle(page);
  check();
  await context.close();
});

/** A screenshot of the whole page, its sticky header left at the top (else it shows mid-page). */
async function fullShot(page, name) {
  await page.evaluate(() => { document.querySelector('.top').style.position = 'static'; });
  await page.screenshot({ path: path.join(shots, name), fullPage: true });
  await page.evaluate(() => { document.querySelector('.top').style.position = ''; });
}

/** Loads a model file in the model panel and waits until it is in use; an alert fails at once. */
async function loadModelFile(page, file) {
  await page.setInputFiles('#model-file', file);
  await page.waitForFunction((name) => document.getElementById('model-info').dataset.model === name || !document.getElementById('alert').hidden, path.basename(file), { timeout: TIMEOUT });
  await noAlert(page);
}

/** Waits until the model panel shows n predictions; an alert fails at once with its text. */
async function predicted(page, n) {
  await page.waitForFunction((n) => document.getElementById('predict-result').dataset.rows === String(n) || !document.getElementById('alert').hidden, n, { timeout: TIMEOUT });
  await noAlert(page);
}

test('a table\'s default Target is the column named like one, and the Data panel says why; another choice says who chose it; the Task control makes whole numbers a regression', { timeout: 2 * TIMEOUT }, async () => {
  const { page, context, check } = await open({ hash: IRIS });
  await sourceIs(page, 'iris.csv');
  assert.match(await page.textContent('#target-why'), /Target “target”: the last column, and named like a target\./);
  // HouseVotes84's shape: the class first, votes after; the last column would drop rows and predict a vote.
  const votes = await csvFile('votes.csv', ['Class', 'V1', 'V2', 'V16'], 40, (i) => [i % 2 ? 'democrat' : 'republican', i % 3 ? 'y' : 'n', i % 5 ? 'y' : 'n', i % 7 ? 'y' : '']);
  await page.setInputFiles('#file', votes);
  await sourceIs(page, 'votes.csv');
  assert.equal(await page.$eval('#target', (s) => s.options[s.selectedIndex].text), 'Class');
  assert.match(await page.textContent('#target-why'), /Target “Class”: named like a target/);
  assert.doesNotMatch(await page.textContent('#facts'), /dropped/, 'no rows dropped for a missing vote');
  assert.doesNotMatch(page.url(), /target=/, 'the suggested target needs no word in the link');
  await page.selectOption('#target', { label: 'V1' });
  await page.waitForFunction(() => /chosen by you/.test(document.getElementById('target-why').textContent), null, { timeout: TIMEOUT });
  assert.match(page.url(), /target=V1/);
  await idle(page);
  // Leave out: columns that are not inputs (never the target), kept in the link; another Target keeps them out.
  const features = () => page.$eval('#facts', (dl) => parseInt([...dl.querySelectorAll('dt')].find((d) => d.textContent === 'features').nextElementSibling.textContent, 10));
  const before = await features();
  assert.ok(!(await page.$eval('#exclude', (s) => [...s.options].map((o) => o.value))).includes('V1'), 'the target is not offered');
  await page.selectOption('#exclude', ['V2']);
  await page.waitForFunction(() => /exclude=V2/.test(location.hash), null, { timeout: TIMEOUT });
  assert.ok(await features() < before, 'V2 is no longer an input');
  await idle(page);
  await page.selectOption('#target', { label: 'V16' });
  await page.waitForFunction(() => /target=V16/.test(location.hash), null, { timeout: TIMEOUT });
  assert.deepEqual(await page.$eval('#exclude', (s) => [...s.selectedOptions].map((o) => o.value)), ['V2']);
  assert.match(page.url(), /exclude=V2/);
  await idle(page);

  // Whole-number targets with few values are classes under auto (mtcars' carb); the Task control makes them a regression.
  const counts = await csvFile('counts.csv', ['x1', 'x2', 'carb'], 60, (i) => [i / 10, (i % 7) / 3, 1 + (i % 4)]);
  await page.setInputFiles('#file', counts);
  await sourceIs(page, 'counts.csv');
  assert.match(await page.textContent('#facts'), /classification, 4 classes/);
  await page.selectOption('#task', 'regression');
  await page.waitForFunction(() => /regression/.test(document.getElementById('facts').textContent), null, { timeout: TIMEOUT });
  assert.match(page.url(), /task=regression/);
  assert.equal(await page.$eval('#target', (s) => s.options[s.selectedIndex].text), 'carb', 'the target stays');
  check();
  await context.close();
});

test('a trained model downloads as JSON, loads in a fresh page and predicts a CSV exactly as the trained one did', { timeout: 3 * TIMEOUT }, async () => {
  const first = await open({ hash: IRIS });
  let { page } = first;
  await sourceIs(page, 'iris.csv');
  await idle(page);
  assert.equal(await page.isDisabled('#download-model'), true, 'nothing to download before training');
  assert.equal(await page.isDisabled('#predict-file'), true, 'nothing to predict with');
  assert.match(await page.textContent('#model-info'), /No model yet/);
  await page.click('#train');
  await trained(page);
  await idle(page);
  const saved = await downloaded(page, '#download-model');
  assert.equal(saved.name, 'ntkrf-iris-ntk.json');
  const model = JSON.parse(saved.text);
  assert.equal(model.format, 'ntkrf-model');
  assert.equal(model.task, 'classification');
  assert.deepEqual([model.features.method, model.features.dim, model.features.seed], ['ntk', 512, 1], 'the settings of the run');
  assert.equal(model.input.targetName, 'target', 'the columns it reads');
  assert.match(await page.textContent('#model-info'), /In use: NTK RF, m = 512, L = 1, seed 1.*Trained on iris\.csv, its 105 training rows/);

  await page.setInputFiles('#predict-file', testdata('iris.csv'));
  await predicted(page, 150);
  const exported = await downloaded(page, '#export-model-pred');
  assert.equal(exported.name, 'iris-predicted.csv');
  const before = parseCSV(exported.text);
  assert.deepEqual(before[0], ['row', 'predicted target']);
  assert.equal(before.length, 1 + 150, 'one line per row of the file');
  assert.ok(before.slice(1).every((r, i) => r[0] === String(i + 1) && ['0', '1', '2'].includes(r[1])), 'row numbers and class names');
  assert.equal(await page.$$eval('#predict-table tbody tr', (r) => r.length), 10, 'the first rows are shown, the export has all');
  await fullShot(page, '14-model-trained-predicted.png');
  first.check();
  await first.context.close();

  // For core/pipeline TestCrossHost: native Go loads this model, predicts the CSV and compares the names.
  const file = path.join(tmp, saved.name);
  await writeFile(file, saved.text);
  if (crossHostDir) await writeFile(path.join(crossHostDir, 'model-chromium.json'), JSON.stringify({ model, csv: 'testdata/iris.csv', predictions: before.slice(1).map((r) => r[1]) }));

  const second = await open({ hash: IRIS });
  page = second.page;
  await sourceIs(page, 'iris.csv');
  await loadModelFile(page, file);
  assert.match(await page.textContent('#model-info'), /In use: NTK RF, m = 512, L = 1, seed 1.*Loaded from ntkrf-iris-ntk\.json.*Reads 4 columns/);
  assert.equal(await page.isDisabled('#download-model'), true, 'this page trained nothing');
  await page.setInputFiles('#predict-file', testdata('iris.csv'));
  await predicted(page, 150);
  const after = parseCSV((await downloaded(page, '#export-model-pred')).text);
  assert.deepEqual(after, before, 'the loaded model predicts what the trained one did');
  await idle(page);
  await fullShot(page, '15-model-loaded-predicted.png');

  // Not a model: the message names the file, the model in use stays.
  await page.setInputFiles('#model-file', testdata('iris.csv'));
  await page.waitForSelector('#alert:not([hidden])', { timeout: TIMEOUT });
  assert.match(await page.textContent('#alert-text'), /^Could not load the model iris\.csv: .*The model in use stays: ntkrf-iris-ntk\.json\.$/);
  assert.equal(await page.getAttribute('#model-info', 'data-model'), 'ntkrf-iris-ntk.json');
  await page.click('#alert-close');
  // A file without the model's columns: the message says so, and the last file's predictions go
  // (a table left beside the message would pass for this file's).
  const other = await csvFile('other-columns.csv', ['u', 'v'], 5, (i) => [i, i + 1]);
  await page.setInputFiles('#predict-file', other);
  await page.waitForSelector('#alert:not([hidden])', { timeout: TIMEOUT });
  assert.match(await page.textContent('#alert-text'), /^Could not predict other-columns\.csv with ntkrf-iris-ntk\.json: /);
  assert.equal(await page.getAttribute('#predict-result', 'data-rows'), '');
  assert.equal(await page.$$eval('#predict-table tbody tr', (r) => r.length), 0, 'no stale rows');
  assert.equal(await page.isDisabled('#export-model-pred'), true, 'nothing to export');
  await idle(page);
  await page.screenshot({ path: path.join(shots, '16-model-wrong-file.png') });
  // Predictions go with the model that made them: a new training's model replaces them.
  await page.click('#alert-close');
  await page.setInputFiles('#predict-file', testdata('iris.csv'));
  await predicted(page, 150);
  await page.click('#train');
  await page.waitForFunction(() => document.getElementById('predict-result').dataset.rows === '', null, { timeout: TIMEOUT });
  await trained(page);
  assert.equal(await page.$$eval('#predict-table tbody tr', (r) => r.length), 0, 'the trained model has predicted nothing yet');
  second.check();
  await second.context.close();
});

test('a model saved natively loads in the lab and predicts the names native Go predicted', { skip: !crossHostDir && CROSSHOST_SKIP, timeout: 2 * TIMEOUT }, async () => {
  // core/pipeline TestCrossHost saved it in this run (./build.sh test runs it before these tests).
  const native = JSON.parse(await readFile(path.join(crossHostDir, 'model-native.json'), 'utf8'));
  const nativeFile = path.join(tmp, 'ntkrf-native.json');
  await writeFile(nativeFile, JSON.stringify(native.model));
  const third = await open({ hash: IRIS });
  const { page } = third;
  await sourceIs(page, 'iris.csv');
  await loadModelFile(page, nativeFile);
  await page.setInputFiles('#predict-file', testdata(path.basename(native.csv)));
  await predicted(page, native.predictions.length);
  const names = parseCSV((await downloaded(page, '#export-model-pred')).text).slice(1).map((r) => r[1]);
  assert.deepEqual(names, native.predictions, 'the native model predicts in Chromium what it predicted natively');
  third.check();
  await third.context.close();
});

test('a model file loaded while a training runs stays in use when the training ends: the last choice wins', { timeout: 4 * TIMEOUT }, async () => {
  const { page, context, check } = await open({ hash: '#data=BostonHousing' });
  await sourceIs(page, 'BostonHousing.csv');
  await idle(page);
  await page.uncheck('#exact');
  // A quick training gives the model file to load.
  await page.click('#train');
  await trained(page);
  await idle(page);
  const saved = await downloaded(page, '#download-model');
  const trainedName = saved.name;
  const file = path.join(tmp, 'chosen-later.json');
  await writeFile(file, saved.text);
  // A slower training (m = 2048: seconds), and the model file chosen while it runs.
  await page.focus('#dim');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.match(await page.textContent('#dim-out'), /2048/);
  await idle(page);
  await page.click('#train');
  await page.waitForFunction(() => /training/.test(document.getElementById('stage').textContent) || !document.getElementById('alert').hidden, null, { timeout: TIMEOUT });
  await noAlert(page);
  await page.setInputFiles('#model-file', file);
  const trainingRan = await page.waitForFunction(() => document.getElementById('model-info').dataset.model === 'chosen-later.json'
    && document.getElementById('metric-value') === null, null, { timeout: TIMEOUT }).then(() => true, () => false);
  assert.ok(trainingRan, 'the model file was loaded while the training ran');
  await trained(page);
  await idle(page);
  assert.equal(await page.getAttribute('#model-info', 'data-model'), 'chosen-later.json', 'the model loaded after Train was pressed stays in use');
  assert.match(await page.textContent('#model-info'), /In use: .*Loaded from chosen-later\.json/);
  assert.match(await page.textContent('#model-info'), /is not in use: chosen-later\.json was loaded after Train was pressed, and the last choice wins/);
  assert.equal(await page.isDisabled('#download-model'), false, 'the trained model can still be downloaded');
  // Predicting a file uses the model in use: the loaded one.
  await page.setInputFiles('#predict-file', testdata('BostonHousing.csv'));
  await predicted(page, 506);
  assert.match(await page.textContent('#predict-result'), /chosen-later\.json/);
  // Pressing Train again is the newer choice: its model is then in use.
  await page.focus('#dim');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
  await idle(page);
  await page.click('#train');
  await trained(page);
  await idle(page);
  assert.equal(await page.getAttribute('#model-info', 'data-model'), trainedName, 'the newer training is in use');
  assert.doesNotMatch(await page.textContent('#model-info'), /is not in use/);
  check();
  await context.close();
});
