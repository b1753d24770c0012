// The package tried as a careless or hostile caller would (issue 13): inputs
// are never lost, options are never silently replaced, a failing call fails
// alone and in place, and every error follows one grammar.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { pkg, root, refX, randomMatrix } from './helpers.js';

const { createEngine } = await import(pkg);
const file = (name) => readFileSync(path.join(root, 'testdata', name));
let eng;
before(async () => { eng = await createEngine({ workers: 2 }); });
after(() => eng?.close());

const isError = (Class, code, option, pattern) => (e) => {
  assert.ok(e instanceof Class, `want ${Class.name}, got ${e?.name}: ${e?.message}`);
  assert.equal(e.code, code, e.message);
  if (option !== undefined) assert.equal(e.option, option, e.message);
  if (pattern) assert.match(e.message, pattern);
  return true;
};

test('inputs are copied, never detached: a Node Buffer, a subarray of one, an ArrayBuffer', async () => {
  const buf = readFileSync(path.join(root, 'testdata', 'iris.csv'));
  const before = buf.length;
  await eng.previewCSV(buf);
  assert.equal(buf.length, before);
  const ds = await eng.parseCSV(buf); // the README's pattern: preview, then parse the same bytes
  assert.equal(ds.X.rows, 150);
  // A small Buffer is a view of Node's shared pool: transferring it would empty other Buffers too.
  const small = Buffer.from('a,b\n1,2\n3,4\n');
  const neighbour = Buffer.from('untouched');
  await eng.parseCSV(small, { task: 'regression' });
  assert.equal(small.toString(), 'a,b\n1,2\n3,4\n');
  assert.equal(neighbour.toString(), 'untouched');
  const parent = Buffer.from(readFileSync(path.join(root, 'testdata', 'wine.csv')));
  const part = parent.subarray(0, 2000);
  await eng.previewCSV(part);
  assert.equal(parent.length, readFileSync(path.join(root, 'testdata', 'wine.csv')).length);
  assert.equal(part.length, 2000);
  const ab = new TextEncoder().encode('x,y\n1,2\n3,4\n5,7\n').buffer;
  await eng.parseCSV(ab, { task: 'regression' });
  assert.equal(ab.byteLength, 16);
  const X = randomMatrix(300, 4, 1);
  const copy = X.data.slice();
  await eng.features(X, { dim: 16 });
  await eng.fitRidge(X, Float64Array.from({ length: 300 }, (_, i) => (i % 7) / 3 + 0.1), { features: { dim: 16 } });
  assert.deepEqual(X.data, copy);
});

test('a numeric target is always an index, never a column name', async () => {
  const csv = 'label,0,1,2\nx,5,0.1,7\ny,6,0.2,8\nx,7,0.3,9\ny,8,0.4,1\n';
  const ds = await eng.parseCSV(csv, { target: 0, header: 'yes' });
  assert.equal(ds.targetName, 'label');
  assert.deepEqual(ds.featureNames, ['0', '1', '2']);
  const byName = await eng.parseCSV(csv, { target: '0', header: 'yes', task: 'regression' });
  assert.equal(byName.targetName, '0');
  await assert.rejects(eng.parseCSV(csv, { target: 9, header: 'yes' }), isError(RangeError, 'ERR_OPTION', 'target', /index 9 is out of range/));
});

test('numbers with a decimal comma are refused by name, not read as categories', async () => {
  await assert.rejects(eng.parseCSV('a;b;y\n1,5;2,25;x\n3,1;4,0;y\n5,2;1,5;x\n'), isError(Error, 'ERR_PARSE', undefined, /decimal comma/));
});

