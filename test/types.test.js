// index.d.ts documents what the engine does: every option a method takes is
// typed in its options interface, and nothing typed is refused. The engine's
// schema (from Go, jsbridge/schema.go) is what it takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pkg, root } from './helpers.js';

const { createEngine } = await import(pkg);
const dts = readFileSync(path.join(root, 'www', 'pkg', 'index.d.ts'), 'utf8');

/** The keys of an interface and the interface it extends, read from index.d.ts. */
function iface(name) {
  const m = new RegExp(`export interface ${name}(?: extends (\\w+))? \\{`).exec(dts);
  assert.ok(m, `index.d.ts has no interface ${name}`);
  let depth = 1;
  let i = m.index + m[0].length;
  const start = i;
  for (; depth > 0; i++) depth += dts[i] === '{' ? 1 : dts[i] === '}' ? -1 : 0;
  const body = dts.slice(start, i - 1).replace(/\/\*[\s\S]*?\*\//g, '');
  const keys = [...body.matchAll(/^ {2}(?:readonly )?(\w+)\??:/gm)].map((k) => k[1]);
  // The string literals each key is typed with: 'ntk' | 'nngp' | ….
  const literals = Object.fromEntries([...body.matchAll(/^ {2}(?:readonly )?(\w+)\??: ([^;]*);/gm)]
    .map(([, k, type]) => [k, [...type.matchAll(/'([^']*)'/g)].map((l) => l[1])]));
  return { keys, parent: m[1], literals };
}

/** Every enum option is typed with exactly the names the schema lists. */
function sameEnums(name, options, where) {
  const { literals } = iface(name);
  for (const o of options) {
    if (o.kind === 'enum') assert.deepEqual([...literals[o.name]].sort(), [...o.enum].sort(), `${name}.${o.name} vs ${where}.${o.name}`);
  }
}

const interfaces = {
  kernel: 'KernelOptions', features: 'FeatureOptions', fitRidge: 'FitOptions', compare: 'CompareOptions',
  selectActive: 'SelectOptions', score: 'ScoreOptions', parseCSV: 'ParseOptions', previewCSV: 'PreviewOptions',
  split: 'SplitOptions', kfold: 'KFoldOptions', preprocess: 'PreprocessOptions', predictCSV: 'PredictCSVOptions',
};
/** Methods that take no options of their own: typed as CallControl alone. */
const controlOnly = { loadModel: /loadModel\(file: string \| ModelFile, options\?: CallControl\)/, stats: /stats\(options\?: CallControl\)/ };
const nested = { 'fitRidge.features': 'FeatureOptions', 'fitRidge.kernel': 'KernelSpec', 'fitRidge.preprocess': 'Preprocess',
  'compare.features': 'FeatureOptions', 'compare.kernel': 'KernelSpec', 'compare.preprocess': 'Preprocess', 'selectActive.features': 'FeatureOptions', 'preprocess.preprocess': 'Preprocess' };

test('index.d.ts types exactly the options each method takes, and every method takes signal and onProgress', async () => {
  const eng = await createEngine({ workers: 1 });
  try {
    for (const [method, name] of Object.entries(interfaces)) {
      const { keys, parent } = iface(name);
      const schema = eng.schema[method].map((o) => o.name);
      assert.deepEqual([...keys].sort(), [...schema].sort(), `${name} vs the options ${method} takes`);
      if (method !== 'features') assert.equal(parent, 'CallControl', `${name} must extend CallControl`);
      sameEnums(name, eng.schema[method], method);
    }
    for (const [at, name] of Object.entries(nested)) {
      const [method, key] = at.split('.');
      const fields = eng.schema[method].find((o) => o.name === key).fields.map((o) => o.name);
      assert.deepEqual([...iface(name).keys].sort(), [...fields].sort(), `${name} vs ${at}`);
      sameEnums(name, eng.schema[method].find((o) => o.name === key).fields, at);
    }
    for (const [method, signature] of Object.entries(controlOnly)) {
      assert.deepEqual(eng.schema[method], [], `${method} takes options: type them`);
      assert.match(dts, signature);
    }
    // The schema's methods are the ones Engine.schema is typed with.
    const typed = /readonly schema: Record<([^,]+),/.exec(dts)[1].match(/'(\w+)'/g).map((m) => m.slice(1, -1));
    assert.deepEqual([...typed].sort(), Object.keys(eng.schema).filter((k) => Array.isArray(eng.schema[k])).sort());
    // features takes FeatureOptions & CallControl.
    assert.match(dts, /features\(X: Matrix \| Rows, options\?: FeatureOptions & CallControl\)/);
    // Every error code the engine can give is typed and tabled.
    const codes = [...dts.matchAll(/'(ERR_[A-Z_]+)'/g)].map((m) => m[1]);
    for (const code of ['ERR_TYPE', 'ERR_UNKNOWN_OPTION', 'ERR_OPTION', 'ERR_NONFINITE', 'ERR_VALUE', 'ERR_SHAPE', 'ERR_TOO_LARGE', 'ERR_PARSE', 'ERR_DATA', 'ERR_PROTOCOL', 'ERR_ABORTED', 'ERR_CLOSED', 'ERR_INSTANCE', 'ERR_INTERNAL']) {
      assert.ok(codes.includes(code), `ErrorCode lacks ${code}`);
      assert.match(dts, new RegExp(`\\| ${code} \\|`), `the code table lacks ${code}`);
    }
  } finally {
    eng.close();
  }
});
