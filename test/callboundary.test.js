// The call boundary (issue 25): a call takes its inputs when it is made
// (each read once, copied then), whatever the caller does with them while
// the call waits for a worker; a call that cannot be sent fails alone; a
// message never quotes without bound; messages point the right way.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pkg, root, randomMatrix } from './helpers.js';

const { createEngine } = await import(pkg);
const { Pool } = await import(path.join(root, 'dist', 'npm', 'pool.js'));
const { MESSAGE_CHARS, QUOTE_CHARS } = await import(path.join(root, 'dist', 'npm', 'errors.js'));
const iris = readFileSync(path.join(root, 'testdata', 'iris.csv'));

// One worker: a call made while another runs waits in the queue.
let eng;
let model;
let irisDs;
// A model of 2000 columns: predict sends 1100 rows of them in three chunks, one at a time.
let wide;
before(async () => {
  eng = await createEngine({ workers: 1 });
  irisDs = await eng.parseCSV(iris);
  model = await eng.fitRidge(irisDs, { features: { dim: 32, seed: 1 }, preprocess: { standardize: true }, lambda: 0.1 });
  wide = await eng.fitRidge(randomMatrix(100, 2000, 5), regY(100, 6), { features: { dim: 16, seed: 1 }, preprocess: { standardize: true }, lambda: 0.1 });
});
after(() => eng?.close());

const regY = (n, seed) => Float64Array.from(randomMatrix(n, 1, seed).data, (v) => v + 0.25);
const cloneDs = (ds) => ({ ...structuredClone(ds), X: { ...ds.X, data: ds.X.data.slice() }, y: ds.y.slice() });
/** What a result is, for comparing: a model by its file. */
const plain = (r) => (r && typeof r.toJSON === 'function' ? JSON.parse(JSON.stringify(r)) : r);

/**
 * Every method: inputs() makes fresh inputs, call(inputs) makes the call,
 * arrays(inputs) the typed arrays the caller might overwrite or transfer,
 * and spoil(inputs) what else a caller might change (nested options).
 */
const METHODS = [
  { name: 'kernel', inputs: () => ({ X: randomMatrix(20, 3, 1), Z: randomMatrix(5, 3, 2), o: { depth: 2 } }),
    call: (i) => eng.kernel(i.X, i.Z, i.o), arrays: (i) => [i.X.data, i.Z.data], spoil: (i) => { i.o.depth = 5; } },
  { name: 'features', inputs: () => ({ X: randomMatrix(200, 3, 3), o: { dim: 32, seed: 4 } }),
    call: (i) => eng.features(i.X, i.o), arrays: (i) => [i.X.data], spoil: (i) => { i.o.dim = 8; } },
  { name: 'preprocess', inputs: () => ({ X: randomMatrix(30, 3, 5), o: { preprocess: { standardize: true, unitNorm: false } } }),
    call: (i) => eng.preprocess(i.X, i.o), arrays: (i) => [i.X.data], spoil: (i) => { i.o.preprocess.unitNorm = true; } },
  { name: 'compare', inputs: () => ({ X: randomMatrix(40, 3, 6), o: { features: { dim: 32, seed: 2, depth: 1 } } }),
    call: (i) => eng.compare(i.X, i.o), arrays: (i) => [i.X.data], spoil: (i) => { i.o.features.dim = 8; },
    result: (r) => ({ ...r, seconds: undefined }) },
  { name: 'selectActive', inputs: () => ({ X: randomMatrix(60, 3, 7), o: { k: 5 } }),
    call: (i) => eng.selectActive(i.X, i.o), arrays: (i) => [i.X.data], spoil: () => {} },
  { name: 'score', inputs: () => ({ a: regY(50, 8), b: regY(50, 9), o: { task: 'regression' } }),
    call: (i) => eng.score(i.a, i.b, i.o), arrays: (i) => [i.a, i.b], spoil: () => {} },
  { name: 'fitRidge(X, y)', inputs: () => ({ X: randomMatrix(120, 3, 10), y: regY(120, 11), o: { features: { dim: 32, seed: 3 }, preprocess: { standardize: true }, lambda: 0.5 } }),
    call: (i) => eng.fitRidge(i.X, i.y, i.o), arrays: (i) => [i.X.data, i.y], spoil: (i) => { i.o.features.dim = 8; i.o.preprocess.standardize = false; } },
  { name: 'fitRidge(X, y) auto', inputs: () => ({ X: randomMatrix(120, 3, 12), y: regY(120, 13), o: { features: { dim: 32, seed: 3 }, search: { rows: 60, depths: [1, 2] } } }),
    call: (i) => eng.fitRidge(i.X, i.y, i.o), arrays: (i) => [i.X.data, i.y], spoil: (i) => { i.o.search.depths[0] = 3; } },
  { name: 'fitRidge(dataset)', inputs: () => ({ ds: cloneDs(irisDs), o: { features: { dim: 32, seed: 3 }, preprocess: { standardize: true }, lambda: 0.1 } }),
    call: (i) => eng.fitRidge(i.ds, i.o), arrays: (i) => [i.ds.X.data, i.ds.y], spoil: (i) => { i.ds.classes[0] = 'not-a-class'; i.ds.columns[0].name = 'renamed'; } },
  { name: 'predict', inputs: () => ({ X: { ...irisDs.X, data: irisDs.X.data.slice() } }),
    call: (i) => model.predict(i.X), arrays: (i) => [i.X.data], spoil: () => {} },
  { name: 'predict (in chunks)', inputs: () => ({ X: randomMatrix(1100, 2000, 7) }),
    call: (i) => wide.predict(i.X), arrays: (i) => [i.X.data], spoil: () => {} },
  { name: 'predictScores', inputs: () => ({ X: { ...irisDs.X, data: irisDs.X.data.slice() } }),
    call: (i) => model.predictScores(i.X), arrays: (i) => [i.X.data], spoil: () => {} },
  { name: 'predictCSV(Buffer)', inputs: () => ({ b: Buffer.from(new Uint8Array(iris).buffer) }),
    call: (i) => model.predictCSV(i.b), arrays: (i) => [i.b], spoil: () => {} },
  { name: 'parseCSV(Buffer)', inputs: () => ({ b: Buffer.from(new Uint8Array(iris).buffer) }),
    call: (i) => eng.parseCSV(i.b), arrays: (i) => [i.b], spoil: () => {} },
  { name: 'previewCSV(Uint8Array)', inputs: () => ({ b: new Uint8Array(iris) }),
    call: (i) => eng.previewCSV(i.b), arrays: (i) => [i.b], spoil: () => {} },
  { name: 'loadModel(object)', inputs: () => ({ m: JSON.parse(JSON.stringify(model)) }),
    call: (i) => eng.loadModel(i.m).then((m) => m.predict(irisDs.X)), arrays: () => [], spoil: (i) => { i.m.coef.data.fill(0); i.m.lambda = 99; } },
];