test('every non-finite or out-of-range number option is a RangeError naming it, before anything runs', async () => {
  const X = refX();
  const y = Float64Array.from([0.5, 1.5, 2.5]);
  const run = {
    kernel: (o) => eng.kernel(X, null, o),
    features: (o) => eng.features(X, o),
    fitRidge: (o) => eng.fitRidge(X, y, o),
    compare: (o) => eng.compare(X, o),
    selectActive: (o) => eng.selectActive(X, { k: 1, ...o }),
    score: (o) => eng.score(y, y, o),
    parseCSV: (o) => eng.parseCSV('a,b\n1,2\n', o),
    previewCSV: (o) => eng.previewCSV('a,b\n1,2\n', o),
    split: (o) => eng.split(10, o),
    kfold: (o) => eng.kfold(10, o),
  };
  let checked = 0;
  // Every number option of every method, nested ones included, from the schema itself.
  const walk = (method, opts, wrap) => {
    const cases = [];
    for (const o of opts) {
      const at = (v) => wrap({ [o.name]: v });
      if (o.kind === 'object') cases.push(...walk(method, o.fields, (v) => at(v)));
      if (['int', 'number', 'nameOrIndex'].includes(o.kind)) {
        const bad = [NaN, Infinity, -Infinity];
        if (o.min !== undefined) bad.push(o.min - 1);
        if (o.max !== undefined) bad.push(o.max * 2 + 1);
        if (o.kind === 'int') bad.push((o.min ?? 0) + 0.5);
        for (const v of bad) cases.push({ opts: at(v), path: null, v });
      }
    }
    return cases;
  };
  for (const [method, call] of Object.entries(run)) {
    for (const { opts, v } of walk(method, eng.schema[method], (x) => x)) {
      await assert.rejects(call(opts), (e) => {
        assert.ok(e instanceof RangeError, `${method} ${JSON.stringify(opts)} with ${v}: ${e.name} ${e.message}`);
        assert.equal(e.code, 'ERR_OPTION');
        assert.ok(e.message.startsWith(`${method}: ${e.option} must be `), e.message);
        assert.ok(e.message.endsWith(`got ${String(v)}`), e.message);
        return true;
      });
      checked++;
    }
  }
  assert.ok(checked > 100, `${checked} cases`);
  // null is a wrong type, not "not given".
  await assert.rejects(eng.fitRidge(X, y, { lambda: null }), isError(TypeError, 'ERR_TYPE', 'lambda', /got null/));
  await assert.rejects(eng.fitRidge(X, y, { features: { depth: null } }), isError(TypeError, 'ERR_TYPE', 'features.depth'));
});

test('no silent guesses: whole-number targets need a task; sketchDim cannot contradict dim', async () => {
  const X = randomMatrix(40, 3, 2);
  const labels = Float64Array.from({ length: 40 }, (_, i) => i % 2);
  await assert.rejects(eng.fitRidge(X, labels), isError(RangeError, 'ERR_OPTION', 'task', /y holds only whole numbers.*; give the task, "classification" or "regression": fitRidge\(X, y, \{ task: "classification" \}\)/));
  const cls = await eng.fitRidge(X, labels, { task: 'classification', features: { dim: 32 } });
  assert.equal(cls.task, 'classification');
  const reg = await eng.fitRidge(X, labels, { task: 'regression', features: { dim: 32 } });
  assert.equal(reg.task, 'regression');
  await assert.rejects(eng.features(X, { dim: 8, sketchDim: 10000 }), isError(RangeError, 'ERR_OPTION', 'sketchDim', /10004 columns, but dim is 8/));
  await assert.rejects(eng.fitRidge(X, labels, { task: 'classification', features: { dim: 8, sketchDim: 10000 } }), isError(RangeError, 'ERR_OPTION', 'features.sketchDim'));
  const P = await eng.features(X, { m1: 4, sketchDim: 12 });
  assert.equal(P.cols, 16);
});

test('hostile sizes are refused before anything is allocated, and the next call is answered in place', async () => {
  const y = Float64Array.from([0, 1, 2]);
  const cases = [
    [() => eng.score(Float64Array.from([0, 1e18, 1]), y, { task: 'classification' }), RangeError, 'ERR_VALUE', /label 1e\+18 at row 1 is not a class index/],
    [() => eng.score(Float64Array.from([0, 3e5, 1]), y, { task: 'classification' }), RangeError, 'ERR_VALUE', /label 300000/],
    [() => eng.fitRidge(randomMatrix(3, 2), y, { classes: 1e6 }), RangeError, 'ERR_OPTION', /classes must be an integer in 0…10000, got 1000000/],
    [() => eng.fitRidge(randomMatrix(3, 2), Float64Array.from([0, 1, 5e5]), { task: 'classification' }), RangeError, 'ERR_VALUE', /class index 500000 is too large/],
  ];
  for (const [call, Class, code, pattern] of cases) {
    await assert.rejects(call(), isError(Class, code, undefined, pattern));
    // The next call gets its own answer, not the previous call's error.
    const s = await eng.score(y, y, { task: 'classification' });
    assert.equal(s.accuracy, 1);
  }
});

