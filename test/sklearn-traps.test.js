// What a scikit-learn user passes (issue 42, item 7): text labels become
// the model's classes by Go's rule for a CSV file's class column; whole
// numbers without a task are refused with the exact calls to make; score
// takes its task from the labels or the model, and scores classes as
// classes (accuracy, per-class figures), never by the squared error of
// their indices; features far beyond the rows' needs come with Go's advice
// and its memory estimate; one class or one row is the data's fault.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pkg } from './helpers.js';

const { createEngine } = await import(pkg);

const X = [[0, 1], [1, 0], [1, 1], [0, 0], [2, 1], [1, 2], [2, 2], [0, 2]];
const coded = (code, pattern, option) => (e) => {
  assert.equal(e.code, code, e.message);
  if (pattern) assert.match(e.message, pattern);
  if (option !== undefined) assert.equal(e.option, option);
  return true;
};

let eng;
before(async () => { eng = await createEngine({ workers: 2 }); });
after(() => eng?.close());

test('text labels become the model\'s classes, named and ordered as a CSV class column names them', async () => {
  const y = ['seen', 'hid', 'seen', 'hid', 'seen', 'hid', 'seen', 'hid'];
  const model = await eng.fitRidge(X, y, { features: { dim: 64, seed: 1 } });
  assert.equal(model.task, eng.names.Classification);
  // The same labels as a CSV's class column: the classes parseCSV gives.
  const csv = `a,b,label\n${X.map((r, i) => `${r.join(',')},${y[i]}`).join('\n')}\n`;
  const ds = await eng.parseCSV(csv);
  assert.deepEqual(model.classes, ds.classes);
  assert.deepEqual(model.classes, ['hid', 'seen']);
  const names = model.classNames(await model.predict(X));
  assert.equal(names.length, X.length);
  assert.ok(names.every((n) => model.classes.includes(n)));
  // The model file keeps the names: another host reads them.
  const again = await eng.loadModel(JSON.stringify(model));
  assert.deepEqual(again.classes, ['hid', 'seen']);
  await assert.rejects(eng.fitRidge(X, y, { task: eng.names.Regression }), coded('ERR_OPTION', /text labels/, 'task'));
});

test('whole-number labels without a task are refused with the exact calls that settle it', async () => {
  await assert.rejects(eng.fitRidge(X, [0, 1, 0, 1, 0, 1, 0, 1]),
    coded('ERR_OPTION', /fitRidge\(X, y, \{ task: "classification" \}\).*fitRidge\(X, y, \{ task: "regression" \}\)/, 'task'));
  await assert.rejects(eng.score([0, 1, 1], [0, 1, 0]),
    coded('ERR_OPTION', /score\(yTrue, yPred, \{ task: "classification" \}\).*model\.score\(X, y\)/, 'task'));
});

test('score takes its task from the labels or the model; classes are scored as classes', async () => {
  // Class names: classification, without a task.
  const named = await eng.score(['cat', 'dog', 'dog', 'emu'], ['cat', 'dog', 'cat', 'emu']);
  assert.equal(named.accuracy, 0.75);
  assert.deepEqual(named.classes, ['cat', 'dog', 'emu']);
  assert.equal(named.mse, undefined);
  assert.equal(named.r2, undefined);
  assert.deepEqual(named.perClass.map((c) => c.support), [1, 2, 1]);
  assert.equal(named.perClass[1].recall, 0.5);
  assert.equal(named.perClass[0].precision, 0.5);
  // Indices with the task: the same figures, no regression metrics of indices.
  const idx = await eng.score([0, 1, 1, 2], [0, 1, 0, 2], { task: eng.names.Classification });
  assert.equal(idx.accuracy, 0.75);
  assert.ok(!('mse' in idx) && !('r2' in idx), JSON.stringify(idx));
  assert.deepEqual(idx.perClass, named.perClass);
  // Values: regression, without a task.
  const values = await eng.score([0.5, 1.5, 2.5], [0.4, 1.6, 2.5]);
  assert.ok(values.r2 > 0.9 && values.accuracy === undefined);
  // model.score: the model's task, y as indices or as the model's names.
  const y = ['b', 'a', 'b', 'a', 'b', 'a', 'b', 'a'];
  const model = await eng.fitRidge(X, y, { features: { dim: 64, seed: 1 } });
  const s = await model.score(X, y);
  const t = await model.score(X, y.map((c) => model.classes.indexOf(c)));
  assert.deepEqual(s, t);
  assert.ok(s.accuracy >= 0 && s.perClass.length === 2 && !('mse' in s));
  await assert.rejects(model.score(X, y.map((c) => (c === 'a' ? 'z' : c))), coded('ERR_VALUE', /"z" is not a class of this model/, 'y'));
  const reg = await eng.fitRidge(X, X.map((r) => r[0] + 0.5 * r[1] + 0.25), { features: { dim: 64, seed: 1 } });
  const rs = await reg.score(X, X.map((r) => r[0] + 0.5 * r[1] + 0.25));
  assert.ok(typeof rs.r2 === 'number' && rs.accuracy === undefined);
});

test('features far beyond the rows\' needs come with Go\'s advice and its memory estimate at float32', async () => {
  const y = X.map((r) => r[0] - r[1] + 0.5);
  const small = await eng.fitRidge(X, y, { features: { dim: 32, depth: 1, seed: 1 } });
  assert.deepEqual(small.warnings, []);
  const big = await eng.fitRidge(X, y, { features: { dim: 8192, depth: 1, seed: 1 } });
  assert.equal(big.warnings.length, 1);
  // 8 rows × 8192 features × 4 bytes (float32, the default) = 262.1 kB.
  assert.match(big.warnings[0], /^fitRidge: 8192 features for 8 rows .*262\.1 kB \(float32\) and the fit about [0-9.e-]+ s, against .* and about [0-9.e-]+ s for the exact .*up to 64 features/);
  assert.ok(!JSON.stringify(big).includes('warnings'), 'advice is not part of the model file');
});

test('one class or one row is ERR_DATA about the data, not ERR_OPTION naming classes', async () => {
  await assert.rejects(eng.fitRidge(X, [0, 0, 0, 0, 0, 0, 0, 0], { task: eng.names.Classification }), coded('ERR_DATA', /class 0 only/));
  await assert.rejects(eng.fitRidge([[1, 2]], [0], { task: eng.names.Classification }), coded('ERR_DATA', /the one row is of class 0 only/));
  await assert.rejects(eng.fitRidge(X, ['a', 'a', 'a', 'a', 'a', 'a', 'a', 'a']), (e) => e.code === 'ERR_DATA' && e.option !== 'classes');
  // One row of a regression: refused as such (it crashed the worker's select).
  await assert.rejects(eng.fitRidge([[1, 2]], [0.5]), coded('ERR_DATA', /1 row; choosing λ by leave-one-out needs at least 3 rows/));
});

test('engine errors bring their parts: fault (what went wrong) and advice (what to do), from Go', async () => {
  const e = await eng.fitRidge([[1, 2], [3, 4], [5, 6]], [0, 1, 2], { task: eng.names.Classification, classes: 2 }).catch((x) => x);
  assert.equal(e.code, 'ERR_VALUE');
  assert.ok(e.message.startsWith('fitRidge: '), e.message);
  assert.ok(!e.fault.startsWith('fitRidge') && e.message.includes(e.fault), `fault ${e.fault}`);
  assert.match(e.advice, /^encode classes as 0…k−1 or raise classes$/);
  assert.equal(e.message, `fitRidge: ${e.fault}; ${e.advice}`);
});