/** A call the one worker is busy with while the call under test is made. */
const busy = () => eng.kernel(randomMatrix(600, 20, 99));

const transfer = (a) => { structuredClone(a.buffer, { transfer: [a.buffer] }); };

for (const m of METHODS) {
  test(`${m.name}: a queued call computes with the inputs it was given, not with what the caller writes or transfers later`, async () => {
    const show = m.result ?? ((r) => r);
    const want = show(plain(await m.call(m.inputs())));
    for (const [how, act] of [
      ['overwritten', (i) => { for (const a of m.arrays(i)) a.fill(7); m.spoil(i); }],
      ['transferred', (i) => { for (const a of m.arrays(i)) transfer(a); m.spoil(i); }],
    ]) {
      const blocker = busy();
      const inputs = m.inputs();
      const p = m.call(inputs);
      act(inputs);
      const [, got] = await Promise.all([blocker, p]);
      assert.deepEqual(show(plain(got)), want, `${m.name}, inputs ${how} after the call`);
    }
  });
}

/** obj behind a Proxy counting the reads of its own properties (nested objects counted too). */
function counted(obj, counts, name) {
  return new Proxy(obj, {
    get(t, k, r) {
      const v = Reflect.get(t, k, r);
      if (typeof k === 'string' && Object.hasOwn(t, k)) {
        const key = `${name}.${k}`;
        counts[key] = (counts[key] ?? 0) + 1;
        if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) return counted(v, counts, key);
      }
      return v;
    },
  });
}

test('every input is read once: each property of a matrix, a dataset and an options object, however deep', async () => {
  const cases = [
    ['kernel', (c) => eng.kernel(counted(randomMatrix(6, 2, 1), c, 'X'), counted(randomMatrix(3, 2, 2), c, 'Z'), counted({ depth: 2 }, c, 'o'))],
    ['features', (c) => eng.features(counted(randomMatrix(100, 2, 1), c, 'X'), counted({ dim: 16, seed: 1 }, c, 'o'))],
    ['compare', (c) => eng.compare(counted(randomMatrix(30, 2, 1), c, 'X'), counted({ features: { dim: 16, seed: 1 }, preprocess: { standardize: true } }, c, 'o'))],
    ['fitRidge', (c) => eng.fitRidge(counted(randomMatrix(80, 2, 1), c, 'X'), regY(80, 2),
      counted({ features: { dim: 16, seed: 1 }, search: { rows: 40, depths: [1, 2], preprocess: [{ standardize: true }] }, grid: [0.1, 1] }, c, 'o'))],
    ['fitRidge(dataset)', (c) => eng.fitRidge(counted(cloneDs(irisDs), c, 'ds'), counted({ features: { dim: 16, seed: 1 }, lambda: 0.1 }, c, 'o'))],
    ['predict', (c) => model.predict(counted({ ...irisDs.X }, c, 'X'))],
    ['parseCSV', (c) => eng.parseCSV(iris, counted({ target: 'target', header: 'auto' }, c, 'o'))],
    ['take', (c) => eng.take(counted(randomMatrix(5, 2, 1), c, 'X'), counted([4, 0, 2], c, 'idx'))],
  ];
  for (const [name, run] of cases) {
    const counts = {};
    await run(counts);
    const twice = Object.entries(counts).filter(([, n]) => n > 1);
    assert.deepEqual(twice, [], `${name}: read more than once`);
    assert.ok(Object.keys(counts).length > 0, `${name}: nothing counted`);
  }
});