test('a file that inflates past memory is refused before parsing: too large once decompressed', async () => {
  // 1.2 MB of gzip that inflates to 240 MB of one-character cells: under maxBytes, over memory.
  const line = '0,'.repeat(999) + '0\n';
  const gz = gzipSync(Buffer.from(line.repeat(120000)), { level: 9 });
  assert.ok(gz.length < 2e6, `${gz.length} bytes`);
  await assert.rejects(eng.parseCSV(gz), isError(RangeError, 'ERR_TOO_LARGE', undefined, /too large once decompressed/));
  const ok = await eng.parseCSV(file('iris.csv'));
  assert.equal(ok.X.rows, 150);
});

test('an instance that dies rejects only its own call, with ERR_INSTANCE, and is replaced', async () => {
  // A build where split with seed 4242 runs its instance out of memory (jsbridge/testhook_crash.go).
  const wasmURL = new URL(`file://${path.join(root, 'dist', 'test', 'ntkrf-crashtest.wasm')}`);
  const e = await createEngine({ workers: 2, wasmURL });
  try {
    const X = randomMatrix(400, 8, 3);
    const [dead, other, queued] = await Promise.allSettled([
      e.split(100, { seed: 4242 }),
      e.kernel(X, null, { depth: 2 }),
      e.split(100, { seed: 1 }),
    ]);
    assert.equal(dead.status, 'rejected');
    isError(Error, 'ERR_INSTANCE', undefined, /^split: the WebAssembly instance ran out of memory during this call and was restarted/)(dead.reason);
    assert.equal(other.status, 'fulfilled');
    assert.equal(other.value.rows, 400);
    assert.equal(queued.status, 'fulfilled');
    assert.deepEqual(queued.value, await eng.split(100, { seed: 1 }));
    // Both workers serve again.
    const again = await Promise.all([1, 2, 3, 4].map((s) => e.split(50, { seed: s })));
    assert.equal(again.length, 4);
    const stats = await e.stats();
    assert.equal(stats.workers.length, 2);
  } finally {
    e.close();
  }
});

test('a helper or a solver whose instance dies during a shared solve fails the fit with its error, not a wait; both workers serve again', async () => {
  // The crashtest build's helper runs out of memory as a factorization of order 1601 starts, its
  // solver at order 1602 (jsbridge/testhook_crash.go); such exact fits share their solve (Go's linalg.ShareMin).
  const wasmURL = new URL(`file://${path.join(root, 'dist', 'test', 'ntkrf-crashtest.wasm')}`);
  const e = await createEngine({ workers: 2, wasmURL });
  try {
    const fit = (n) => {
      const X = randomMatrix(n, 5, 8);
      const y = Float64Array.from({ length: n }, (_, i) => (X.data[i * 5] > 0.2 ? 1 : 0));
      return e.fitRidge(X, y, { kernel: { kernel: 'ntk', depth: 1 }, task: 'classification', lambda: 0.1 });
    };
    await assert.rejects(fit(1601), isError(Error, 'ERR_INSTANCE', undefined, /^fitRidge: the WebAssembly instance ran out of memory during this call and was restarted/));
    // And the solver's (order 1602): the helper, left waiting for its messages, is stopped too.
    await assert.rejects(fit(1602), isError(Error, 'ERR_INSTANCE', undefined, /^fitRidge: the WebAssembly instance ran out of memory during this call and was restarted/));
    const m = await fit(1600);
    assert.equal(m.kind, 'kernel');
    const stats = await e.stats();
    assert.equal(stats.workers.length, 2);
  } finally {
    e.close();
  }
});

