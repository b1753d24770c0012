// Models as files (issue 14): a fitted model saved with JSON.stringify and
// read back with loadModel predicts the same bits; a model fitted from a
// Dataset reads new CSV rows through its schema; bad model files are
// refused with the documented codes and never take the engine down. Also
// preprocess, the {train, test} folds and the fit planned by Go.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pkg, root, randomMatrix, refX, crossHostDir, CROSSHOST_SKIP, watchCalls } from './helpers.js';

const { createEngine } = await import(pkg);

/** How many candidates the default 'auto' search scores (depths × preprocessings), from the schema Go builds. */
function defaultCandidates(schema) {
  const search = schema.fitRidge.find((o) => o.name === 'search').fields;
  const def = (name) => search.find((o) => o.name === name).default;
  return def('depths').length * def('preprocess').length;
}
const text = (name) => readFileSync(path.join(root, 'testdata', name), 'utf8');
let eng;
before(async () => { eng = await createEngine({ workers: 2 }); });
after(() => eng?.close());

/** The bytes of a Float64Array, to compare bit for bit (deepEqual on numbers equates 0 and −0). */
const bits = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');

const isError = (Class, code, pattern) => (e) => {
  assert.ok(e instanceof Class, `want ${Class.name}, got ${e?.name}: ${e?.message}`);
  assert.equal(e.code, code, e.message);
  if (pattern) assert.match(e.message, pattern);
  return true;
};

/** The CSV text without one column (by name), as a file for prediction would come. */
function dropColumn(csv, name) {
  const lines = csv.trimEnd().split(/\r?\n/);
  const at = lines[0].split(',').map((h) => h.replace(/^"(.*)"$/, '$1')).indexOf(name);
  assert.ok(at >= 0, `no column ${name}`);
  return lines.map((l) => l.split(',').filter((_, j) => j !== at).join(',')).join('\n') + '\n';
}

let iris; // { ds, model, file } shared by the tests below

test('a model fitted from a Dataset saves with JSON.stringify and loads back predicting the same bits', async () => {
  const ds = await eng.parseCSV(text('iris.csv'));
  const model = await eng.fitRidge(ds, { features: { dim: 256, depth: 2, seed: 7 } });
  assert.equal(model.task, 'classification');
  assert.equal(model.kind, 'features');
  assert.deepEqual(model.classes, ds.classes);
  assert.equal(model.input.targetName, ds.targetName);
  const file = JSON.stringify(model);
  const saved = JSON.parse(file);
  assert.equal(saved.format, 'ntkrf-model');
  // Version 4: float32 features, the default (older ntkrf would read them as
  // float64); 3 only when the preprocessing has a bias input (older ntkrf
  // would read it without); else 2.
  assert.equal(saved.features.precision, 'float32');
  assert.equal(saved.version, 4);
  assert.equal(saved.coef.data.length, saved.coef.rows * saved.coef.cols);
  assert.equal(saved.train, undefined, 'a features model keeps no training rows');

  for (const source of [file, saved]) {
    const loaded = await eng.loadModel(source);
    assert.deepEqual(loaded.classes, ds.classes);
    assert.equal(loaded.lambda, model.lambda);
    assert.deepEqual(loaded.curve, model.curve);
    assert.equal(bits(await loaded.predict(ds.X)), bits(await model.predict(ds.X)));
    assert.equal(bits((await loaded.predictScores(ds.X)).data), bits((await model.predictScores(ds.X)).data));
    // Saving again writes the same file.
    assert.equal(JSON.stringify(loaded), file);
  }
  iris = { ds, model, file };
});