test('a matrix whose rows getter changes between reads is computed as the shape it was checked as', async () => {
  const shifting = (M) => {
    let reads = 0;
    return { get rows() { reads++; return reads === 1 ? M.rows : 1; }, cols: M.cols, data: M.data };
  };
  const X = randomMatrix(4, 3, 1);
  const want = await eng.kernel(X);
  const K = await eng.kernel(shifting(X));
  assert.deepEqual(K, want);
  assert.equal((await eng.features(shifting(X), { dim: 8 })).rows, 4);
  assert.equal((await model.predict(shifting({ ...irisDs.X }))).length, 150);
  assert.equal(eng.take(shifting(X), [3]).rows, 1);
  // An index getter that changes: the row checked is the row copied.
  let reads = 0;
  const idx = [0];
  Object.defineProperty(idx, 0, { get: () => (reads++ === 0 ? 1 : 1e9) });
  assert.deepEqual(eng.take(X, idx).data, X.data.slice(3, 6));
});

/** A worker that posts nothing, recording what it is sent; ops named 'unsendable' fail to post. */
function fakePool(n = 1) {
  const pool = new Pool(null, n);
  const posted = [];
  for (const s of pool.slots) {
    s.worker = {
      postMessage(msg) {
        if (msg.op === 'unsendable') throw new DOMException('An ArrayBuffer is detached and could not be cloned.', 'DataCloneError');
        posted.push({ slot: s, msg });
      },
      ref() {}, unref() {}, terminate() {},
    };
  }
  return { pool, posted };
}

test('a call that cannot be sent fails alone, with a code; the call that just finished resolves first', async () => {
  const { pool, posted } = fakePool();
  const first = pool.call('first', {}, []);
  const bad = pool.call('unsendable', {}, []);
  const third = pool.call('third', {}, []);
  assert.equal(posted.length, 1);
  // The worker answers the first call: its answer must arrive though the next call cannot be sent.
  const { slot, msg } = posted[0];
  assert.doesNotThrow(() => slot.onMessage({ type: 'result', id: msg.id, json: '{"answer":1}', arrays: [] }));
  assert.deepEqual(await first, { answer: 1 });
  await assert.rejects(bad, (e) => e.code === 'ERR_INTERNAL' && /could not be sent/.test(e.message));
  // The worker went on with the third.
  assert.equal(posted.length, 2);
  assert.equal(posted[1].msg.op, 'third');
  posted[1].slot.onMessage({ type: 'result', id: posted[1].msg.id, json: '{"answer":3}', arrays: [] });
  assert.deepEqual(await third, { answer: 3 });
  // A free worker and an unsendable call: rejected at once, the worker free for the next.
  await assert.rejects(pool.call('unsendable', {}, []), (e) => e.code === 'ERR_INTERNAL');
  pool.call('fourth', {}, []).catch(() => {});
  assert.equal(posted.at(-1).msg.op, 'fourth');
  // Arguments JSON cannot write: a coded error, not a TypeError thrown from inside the pool.
  for (const bad of [{ n: 1n }, (() => { const o = {}; o.self = o; return o; })()]) {
    await assert.rejects(pool.call('x', bad, []), (e) => e.code === 'ERR_TYPE');
  }
  pool.close();
});