test('close() rejects every call in flight or waiting, also from onProgress', async () => {
  const e = await createEngine({ workers: 1 });
  const big = randomMatrix(3000, 32, 5);
  const inflight = e.kernel(big, null, { depth: 3 });
  const waiting = e.features(big, { dim: 64 });
  e.close();
  await assert.rejects(inflight, isError(Error, 'ERR_CLOSED', undefined, /^kernel: the engine was closed/));
  await assert.rejects(waiting, isError(Error, 'ERR_CLOSED', undefined, /^features: the engine was closed/));
  await assert.rejects(e.split(3), isError(Error, 'ERR_CLOSED'));
  const e2 = await createEngine({ workers: 1 });
  const fromProgress = e2.kernel(big, null, { depth: 2, onProgress: () => e2.close() });
  await assert.rejects(fromProgress, isError(Error, 'ERR_CLOSED'));
});

test('non-finite results are numbers, not a failed call', async () => {
  // More features than rows: leave-one-out at a λ of 1e-300 divides by a zero residual weight.
  const X = { rows: 4, cols: 2, data: Float64Array.from([1, 2, 1, 2, 3, 1, 0.5, 0.2]) };
  const m = await eng.fitRidge(X, Float64Array.from([0.5, 0.7, 1.5, 2.5]), { features: { dim: 64 }, grid: [1e-300, 1], task: 'regression' });
  assert.equal(m.curve[0].score, Infinity);
  assert.ok(Number.isFinite(m.curve[1].score));
  assert.equal(m.lambda, 1);
});

test('signals and onProgress are checked like any option', async () => {
  const X = refX();
  await assert.rejects(eng.kernel(X, null, { signal: null }), isError(TypeError, 'ERR_TYPE', 'signal', /signal must be an AbortSignal/));
  await assert.rejects(eng.kernel(X, null, { signal: { aborted: false, addEventListener() {} } }), isError(TypeError, 'ERR_TYPE', 'signal'));
  await assert.rejects(eng.kernel(X, null, { onProgress: 3 }), isError(TypeError, 'ERR_TYPE', 'onProgress'));
  for (const call of [(o) => eng.parseCSV('a,b\n1,2\n', o), (o) => eng.previewCSV('a,b\n1,2\n', o), (o) => eng.score(Float64Array.of(1), Float64Array.of(1), o)]) {
    await assert.rejects(call({ signal: AbortSignal.abort() }), (e) => e.name === 'AbortError' && e.code === 'ERR_ABORTED');
  }
  const K = await eng.kernel(X);
  assert.equal(K.rows, 3);
});

test('one grammar: the same cause gives the same error in every method', async () => {
  const bad = { rows: 2, cols: 2, data: Float64Array.from([1, 2, 3, Infinity]) };
  const y = Float64Array.from([0.5, 1.5]);
  const calls = {
    kernel: () => eng.kernel(bad),
    features: () => eng.features(bad),
    fitRidge: () => eng.fitRidge(bad, y),
    compare: () => eng.compare(bad),
    selectActive: () => eng.selectActive(bad, { k: 1 }),
  };
  for (const [method, call] of Object.entries(calls)) {
    await assert.rejects(call(), isError(RangeError, 'ERR_NONFINITE', undefined, new RegExp(`^${method}: X has \\+Inf at row 1, column 1`)));
  }
  // Options where a matrix belongs say so; unknown options list the method's real keys.
  await assert.rejects(eng.kernel({ depth: 2 }), isError(TypeError, 'ERR_TYPE', 'X', /options: they go in the last argument/));
  await assert.rejects(eng.fitRidge(refX(), y, { features: { dimm: 3 } }),
    isError(TypeError, 'ERR_UNKNOWN_OPTION', 'features.dimm', /features takes method, depth, dim, sketchDim/));
  await assert.rejects(eng.fitRidge(refX(), y, { lamda: 1 }),
    isError(TypeError, 'ERR_UNKNOWN_OPTION', 'lamda', /known options: features, kernel, lambda, criterion, grid, gram, task, classes, preprocess, search, groups, signal, onProgress/));
  // previewCSV suggests maxBytes, and takes it.
  await assert.rejects(eng.previewCSV('a,b\n1,2\n', { maxBytes: 4 }), isError(RangeError, 'ERR_TOO_LARGE', 'maxBytes', /raise maxBytes/));
  // Internal operation names do not leak into messages.
  await assert.rejects(eng.fitRidge(randomMatrix(600, 3), Float64Array.from({ length: 600 }, () => 0.5 + Math.random()), { features: { dim: 16 }, kernel: undefined, lambda: 'auto', grid: [1, 2], criterion: 'loo', task: 'regression', classes: undefined }).then(() => { throw new Error('no error'); }, (e) => e),
    (e) => e.message === 'no error' || /^fitRidge: /.test(e.message));
});

