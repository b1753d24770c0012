// The lab's DOM-free modules under Node: CSV export round-trips doubles and
// neutralises formulas, the heatmap sample follows its definition, the
// pictures' preprocessing is the engine's, the lab's vocabulary comes from the engine's schema and
// narrows it only inside its limits, the URL hash is validated and rejected
// values are reported, engine errors are worded with the page's controls,
// jobs end with an outcome that says how, the cost model and the
// experiments (training, the sweep) do what the page shows, and a trained
// model saved and loaded back predicts a file alike. The page itself
// is tested in browser.test.js. Needs the built package (./build.sh).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { root, pkg, rng, parseCSV } from './helpers.js';

// The built lab (dist/www), where its modules find the package (./ntkrf/) as the page does.
const lab = (name) => import(pathToFileURL(path.join(root, 'dist', 'www', name)).href);
const { sampleRows, summarizeList } = await lab('data.js');
const { toCSV, csvField } = await lab('csv.js');
const { explain, linkNotice, controlFor, NO_CONTROL, capAlert, MAX_ALERT_CHARS } = await lab('messages.js');
const { topConfusions, markLabel } = await lab('charts.js');
const { short } = await lab('heatmap.js');
const { vocabulary, optionAt, toOption, SETTINGS, METHODS, EXCLUDED, WORDS, OTHER_OPTIONS } = await lab('vocab.js');
const { Jobs, orAbort } = await lab('jobs.js');
const { estimate, trainWork, trainRows, measuredRate, INITIAL_RATE, EXACT_MAX, COSTS, setCosts } = await lab('cost.js');
const { featureOptions, targetKernel, kernelName, shortfall, checkM, featureMemory, folds, pictureScales, metric, trainingPlan, trainAndTest, dim, preprocessed, autoSearch } = await lab('experiments.js');
const { modelFileName, describeModel, selectionText, prepName, predictionCSV, predictionFileName } = await lab('models.js');
const { NAMES } = await lab('names.js');
const { sweep, sweepSeries, SWEEP_METHODS, SWEEP_DIMS, SWEEP_STEPS } = await lab('sweep.js');
const { predictionsCSV, comparisonsCSV, featuresCSV, baseName } = await lab('downloads.js');

let eng, schema, vocab;
before(async () => {
  const { createEngine } = await import(pathToFileURL(pkg).href);
  eng = await createEngine({ workers: 1 });
  schema = eng.schema;
  vocab = vocabulary(schema, eng.names);
  setCosts(eng.costs);
});
after(() => eng?.close());

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

test('the URL hash: defaults omitted, valid values restored, rejected values reported with what was expected', async () => {
  let hash = '';
  globalThis.location = { get hash() { return hash; }, pathname: '/', search: '' };
  globalThis.history = { replaceState: (_s, _t, url) => { hash = url.startsWith('#') ? url : ''; } };
  const { hashTable, readHash, writeHash, defaults, valid } = await lab('state.js');
  const table = hashTable(vocab);
  writeHash(table, defaults(table));
  assert.equal(hash, '#data=iris', 'defaults need no more than the data set, which every link names (a bare address shows the spiral)');
  writeHash(table, { ...defaults(table), depth: 3, seed: 42, method: 'rff', target: 'a b&c', exact: false, lam: -8, data: 'moons' });
  assert.deepEqual(readHash(table), { state: { ...defaults(table), depth: 3, seed: 42, method: 'rff', target: 'a b&c', exact: false, lam: -8, data: 'moons' }, rejected: [] });
  assert.match(hash, /lam=-8/, 'λ = 1e-4 in half decades: a negative whole number');
  // Columns left out travel in the link as names, whatever they hold.
  const { splitNames, NAMES_SEP } = await lab('vocab.js');
  const exclude = ['Id', 'a b,c&d=e'].join(NAMES_SEP);
  writeHash(table, { ...defaults(table), data: 'BreastCancer', exclude });
  assert.deepEqual(splitNames(readHash(table).state.exclude), ['Id', 'a b,c&d=e']);
  assert.deepEqual(splitNames(defaults(table).exclude), [], 'none by default');
  hash = '#depth=9&logm=12&method=svm&seed=-1&std=yes&bogus=1&test=33&constructor=1&__proto__=x&method=arccos0';
  const { state, rejected } = readHash(table);
  assert.equal(state.logm, 12);
  assert.equal(state.depth, defaults(table).depth);
  assert.deepEqual(rejected.map((r) => [r.key, r.value, r.known]), [
    ['depth', '9', true], ['method', 'svm', true], ['seed', '-1', true], ['std', 'yes', true],
    ['bogus', '1', false], ['test', '33', true], ['constructor', '1', false], ['__proto__', 'x', false], ['method', 'arccos0', true],
  ]);
  assert.equal(rejected[0].expected, 'a whole number from 1 to 5');
  assert.equal(rejected[5].expected, 'a multiple of 5 from 10 to 50', 'the test share moves in the slider\'s steps');
  assert.match(rejected[1].expected, /^one of ntk, nngp, arccos1, naive, grad, rff$/, 'the methods of the menu: the schema\'s, less the excluded');
  assert.equal(valid(table, 'depth', 5), true);
  assert.equal(valid(table, 'depth', 6), false);
  assert.equal(valid(table, 'seed', 1.5), false);
  assert.equal(valid(table, 'test', 35), true);
  assert.equal(valid(table, 'test', 33), false);
  assert.equal(valid(table, 'constructor', 1), false);

  const notice = linkNotice(rejected, state);
  assert.match(notice, /depth=“9” is not a whole number from 1 to 5; using “1”/);
  assert.match(notice, /test=“33” is not a multiple of 5 from 10 to 50; using “30”/);
  assert.match(notice, /std=“yes” is not 1 or 0; using “1”/);
  assert.match(notice, /“bogus” is not a setting of this page/);
  assert.equal(linkNotice([], state), '', 'nothing to say for a clean link');
});

