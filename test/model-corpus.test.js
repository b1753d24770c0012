// The hostile model files of testdata/models (core/pipeline/corpus_test.go
// writes them and checks native Go): the package gives each the outcome
// the table says, as text and as the object JSON.parse makes of it, and
// records the objects' outcomes for TestCrossHost to check natively.
// Also loadModel's own refusals: a Model, a BigInt, a cycle, deep nesting.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pkg, root, crossHostDir } from './helpers.js';

const { createEngine } = await import(pkg);
const dir = path.join(root, 'testdata', 'models');
let eng;
before(async () => { eng = await createEngine({ workers: 2 }); });
after(() => eng?.close());

const outcomeOf = async (file) => {
  try {
    await eng.loadModel(file);
    return { accept: true, message: '' };
  } catch (e) {
    return { accept: false, code: e.code, message: e.message };
  }
};

const matches = (want, got) => got.accept === want.accept && (want.accept || (got.code === want.code && got.message.includes(want.fragment ?? '')));

test('every file of the corpus: the outcome native Go gives, as text and as a parsed object', async () => {
  const table = JSON.parse(readFileSync(path.join(dir, 'expect.json'), 'utf8'));
  assert.ok(table.length > 600, `${table.length} cases`);
  const objects = [];
  const wrong = [];
  for (const c of table) {
    const text = readFileSync(path.join(dir, c.file), 'utf8');
    const t = await outcomeOf(text);
    if (!matches(c.text, t)) wrong.push(`${c.name} (text): ${JSON.stringify(t)}, want ${JSON.stringify(c.text)}`);
    const obj = JSON.parse(text);
    const o = await outcomeOf(obj);
    if (!matches(c.object, o)) wrong.push(`${c.name} (object): ${JSON.stringify(o)}, want ${JSON.stringify(c.object)}`);
    if (!t.accept && !/^loadModel: /.test(t.message)) wrong.push(`${c.name}: message ${t.message}`);
    objects.push({ name: c.name, text: JSON.stringify(obj), accept: o.accept, code: o.code ?? '' });
  }
  assert.deepEqual(wrong, []);
  // For core/pipeline TestCrossHost, which loads each object natively.
  if (crossHostDir) writeFileSync(path.join(crossHostDir, 'corpus-node.json'), JSON.stringify(objects));
});

test('loadModel refuses what it cannot read with a coded error, and says what to pass', async () => {
  const text = readFileSync(path.join(dir, 'features.json'), 'utf8');
  const model = await eng.loadModel(text);
  const cyclic = JSON.parse(text);
  cyclic.input.self = cyclic;
  let deep = {};
  for (let i = 0; i < 200000; i++) deep = { a: deep };
  const cases = [
    ['a loaded Model', model, /already a loaded Model; to load it again, pass its file: JSON.stringify\(model\)/],
    ['a BigInt', { ...JSON.parse(text), lambda: 1n }, /cannot be written as JSON/],
    ['a cycle', cyclic, /cannot be written as JSON/],
    ['a deeply nested object', deep, /cannot be written as JSON|not valid JSON|exceeded max depth/],
    ['deeply nested text', '['.repeat(100000), /not a model file/],
  ];
  for (const [what, file, pattern] of cases) {
    await assert.rejects(eng.loadModel(file), (e) => e instanceof TypeError && e.code === 'ERR_TYPE' && pattern.test(e.message), what);
  }
  // The model still loads from its file.
  assert.equal((await eng.loadModel(JSON.stringify(model))).lambda, model.lambda);
});
