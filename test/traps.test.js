// The package without traps (issue 28): 2-D JavaScript arrays and plain
// number arrays are taken as matrices and vectors, checked with coded
// errors; predictions are numbers, named by one rule (classNames, Go's
// Pipeline.ClassNames); a Dataset splits into Datasets that keep its schema
// (rows drawn by Go), so a model fitted on a split still reads CSV files;
// a regression dataset's classes.length (0) is "not given", as in Go.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pkg, root, randomMatrix } from './helpers.js';

const { createEngine } = await import(pkg);

const text = (name) => readFileSync(path.join(root, 'testdata', name), 'utf8');
/** The bytes of a Float64Array, to compare bit for bit. */
const bits = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');
/** A {rows, cols, data} matrix as an array of rows. */
const rowsOf = (M) => Array.from({ length: M.rows }, (_, i) => Array.from(M.data.subarray(i * M.cols, (i + 1) * M.cols)));
const coded = (code, pattern, option) => (e) => {
  assert.equal(e.code, code, e.message);
  if (pattern) assert.match(e.message, pattern);
  if (option !== undefined) assert.equal(e.option, option);
  return true;
};

let eng, iris;
before(async () => {
  eng = await createEngine({ workers: 2 });
  iris = await eng.parseCSV(text('iris.csv'));
});
after(() => eng?.close());

test('2-D arrays are matrices in every method that takes one, with the bits of the flat form', async () => {
  const M = randomMatrix(40, 3, 5);
  const A = rowsOf(M);
  const y = Float64Array.from({ length: 40 }, (_, i) => Math.sin(3 * M.data[3 * i]) + M.data[3 * i + 1]);
  const features = { dim: 64, seed: 2, depth: 2 };
  const same = async (what, run) => {
    const [a, b] = [await run(M), await run(A)];
    const flat = (r) => (r instanceof Float64Array ? r : r.data ?? Float64Array.from(r));
    assert.equal(bits(flat(b)), bits(flat(a)), what);
  };
  await same('kernel', (X) => eng.kernel(X, X, { depth: 2 }));
  await same('features', (X) => eng.features(X, features));
  await same('preprocess', (X) => eng.preprocess(X, { preprocess: { unitNorm: true } }));
  await same('selectActive', (X) => eng.selectActive(X, { k: 5, features }));
  const fit = { features, preprocess: { standardize: true }, lambda: 0.01 };
  const [mFlat, mRows] = [await eng.fitRidge(M, y, fit), await eng.fitRidge(A, Array.from(y), fit)];
  assert.deepEqual(JSON.stringify(mRows), JSON.stringify(mFlat), 'the same model from rows and a plain y');
  await same('predict', (X) => mFlat.predict(X));
  await same('predictScores', (X) => mFlat.predictScores(X));
  // Rows may be typed arrays; NaN is a missing cell as in a Float64Array (a fit imputes it).
  const holes = rowsOf(M).map((r, i) => (i % 7 === 3 ? [NaN, r[1], r[2]] : r));
  const holesFlat = { rows: 40, cols: 3, data: Float64Array.from(holes.flat()) };
  const [h1, h2] = [await eng.fitRidge(holesFlat, y, fit), await eng.fitRidge(holes.map((r) => Float64Array.from(r)), y, fit)];
  assert.equal(bits(await h2.predict(holes)), bits(await h1.predict(holesFlat)));
});

test('a bad 2-D array or vector is refused with a code that names the row or cell', async () => {
  const y3 = [0, 1, 2];
  const cases = [
    ['ragged rows', () => eng.kernel([[1, 2], [3, 4], [5]]), coded('ERR_SHAPE', /X\[2\] has 1 values but X\[0\] has 2/, 'X')],
    ['no rows', () => eng.features([]), coded('ERR_SHAPE', /X has no rows/, 'X')],
    ['an empty row', () => eng.kernel([[]]), coded('ERR_SHAPE', /X\[0\] is empty/, 'X')],
    ['a row that is no array', () => eng.kernel([[1, 2], 3]), coded('ERR_TYPE', /X\[1\] must be a row/, 'X')],
    ['a text cell', () => eng.kernel([[1, 2], [3, '4']]), coded('ERR_TYPE', /X\[1\]\[1\] must be a number/, 'X')],
    ['a null cell', () => eng.kernel([[1, null]]), coded('ERR_TYPE', /X\[0\]\[1\] must be a number \(NaN for a missing value\), got null/, 'X')],
    ['+Inf (Go checks it, as in a Float64Array)', () => eng.kernel([[1, 2], [3, Infinity]]), coded('ERR_NONFINITE', /\+Inf at row 1, column 1/)],
    ['NaN in a kernel', () => eng.kernel([[NaN, 2]]), coded('ERR_NONFINITE', /NaN at row 0, column 0/)],
    ['-Inf in a fit', () => eng.fitRidge([[1, 2], [3, 4], [5, -Infinity]], y3, { task: 'classification' }), coded('ERR_NONFINITE')],
    ['a text label', () => eng.fitRidge([[1], [2], [3]], [0, 'b', 1], { task: 'classification' }), coded('ERR_TYPE', /y must be .*an array of numbers.*\[1\] is "b".*dataset\.y/, 'y')],
    ['rows and y that disagree', () => eng.fitRidge([[1], [2]], y3, { task: 'classification' }), coded('ERR_SHAPE', /X has 2 rows but y has 3 values/)],
    ['a ragged Z', () => eng.kernel([[1, 2]], [[1, 2], [1]]), coded('ERR_SHAPE', /Z\[1\] has 1 values/, 'Z')],
  ];
  for (const [name, run, check] of cases) await assert.rejects(run(), check, name);
});