test('interleaved failing and succeeding calls of every method, many in flight, each answered with its own result', async () => {
  const X = randomMatrix(120, 4, 8);
  const y = Float64Array.from({ length: 120 }, (_, i) => X.data[i * 4] * 2 + 0.1);
  const bad = { rows: 1, cols: 2, data: Float64Array.from([NaN, 1]) };
  const csv = 'a,b,c\n1,2,0.5\n3,4,1.5\n5,6,2.5\n';
  const good = [
    ['kernel', () => eng.kernel(X, null, { depth: 2 }), (r) => r.rows === 120 && r.cols === 120],
    ['features', () => eng.features(X, { dim: 32, seed: 3 }), (r) => r.cols === 32],
    ['fitRidge', () => eng.fitRidge(X, y, { features: { dim: 32 } }).then((m) => m.predict(X)), (r) => r.length === 120],
    ['compare', () => eng.compare(X, { features: { dim: 32 } }), (r) => r.relFrobenius > 0 && r.dim === 32],
    ['selectActive', () => eng.selectActive(X, { k: 5, features: { dim: 32 } }), (r) => r.length === 5],
    ['score', () => eng.score(y, y), (r) => r.r2 === 1],
    ['parseCSV', () => eng.parseCSV(csv), (r) => r.X.rows === 3 && r.targetName === 'c'],
    ['previewCSV', () => eng.previewCSV(csv, { rows: 2 }), (r) => r.rows.length === 2],
    ['split', () => eng.split(10, { seed: 2 }), (r) => r.train.length + r.test.length === 10],
    ['kfold', () => eng.kfold(10, { k: 5 }), (r) => r.length === 5],
  ];
  const failing = [
    ['kernel', () => eng.kernel(bad), 'ERR_NONFINITE'],
    ['features', () => eng.features(X, { dim: 8, sketchDim: 99 }), 'ERR_OPTION'],
    ['fitRidge', () => eng.fitRidge(X, y, { task: 'classification' }), 'ERR_VALUE'],
    ['compare', () => eng.compare(X, { features: { method: 'arccos0' } }), 'ERR_OPTION'],
    ['selectActive', () => eng.selectActive(X, { k: 500 }), 'ERR_OPTION'],
    ['score', () => eng.score(Float64Array.of(0, 2e9), Float64Array.of(0, 1), { task: 'classification' }), 'ERR_VALUE'],
    ['parseCSV', () => eng.parseCSV('a,b\n1,2\n3\n'), 'ERR_PARSE'],
    ['previewCSV', () => eng.previewCSV(new Uint8Array([0x1f, 0x8b, 1, 2, 3])), 'ERR_PARSE'],
    ['split', () => eng.split(10, { testFraction: 0 }), 'ERR_OPTION'],
    ['kfold', () => eng.kfold(3, { k: 5 }), 'ERR_OPTION'],
  ];
  const jobs = [];
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < good.length; i++) {
      jobs.push({ kind: 'good', entry: good[i], p: good[i][1]() });
      jobs.push({ kind: 'bad', entry: failing[i], p: failing[i][1]() });
    }
  }
  const settled = await Promise.allSettled(jobs.map((j) => j.p));
  settled.forEach((s, i) => {
    const { kind, entry } = jobs[i];
    if (kind === 'good') {
      assert.equal(s.status, 'fulfilled', `${entry[0]}: ${s.reason?.message}`);
      assert.ok(entry[2](s.value), `${entry[0]} returned a wrong result`);
    } else {
      assert.equal(s.status, 'rejected', `${entry[0]} should fail`);
      assert.equal(s.reason.code, entry[2], `${entry[0]}: ${s.reason.code} ${s.reason.message}`);
      assert.ok(s.reason.message.startsWith(`${entry[0]}: `), s.reason.message);
    }
  });
});