test('engine errors name the page control to change, and drop advice the page cannot follow', () => {
  const { controls } = vocab;
  const err = (Class, message, code, option) => Object.assign(new Class(message), code ? { code } : {}, option ? { option } : {});
  const dim = explain(err(RangeError, 'fitRidge: features.dim must be an integer in 1…16777216, got 0', 'ERR_OPTION', 'features.dim'), { controls });
  assert.equal(dim.text, 'Features m must be an integer in 1…16777216, got 0; change Features m');
  assert.equal(dim.control.id, 'dim');
  for (const [option, id] of [['target', 'target'], ['features.depth', 'depth'], ['kernel.depth', 'depth'], ['features.seed', 'seed'], ['testFraction', 'testfrac'], ['k', 'kfolds'], ['preprocess.unitNorm', 'unitnorm'], ['features.sampler', 'sampler'], ['dim', 'dim']]) {
    assert.equal(controlFor(option, controls)?.id, id, option);
  }
  assert.equal(controlFor('groups', controls), null, 'groups come from the file');
  assert.equal(controlFor('constructor', controls), null);
  assert.equal(controlFor('features.dim', null), null, 'no control before the engine has told its options');
  const classes = explain(err(RangeError, 'fitRidge: classes must be an integer in 2…10000, got 1', 'ERR_OPTION', 'classes'), { controls });
  assert.equal(classes.text, 'classes must be an integer in 2…10000, got 1; change Target', 'the page counts the classes of its Target');

  const lambda = explain(err(RangeError, 'fitRidge: lambda must be a positive finite number or "auto", got -1', 'ERR_OPTION', 'lambda'), { controls });
  assert.match(lambda.text, /λ is chosen automatically here/);
  assert.doesNotMatch(explain(err(Error, 'krr: no λ in the grid gave a finite score; use a grid of larger λ or set Lambda')).text, /Lambda|grid of/, 'advice about options the page lacks is dropped');
  assert.equal(explain(err(Error, 'krr: no λ in the grid gave a finite score; use a grid of larger λ or set Lambda'), { fallback: 'try Standardize columns' }).text,
    'no λ in the grid gave a finite score; try Standardize columns', 'and replaced by advice the page can follow');
  const big = explain(err(RangeError, 'parseCSV: the input is 300 MB, over the 256 MB limit; raise maxBytes or use a sample of the rows', 'ERR_TOO_LARGE', 'maxBytes'), { where: 'load', controls });
  assert.doesNotMatch(big.text, /maxBytes/);
  assert.match(big.text, /smaller file/);
  const id = 'parseCSV: column 1 ("id") has 300 distinct text values in 300 rows: an identifier or free text, which one-hot encoding cannot use; remove the column or choose it as the target';
  assert.match(explain(new Error(id), { where: 'load' }).text, /cannot use; remove the column$/, 'a new file has no Target to choose yet');
  assert.match(explain(new Error(id), { where: 'run' }).text, /choose it as the target$/);

  // An engine error brings its parts (Go's errs.Error Fault and Advice):
  // the page reads them, not the message, whose "; " may sit in the fault.
  const parts = explain(Object.assign(new Error('fitRidge: a; b; raise nothing'), { code: 'ERR_DATA', fault: 'a; b', advice: 'use a smaller file' }));
  assert.equal(parts.text, 'a; b; use a smaller file');

  // Without code or option the message is shown, less the method prefixes.
  assert.equal(explain(new Error('parseCSV: line 4: expected 5 fields, found 3')).text, 'line 4: expected 5 fields, found 3');
  assert.equal(explain('a plain string').text, 'a plain string');
  assert.equal(explain(new DOMException('stopped', 'AbortError')), null, 'aborts are not errors');
  assert.equal(explain(err(Error, 'x', 'ERR_ABORTED')), null);
  assert.match(explain(err(Error, 'fitRidge: the WebAssembly instance ran out of memory during this call and was restarted; use fewer rows or a smaller dim', 'ERR_INSTANCE')).text, /restarted; a smaller Features m or a smaller file/);
});

/** Every option path of the schema whose last name is name. */
function pathsNamed(schema, name) {
  const out = [];
  const walk = (prefix, list) => {
    for (const o of list ?? []) {
      const p = `${prefix}.${o.name}`;
      if (o.name === name) out.push(p);
      walk(p, o.fields);
    }
  };
  for (const [method, list] of Object.entries(schema)) walk(method, list);
  return out;
}

