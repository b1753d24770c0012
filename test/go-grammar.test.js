// Go's limits and error grammar as the package sees them (issue 25): row
// counts are bounded by Go's data.MaxIndices (ERR_TOO_LARGE, before any
// allocation), a file refused for one cause has one code in parseCSV,
// previewCSV and predictCSV, and messages quote a user's text cut short.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { pkg } from './helpers.js';

const { createEngine } = await import(pkg);
let eng, model;
before(async () => {
  eng = await createEngine({ workers: 1 });
  const ds = await eng.parseCSV('a,b,y\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n2,1,x\n4,3,y\n');
  model = await eng.fitRidge(ds, { features: { dim: 16, seed: 1, depth: 1 }, preprocess: { standardize: true } });
});
after(() => eng?.close());

const isError = (Class, code, pattern) => (e) => {
  assert.ok(e instanceof Class, `want ${Class.name}, got ${e?.name}: ${e?.message}`);
  assert.equal(e.code, code, e.message);
  if (pattern) assert.match(e.message, pattern);
  return true;
};

test('split and kfold refuse counts past the limit with ERR_TOO_LARGE, at once', async () => {
  const start = Date.now();
  for (const n of [5e7, 2 ** 31, 2 ** 40]) {
    await assert.rejects(eng.split(n), isError(RangeError, 'ERR_TOO_LARGE', /over the limit/));
    await assert.rejects(eng.kfold(n), isError(RangeError, 'ERR_TOO_LARGE', /over the limit/));
  }
  // Leave-one-out of 100,000 rows would return 10^10 indices.
  await assert.rejects(eng.kfold(100000, { k: 100000 }), isError(RangeError, 'ERR_TOO_LARGE', /folds/));
  assert.ok(Date.now() - start < 5000, 'refused before allocating');
  await assert.rejects(eng.split(-1), isError(RangeError, 'ERR_OPTION'));
  const { train, test: held } = await eng.split(10);
  assert.equal(train.length + held.length, 10);
});

test('one cause, one code: parseCSV, previewCSV and predictCSV agree', async () => {
  const gz = gzipSync(Buffer.from('a,b,y\n1,2,x\n'.repeat(50)));
  const cases = [
    ['binary', new Uint8Array(4096)],
    ['UTF-16', Uint8Array.from([0xff, 0xfe, 0x61, 0, 0x2c, 0, 0x62, 0, 0x0a, 0])],
    ['unclosed quote', 'a,b,y\n1,"2,x\n3,4,y\n'],
    ['damaged gzip', gz.subarray(0, gz.length - 12)],
  ];
  for (const [name, input] of cases) {
    for (const call of [() => eng.parseCSV(input), () => eng.previewCSV(input), () => model.predictCSV(input)]) {
      await assert.rejects(call(), isError(Error, 'ERR_PARSE'), name);
    }
  }
});

test('messages quote a 5 MB cell or column name cut short', async () => {
  const big = 'x'.repeat(5 << 20);
  for (const [csv, opts] of [[`a,y\n${'1,2\n'.repeat(20)}${big},3\n`, {}], [`${big},b,y\n1,2,3\n4,5,6\n`, { delimiter: ',', target: 'nope' }]]) {
    await assert.rejects(eng.parseCSV(csv, opts), (e) => e.message.length < 2000 && /bytes\)/.test(e.message));
  }
});
