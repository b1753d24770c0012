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
  return { keys, parent: m[1] };
}

const interfaces = {
  kernel: 'KernelOptions', features: 'FeatureOptions', fitRidge: 'FitOptions', compare: 'CompareOptions',
  selectActive: 'SelectOptions', score: 'ScoreOptions', parseCSV: 'ParseOptions', previewCSV: 'PreviewOptions',
  split: 'SplitOptions', kfold: 'KFoldOptions',
};
const nested = { 'fitRidge.features': 'FeatureOptions', 'fitRidge.kernel': 'KernelSpec', 'fitRidge.preprocess': 'Preprocess',
  'compare.features': 'FeatureOptions', 'compare.kernel': 'KernelSpec', 'compare.preprocess': 'Preprocess', 'selectActive.features': 'FeatureOptions' };

test('index.d.ts types exactly the options each method takes, and every method takes signal and onProgress', async () => {
  const eng = await createEngine({ workers: 1 });
  try {
    for (const [method, name] of Object.entries(interfaces)) {
      const { keys, parent } = iface(name);
      const schema = eng.schema[method].map((o) => o.name);
      assert.deepEqual([...keys].sort(), [...schema].sort(), `${name} vs the options ${method} takes`);
      if (method !== 'features') assert.equal(parent, 'CallControl', `${name} must extend CallControl`);
    }
    for (const [at, name] of Object.entries(nested)) {
      const [method, key] = at.split('.');
      const fields = eng.schema[method].find((o) => o.name === key).fields.map((o) => o.name);
      assert.deepEqual([...iface(name).keys].sort(), [...fields].sort(), `${name} vs ${at}`);
    }
    // features takes FeatureOptions & CallControl.
    assert.match(dts, /features\(X: Matrix, options\?: FeatureOptions & CallControl\)/);
    // Every error code the engine can give is typed and tabled.
    const codes = [...dts.matchAll(/'(ERR_[A-Z_]+)'/g)].map((m) => m[1]);
    for (const code of ['ERR_TYPE', 'ERR_UNKNOWN_OPTION', 'ERR_OPTION', 'ERR_NONFINITE', 'ERR_VALUE', 'ERR_SHAPE', 'ERR_TOO_LARGE', 'ERR_PARSE', 'ERR_DATA', 'ERR_ABORTED', 'ERR_CLOSED', 'ERR_INSTANCE', 'ERR_INTERNAL']) {
      assert.ok(codes.includes(code), `ErrorCode lacks ${code}`);
      assert.match(dts, new RegExp(`\\| ${code} \\|`), `the code table lacks ${code}`);
    }
  } finally {
    eng.close();
  }
});