test('no message quotes without bound: 200k option keys, a huge key, a huge object, a 3 MB cell', async () => {
  const many = Object.fromEntries(Array.from({ length: 200000 }, (_, i) => [`k${i}`, 1]));
  const huge = 'x'.repeat(5e6);
  const X = randomMatrix(3, 2, 1);
  const cell = `a,y\n${Array.from({ length: 30 }, (_, i) => `${i},${i % 3}`).join('\n')}\n${'z'.repeat(3e6)},1\n`;
  const cases = [
    ['200k unknown options', () => eng.kernel(X, null, many), /200000|199999 more/],
    ['200k unknown nested options', () => eng.compare(X, { features: many }), /more/],
    ['a 5 MB option name', () => eng.kernel(X, null, { [huge]: 1 }), /more characters/],
    ['a 5 MB nested option name', () => eng.compare(X, { features: { [huge]: 1 } }), /more characters/],
    ['an object of 200k keys as X', () => eng.kernel(many), /more/],
    ['a 5 MB string as a number option', () => eng.kernel(X, null, { depth: huge }), null],
    ['a 3 MB cell', () => eng.parseCSV(cell, { task: 'regression' }), null],
  ];
  for (const [name, run, pattern] of cases) {
    await assert.rejects(run(), (e) => {
      assert.ok(e.code, `${name}: ${e.message.slice(0, 200)}`);
      assert.ok(e.message.length <= MESSAGE_CHARS + 60, `${name}: a message of ${e.message.length} characters`);
      if (pattern) assert.match(e.message, pattern, name);
      // The option path names the caller's key within the same bound.
      assert.ok((e.option ?? '').length <= QUOTE_CHARS + 60, `${name}: an option path of ${e.option?.length} characters`);
      return true;
    });
  }
});

test('messages point the right way: a path for contents, string labels, a digit string as a name, score without a task', async () => {
  for (const p of ['data/iris.csv', '/home/me/iris.csv', 'C:\\data\\iris.csv', './iris.tsv']) {
    await assert.rejects(eng.parseCSV(p), (e) => e.code === 'ERR_PARSE' && /looks like a file path/.test(e.message) && /readFileSync/.test(e.message));
    await assert.rejects(model.predictCSV(p), (e) => /looks like a file path/.test(e.message));
  }
  // A one-line CSV is not taken for a path.
  await assert.rejects(eng.parseCSV('a,b'), (e) => !/file path/.test(e.message));
  const X = randomMatrix(4, 2, 1);
  for (const [name, run] of [
    // Text labels are classes (test/sklearn-traps.test.js); a mix of names and numbers is neither.
    ['fitRidge y', () => eng.fitRidge(X, ['yes', 1, 'yes', 0], { task: 'classification' })],
    ['score yTrue', () => eng.score(['yes', 'no'], Float64Array.of(0, 1), { task: 'classification' })],
  ]) {
    await assert.rejects(run(), (e) => {
      assert.equal(e.code, 'ERR_TYPE', name);
      assert.doesNotMatch(e.message, /Float64Array\.from/, name);
      assert.match(e.message, /must be numbers/, name);
      assert.match(e.message, /dataset\.y/, name);
      return true;
    });
  }
  await assert.rejects(eng.kernel({ rows: 1, cols: 2, data: ['a', 'b'] }), (e) => /must be numbers/.test(e.message) && !/Float64Array\.from/.test(e.message));
  // A dataset where its matrix belongs: pass dataset.X.
  await assert.rejects(eng.kernel(irisDs), (e) => e.code === 'ERR_TYPE' && /pass dataset\.X/.test(e.message));
  await assert.rejects(model.predict(irisDs), (e) => e.code === 'ERR_TYPE' && /pass dataset\.X/.test(e.message));
  // Numbers only: wrapping is the right advice.
  await assert.rejects(eng.kernel({ rows: 1, cols: 2, data: [1, 2] }), /Float64Array\.from/);
  // A string is always a name, a number always an index.
  const csv = 'a,2,c\n1,0.5,7\n2,1.5,8\n3,2.5,9\n';
  assert.equal((await eng.parseCSV(csv, { target: '2', task: 'regression' })).targetName, '2');
  assert.equal((await eng.parseCSV(csv, { target: 2, task: 'regression' })).targetName, 'c');
  await assert.rejects(eng.parseCSV('a,b,c\n1,2,3\n4,5,6\n', { target: '2' }), (e) => e.code === 'ERR_OPTION' && e.option === 'target' && /no column is named "2"/.test(e.message));
  // score decides the task as fitRidge does: whole-number labels are never guessed.
  const labels = Float64Array.of(0, 1, 2, 1);
  await assert.rejects(eng.score(labels, labels), (e) => e.code === 'ERR_OPTION' && e.option === 'task');
  await assert.rejects(eng.fitRidge(X, labels), (e) => e.code === 'ERR_OPTION' && e.option === 'task');
  assert.equal((await eng.score(labels, labels, { task: 'classification' })).accuracy, 1);
  assert.equal((await eng.score(labels, labels, { classes: 3 })).accuracy, 1);
  const s = await eng.score(Float64Array.of(0.5, 1.5), Float64Array.of(0.5, 1.5));
  assert.equal(s.accuracy, undefined);
  assert.equal(s.mse, 0);
});