test('cross-host: the Node model, its CSV and its predictions for native Go; the native model predicts here as it did there', { skip: !crossHostDir && CROSSHOST_SKIP }, async () => {
  const { model, file } = iris;
  // core/pipeline TestCrossHost loads this model natively, predicts the CSV
  // and compares with these names, then saves the model again and compares files.
  const csv = 'testdata/iris.csv';
  const predictions = await model.predictCSV(text('iris.csv'));
  writeFileSync(path.join(crossHostDir, 'model-node.json'), JSON.stringify({ model: JSON.parse(file), csv, predictions }));
  // The model TestCrossHost saved natively in this run (go test runs before
  // the Node tests in ./build.sh test): its absence is a failure.
  const native = JSON.parse(readFileSync(path.join(crossHostDir, 'model-native.json'), 'utf8'));
  const loaded = await eng.loadModel(native.model);
  const got = await loaded.predictCSV(text(path.basename(native.csv)));
  assert.equal(got.length, native.predictions.length);
  got.forEach((name, i) => assert.equal(name, native.predictions[i], `row ${i}: Node predicts ${name}, native Go predicted ${native.predictions[i]}`));
  // Saved again here, the file is the one native Go wrote (numbers compared as numbers).
  assert.deepEqual(JSON.parse(JSON.stringify(loaded)), native.model);
  // The same fit here ('auto' depth, preprocessing and λ, as TestCrossHost
  // fits it) makes the same choices: candidates, scores, chosen, λ.
  const ds = await eng.parseCSV(text('iris.csv'));
  const here = await eng.fitRidge(ds, { features: { dim: 512, seed: 11 } });
  const sel = native.model.selection;
  assert.ok(sel && sel.candidates.length === defaultCandidates(eng.schema), 'the native model carries its selection');
  assert.equal(here.selection.chosen, sel.chosen);
  here.selection.candidates.forEach((c, i) => {
    const n = sel.candidates[i];
    assert.deepEqual([c.depth, c.preprocess, c.accuracy ?? 0, c.stdErr ?? 0], [n.depth, n.preprocess, n.accuracy ?? 0, n.stdErr ?? 0], `candidate ${i}`);
    assert.ok(Math.abs(c.score - n.score) <= 1e-9 * n.score && Math.abs(c.lambda - n.lambda) <= 1e-12 * n.lambda, `candidate ${i}: ${c.score} vs ${n.score}`);
  });
  assert.ok(Math.abs(here.lambda - native.model.lambda) <= 1e-12 * native.model.lambda, `λ ${here.lambda} here, ${native.model.lambda} natively`);
  assert.deepEqual(await here.predictCSV(text('iris.csv')), native.predictions);
  // Both hosts took the core's default precision: float32 (rf.DefaultPrecision).
  assert.equal(native.model.features.precision, 'float32', 'native Go fitted the default in float32');
  assert.equal(here.toJSON().features.precision, 'float32', 'the package fitted the default in float32');
});

test('the default precision is the core\'s: float32 where the features have a float32 form (the same bits as asking for it), float64 for the hadamard sampler; the file records float32 (version 4) and leaves float64 out', async () => {
  const X = randomMatrix(60, 4, 5);
  const y = Float64Array.from({ length: 60 }, (_, i) => i % 3);
  const fit = (features) => eng.fitRidge(X, y, { task: 'classification', lambda: 1e-3, preprocess: {}, features: { depth: 1, dim: 64, seed: 2, ...features } });
  for (const [features, explicit, version] of [[{}, 'float32', 4], [{ sampler: 'hadamard' }, 'float64', 2]]) {
    const def = (await fit(features)).toJSON();
    const asked = (await fit({ ...features, precision: explicit })).toJSON();
    assert.equal(def.features.precision, explicit === 'float32' ? 'float32' : undefined, `${JSON.stringify(features)}: features.precision in the file`);
    assert.equal(def.version, version, `${JSON.stringify(features)}: file version`);
    assert.deepEqual(def, asked, `${JSON.stringify(features)}: the default is ${explicit}, bit for bit`);
  }
  const f64 = (await fit({ precision: 'float64' })).toJSON();
  assert.equal(f64.features.precision, undefined, 'a float64 file leaves the precision out, as every older file');
  assert.equal(f64.version, 2);
  await assert.rejects(fit({ sampler: 'hadamard', precision: 'float32' }), isError(Error, 'ERR_OPTION', /precision/));
  assert.equal(eng.schema.features.find((o) => o.name === 'precision').default, undefined, 'no default in the schema: it depends on the method and sampler');
});

test('a kernel model saves its training rows and loads back predicting the same bits', async () => {
  const X = randomMatrix(60, 3, 11);
  const y = Float64Array.from({ length: 60 }, (_, i) => Math.sin(2 * X.data[3 * i]) + X.data[3 * i + 2]);
  const model = await eng.fitRidge(X, y, { kernel: { kernel: 'ntk', depth: 2 }, preprocess: { unitNorm: true } });
  assert.equal(model.kind, 'kernel');
  assert.equal(model.classes, null);
  assert.equal(model.input, null);
  const saved = JSON.parse(JSON.stringify(model));
  assert.equal(saved.train.rows, 60);
  assert.equal(saved.train.cols, 3);
  const loaded = await eng.loadModel(JSON.stringify(model));
  assert.equal(loaded.kind, 'kernel');
  const Xt = randomMatrix(25, 3, 12);
  assert.equal(bits(await loaded.predict(Xt)), bits(await model.predict(Xt)));
});