test('predictions are numbers; classNames names them by the model\'s classes, and predictCSV is its names form', async () => {
  const model = await eng.fitRidge(iris, { features: { dim: 64, seed: 1, depth: 1 }, preprocess: { standardize: true } });
  const labels = await model.predict(iris.X);
  assert.ok(labels instanceof Float64Array);
  const names = model.classNames(labels);
  assert.deepEqual(names, Array.from(labels, (i) => iris.classes[i]));
  assert.deepEqual(await model.predictCSV(text('iris.csv')), names);
  assert.deepEqual(model.classNames([2, 0]), [iris.classes[2], iris.classes[0]]);
  for (const bad of [-1, 3, 1.5, NaN]) {
    assert.throws(() => model.classNames([0, bad]), coded('ERR_VALUE', /labels\[1\]/, 'labels'), String(bad));
  }
  assert.throws(() => model.classNames(['setosa']), coded('ERR_TYPE', null, 'labels'));
  const reg = await eng.fitRidge(randomMatrix(20, 2, 3), Float64Array.from({ length: 20 }, (_, i) => i / 7), { features: { dim: 16, depth: 1 }, preprocess: { standardize: true } });
  assert.throws(() => reg.classNames([0]), coded('ERR_DATA', /regression model predicts values/));
});

test('split(dataset) and kfold(dataset): Go\'s rows, Datasets that keep the schema, and a model fitted on one reads CSV files', async () => {
  const options = { testFraction: 0.2, seed: 7 };
  const parts = await eng.split(iris, options);
  // The rows are Go's split of the row count, the same call on a number.
  assert.deepEqual(parts.rows, await eng.split(iris.X.rows, options));
  for (const [name, rows] of [['train', parts.rows.train], ['test', parts.rows.test]]) {
    const d = parts[name];
    assert.equal(bits(d.X.data), bits(eng.take(iris.X, rows).data), `${name}.X`);
    assert.equal(bits(d.y), bits(eng.take(iris.y, rows)), `${name}.y`);
    for (const k of ['task', 'classes', 'featureNames', 'columns', 'target', 'targetName', 'groups', 'delimiter', 'header']) {
      assert.deepEqual(d[k], iris[k], `${name}.${k}`);
    }
    assert.equal(d.droppedRows, 0);
    assert.equal(d.missingCells, 0);
  }
  const model = await eng.fitRidge(parts.train, { features: { dim: 64, seed: 1, depth: 1 }, preprocess: { standardize: true } });
  assert.deepEqual(model.input.columns, iris.columns, 'the model keeps the input schema');
  const names = await model.predictCSV(text('iris.csv'));
  assert.equal(names.length, 150);
  assert.deepEqual(names, model.classNames(await model.predict(iris.X)));
  // Folds: Go's kfold rows, each part a Dataset.
  const folds = await eng.kfold(iris, { k: 3, seed: 2 });
  assert.deepEqual(folds.map((f) => f.rows), await eng.kfold(150, { k: 3, seed: 2 }));
  assert.deepEqual(folds.map((f) => f.test.X.rows), folds.map((f) => f.rows.test.length));
  assert.ok(folds.every((f) => f.train.targetName === iris.targetName && f.test.classes.length === 3));
  // Missing cells are counted per input column in each part's rows (a one-hot group once).
  const mixed = 'size,color,kind\n1,red,a\n,green,b\n2,,a\n,,b\n3,red,a\n4,blue,b\n';
  const ds = await eng.parseCSV(mixed);
  const halves = await eng.split(ds, { testFraction: 0.5, seed: 1 });
  const perRow = [0, 1, 1, 2, 0, 0]; // size in rows 1 and 3, color (one-hot) in rows 2 and 3
  for (const k of ['train', 'test']) {
    assert.equal(halves[k].missingCells, halves.rows[k].reduce((s, r) => s + perRow[r], 0), k);
  }
  assert.equal(halves.train.missingCells + halves.test.missingCells, ds.missingCells);
  // What is not a Dataset is refused with a code.
  await assert.rejects(eng.split({ rows: 3, cols: 1, data: new Float64Array(3) }), coded('ERR_TYPE', /a row count or a Dataset/));
  await assert.rejects(eng.split({ ...iris, y: iris.y.subarray(1) }), coded('ERR_TYPE', /150 rows but dataset\.y has 149 values/));
});

test('a regression dataset\'s classes.length (0) means "not given", as krr.Options.Classes 0 does', async () => {
  const ds = await eng.parseCSV(text('BostonHousing.csv'), { target: 'medv' });
  assert.equal(ds.task, 'regression');
  assert.deepEqual(ds.classes, []);
  const fit = { features: { dim: 32, seed: 1, depth: 1 }, preprocess: { standardize: true }, lambda: 0.1 };
  const m = await eng.fitRidge(ds.X, ds.y, { ...fit, task: ds.task, classes: ds.classes.length });
  assert.equal(m.task, 'regression');
  const plain = await eng.fitRidge(ds.X, ds.y, { ...fit, task: ds.task });
  assert.equal(bits(await m.predict(ds.X)), bits(await plain.predict(ds.X)));
  // For classification 0 infers the count (the largest label + 1), as leaving it out does.
  const c = await eng.fitRidge(iris.X, iris.y, { ...fit, task: iris.task, classes: 0 });
  assert.deepEqual(c.classes, ['0', '1', '2']);
  await assert.rejects(eng.fitRidge(iris.X, iris.y, { ...fit, task: 'classification', classes: -1 }), coded('ERR_OPTION', null, 'classes'));
});