test('progress reports every stage of a fit, the λ search included', async () => {
  const X = randomMatrix(3000, 10, 4);
  const y = Float64Array.from({ length: 3000 }, (_, i) => Math.sin(X.data[i * 10]) + 0.01 * i);
  const stages = new Set();
  let last;
  await eng.fitRidge(X, y, { features: { dim: 512 }, onProgress: (p) => { stages.add(p.stage); last = p; } });
  for (const s of ['preprocess', 'features', 'eigen', 'solve']) assert.ok(stages.has(s), `no "${s}" stage in ${[...stages]}`);
  assert.equal(last.done, last.total);
});

test('the option checks in JavaScript and in Go agree on every option (class, code, option, message)', async () => {
  // The raw bridge, loaded here in the main thread, checks options with the same table.
  await import(path.join(root, 'dist', 'npm', 'wasm_exec.js'));
  const go = new globalThis.Go();
  const { instance } = await WebAssembly.instantiate(readFileSync(path.join(root, 'dist', 'npm', 'ntkrf.wasm')), go.importObject);
  go.run(instance);
  const raw = async (op, opts) => {
    try {
      await globalThis.ntkrf.call(op, JSON.stringify(opts), [], undefined, new TextEncoder().encode('a,b\n1,2\n'));
      return null;
    } catch (e) { return e; }
  };
  const ops = { kernel: 'kernel', features: 'features', fitRidge: 'fitPlan', compare: 'compare', selectActive: 'selectActive', score: 'score', parseCSV: 'parseCSV', previewCSV: 'previewCSV', split: 'split', kfold: 'kfold' };
  const X = refX();
  const y = Float64Array.from([0.5, 1.5, 2.5]);
  const js = {
    kernel: (o) => eng.kernel(X, null, o), features: (o) => eng.features(X, o), fitRidge: (o) => eng.fitRidge(X, y, o),
    compare: (o) => eng.compare(X, o), selectActive: (o) => eng.selectActive(X, { k: 1, ...o }), score: (o) => eng.score(y, y, o),
    parseCSV: (o) => eng.parseCSV('a,b\n1,2\n', o), previewCSV: (o) => eng.previewCSV('a,b\n1,2\n', o),
    split: (o) => eng.split(10, o), kfold: (o) => eng.kfold(10, o),
  };
  const badValues = (o) => [...(o.auto ? ['best'] : []), ...badOf(o)];
  const badOf = (o) => {
    switch (o.kind) {
      case 'bool': return ['yes', 1];
      case 'enum': return [5, 'nope'];
      case 'char': return [',,', 7];
      case 'int': return ['3', o.min - 1, (o.min ?? 0) + 0.5, o.max === undefined ? undefined : o.max + 1].filter((v) => v !== undefined);
      case 'number': return [true, ...(o.min !== undefined ? [o.min - 1] : []), ...(o.max !== undefined ? [o.max + 1] : [])];
      case 'nameOrIndex': return [true, -1, 0.5];
      case 'array': return ['x', [0]];
      case 'object': return [3, { nope: 1 }];
    }
    return [];
  };
  let compared = 0;
  for (const [method, op] of Object.entries(ops)) {
    for (const o of eng.schema[method]) {
      for (const v of badValues(o)) {
        const opts = { [o.name]: v };
        const a = await js[method](opts).then(() => null, (e) => e);
        const b = await raw(op, opts);
        assert.ok(a && b, `${method}.${o.name} = ${JSON.stringify(v)}: JS ${a?.message} / Go ${b?.message}`);
        assert.equal(a.name, b.name, `${method}.${o.name} = ${JSON.stringify(v)}: ${a.message} / ${b.message}`);
        assert.equal(a.code, b.code, `${method}.${o.name} = ${JSON.stringify(v)}: JS ${a.message} / Go ${b.message}`);
        assert.equal(a.option, b.option || undefined);
        assert.equal(a.message.replace(/^\w+: /, ''), b.message.replace(/^\w+: /, ''));
        compared++;
      }
    }
  }
  assert.ok(compared > 80, `${compared} comparisons`);
});