test('predictCSV reads rows through the saved schema: class names, with or without the target column', async () => {
  const { ds, model, file } = iris;
  const want = Array.from(await model.predict(ds.X), (i) => ds.classes[i]);
  const got = await model.predictCSV(text('iris.csv'));
  assert.equal(got.length, 150);
  assert.deepEqual(got, want);
  assert.ok(got.every((c) => ds.classes.includes(c)));
  // A file of new rows has no target column.
  const features = dropColumn(text('iris.csv'), ds.targetName);
  assert.deepEqual(await model.predictCSV(features), want);
  // Bytes too, and a loaded model reads the same way.
  const loaded = await eng.loadModel(file);
  assert.deepEqual(await loaded.predictCSV(new TextEncoder().encode(features)), want);
  // A model fitted on a matrix has no schema to read a file with.
  const plain = await eng.fitRidge(ds.X, ds.y, { task: 'classification', features: { dim: 32 } });
  await assert.rejects(plain.predictCSV(features), (e) => /^predictCSV: /.test(e.message) && typeof e.code === 'string');
  await assert.rejects(model.predictCSV(42), isError(TypeError, 'ERR_TYPE', /input must be a string, Uint8Array or ArrayBuffer/));
  await assert.rejects(model.predictCSV(features, { signal: AbortSignal.abort() }), (e) => e.name === 'AbortError');
  await assert.rejects(model.predictCSV(features, { rows: 3 }), isError(TypeError, 'ERR_UNKNOWN_OPTION'));
});

test('a regression model fitted from a Dataset predicts a CSV without its target column', async () => {
  const csv = text('BostonHousing.csv');
  const ds = await eng.parseCSV(csv, { target: 'medv' });
  const model = await eng.fitRidge(ds, { features: { dim: 128, seed: 3 } });
  assert.equal(model.task, 'regression');
  assert.equal(model.classes, null);
  assert.equal(model.input.targetName, 'medv');
  const got = await model.predictCSV(dropColumn(csv, 'medv'));
  assert.ok(got instanceof Float64Array);
  assert.equal(bits(got), bits(await model.predict(ds.X)));
  const loaded = await eng.loadModel(JSON.stringify(model));
  assert.equal(bits(await loaded.predictCSV(csv)), bits(got));
});

test('parseCSV exclude: the model leaves the columns out and reads files with or without them', async () => {
  const csv = text('BostonHousing.csv');
  const ds = await eng.parseCSV(csv, { target: 'medv', exclude: ['CRIM', 'zn'] });
  assert.deepEqual(ds.excluded, ['crim', 'zn']);
  assert.ok(!ds.columns.some((c) => c.name === 'crim' || c.name === 'zn') && !ds.featureNames.includes('crim'));
  const model = await eng.fitRidge(ds, { features: { dim: 64, seed: 5 } });
  assert.deepEqual(model.input.excluded, ['crim', 'zn']);
  const want = bits(await model.predict(ds.X));
  assert.equal(bits(await model.predictCSV(csv)), want, 'the excluded columns present');
  assert.equal(bits(await model.predictCSV(dropColumn(dropColumn(csv, 'crim'), 'zn'))), want, 'the excluded columns absent');
  const loaded = await eng.loadModel(JSON.stringify(model));
  assert.equal(bits(await loaded.predictCSV(csv)), want, 'after a save and load');
  const { train } = await eng.split(ds, { seed: 1 });
  assert.deepEqual(train.excluded, ['crim', 'zn'], 'a part keeps the schema');
  await assert.rejects(eng.parseCSV(csv, { target: 'medv', exclude: ['medv'] }), isError(RangeError, 'ERR_OPTION', /cannot exclude "medv": it is the target/));
  await assert.rejects(eng.parseCSV(csv, { exclude: ['nope'] }), isError(RangeError, 'ERR_OPTION', /cannot exclude "nope": no column/));
});

