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
const errors = await import(path.join(root, 'dist', 'npm', 'errors.js'));

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
  for (const k of ['chunkBytes', 'splitSelectBytes', 'minBlockRows', 'startTimeoutMs', 'maxRestarts', 'maxArrayValues', 'quoteChars', 'listChars', 'messageChars']) {
    assert.ok(Number.isInteger(limits[k]) && limits[k] > 0, `limits.${k} = ${limits[k]}`);
  }
  assert.equal(options.MAX_ARRAY_VALUES, limits.maxArrayValues, 'take\'s and fromRows\' limit is the core\'s');
  assert.equal(options.MAX_RESTARTS, limits.maxRestarts, 'the pool\'s restart bound is the core\'s');
  // The package splits its own messages by the core's grammar (Go's errs.AdviceVerbs).
  assert.deepEqual([...errors.ADVICE_VERBS].sort(), limits.adviceVerbs, 'the advice verbs are the core\'s');
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

test('one array of rows holds at most the core\'s maxArrayValues: a matrix of rows and take refuse more before allocating', async () => {
  const max = eng.limits.maxArrayValues;
  const cols = 2 ** 11 + 1;
  const row = new Float64Array(cols);
  const rowsOver = Math.floor(max / cols) + 1; // one row too many, each the same row (no memory)
  await assert.rejects(eng.features(Array(rowsOver).fill(row), { dim: 8 }), (e) => e.code === 'ERR_TOO_LARGE' && e.message.includes(String(max)));
  const X = { rows: 1, cols: 2, data: new Float64Array(2) };
  assert.throws(() => eng.take(X, new Array(Math.floor(max / 2) + 1)), (e) => e.code === 'ERR_TOO_LARGE' && e.message.includes(String(max)));
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
 * The limits the package needs before any instance can send it the core's
 * (an error's caps, the start timeout): each is written in its module, and
 * must equal the core's (Go's TestPackageCopiesAreTheCores checks the same
 * sources). By file: constant → key of eng.limits.
 */
const TIED_LIMITS = {
  'www/pkg/errors.js': { QUOTE_CHARS: 'quoteChars', LIST_CHARS: 'listChars', MESSAGE_CHARS: 'messageChars' },
  'www/pkg/pool.js': { START_TIMEOUT_MS: 'startTimeoutMs' },
};

/**
 * The numbers www/ writes that are the host's own, not the model's nor a
 * limit of the core: how a page draws and paces itself, and the package's
 * thread pool. By file: constant → why it is the host's.
 */
const HOST_ONLY = {
  'www/pkg/index.js': {
    MAX_WORKERS: 'how many threads \'auto\' starts: the host\'s pool (Go\'s wasm instance has one thread and knows no workers)',
    MAX_TIMER_MS: 'the longest delay setTimeout keeps: the JavaScript timer\'s range',
  },
  'www/lab/active.js': { RANDOM_ORDERS: 'baseline orders the page averages', CURVE_POINTS: 'points of the drawn curve', ORDER_STREAM: 'the page\'s random streams' },
  'www/lab/charts.js': { MAX_SVG_POINTS: 'SVG or canvas', MAX_SVG_CLASSES: 'SVG or canvas', LABEL_HEIGHT: 'text size', MAX_TABLE_CLASSES: 'a whole matrix or a row per class' },
  'www/lab/cost.js': {
    EXACT_MAX: 'rows the page offers the exact kernel for (its time on a tab; the core refuses by memory)', SLOW_MS: 'when the page warns',
    RATE_RUNS: 'runs the estimate follows',
  },
  'www/lab/data.js': { MAX_FILE_BYTES: 'the file a tab reads into memory (the engine\'s maxBytes is the call\'s)', PREVIEW_COLUMNS: 'table cells shown' },
  'www/lab/downloads.js': { MAX_EXPORT_VALUES: 'text export size', EXPORT_SLICE_ROWS: 'rows between event-loop turns' },
  'www/lab/experiments.js': { SAMPLE: 'rows of the kernel pictures' },
  'www/lab/line1d.js': {
    EXTENT_1D: 'the demo\'s plane', CURVE_POINTS_1D: 'points drawn', POINTS_1D: 'the demo\'s data', MAX_POINTS_1D: 'rows a tab fits the curves on',
    RBF_GAMMA_1D: 'the contrast\'s γ, passed as an option (the demo\'s choice, no default of the core)',
  },
  'www/lab/messages.js': { MAX_ALERT_CHARS: 'what an alert shows (the engine\'s messages are cut to limits.messageChars already)' },
  'www/lab/models.js': { MAX_MODEL_BYTES: 'the file a tab reads into memory', SHOWN_PREDICTIONS: 'rows shown' },
  'www/lab/playground.js': { COARSE: 'the quick picture\'s cells', DEBOUNCE_MS: 'UI pacing', LOAD_POLL_MS: 'UI pacing', SLOW_SURFACE_MS: 'when the page explains', DOT: 'pixels' },
  'www/lab/surface.js': {
    GRID: 'cells drawn', BATCH: 'rows between stops', SURE: 'colour scale',
    RBF_GAMMA: 'the contrast\'s γ, passed as an option (the demo\'s choice, no default of the core)',
  },
  'www/lab/toy.js': { EXTENT: 'the demo\'s plane', TABLE_REACH: 'the demo\'s plane', MAX_PLANE_POINTS: 'points a tab draws and fits the pictures on' },
};

/** Every top-level UPPER_CASE constant of src set to a number literal (64, 2 ** 31 - 1, 128 << 20, 30_000, 1e9). */
const numberConstants = (src) => [...src.matchAll(/^\s*(?:export\s+)?(?:const|let|var)\s+([A-Z][A-Z0-9_]*)\s*=\s*([-+(]?\s*\d[\d_.e+\-*<>() ]*);/gm)].map((m) => m[1]);

test('every number www/ writes as a constant is the core\'s (tied to eng.limits) or the host\'s own (named here with why)', async () => {
  const untold = [];
  const seen = new Set();
  for (const [file, src] of Object.entries({ ...sources('pkg'), ...sources('lab') })) {
    for (const name of numberConstants(src)) {
      seen.add(`${file} ${name}`);
      if (!TIED_LIMITS[file]?.[name] && !HOST_ONLY[file]?.[name]) untold.push(`${file}: ${name}`);
    }
  }
  assert.deepEqual(untold, [], 'a number in www/ that is neither the core\'s (TIED_LIMITS, read from eng.limits) nor named as the host\'s (HOST_ONLY)');
  for (const [file, table] of Object.entries({ ...TIED_LIMITS, ...HOST_ONLY })) {
    for (const name of Object.keys(table)) assert.ok(seen.has(`${file} ${name}`), `${file} no longer writes ${name}: drop it from the table`);
  }
  // Each copy the package keeps equals the core's.
  for (const [file, table] of Object.entries(TIED_LIMITS)) {
    const mod = await import(path.join(root, 'dist', 'npm', path.basename(file)));
    for (const [name, key] of Object.entries(table)) assert.equal(mod[name], eng.limits[key], `${file} ${name} is not the core's limits.${key}`);
  }
  // The lint sees what it must.
  assert.deepEqual(numberConstants('export const A_B = 2 ** 31 - 1;\nconst C = 128 << 20;\nlet D = 30_000;\nconst E = 1e9;\nconst F = G.length;\nconst h = 3;'), ['A_B', 'C', 'D', 'E']);
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
