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
