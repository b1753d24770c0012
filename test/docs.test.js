// The docs say what the package does: the Node version they name is the
// package's engines, and the methods they call synchronous are exactly
// those that do not return a Promise (every other one does). The README's
// fuzz list is tied to build.sh in Go (internal/readme).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pkg, root } from './helpers.js';

const { createEngine } = await import(pkg);
const read = (...p) => readFileSync(path.join(root, ...p), 'utf8');

test('every doc names the Node version of the package\'s engines', () => {
  const engines = JSON.parse(read('www', 'pkg', 'package.json')).engines.node;
  const major = /^>=(\d+)$/.exec(engines)?.[1];
  assert.ok(major, `engines.node is ${engines}`);
  const docs = {
    'README.md': [new RegExp(`Node\\.js ${major} or later \\(the\\s+package's \`engines\`\\)`)],
    'www/pkg/README.md': [new RegExp(`for Node ≥ ${major} and browsers`)],
    'www/pkg/index.d.ts': [new RegExp(`Works in Node ≥ ${major} \\(the\\s+\\* package's engines\\)`)],
    'www/pkg/index.js': [new RegExp(`Node ≥ ${major} \\(worker_threads\\)`)],
    'www/pkg/pool.js': [new RegExp(`Node\\.js ${major} \\(the package\\.json engines\\) or later`)],
  };
  for (const [file, patterns] of Object.entries(docs)) {
    const text = read(...file.split('/'));
    for (const p of patterns) assert.match(text, p, file);
    // No other Node version is named as a requirement.
    for (const m of text.matchAll(/Node(?:\.js)? ?(?:≥ ?)?(\d+)(?:\.\d+)?(?: or later)?/g)) {
      if (/or later|≥/.test(m[0])) assert.equal(m[1], major, `${file}: "${m[0]}"`);
    }
  }
});

/** The synchronous methods the docs list: "`take`, `close`, `model.classNames`, … are synchronous". */
function documentedSync(text, file) {
  const m = /((?:`[\w.]+`,? (?:and )?)+)are synchronous/.exec(text.replace(/\n \* /g, ' ').replace(/\s+/g, ' '));
  assert.ok(m, `${file} lists no synchronous methods`);
  return [...m[1].matchAll(/`([\w.]+)`/g)].map((x) => x[1].replace(/^(eng|model)\./, '')).sort();
}

test('the methods the docs call synchronous are the only ones that do not return a Promise', async () => {
  const eng = await createEngine({ workers: 1 });
  const model = await eng.fitRidge([[0, 1], [1, 0], [1, 1], [0, 0], [2, 1], [1, 2]], [0, 1, 1, 0, 1, 0],
    { task: 'classification', features: { dim: 8, depth: 1 }, preprocess: { standardize: true }, lambda: 1 });
  // Each method called with no arguments: a Promise (rejecting, mostly) or a synchronous answer or throw.
  const sync = [];
  const calls = [];
  for (const [name, target] of [...Object.getOwnPropertyNames(Object.getPrototypeOf(eng)).map((n) => [n, eng]),
    ...Object.getOwnPropertyNames(Object.getPrototypeOf(model)).map((n) => [n, model])]) {
    if (name === 'constructor' || typeof target[name] !== 'function') continue;
    if (name === 'close' || name === 'dispose') { sync.push(name); continue; } // called last, below
    let out;
    try {
      out = target[name]();
    } catch {
      sync.push(name);
      continue;
    }
    if (out instanceof Promise) calls.push(out.catch(() => {}));
    else sync.push(name);
  }
  await Promise.all(calls);
  assert.equal(model.dispose(), undefined);
  assert.equal(eng.close(), undefined);
  for (const file of ['README.md', 'www/pkg/README.md', 'www/pkg/index.d.ts']) {
    assert.deepEqual(documentedSync(read(...file.split('/')), file), [...sync].sort(), file);
  }
  // And no doc says that every call returns a Promise.
  for (const file of ['README.md', 'www/pkg/README.md', 'www/pkg/index.d.ts']) {
    assert.doesNotMatch(read(...file.split('/')), /every call returns a Promise/i, file);
  }
});

// Issue 42: the README says what `serve` does before the page is up, and how
// long a cold start took (measured), so a newcomer does not wait blind.
test('the README says that serve builds first and how long a cold start takes', () => {
  const readme = read('README.md');
  assert.match(readme, /`serve` builds first, every time: the WebAssembly module, the package and the site into `dist\/`/);
  assert.match(readme, /A cold start \(an empty Go build cache[^)]*\) took\s+\d+ s/);
  assert.match(readme, /rebuild takes about \d+ s/);
});