test('an alert never renders an unbounded message: its start and its advice stay, the middle is cut', () => {
  const cell = 'z'.repeat(31e6);
  for (const e of [
    Object.assign(new Error(`parseCSV: line 3, column 1 ("a"): "${cell}" is not a number; use a numeric column`), { code: 'ERR_PARSE' }),
    Object.assign(new TypeError(`kernel: unknown option "${cell}"; known options: depth`), { code: 'ERR_UNKNOWN_OPTION', option: cell }),
    new Error(cell),
  ]) {
    const { text } = explain(e, { where: 'load' });
    assert.ok(text.length <= MAX_ALERT_CHARS, `an alert of ${text.length} characters`);
    assert.match(text, /characters left out/);
  }
  const { text } = explain(Object.assign(new Error(`parseCSV: "${cell}" is not a number; use a numeric column`), { code: 'ERR_PARSE' }), { where: 'load' });
  assert.match(text, /^"zzz/);
  assert.match(text, /use a numeric column$/, 'the advice at the end stays');
  assert.equal(capAlert('short'), 'short');
  assert.equal(capAlert(capAlert(cell)), capAlert(cell), 'cutting twice cuts once');
});

test('the lab\'s vocabulary is the engine\'s schema: menus, defaults, and narrowed ranges that lie inside it', () => {
  assert.deepEqual(vocab.problems, [], 'the lab and the engine agree');
  const features = schema.features;
  const entry = (name) => features.find((o) => o.name === name);
  // Menus: the engine's values in the engine's order; the method menu less what the lab leaves out on purpose.
  assert.deepEqual(vocab.menus.method.map((o) => o.value), entry('method').enum.filter((v) => !Object.hasOwn(EXCLUDED, v)));
  assert.deepEqual(vocab.menus.sketch.map((o) => o.value), entry('sketch').enum);
  assert.deepEqual(vocab.menus.sampler.map((o) => o.value), entry('sampler').enum);
  for (const v of Object.keys(EXCLUDED)) assert.ok(entry('method').enum.includes(v), `${v}, left out of the menu, is an engine method`);
  // Defaults: the engine's, unless the lab keeps its own (then inside its range).
  for (const key of ['method', 'sketch', 'sampler']) assert.equal(vocab.settings[key].def, entry(key).default, `${key} defaults to the engine's default`);
  assert.equal(vocab.settings.std.def, optionAt(schema, 'fitRidge.preprocess.standardize').default);
  assert.equal(vocab.settings.unit.def, optionAt(schema, 'fitRidge.preprocess.unitNorm').default);
  assert.equal(vocab.settings.depth.def, entry('depth').default);

  // Every narrowing of an engine option, written once in vocab.js SETTINGS, lies inside the engine's range.
  const narrowed = Object.entries(SETTINGS).filter(([, s]) => s.narrow && s.option);
  assert.deepEqual(narrowed.map(([k]) => k).sort(), ['bias', 'depth', 'k', 'labels', 'lam', 'logm', 'seed', 'test']);
  assert.deepEqual(Object.entries(SETTINGS).filter(([, s]) => s.narrow && !s.option).map(([k]) => k).sort(), ['dseed', 'noise', 'points'], 'the generated sets\' own settings');
  assert.deepEqual([toOption('log2', 12), toOption('percent', 25), toOption('halfDecades', -4), toOption('halfDecades', 1), toOption('tenths', 15)], [4096, 0.25, 0.01, Math.sqrt(10), 1.5], 'the scales');
  for (const [key, s] of narrowed) {
    const o = optionAt(schema, s.option);
    assert.ok(o, `${key}: ${s.option} is an engine option`);
    assert.ok(['int', 'number'].includes(o.kind), `${key}: ${s.option} is numeric`);
    const { min, max, step = 1 } = s.narrow;
    for (const x of [min, max]) {
      const v = toOption(s.scale, x);
      assert.ok(o.min === undefined || (v >= o.min && !(o.minExclusive && v === o.min)), `${key}: ${x} (${s.option} = ${v}) ≥ the engine's ${o.min}`);
      assert.ok(o.max === undefined || (v <= o.max && !(o.maxExclusive && v === o.max)), `${key}: ${x} (${s.option} = ${v}) ≤ the engine's ${o.max}`);
      if (o.kind === 'int') assert.ok(Number.isInteger(v), `${key}: ${v} is an integer, as ${s.option} must be`);
    }
    assert.deepEqual([vocab.settings[key].min, vocab.settings[key].max, vocab.settings[key].step], [min, max, step], `${key}: the control's range is the narrowing`);
    const def = vocab.settings[key].def;
    assert.ok(def >= min && def <= max && (def - min) % step === 0, `${key}: the default ${def} is a value of the control`);
  }

  // What the lab adds names only what the engine has.
  for (const [name, m] of Object.entries(METHODS)) {
    assert.ok(entry('method').enum.includes(name), `${name} is an engine method`);
    assert.ok(optionAt(schema, 'kernel.kernel').enum.includes(m.kernel), `${name} is compared with the engine's ${m.kernel} kernel`);
    // Which options a method uses is the engine's (rf.Uses through the schema), each a feature option.
    assert.ok(Array.isArray(entry('method').uses[name]), `the engine says which options ${name} uses`);
    for (const u of entry('method').uses[name]) assert.ok(entry(u), `${name} uses ${u}, a feature option`);
    assert.equal(m.uses, undefined, 'the lab does not restate them');
    if (m.depth !== undefined) assert.ok(m.depth >= optionAt(schema, 'kernel.depth').min && m.depth <= optionAt(schema, 'kernel.depth').max);
  }
  for (const [key, words] of Object.entries(WORDS)) {
    if (key === 'eval') continue;
    const option = optionAt(schema, SETTINGS[key].option);
    for (const v of Object.keys(words)) assert.ok(option.enum.includes(v), `${key} ${v} is an engine value`);
  }
  for (const v of SETTINGS.eval.values) assert.ok(Array.isArray(schema[v]), `evaluation ${v} is an engine method`);
  for (const path of Object.keys(OTHER_OPTIONS)) assert.ok(optionAt(schema, path), `${path} is an engine option`);
  for (const name of Object.keys(NO_CONTROL)) assert.ok(pathsNamed(schema, name).length > 0, `${name}, which the page words without a control, is an engine option`);
  // Every control's option exists, so an error about it names the control.
  for (const [key, s] of Object.entries(SETTINGS)) if (s.option) assert.ok(optionAt(schema, s.option), `${key}: ${s.option}`);
});

test('a schema the lab does not match is reported, and the page still gets settings it can use', () => {
  const copy = structuredClone(schema);
  const features = copy.features;
  const entry = (name) => features.find((o) => o.name === name);
  entry('depth').max = 3; // the lab's slider goes to 5
  entry('method').enum.push('arccos2'); // a method the lab does not know
  entry('sampler').enum = entry('sampler').enum.filter((v) => v !== 'gibbs');
  copy.split = copy.split.filter((o) => o.name !== 'testFraction');
  const v = vocabulary(copy);
  assert.ok(v.problems.some((p) => /depth: the lab's 5 is outside/.test(p)), v.problems.join('\n'));
  assert.ok(v.problems.some((p) => /arccos2 is neither in METHODS nor in EXCLUDED/.test(p)));
  assert.ok(v.problems.some((p) => /sampler: gibbs is not an engine value/.test(p)));
  assert.ok(v.problems.some((p) => /no option split.testFraction/.test(p)));
  assert.ok(!v.menus.method.some((o) => o.value === 'arccos2'), 'an unknown method stays out of the menu');
  assert.ok(!v.menus.sampler.some((o) => o.value === 'gibbs'), 'the menu offers what the engine has');
  assert.deepEqual([v.settings.test.min, v.settings.test.max, v.settings.test.def], [10, 50, 30], 'without the option, the lab\'s own range');
  assert.deepEqual(vocabulary(null).settings.method.values, Object.keys(METHODS), 'no schema at all: the lab\'s own names');
});

test('jobs: a new job replaces its lane\'s, Cancel stops all, a failure carries its error, progress spans the steps', async () => {
  let changes = 0;
  const jobs = new Jobs(() => changes++);
  const never = (ctl, signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('stop', 'AbortError'))));
  const first = jobs.run('first', 'train', never);
  assert.equal(jobs.busy('train'), true);
  const pics = jobs.run('pictures', 'pictures', never);
  assert.equal(jobs.shown.label, 'first', 'the bar follows the user\'s run, not the automatic pictures');
  let seen = [];
  const second = jobs.run('second', 'train', async (ctl) => {
    const { onProgress } = ctl(1, 4);
    onProgress({ done: 1, total: 2, stage: 'fit' });
    seen = [jobs.shown.fraction, jobs.shown.stage];
    return 42;
  });
  assert.deepEqual(await first, { ok: false, why: 'replaced' });
  assert.deepEqual(await second, { ok: true, value: 42 });
  assert.deepEqual(seen, [(1 + 0.5) / 4, 'fit'], 'step 1 of 4, half done');
  assert.deepEqual(jobs.stopAll('cancelled'), ['pictures']);
  assert.deepEqual(await pics, { ok: false, why: 'cancelled' });
  const boom = new Error('boom');
  assert.deepEqual(await jobs.run('x', 'sweep', async () => { throw boom; }), { ok: false, why: 'failed', error: boom });
  const engineAbort = Object.assign(new Error('aborted'), { code: 'ERR_ABORTED' });
  assert.deepEqual(await jobs.run('x', 'sweep', async () => { throw engineAbort; }), { ok: false, why: 'cancelled' });
  // Stopped just as its last step finished: no say any more.
  const late = jobs.run('late', 'load', async () => { jobs.stopAll('new data'); return 1; });
  assert.deepEqual(await late, { ok: false, why: 'new data' });
  assert.equal(jobs.list.length, 0);
  assert.ok(changes > 0);
});

test('the cost model: work of a fit, training rows per evaluation, the estimate and the exact-kernel limit', () => {
  // The core's table (Go's pipeline.DefaultCosts(), eng.costs), not constants of the page's own.
  const C = eng.costs;
  assert.deepEqual({ ...COSTS }, { ...C }, 'the page keeps the engine\'s cost model');
  assert.ok(C.candidate > 0 && C.gram > 0 && C.wasmRate > 0 && C.nativeRate > C.wasmRate && C.lambdas > 0, JSON.stringify(C));
  assert.equal(INITIAL_RATE.speed, C.wasmRate, 'before any run, the core\'s WebAssembly rate');
  assert.equal(INITIAL_RATE.overheadMs, 1000 * C.wasmOverhead);
  assert.equal(trainWork(100, 4, 64, 0), C.features * 100 * 64 * 4 + C.gram * 100 * 64 * 64 + C.lambda * 64 ** 3 + C.loo * 64 ** 2, 'primal: ΦᵀΦ and the m×m λ search');
  assert.equal(trainWork(100, 4, 64, 2) - trainWork(100, 4, 64, 0), C.layers * 2 * 100 * 64 * 64 / 2, 'each further layer: n·m²/2');
  assert.equal(trainWork(100, 4, 512, 0), C.features * 100 * 512 * 4 + C.gram * 100 * 512 * 100 + C.lambda * 100 ** 3 + C.loo * 100 ** 2, 'fewer rows than features: the dual, ΦΦᵀ and the n×n λ search');
  const search = { candidates: 10, rows: 1000 };
  const cand = (s, d) => C.kernel * s * s * (d + 2) + C.candidate * s ** 3 + C.loo * s * s * C.lambdas;
  assert.equal(trainWork(100, 4, 512, 0, search) - trainWork(100, 4, 512, 0), 10 * cand(100, 4), "'auto': each candidate an exact kernel and its reduction to tridiagonal form with Q on every row");
  assert.equal(trainWork(5000, 4, 512, 0, search) - trainWork(5000, 4, 512, 0), 10 * cand(C.screenRows, 4) + C.screenKeep * cand(1000, 4), '… on the sampled rows only: all on the screen\'s rows, the kept ones on all of them');
  assert.ok(C.screenRows > C.minScreenRows && C.screenKeep > 0 && C.screenKeep < 10, JSON.stringify(C));
  assert.equal(trainWork(300, 4, 512, 0, null, { exact: true }), cand(300, 4), 'the exact kernel fitted instead: one more such curve on every row');
  assert.equal(trainRows(150, { eval: 'split', test: 30, k: 5 }), 105);
  assert.equal(trainRows(150, { eval: 'kfold', test: 30, k: 5 }), 120);
  const rate = { overheadMs: 0, speed: 1e9, runs: [] };
  const e = estimate({ n: 150, d: 4, m: 512, layers: 0, settings: { eval: 'split', test: 30, k: 5 }, rate, workers: 2 });
  assert.equal(e.bytes, 150 * 512 * 4, 'float32 features: 4 bytes a value');
  assert.equal(estimate({ n: 150, d: 4, m: 512, layers: 0, settings: { eval: 'split', test: 30, k: 5 }, rate, workers: 2, bytesPerValue: 8 }).bytes, 150 * 512 * 8);
  assert.ok(Math.abs(e.ms - (1000 * trainWork(105, 4, 512, 0)) / 2e9) < 1e-9);
  const withOverhead = estimate({ n: 150, d: 4, m: 512, layers: 0, settings: { eval: 'split', test: 30, k: 5 }, rate: { ...rate, overheadMs: 700 }, workers: 2 });
  assert.ok(Math.abs(withOverhead.ms - e.ms - 700) < 1e-9, 'a fixed overhead per run');
  assert.match(e.text, /^Φ for all 150 rows: 150 × 512 × 4 bytes = 307\.2 kB; training ≈ \d+ ms \(rough\)\.$/);
  assert.equal(e.exactOK, true);
  // The whole run Train starts: the exact kernel beside (its own search), k folds and the model on every row, a first run's warm-up.
  const kf = { eval: 'kfold', test: 30, k: 5 };
  const withExact = estimate({ n: 150, d: 4, m: 512, layers: 0, search, settings: kf, rate, workers: 2, exact: true });
  const wantWork = 5 * trainWork(120, 4, 512, 0, search) + trainWork(150, 4, 512, 0, search) + 5 * trainWork(120, 4, 0, 0, search, { exact: true });
  assert.ok(Math.abs(withExact.work.total - wantWork) <= 1e-9 * wantWork, `${withExact.work.total} vs ${wantWork}`);
  assert.ok(Math.abs(withExact.ms - (1000 * wantWork) / 2e9) < 1e-6);
  assert.match(withExact.text, /training ≈ [\d.]+ m?s \(rough; the exact kernel [\d.]+ m?s of it\)/);
  assert.equal(estimate({ n: 5000, d: 4, m: 512, layers: 0, settings: kf, rate, workers: 2, exact: true }).work.exact, 0, 'no exact kernel beyond EXACT_MAX training rows');
  const cold = estimate({ n: 150, d: 4, m: 512, layers: 0, settings: { eval: 'split', test: 30, k: 5 }, rate, workers: 2, cold: true });
  assert.ok(C.wasmWarmup > 0 && Math.abs(cold.ms - e.ms - 1000 * C.wasmWarmup) < 1e-9, 'a first run: the core\'s warm-up once');
  assert.match(cold.text, /more for a first run/);
  const big = estimate({ n: 100_000, d: 50, m: 8192, layers: 4, settings: { eval: 'kfold', test: 30, k: 10 }, rate, workers: 1 });
  assert.equal(big.slow, true);
  assert.match(big.text, /a smaller Features m is much faster/);
  assert.equal(big.exactOK, false, `${big.trainRows} training rows > ${EXACT_MAX}`);
});

test('the time estimate fits an overhead and a throughput: a small run does not make later estimates huge', () => {
  // The page's case (quakes): small sets trained first, then a large one. Runs of a page whose
  // true rate is 800 ms + work / (a fifth of the core's assumed WebAssembly rate) per second on 2 workers.
  const speed = INITIAL_RATE.speed / 5;
  const truth = (work, workers) => 800 + (1000 * work) / (speed * workers);
  const cases = [
    { name: 'one small run', works: [1e6] },
    { name: 'three small runs', works: [1e6, 2e6, 5e5] },
    { name: 'small then large', works: [1e6, 5e9] },
    { name: 'many sizes', works: [1e6, 1e8, 3e9, 5e9, 2e7] },
  ];
  for (const { name, works } of cases) {
    let rate = INITIAL_RATE;
    for (const w of works) rate = measuredRate(rate, w, truth(w, 2), 2);
    const n = 2000, d = 8, m = 1024;
    const settings = { eval: 'split', test: 30, k: 5 };
    const work = trainWork(trainRows(n, settings), d, m, 0);
    const est = estimate({ n, d, m, layers: 0, settings, rate, workers: 2 }).ms;
    const actual = truth(work, 2);
    // Within a factor of 3 of the truth (the assumed speed before a large run is 5× the true one).
    assert.ok(est > actual / 6 && est < actual * 3, `${name}: estimated ${est} ms, actual ${actual} ms`);
  }
  // Two runs of different sizes give the line exactly.
  let rate = measuredRate(INITIAL_RATE, 1e8, truth(1e8, 2), 2);
  rate = measuredRate(rate, 4e9, truth(4e9, 2), 2);
  assert.ok(Math.abs(rate.overheadMs - 800) < 1e-6 && Math.abs(rate.speed - speed) / speed < 1e-9, JSON.stringify(rate));
  // The latest runs only.
  for (let i = 0; i < 20; i++) rate = measuredRate(rate, 1e8 * (1 + i), truth(1e8 * (1 + i), 2), 2);
  assert.equal(rate.runs.length, 8);
});

test('experiments: each method gets only the options it uses and the exact kernel it approximates; folds of either shape', () => {
  const settings = { ...Object.fromEntries(Object.entries(vocab.settings).map(([k, s]) => [k, s.def])), depth: 3, sketch: 'tensorsrht', sampler: 'orthogonal', seed: 9 };
  assert.deepEqual(featureOptions(settings, 'ntk', 64), { method: 'ntk', dim: 64, seed: 9, depth: 3, sketch: 'tensorsrht', sampler: 'orthogonal' });
  assert.deepEqual(featureOptions(settings, 'rff', 64), { method: 'rff', dim: 64, seed: 9 });
  assert.deepEqual(featureOptions(settings, 'grad', 64), { method: 'grad', dim: 64, seed: 9, depth: 3 });
  assert.deepEqual(featureOptions(settings, 'arccos1', 64), { method: 'arccos1', dim: 64, seed: 9, sampler: 'orthogonal' });
  assert.equal(dim(settings), 512);
  assert.deepEqual(targetKernel(settings, 'nngp'), { kernel: 'nngp', depth: 3 });
  assert.deepEqual(targetKernel(settings, 'arccos1'), { kernel: 'nngp', depth: 1 });
  assert.deepEqual(targetKernel(settings, 'rff'), { kernel: 'rbf' });
  assert.deepEqual(targetKernel(settings, 'naive'), { kernel: 'ntk', depth: 3 });
  assert.deepEqual(folds([[0, 3], [1, 2]], 4), [{ test: [0, 3], train: [1, 2] }, { test: [1, 2], train: [0, 3] }]);
  assert.deepEqual(folds([{ train: [1, 2], test: [0, 3] }], 4), [{ train: [1, 2], test: [0, 3] }]);

  const K = { rows: 2, cols: 2, data: Float64Array.from([4, 1, 1, 2]) };
  const A = { rows: 2, cols: 2, data: Float64Array.from([4.5, 0.5, 1, 2]) };
  const p = pictureScales(K, A, true);
  assert.deepEqual(Array.from(p.diff.data), [0.5, -0.5, 0, 0]);
  assert.equal(p.s, 0.5, 'magnified: ± the largest difference');
  assert.equal(pictureScales(K, A, false).s, Math.max(Math.abs(p.lo), Math.abs(p.hi)), 'else ± the kernel scale');
  assert.equal(pictureScales(K, null, false).diff, null);

  const reg = { task: 'regression', targetName: 'y' };
  assert.equal(metric(reg, { r2: 0.5 }, [1, 2]).text, '0.500');
  assert.equal(metric(reg, { r2: 0 }, [3, 3]).text, '—', 'R² of a flat target is undefined');
  assert.equal(metric({ task: 'classification' }, { accuracy: 0.9666 }, [0, 1]).text, '96.7%');
});

test('experiments: training iris on a split scores as the page shows it; its model, saved and loaded, predicts the file alike', { timeout: 60_000 }, async () => {
  const bytes = await readFile(path.join(root, 'testdata', 'iris.csv'));
  const ds = await eng.parseCSV(bytes);
  const settings = Object.fromEntries(Object.entries(vocab.settings).map(([k, s]) => [k, s.def]));
  // The search the cost model counts is the engine's: its depths, preprocessings and sample size.
  const search = autoSearch(schema);
  assert.deepEqual(search, { depths: optionAt(schema, 'fitRidge.search.depths').default, preprocess: optionAt(schema, 'fitRidge.search.preprocess').default, rows: optionAt(schema, 'fitRidge.search.rows').default });
  assert.ok(search.depths.length > 1 && search.preprocess.length > 1 && search.rows > 0);
  const plan = trainingPlan(settings, ds, search);
  assert.deepEqual(plan.search, { candidates: search.depths.length * search.preprocess.length, rows: search.rows });
  assert.deepEqual(trainingPlan({ ...settings, method: 'rff' }, ds, search).search, { candidates: search.preprocess.length, rows: search.rows }, 'RFF has no depth to search');
  assert.equal(trainingPlan({ ...settings, auto: false }, ds, search).search, null);
  // Training leaves depth and preprocessing to the engine ('auto', its default).
  assert.deepEqual(plan.features, { method: 'ntk', dim: 512, seed: 1, depth: 'auto', sketch: 'auto', sampler: 'exact' });
  assert.equal(plan.preprocess, 'auto');
  // Without auto, Train uses the page's preprocessing, bias input included (the playground's).
  assert.deepEqual(trainingPlan({ ...settings, auto: false }, ds).preprocess, { standardize: true, unitNorm: false, bias: 1 });
  assert.deepEqual(trainingPlan({ ...settings, auto: false, bias: 0 }, ds).preprocess, { standardize: true, unitNorm: false }, 'σ_b = 0: no bias input');
  assert.equal(trainingPlan({ ...settings, auto: false }, ds).features.depth, 1);
  const ctl = () => ({});
  const r = await trainAndTest(eng, ds, plan, ctl, new AbortController().signal);
  assert.equal(r.rows.length, 45, '30 % of 150 rows held out');
  assert.equal(r.withExact, true);
  assert.ok(r.scores.accuracy >= 0.85, `accuracy ${r.scores.accuracy}`);
  assert.ok(r.exactScores.accuracy >= 0.85, `exact accuracy ${r.exactScores.accuracy}`);
  // 'Exact NTK, L = auto' names the depth the exact kernel chose.
  assert.equal(r.exactDepths.length, 1);
  assert.ok(search.depths.includes(r.exactDepths[0]));
  assert.equal(kernelName(plan.kernel, r.exactDepths), `NTK, L = ${r.exactDepths[0]} (auto)`);
  assert.equal(kernelName({ kernel: 'ntk', depth: 'auto' }, [3, 1, 3]), 'NTK, L = 1 or 3 (auto)');
  assert.equal(kernelName({ kernel: 'ntk', depth: 2 }), 'NTK, L = 2');
  assert.equal(r.curve.accuracy, true, 'classification: λ by validated (leave-one-out) accuracy');
  const auto = optionAt(schema, 'fitRidge.search').fields;
  const total = auto.find((o) => o.name === 'depths').default.length * auto.find((o) => o.name === 'preprocess').default.length;
  assert.equal(r.selection.candidates.length, total, 'the default depths × preprocessings');
  assert.ok(r.selection.chosen >= 0 && r.selection.chosen < total);
  assert.match(r.how, /^45 held-out test rows$/);
  const { text, rows } = predictionsCSV({ ...r, ds });
  const table = parseCSV(text);
  assert.equal(rows, 45);
  assert.deepEqual(table[0], ['row', 'fold', 'true target', 'predicted', 'predicted (exact kernel)']);
  assert.ok(table.slice(1).every((row) => ds.classes.includes(row[3])), 'class names, not indices');
  assert.equal(baseName('my data (1).csv.gz'), 'my_data_1_');

  // The model kept is the one evaluated: it predicts the held-out rows as the run did.
  assert.equal(r.modelRows, 105);
  const again = await r.model.predict(eng.take(ds.X, r.rows));
  assert.deepEqual(Array.from(again), r.pred);
  assert.equal(modelFileName('iris.csv', 'ntk'), 'ntkrf-iris-ntk.json');
  const file = r.model.toJSON();
  const about = describeModel(file, r.model);
  const chosen = r.selection.candidates[r.selection.chosen].depth;
  assert.equal(about.title, `NTK RF, m = 512, L = ${chosen}, seed 1`, 'the trained model names the depth auto chose');
  assert.deepEqual(describeModel({ features: { ...plan.features, depth: chosen } }, r.model), about, 'the page describes a trained model by its options, with what auto chose');
  assert.equal(about.readsCSV, true);
  assert.match(about.lines.join(' '), /^Classification of target into 3 classes \(0, 1, 2\); λ = .*Reads 4 columns .*, by name; a target column, if present, is ignored\.$/);
  const loaded = await eng.loadModel(JSON.stringify(file));
  const a = await r.model.predictCSV(bytes), b = await loaded.predictCSV(bytes);
  assert.equal(a.length, 150);
  assert.deepEqual(b, a, 'the loaded model predicts the file as the trained one');
  assert.deepEqual(a.slice(0, 3), ['0', '0', '0'], 'class names');
  const csv = parseCSV(predictionCSV(a, 'target'));
  assert.deepEqual(csv[0], ['row', 'predicted target']);
  assert.deepEqual(csv.slice(1).map((row) => row[1]), a);
  assert.equal(predictionFileName('new rows.csv.gz'), 'new_rows-predicted.csv');
  assert.deepEqual(parseCSV(predictionCSV(['=1+1', 'ok'], 'x')).slice(1).map((row) => row[1]), ["'=1+1", 'ok'], 'formulas in class names are neutralised');

  // With k folds the folds only measure; the model kept is fitted on every row.
  const kf = await trainAndTest(eng, ds, { ...plan, evaluation: 'kfold', k: 3, exactWanted: false }, ctl, new AbortController().signal);
  assert.equal(kf.rows.length, 150);
  assert.equal(kf.modelRows, 150);
  assert.equal(kf.curve.accuracy, true);
  assert.match(kf.how, /^3-fold cross-validation \(150 rows\)$/);
});

test('the pictures\' preprocessing is the engine\'s: a missing category becomes the most frequent one, not the mean of the one-hot columns', async () => {
  const text = 'colour,size,y\nred,1,a\nred,2,b\nblue,3,a\n,4,b\nred,5,a\n';
  const ds = await eng.parseCSV(text);
  const P = await preprocessed(eng, ds, { std: false, unit: false }, null);
  const g = ds.groups.find((x) => x.categorical);
  const row = (i) => Array.from(P.data.subarray(i * P.cols + g.start, i * P.cols + g.start + g.width));
  const red = ds.columns[g.column].categories.indexOf('red');
  assert.deepEqual(row(3), row(0), 'the blank colour is imputed as red, the most frequent');
  assert.equal(row(3)[red], 1);
  const S = await preprocessed(eng, ds, { std: true, unit: true }, [4, 0]);
  assert.equal(S.rows, 2);
  for (let i = 0; i < 2; i++) assert.ok(Math.abs(Math.hypot(...S.data.subarray(i * S.cols, (i + 1) * S.cols)) - 1) < 1e-12, 'unit-norm rows');
});

test('the sweep compares every method at every size, each with its own exact kernel', async () => {
  const calls = [];
  const fake = { compare: async (X, o) => { calls.push(o); return { relFrobenius: 1 / o.features.dim, spectral: 2, mse: 0, lambda: 0, seconds: { exact: 0.1, features: 0.01 } }; } };
  const settings = { depth: 2, seed: 3, sketch: 'tensorsketch', sampler: 'exact', logm: 9 };
  let updates = 0;
  const rows = await sweep(fake, { rows: 1, cols: 1, data: new Float64Array(1) }, settings, () => ({}), new AbortController().signal, () => updates++);
  assert.equal(rows.length, SWEEP_STEPS);
  assert.equal(updates, SWEEP_STEPS);
  assert.deepEqual(calls.map((c) => [c.features.method, c.features.dim]), SWEEP_METHODS.flatMap((m) => SWEEP_DIMS.map((d) => [m, d])));
  assert.deepEqual(calls.find((c) => c.features.method === 'rff').kernel, { kernel: 'rbf' });
  const series = sweepSeries(rows, 'relFrobenius');
  assert.deepEqual(series.map((s) => s.name), SWEEP_METHODS.map((m) => METHODS[m].name));
  assert.deepEqual(series[0].points[0], [64, 1 / 64]);
  assert.equal(parseCSV(comparisonsCSV(rows).text).length, 1 + SWEEP_STEPS);
});

test('the features export writes every row with its target, in slices', async () => {
  const P = { rows: 2500, cols: 2, data: Float64Array.from({ length: 5000 }, (_, i) => i - 0.5) };
  const ds = { task: 'classification', classes: ['=a', 'b'], y: Float64Array.from({ length: 2500 }, (_, i) => i % 2), targetName: 'label' };
  const progress = [];
  const parts = await featuresCSV(P, ds, new AbortController().signal, (p) => progress.push(p.done));
  const rows = parseCSV(parts.join(''));
  assert.equal(rows.length, 2501);
  assert.deepEqual(rows[0], ['phi1', 'phi2', 'label']);
  assert.deepEqual(rows[1], ['-0.5', '0.5', "'=a"]);
  assert.deepEqual(progress, [0, 1000, 2000]);
  const stop = new AbortController();
  stop.abort();
  await assert.rejects(featuresCSV(P, ds, stop.signal), { name: 'AbortError' });
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

test('the selection sentence names the chosen candidate, why (the best, or within one standard error of it), and the runners-up', () => {
  assert.deepEqual([{ standardize: true, unitNorm: false }, { standardize: true, unitNorm: true }, { standardize: false, unitNorm: false }, { standardize: true, unitNorm: false, bias: 1 }].map(prepName), ['standardized columns', 'unit-norm rows', 'raw columns', 'standardized columns with a bias input']);
  const std = { standardize: true, unitNorm: false }, unit = { standardize: true, unitNorm: true };
  const cands = [
    { depth: 1, preprocess: std, lambda: 0.1, score: 0.2, accuracy: 0.95, stdErr: 0.02 },
    { depth: 3, preprocess: std, lambda: 0.1, score: 0.18, accuracy: 0.96 },
    { depth: 2, preprocess: unit, lambda: 0.1, score: 0.3, accuracy: 0.9, stdErr: 0.03 },
  ];
  assert.equal(selectionText({ rows: 105, criterion: 'loo', candidates: cands, chosen: 0, best: 1 }),
    'auto chose depth L = 1 with standardized columns (leave-one-out 95.00% on 105 training rows: within one standard error of the best, L = 3, standardized columns 96.00%: 1.00 ± 2.00 points below it, and shallower (L = 1 < 3)) among 3 candidates; next: L = 2, unit-norm rows 90.00% (6.00 ± 3.00 points below the best).');
  assert.equal(selectionText({ rows: 105, criterion: 'loo', candidates: cands, chosen: 1, best: 1 }),
    'auto chose depth L = 3 with standardized columns (leave-one-out 96.00% on 105 training rows: the best) among 3 candidates; next: L = 1, standardized columns 95.00% (1.00 ± 2.00 points below the best); L = 2, unit-norm rows 90.00% (6.00 ± 3.00 points below the best).');
  // Zoo: a candidate that is not the best has a standard error of 0 (omitted in the JSON), and
  // the one chosen is shallower than the best; the sentence names the best the engine names.
  const zoo = [
    { depth: 1, preprocess: std, lambda: 0.1, score: 0.2, accuracy: 0.93 },
    { depth: 2, preprocess: std, lambda: 0.1, score: 0.18, accuracy: 0.95 },
    { depth: 1, preprocess: unit, lambda: 0.1, score: 0.21, accuracy: 0.93 },
  ];
  assert.equal(selectionText({ rows: 80, criterion: 'loo', candidates: zoo, chosen: 0, best: 1 }),
    'auto chose depth L = 1 with standardized columns (leave-one-out 93.00% on 80 training rows: within one standard error of the best, L = 2, standardized columns 95.00%: 2.00 ± 0.00 points below it, and shallower (L = 1 < 2)) among 3 candidates; next: L = 1, unit-norm rows 93.00% (2.00 ± 0.00 points below the best).');
  // Best 0 is not written: an absent best is candidate 0.
  assert.match(selectionText({ rows: 80, criterion: 'loo', candidates: zoo, chosen: 0 }), /: the best\)/);
  // Regression, no depth (RFF): squared error.
  const reg = [{ depth: 0, preprocess: std, lambda: 1, score: 0.5 }, { depth: 0, preprocess: unit, lambda: 1, score: 0.7, stdErr: 0.1 }];
  assert.equal(selectionText({ rows: 50, criterion: 'loo', candidates: reg, chosen: 0 }),
    'auto chose standardized columns (leave-one-out MSE 0.5 on 50 training rows: the best) among 2 candidates; next: unit-norm rows MSE 0.7 (MSE 0.2 ± 0.1 above the best).');
  // Issue 42: accuracies that round alike are told apart (two decimals and the paired difference).
  const close = [
    { depth: 1, preprocess: std, lambda: 0.1, score: 0.2, accuracy: 0.9667, stdErr: 0.0031 },
    { depth: 2, preprocess: std, lambda: 0.1, score: 0.18, accuracy: 0.9672 },
  ];
  assert.match(selectionText({ rows: 990, criterion: 'loo', candidates: close, chosen: 0, best: 1 }), /96\.67% on 990 training rows: within one standard error of the best, L = 2, standardized columns 96\.72%: 0\.05 ± 0\.31 points below it/);
  // Issue 39: 'auto''s RBF candidates are named as such, and an NTK kept within reach of an RBF best says why.
  const rbf = [
    { depth: 1, preprocess: std, lambda: 0.1, score: 0.2, accuracy: 0.95, stdErr: 0.02 },
    { kernel: 'rbf', gamma: 0.0167, depth: 0, preprocess: std, lambda: 0.003, score: 0.15, accuracy: 0.96 },
  ];
  assert.match(selectionText({ rows: 634, criterion: 'loo', candidates: rbf, chosen: 1, best: 1 }), /^auto chose the RBF kernel γ = 0\.0167 with standardized columns \(leave-one-out 96\.00% on 634 training rows: the best\)/);
  assert.match(selectionText({ rows: 634, criterion: 'loo', candidates: rbf, chosen: 0, best: 1 }), /within one standard error of the best, RBF γ = 0\.0167, standardized columns 96\.00%: 1\.00 ± 2\.00 points below it, and the NTK, preferred to the RBF kernel\)/);
  // Issue 39: with a screen (successive halving) the sentence says how many were kept, and names only kept runners-up.
  const screened = [
    { depth: 1, preprocess: std, lambda: 0.1, score: 0.2, accuracy: 0.95, stdErr: 0.02, rows: 500 },
    { depth: 3, preprocess: std, lambda: 0.1, score: 0.18, accuracy: 0.96, rows: 500 },
    { depth: 2, preprocess: unit, lambda: 0.1, score: 0.1, accuracy: 0.99, rows: 250 },
  ];
  assert.equal(selectionText({ rows: 500, screen: 250, criterion: 'loo', candidates: screened, chosen: 1, best: 1 }),
    'auto chose depth L = 3 with standardized columns (leave-one-out 96.00% on 500 training rows: the best) among the 2 best of 3 candidates on 250 of those rows; next: L = 1, standardized columns 95.00% (1.00 ± 2.00 points below the best).');
  // Issue 39: the method 'auto' chose, why, and what it costs, as the core says.
  const exact = { rows: 105, criterion: 'loo', candidates: cands, chosen: 1, best: 1, method: NAMES.MethodKernel, reason: 'the exact kernel on 105 rows (0.001 CPU-s) costs no more than 1024 random features (0.002 CPU-s) or the search (0.03 CPU-s)', seconds: 0.001, searchSeconds: 0.03 };
  assert.match(selectionText(exact), /^auto fitted the exact kernel: the exact kernel on 105 rows .* or the search \(0\.03 CPU-s\); modelled ≈ 0\.0010 CPU-s for the fit and 0\.030 for the search\. auto chose depth L = 3/);
  assert.match(selectionText({ ...exact, method: NAMES.MethodFeatures, dim: 4096, reason: 'r' }), /^auto fitted m = 4096 random features: r;/);
  // An RBF candidate chosen for features: its random Fourier features.
  assert.match(selectionText({ rows: 634, criterion: 'loo', candidates: rbf, chosen: 1, best: 1, method: NAMES.MethodFeatures, dim: 4096, reason: 'r', seconds: 1, searchSeconds: 1 }),
    /^auto fitted m = 4096 random Fourier features: r;.* auto chose the RBF kernel γ = 0\.0167/);
});

test('the page\'s setting controls are the settings table\'s: each control of index.html that sets a setting is in it once, with a redraw the page knows', async () => {
  const { CONTROLLED } = await lab('controls.js');
  const html = await readFile(path.join(root, 'www', 'lab', 'index.html'), 'utf8');
  // Every input and select of the page, less those that are not settings: files, the data set, the target and the columns left out (the data panel's), the paint radios.
  const ids = [...html.matchAll(/<(?:input|select)\b[^>]*\bid="([^"]+)"/g)].map((m) => m[1]);
  const notSettings = new Set(['dataset', 'file', 'target', 'exclude', 'model-file', 'predict-file', 'line1d-set']);
  const settingIds = ids.filter((id) => !notSettings.has(id)).sort();
  const tableIds = CONTROLLED.map(([, id]) => id);
  assert.deepEqual([...tableIds].sort(), settingIds, 'the table and the page name the same controls');
  assert.equal(new Set(tableIds).size, tableIds.length, 'one control per setting');
  const redraws = new Set(['reload', 'prep', 'pictures', 'heatmaps', 'surfaces', 'toy']);
  for (const [key, , s] of CONTROLLED) {
    for (const r of s.redraw ?? []) assert.ok(redraws.has(r), `${key}: redraw ${r}`);
    assert.ok(Object.hasOwn(vocab.settings, key), `${key} is a setting of the vocabulary`);
  }
});

test('a mark\'s label stays inside its chart: above the mark, or below it at the top', () => {
  for (const [px, py, W, inside] of [[100, 120, 360, true], [300, 10, 360, true], [40, 0, 360, true], [200, 18, 360, true]]) {
    const at = markLabel(px, py, W);
    assert.ok(at.y >= 11 === inside, `a mark at (${px}, ${py}): label baseline at ${at.y}`);
    assert.equal(at.anchor, px < W / 2 ? 'start' : 'end');
  }
  assert.equal(markLabel(100, 120, 360).y, 112, 'above when there is room');
  assert.ok(markLabel(100, 10, 360).y > 10, 'below a mark at the top');
});

test('the larger-m advice says what a fit at that m reached, or that it is a guess (issue 42: m = 1024 gave 91.2 % against 93.6 % at 512)', () => {
  const cls = { task: 'classification' }, reg = { task: 'regression' };
  const lim = { defaultM: 1024, maxM: 8192 };
  assert.equal(checkM(512, lim), 1024);
  assert.equal(checkM(2048, lim), 4096);
  assert.equal(checkM(8192, lim), null, 'nothing larger on this page');
  // Checked and better: the advice, with what the fit reached.
  assert.equal(shortfall(cls, { value: 0.886 }, { value: 0.97 }, 512, { checked: { m: 1024, value: 0.95, text: '95.0%' } }),
    'The random features fall 8.4 points of accuracy short of the exact kernel at m = 512. Checked on the same rows: at m = 1024 they reach 95.0%; set Features m to 1024.');
  // Checked and no better: no advice to take more.
  const worse = shortfall(cls, { value: 0.936 }, { value: 0.99 }, 512, { checked: { m: 1024, value: 0.912, text: '91.2%' } });
  assert.match(worse, /m = 1024 reaches 91\.2%, no better/);
  assert.doesNotMatch(worse, /set Features m|try Features m/);
  // Not checked: said to be a guess.
  assert.match(shortfall(reg, { value: 0.7 }, { value: 0.8 }, 8192), /0\.100 in R² short .*a guess, not checked/);
  assert.equal(shortfall(cls, { value: 0.95 }, { value: 0.97 }, 512), '', 'two points: keeping up');
  assert.equal(shortfall(cls, { value: 0.9 }, undefined, 512), '', 'no exact kernel fitted');
  assert.equal(shortfall(reg, { value: NaN }, { value: 0.8 }, 512), '', 'an undefined R²');
});

test('the memory of Φ is counted at the engine\'s precision: 4 bytes a value in float32 (issue 42: 8 bytes were counted)', () => {
  const limits = { featureBytes: { ntk: { exact: 4, hadamard: 8 }, grad: { exact: 8 } } };
  assert.deepEqual(featureMemory(200, 512, { method: 'ntk', sampler: 'exact' }, limits), { bytes: 409600, per: 4, text: 'Φ for all 200 rows: 200 × 512 × 4 bytes = 409.6 kB' });
  assert.equal(featureMemory(200, 512, { method: 'ntk', sampler: 'hadamard' }, limits).per, 8);
  assert.equal(featureMemory(200, 512, { method: 'grad', sampler: 'exact' }, limits).bytes, 819200);
  assert.equal(featureMemory(200, 512, { method: 'ntk', sampler: 'exact' }, null), null, 'an engine that does not say');
});

// A job waiting for something it does not own (the engine starting) stops
// at its Cancel: the data load awaited app.engineReady whatever its signal.
test('orAbort: a job\'s Cancel ends its wait on a promise that never settles; a settled promise passes through', async () => {
  const never = new Promise(() => {});
  const ac = new AbortController();
  const waiting = orAbort(never, ac.signal);
  setTimeout(() => ac.abort(), 10);
  await assert.rejects(waiting, (e) => e.name === 'AbortError');
  await assert.rejects(orAbort(never, AbortSignal.abort()), (e) => e.name === 'AbortError');
  assert.equal(await orAbort(Promise.resolve(7), new AbortController().signal), 7);
  await assert.rejects(orAbort(Promise.reject(new Error('x')), new AbortController().signal), /x/);
  // The page's data load waits through orAbort.
  const src = readFileSync(path.join(root, 'www', 'lab', 'data-panel.js'), 'utf8');
  assert.match(src, /await orAbort\(app\.engineReady, signal\)/);
  assert.doesNotMatch(src, /await app\.engineReady/);
});