test('fitRidge(dataset, options): the dataset brings task, classes and groups; misuse is refused by name', async () => {
  const ds = iris.ds;
  await assert.rejects(eng.fitRidge(ds, { task: 'regression' }), isError(RangeError, 'ERR_OPTION', /task "regression", but the data set's target is a "classification" target/));
  await assert.rejects(eng.fitRidge(ds, { groups: [] }), isError(RangeError, 'ERR_OPTION', /groups given, but the data set has its own one-hot groups/));
  // Options that agree with the dataset are what it brings: accepted, as by Go's FitDataset.
  const agreeing = await eng.fitRidge(ds, { task: 'classification', classes: ds.classes.length, features: { dim: 32, depth: 1 }, preprocess: {} });
  assert.deepEqual(agreeing.classes, ds.classes);
  await assert.rejects(eng.fitRidge(ds, { classes: ds.classes.length + 1 }), isError(RangeError, 'ERR_OPTION', /classes 4, but the data set has 3/));
  await assert.rejects(eng.fitRidge(ds, ds.y, {}), isError(TypeError, 'ERR_TYPE', /fitRidge\(dataset, options\)/));
  await assert.rejects(eng.fitRidge(ds, { dims: 3 }), isError(TypeError, 'ERR_UNKNOWN_OPTION'));
  await assert.rejects(eng.fitRidge({ ...ds, task: 'poetry' }), isError(RangeError, 'ERR_VALUE', /input schema: task "poetry"/));
});

/** Breaks a copy of the saved iris model. */
function tampered(change) {
  const f = JSON.parse(iris.file);
  change(f);
  return f;
}

test('bad model files are refused with the documented codes, and the engine answers afterwards', async () => {
  const f = iris.file;
  const cases = [
    ['truncated JSON', f.slice(0, f.length >> 1), TypeError, 'ERR_TYPE', /ends early: the JSON is cut short/],
    ['a number', '42', TypeError, 'ERR_TYPE', /^loadModel: not a model file: the JSON is the number 42; it must be an object/],
    ['an array', [], TypeError, 'ERR_TYPE', /got an array/],
    ['null', null, TypeError, 'ERR_TYPE', /got null/],
    ['a Float64Array', new Float64Array(3), TypeError, 'ERR_TYPE', /got a Float64Array/],
    ['no coef', tampered((m) => { delete m.coef; }), TypeError, 'ERR_TYPE', /has no field "coef"/],
    ['another format', tampered((m) => { m.format = 'onnx'; }), RangeError, 'ERR_VALUE', /format/],
    ['version 99', tampered((m) => { m.version = 99; }), RangeError, 'ERR_VALUE', /version 99/],
    ['coef with a value missing', tampered((m) => { m.coef.data.pop(); }), RangeError, 'ERR_SHAPE', /coef is 256×3 but holds 767 numbers/],
    ['coef with a class too many', tampered((m) => { m.coef.cols += 1; m.coef.data.push(...m.coef.data.slice(0, m.coef.rows)); }), RangeError, 'ERR_SHAPE', /coef has 4 columns and bias 3 values, but the model has 3 outputs/],
    ['coef with rows the features do not make', tampered((m) => { m.coef.rows -= 1; m.coef.data.length -= m.coef.cols; }), RangeError, 'ERR_SHAPE', /coef has 255 rows, but the features make 256 columns/],
    ['a null bias', JSON.stringify(tampered((m) => { m.bias[0] = NaN; })), RangeError, 'ERR_NONFINITE', /bias\[0\] is null/],
    ['a null coefficient (JSON of NaN)', JSON.stringify(tampered((m) => { m.coef.data[5] = NaN; })), RangeError, 'ERR_NONFINITE', /coef.data\[5\] is null/],
    ['a NaN coefficient', tampered((m) => { m.coef.data[5] = NaN; }), RangeError, 'ERR_NONFINITE', /coef.data\[5\] is null/],
    ['a text coefficient', tampered((m) => { m.coef.data[0] = '1'; }), TypeError, 'ERR_TYPE', /coef.data\[0\] is "1"; it must be a number/],
    ['an unknown field', tampered((m) => { m.weights = [1]; }), TypeError, 'ERR_TYPE', /^loadModel: not a model file: the JSON has an unknown field "weights"/],
    ['a preprocess that is no scaler', tampered((m) => { m.preprocess = 5; }), TypeError, 'ERR_TYPE', /preprocess is the number 5; it must be an object/],
    ['a negative λ', tampered((m) => { m.lambda = -1; }), RangeError, 'ERR_VALUE', /lambda -1/],
    ['classes that are not the schema\'s', tampered((m) => { m.classes = ['a', 'b', 'c']; }), RangeError, 'ERR_VALUE', /classes differ/],
    ['neither features nor kernel', tampered((m) => { delete m.features; }), RangeError, 'ERR_VALUE', /features, or a kernel/],
    ['a feature map wider than any', tampered((m) => { m.features.m1 = 2 ** 24; m.features.sketchDim = 2 ** 24; m.features.dim = 2 ** 25; }), RangeError, 'ERR_VALUE', /dim 33554432 is out of range/],
  ];
  for (const [what, file, Class, code, pattern] of cases) {
    await assert.rejects(eng.loadModel(file), isError(Class, code, pattern), what);
    // The engine still answers, in every worker.
    const answers = await Promise.all([1, 2].map((depth) => eng.kernel(refX(), null, { depth })));
    assert.equal(answers.length, 2, what);
  }
  const again = await eng.loadModel(f);
  assert.deepEqual(await again.predictCSV(text('iris.csv')), await iris.model.predictCSV(text('iris.csv')));
});

/** The widest features there are, on iris's 4 columns: layer 2's 2^23 × 2^24 weights would take 1.1 PB. */
const tooWide = () => tampered((m) => { m.features = { ...m.features, sketch: 'tensorsketch', dim: 2 ** 24, m0: 2 ** 23, m1: 2 ** 23, sketchDim: 2 ** 23 }; });
/** The same width in the split form (the default the model was saved with): its own layout, refused as early. */
const tooWideSplit = () => tampered((m) => { m.features = { ...m.features, sketch: 'split', depth: 2, dim: 2 ** 24, m0: 2 ** 23 }; });

test('a model file whose feature map would take too much memory is refused with ERR_TOO_LARGE; the engine answers', async () => {
  // The coefficients are left as they were: the map is checked first.
  await assert.rejects(eng.loadModel(tooWide()), isError(RangeError, 'ERR_TOO_LARGE', /^loadModel: model file: the feature map \(ntk, 16777216 columns on 4 inputs, 2 layers\) needs .* over the .* limit/));
  await assert.rejects(eng.loadModel(tooWideSplit()), isError(RangeError, 'ERR_TOO_LARGE', /^loadModel: model file: the feature map \(ntk, 16777216 columns on 4 inputs, 2 layers\) needs .* over the .* limit/));
  const K = await eng.kernel(refX(), null, { depth: 1 });
  assert.equal(K.data[0], 10);
});

test("the 'auto' selection split over three workers chooses as one worker does (candidates, scores, λ), with one progress count", async () => {
  const X = randomMatrix(150, 4, 21);
  const y = Float64Array.from({ length: 150 }, (_, i) => (X.data[4 * i] + X.data[4 * i + 1] > 0 ? 1 : 0) + (X.data[4 * i + 2] > 0.5 ? 1 : 0));
  const opts = { task: 'classification', features: { dim: 128, seed: 5 } };
  const one = await createEngine({ workers: 1 });
  const three = await createEngine({ workers: 3 });
  // The select calls as the workers receive them (the package's workers are node:worker_threads).
  const parts = [];
  const restore = await watchCalls((m) => { if (m.op === 'select') parts.push(JSON.parse(m.json).part ?? null); });
  try {
    const a = await one.fitRidge(X, y, opts);
    assert.deepEqual(parts, [null], 'one worker selects alone');
    parts.length = 0;
    const events = [];
    const b = await three.fitRidge(X, y, { ...opts, onProgress: (p) => { if (p.stage === 'select') events.push(p); } });
    // A share goes to the first free worker. The first worker has started
    // with the engine, so share 0 is posted at once; workers 1 and 2 start
    // when a call waits (Pool.startRest), and shares 1 and 2 are posted to
    // whichever worker is free first (the first one again, when the others
    // are still starting).
    assert.equal(parts.length, 4, `select calls: ${JSON.stringify(parts)}`);
    assert.deepEqual(parts[0], { index: 0, count: 3 }, 'share 0 first, on the started worker');
    assert.deepEqual(parts.slice(1, 3).sort((p, q) => p.index - q.index), [{ index: 1, count: 3 }, { index: 2, count: 3 }], 'shares 1 and 2, once each');
    assert.equal(parts[3], null, 'then the choice');
    const total = defaultCandidates(one.schema);
    assert.equal(a.selection.candidates.length, total);
    assert.deepEqual(b.selection, a.selection);
    assert.equal(b.lambda, a.lambda);
    // The three shares count as one selection that never runs backwards.
    assert.ok(events.length > 0 && events.every((p) => p.total === total), JSON.stringify(events));
    assert.equal(events.at(-1).done, total);
    events.forEach((p, i) => assert.ok(i === 0 || p.done >= events[i - 1].done, `select progress went back at event ${i}`));
  } finally {
    restore();
    one.close();
    three.close();
  }
});

test("the 'auto' selection is sent only the rows the core names (search.rows), never X; the model is the one-worker fit's", async () => {
  // 1,200 rows, searched on 150: each select call gets at most the sample
  // and its targets, plus every chunk's statistics.
  const n = 1200;
  const X = randomMatrix(n, 4, 33);
  const y = Float64Array.from({ length: n }, (_, i) => (X.data[4 * i] + X.data[4 * i + 1] > 0 ? 1 : 0));
  const opts = { task: 'classification', features: { dim: 32, seed: 3 }, search: { depths: [1, 2], rows: 150 } };
  const one = await createEngine({ workers: 1 });
  const two = await createEngine({ workers: 2 });
  const sent = [];
  const restore = await watchCalls((m) => {
    if (m.op === 'select') {
      const args = JSON.parse(m.json);
      sent.push({ rows: args.X?.rows ?? 0, floats: m.arrays.reduce((s, a) => s + a.length, 0), stats: args.stats?.length ?? 0 });
    }
  });
  try {
    const a = await one.fitRidge(X, y, opts);
    const b = await two.fitRidge(X, y, opts);
    const rows = a.selection.rows;
    assert.equal(rows, 150);
    assert.ok(sent.length === 4, `select calls: ${JSON.stringify(sent)}`);
    for (const c of sent) {
      assert.ok(c.rows === 0 || c.rows === rows, `a select call got ${c.rows} rows`);
      // The sample (rows × 4 + rows) and the statistics' wire forms (a few
      // tree nodes and the raw rows of at most two partial leaves of 64
      // rows, each a key and 4 values): far from X's 4,800 numbers.
      assert.ok(c.floats <= rows * 5 + (2 * 64 * 5 + 200) * Math.max(c.stats, 1), `a select call got ${c.floats} numbers`);
    }
    assert.deepEqual(b.selection, a.selection);
    assert.equal(b.lambda, a.lambda);
    assert.deepEqual(await b.predict(X), await a.predict(X));
  } finally {
    restore();
    one.close();
    two.close();
  }
});

test('a model file whose feature map would take too much memory is refused before anything is allocated', async () => {
  const e = await createEngine({ workers: 1 });
  try {
    const t0 = performance.now();
    await assert.rejects(e.loadModel(tooWide()), isError(RangeError, 'ERR_TOO_LARGE'));
    const s = await e.stats();
    assert.ok(s.sysBytes < 64e6, `memory after: ${(s.sysBytes / 1e6).toFixed(0)} MB`);
    assert.ok(performance.now() - t0 < 1000, `refused after ${(performance.now() - t0).toFixed(0)} ms`);
  } finally {
    e.close();
  }
});

test('a model whose λ curve holds +Inf saves it as null and loads it back as +Inf', async () => {
  // More features than rows: leave-one-out at λ = 1e-300 divides by a zero residual weight (hardening.test.js).
  const X = { rows: 4, cols: 2, data: Float64Array.from([1, 2, 1, 2, 3, 1, 0.5, 0.2]) };
  const m = await eng.fitRidge(X, Float64Array.from([0.5, 0.7, 1.5, 2.5]), { features: { dim: 64 }, grid: [1e-300, 1], task: 'regression' });
  assert.equal(m.curve[0].score, Infinity);
  const file = JSON.stringify(m);
  assert.equal(JSON.parse(file).curve[0].score, null, 'JSON writes +Inf as null');
  const loaded = await eng.loadModel(file);
  assert.deepEqual(loaded.curve, m.curve);
  assert.equal(bits(await loaded.predict(X)), bits(await m.predict(X)));
});

test('a model file whose features.depth is 0 is refused, not read as the default depth', async () => {
  await assert.rejects(eng.loadModel(tampered((m) => { m.features.depth = 0; })), isError(RangeError, 'ERR_VALUE', /depth/));
});

test('toJSON of a disposed model throws; loadModel on a closed engine rejects', async () => {
  const m = await eng.loadModel(iris.file);
  m.dispose();
  assert.throws(() => JSON.stringify(m), isError(Error, 'ERR_CLOSED', /disposed/));
  const e = await createEngine({ workers: 1 });
  e.close();
  await assert.rejects(e.loadModel(iris.file), isError(Error, 'ERR_CLOSED'));
});

test('kfold returns {train, test} folds that partition the rows', async () => {
  for (const [n, k] of [[10, 3], [150, 5], [7, 7]]) {
    const folds = await eng.kfold(n, { k, seed: 3 });
    assert.equal(folds.length, k);
    const all = Array.from({ length: n }, (_, i) => i);
    const tests = folds.flatMap((f) => f.test).sort((a, b) => a - b);
    assert.deepEqual(tests, all, 'every row is in exactly one test part');
    for (const { train, test: held } of folds) {
      assert.ok(held.length === Math.floor(n / k) || held.length === Math.ceil(n / k));
      assert.deepEqual([...train, ...held].sort((a, b) => a - b), all, 'train is the rest');
    }
    assert.deepEqual(await eng.kfold(n, { k, seed: 3 }), folds, 'seeded');
  }
});

test('preprocess gives X as a fit sees it: standardized columns, imputed cells, unit rows', async () => {
  const X = { rows: 4, cols: 2, data: Float64Array.from([1, 10, 2, NaN, 3, 30, 6, 20]) };
  const Z = await eng.preprocess(X);
  assert.equal(Z.rows, 4);
  assert.equal(Z.cols, 2);
  for (let j = 0; j < 2; j++) {
    const col = [0, 1, 2, 3].map((i) => Z.data[2 * i + j]);
    const mean = col.reduce((a, b) => a + b) / 4;
    assert.ok(Math.abs(mean) < 1e-12, `column ${j} mean ${mean}`);
    assert.ok(col.every(Number.isFinite), 'the missing cell is imputed');
  }
  const U = await eng.preprocess(X, { preprocess: { standardize: false, unitNorm: true } });
  for (let i = 0; i < 4; i++) assert.ok(Math.abs(Math.hypot(U.data[2 * i], U.data[2 * i + 1]) - 1) < 1e-12);
  // The imputed cell is the column mean of the others: (10 + 30 + 20) / 3 = 20, so row 1 is (2, 20)/‖·‖.
  assert.ok(Math.abs(U.data[3] - 20 / Math.hypot(2, 20)) < 1e-12);
  await assert.rejects(eng.preprocess(X, { preprocess: { scale: true } }), isError(TypeError, 'ERR_UNKNOWN_OPTION'));
  await assert.rejects(eng.preprocess({ rows: 1, cols: 2, data: new Float64Array(3) }), isError(RangeError, 'ERR_SHAPE'));
});

test('preprocess.bias: a constant input after standardizing, kept by the model file, checked from the schema', async () => {
  // A constant column a user adds is zeroed by standardizing; the bias input is appended after it.
  const X = { rows: 4, cols: 3, data: Float64Array.from([1, 5, 2, 3, 5, -1, -2, 5, 0.5, 4, 5, 3]) };
  const Z = await eng.preprocess(X, { preprocess: { bias: 1 } });
  assert.equal(Z.cols, 4);
  for (let i = 0; i < 4; i++) {
    assert.equal(Z.data[4 * i + 1], 0, 'the constant column is zeroed');
    // Two standardized columns: a root-mean-square row norm of √2.
    assert.ok(Math.abs(Z.data[4 * i + 3] - Math.SQRT2) < 1e-14, `bias input ${Z.data[4 * i + 3]}`);
  }
  const y = Float64Array.from([0, 1, 0, 1]);
  const Xf = randomMatrix(40, 2, 31);
  const yf = Float64Array.from({ length: 40 }, (_, i) => (Math.hypot(Xf.data[2 * i], Xf.data[2 * i + 1]) > 1 ? 1 : 0));
  const Xt = randomMatrix(30, 2, 32);
  for (const fit of [{ features: { dim: 64, depth: 2, seed: 3 } }, { kernel: { kernel: 'ntk', depth: 2 } }]) {
    const model = await eng.fitRidge(Xf, yf, { ...fit, task: 'classification', preprocess: { bias: 0.5 } });
    const saved = JSON.parse(JSON.stringify(model));
    assert.equal(saved.preprocess.bias, 0.5);
    assert.ok(saved.preprocess.biasInput > 0);
    if (fit.kernel) assert.equal(saved.train.cols, 3, 'the training rows carry the bias input');
    const loaded = await eng.loadModel(JSON.stringify(model));
    assert.equal(bits((await loaded.predictScores(Xt)).data), bits((await model.predictScores(Xt)).data));
  }
  // Without it the file has no bias field: files saved before read and write the same.
  const plain = JSON.parse(JSON.stringify(await eng.fitRidge(X, y, { task: 'classification', preprocess: {}, features: { depth: 1 } })));
  assert.ok(!('bias' in plain.preprocess) && !('biasInput' in plain.preprocess));
  for (const bad of [-1, 1e9, NaN]) {
    await assert.rejects(eng.fitRidge(X, y, { task: 'classification', preprocess: { bias: bad } }), isError(RangeError, 'ERR_OPTION', /preprocess\.bias/), `bias ${bad}`);
  }
  await assert.rejects(eng.fitRidge(X, y, { task: 'classification', search: { preprocess: [{ bias: -2 }] } }), isError(RangeError, 'ERR_OPTION'));
});

test('depth 0 is refused everywhere: the schema says depth ≥ 1', async () => {
  for (const method of ['kernel', 'features']) assert.equal(eng.schema[method].find((o) => o.name === 'depth').min, 1, method);
  await assert.rejects(eng.kernel(refX(), null, { depth: 0 }), isError(RangeError, 'ERR_OPTION', /depth must be an integer in 1…64, got 0/));
  await assert.rejects(eng.features(refX(), { depth: 0 }), isError(RangeError, 'ERR_OPTION'));
  await assert.rejects(eng.fitRidge(refX(), Float64Array.of(0.5, 1.5, 2.5), { features: { depth: 0 } }), (e) => e.code === 'ERR_OPTION' && e.option === 'features.depth');
});

test('the fit is planned by Go (fitPlan): the task, the feature width, whether the parts collect their rows, and the chunks', async () => {
  // The raw bridge, loaded here in the main thread: what fitRidge asks before it schedules the rows.
  await import(path.join(root, 'dist', 'npm', 'wasm_exec.js'));
  const go = new globalThis.Go();
  const { instance } = await WebAssembly.instantiate(readFileSync(path.join(root, 'dist', 'npm', 'ntkrf.wasm')), go.importObject);
  go.run(instance);
  const values = (n) => Float64Array.from({ length: n }, (_, i) => i / 7);
  // The plan itself travels as bytes (every later step gets them); what
  // the scheduler reads of it is the rest.
  const plan = async (args) => {
    const { plan: form, ...rest } = JSON.parse((await globalThis.ntkrf.call('fitPlan', JSON.stringify({ y: { array: 0 }, preprocess: {}, ...args }), [values(args.rows)])).json);
    assert.ok(form.bytes > 0 && Number.isInteger(form.wire.array), 'the plan\'s bytes');
    return rest;
  };
  const dimDefault = eng.schema.features.find((o) => o.name === 'dim').default;
  // 100 rows of 4 columns a chunk, but at least 4m² numbers of X when the parts sum (m×m each),
  // and two chunks where that leaves one and the rows fill two leaves (the core's minSplitRows, 2048); the
  // parts' chunks are runs of whole leaves of 1,024 rows (internal/rowtree), the dual's even.
  const chunkBytes = 8 * 4 * 100;
  const chunks = (n, size) => {
    const k = Math.ceil(n / size);
    return Array.from({ length: k }, (_, i) => [Math.floor((i * n) / k), Math.floor(((i + 1) * n) / k)]);
  };
  const leafChunks = (n, size) => {
    const leaves = Math.ceil(n / 1024);
    const k = Math.min(Math.ceil(n / size), leaves);
    return Array.from({ length: k }, (_, i) => [Math.floor((i * leaves) / k) * 1024, Math.min(n, Math.floor(((i + 1) * leaves) / k) * 1024)]);
  };
  const primal = { task: 'regression', criterion: 'gcv', collects: false };
  assert.deepEqual(await plan({ rows: 700, cols: 4, features: { dim: 64, depth: 1 }, chunkBytes }), { ...primal, dim: 64, chunks: leafChunks(700, 4096) });
  assert.deepEqual(await plan({ rows: 7000, cols: 4, features: { dim: 64, depth: 1 }, chunkBytes }), { ...primal, dim: 64, chunks: leafChunks(7000, 4096) });
  assert.deepEqual(await plan({ rows: 7000, cols: 4, features: { m1: 100, sketchDim: 28, depth: 2 }, chunkBytes }), { ...primal, dim: 128, chunks: leafChunks(7000, 3500) });
  // No more rows than features: the dual, whose parts collect their (scaled) rows.
  const dual = await plan({ rows: 700, cols: 4, features: { dim: 1024, depth: 1 }, chunkBytes });
  assert.deepEqual({ collects: dual.collects, dim: dual.dim, chunks: dual.chunks }, { collects: true, dim: 1024, chunks: chunks(700, 100) });
  assert.equal((await plan({ rows: 700, cols: 4, features: { depth: 1 } })).dim, dimDefault);
  // 'auto' depth and preprocessing (the defaults): an open plan names the
  // rows its selection scores, a sorted seeded sample of 1,000, which is
  // all fitRidge gathers for it; its chunks are those of the statistics.
  const open = await plan({ rows: 7000, cols: 4, features: { dim: 64 }, preprocess: 'auto', chunkBytes });
  assert.equal(open.search.rows.length, 1000);
  assert.ok(open.search.rows.every((r, i) => Number.isInteger(r) && r >= 0 && r < 7000 && (i === 0 || r > open.search.rows[i - 1])), 'sorted row indices');
  assert.equal(open.search.candidates, eng.schema.fitRidge.find((o) => o.name === 'search').fields.find((o) => o.name === 'depths').default.length * eng.schema.fitRidge.find((o) => o.name === 'search').fields.find((o) => o.name === 'preprocess').default.length);
  assert.deepEqual(open.chunks, leafChunks(7000, 4096));
  assert.deepEqual((await plan({ rows: 7000, cols: 4, features: { dim: 64, seed: 9 }, preprocess: 'auto' })).search.rows.length, 1000);
  assert.equal((await plan({ rows: 7000, cols: 4, features: { dim: 64, depth: 1 } })).search, undefined, 'nothing open: no search');
  // Exact leave-one-out needs every row, unless λ is fixed.
  assert.equal((await plan({ rows: 7000, cols: 4, features: { dim: 64, depth: 1 }, criterion: 'loo' })).collects, true);
  assert.equal((await plan({ rows: 7000, cols: 4, features: { dim: 64, depth: 1 }, criterion: 'loo', lambda: 0.5 })).collects, false);
  // The task by Go's rule: whole numbers are not guessed; the classes counted.
  await assert.rejects(globalThis.ntkrf.call('fitPlan', JSON.stringify({ rows: 3, cols: 1, features: { depth: 1 }, y: { array: 0 } }), [Float64Array.of(0, 1, 2)]), (e) => e.option === 'task');
  const labels = JSON.parse((await globalThis.ntkrf.call('fitPlan', JSON.stringify({ rows: 30, cols: 1, features: { dim: 4, depth: 1 }, preprocess: {}, task: 'classification', y: { array: 0 } }), [Float64Array.from({ length: 30 }, (_, i) => i % 3)])).json);
  assert.deepEqual({ task: labels.task, classes: labels.classes, criterion: labels.criterion }, { task: 'classification', classes: 3, criterion: 'holdout' });

  // Through the package: every path gives a model that predicts.
  const X = randomMatrix(700, 4, 5);
  const y = Float64Array.from({ length: 700 }, (_, i) => X.data[4 * i] - 2 * X.data[4 * i + 3] + 0.25);
  for (const opts of [{ features: { dim: 64, seed: 1 } }, { features: { dim: 1024, seed: 1 } }, { features: { dim: 64, seed: 1 }, criterion: 'loo' }]) {
    const m = await eng.fitRidge(X, y, opts);
    const r2 = (await eng.score(y, await m.predict(X))).r2;
    assert.ok(r2 > 0.9, `${JSON.stringify(opts)}: R² ${r2}`);
  }
  // Bad feature options are refused by the plan, before any rows are copied.
  await assert.rejects(eng.fitRidge(X, y, { features: { dim: 8, sketchDim: 99 } }), (e) => e.code === 'ERR_OPTION' && e.option === 'features.sketchDim');
});
