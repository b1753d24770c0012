// The core owns every name, default and limit; the package and the lab read
// them from the engine (Go's jsbridge Schema and Core) and write none of
// their own. These tests read what the engine says and grep the sources of
// www/ for what they must not write.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pkg, root } from './helpers.js';

const { createEngine } = await import(pkg);
const rows = await import(path.join(root, 'dist', 'npm', 'rows.js'));
const options = await import(path.join(root, 'dist', 'npm', 'options.js'));

let eng;
before(async () => { eng = await createEngine({ workers: 2 }); });
after(() => eng?.close());

/** The sources of a folder of www/, by file name. */
const sources = (dir) => Object.fromEntries(readdirSync(path.join(root, 'www', dir)).filter((f) => f.endsWith('.js'))
  .map((f) => [`www/${dir}/${f}`, readFileSync(path.join(root, 'www', dir, f), 'utf8')]));

test('the engine shows the core\'s names and limits, and the package schedules with those', () => {
  const { names, limits } = eng;
  // The word the schema accepts for "choose for me" is the core's names.Auto.
  assert.equal(names.Auto, eng.schema.fitRidge.find((o) => o.name === 'lambda').auto);
  assert.ok(eng.schema.kernel.find((o) => o.name === 'kernel').enum.includes(names.RBF));
  assert.deepEqual(eng.schema.fitRidge.find((o) => o.name === 'task').enum, [names.Classification, names.Regression]);
  for (const k of ['chunkBytes', 'splitSelectBytes', 'minBlockRows']) assert.ok(Number.isInteger(limits[k]) && limits[k] > 0, `limits.${k} = ${limits[k]}`);
  // The package's sizes are the core's, read when the first worker started.
  assert.equal(rows.CHUNK_BYTES, limits.chunkBytes);
  assert.equal(rows.SPLIT_SELECT_BYTES, limits.splitSelectBytes);
  assert.equal(options.MIN_BLOCK_ROWS, limits.minBlockRows);
  for (const cols of [1, 7, 1000]) assert.equal(rows.chunkRows(cols), Math.floor(limits.chunkBytes / (8 * cols)));
  const m = limits.minBlockRows;
  // Blocks of at least minBlockRows rows: 3m rows make 3 blocks, one row more 4, however many workers.
  assert.equal(rows.rowBlocks(3 * m, 8).length, 3);
  assert.equal(rows.rowBlocks(3 * m + 1, 8).length, 4);
});

test('the package writes no scheduling size of its own: every *_BYTES and *_ROWS is the core\'s', () => {
  const own = [];
  for (const [file, src] of Object.entries(sources('pkg'))) {
    for (const [i, line] of src.split('\n').entries()) {
      if (/^\s*(export\s+)?(const|let|var)\s+[A-Z0-9_]*(BYTES|ROWS)\s*=\s*[\d(]/.test(line)) own.push(`${file}:${i + 1}: ${line.trim()}`);
    }
  }
  assert.deepEqual(own, [], 'sizes the package writes itself; take them from the core (jsbridge Core limits)');
});

/**
 * Where a core name may stand as a literal in www/: the lab's tables that
 * vocabulary() checks against the engine, names by name (its problems list
 * every one the engine lacks), and words that are not the core's names.
 */
const TIED_TABLES = new Set(['SETTINGS', 'METHODS', 'WORDS', 'EXACT', 'FEATURES', 'CONTRAST', 'TASK', 'SWEEP_METHODS']);
const NOT_CORE_NAMES = [
  // 'split' here is the engine method that holds rows out (SETTINGS.eval), not the sketch.
  /\b(eval|evaluation)\s*[!=]==?\s*'split'/,
  // createEngine's own option: the package picks the worker count (no core name).
  /\bworkers === 'auto'/,
];

/** The lines of src inside a top-level `export const NAME` of a tied table. */
function tiedLines(src) {
  const tied = new Set();
  let inside = false;
  for (const [i, line] of src.split('\n').entries()) {
    const start = line.match(/^export const (\w+)\s*=/);
    if (start) inside = TIED_TABLES.has(start[1]);
    else if (/^\S/.test(line) && !/^[}\])]/.test(line)) inside = false;
    if (inside) tied.add(i);
  }
  return tied;
}

/** Every literal of a core name in src that compares with, or writes, a name; as "file:line: text". */
function literalNames(file, src, names) {
  const words = [...new Set(Object.values(names))].join('|');
  const q = `(['"\`])(?:${words})\\1`;
  const uses = [
    new RegExp(`[!=]==?\\s*${q}`), new RegExp(`${q}\\s*[!=]==?`), // comparisons
    new RegExp(`\\bcase\\s+${q}`),
    new RegExp(`\\b(?:task|kernel|method|depth|lambda|preprocess|sketch|sampler|criterion|precision)\\s*:\\s*${q}`), // a name written into options
    new RegExp(`\\?\\s*${q}\\s*:`), // a name chosen by a condition
  ];
  const tied = tiedLines(src);
  const out = [];
  for (const [i, line] of src.split('\n').entries()) {
    const code = line.replace(/\/\/.*$/, '');
    if (/^\s*(\/\/|\*|\/\*)/.test(line) || tied.has(i) || NOT_CORE_NAMES.some((re) => re.test(code))) continue;
    if (uses.some((re) => re.test(code))) out.push(`${file}:${i + 1}: ${line.trim()}`);
  }
  return out;
}

test('no lab or package module compares with or writes a core name as a literal: they read eng.names (NAMES)', () => {
  const found = [];
  for (const [file, src] of Object.entries({ ...sources('lab'), ...sources('pkg') })) {
    found.push(...literalNames(file, src, eng.names));
  }
  assert.deepEqual(found, [], 'use NAMES (www/lab/names.js, www/pkg/options.js), read from the engine');
  // The lint sees what it must: each kind of use in a line of its own.
  const probe = ["if (ds.task === 'classification') x();", "const o = { depth: 'auto' };", "const l = s.lamauto ? 'auto' : 1;", "switch (k) { case 'rbf': }"].join('\n');
  assert.equal(literalNames('probe', probe, eng.names).length, 4);
});

test('the lab\'s tables of core names are the engine\'s: vocabulary() finds none it lacks', async () => {
  const { vocabulary, NAMES } = await import(path.join(root, 'dist', 'www', 'vocab.js'));
  const { SWEEP_METHODS } = await import(path.join(root, 'dist', 'www', 'sweep.js'));
  const { SHORTFALL } = await import(path.join(root, 'dist', 'www', 'experiments.js'));
  const v = vocabulary(eng.schema, eng.names);
  assert.deepEqual(v.problems, []);
  assert.deepEqual(NAMES, eng.names, 'the lab keeps the engine\'s names');
  const methods = eng.schema.features.find((o) => o.name === 'method').enum;
  for (const m of SWEEP_METHODS) assert.ok(methods.includes(m), `the sweep's ${m} is no method of the engine`);
  assert.deepEqual(Object.keys(SHORTFALL).sort(), [...eng.schema.fitRidge.find((o) => o.name === 'task').enum].sort());
  // Without the engine's names, the lab says so; a name the engine lacks is listed.
  assert.ok(vocabulary(eng.schema).problems.some((p) => /eng\.names/.test(p)));
  const { Classification, ...fewer } = eng.names;
  assert.ok(vocabulary(eng.schema, fewer).problems.some((p) => /classification is not a name of the engine/.test(p)));
  vocabulary(eng.schema, eng.names);
});
