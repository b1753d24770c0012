// WebAssembly SIMD: ntkrf.wasm is built with it, and engines without it
// get an error naming the versions needed instead of a CompileError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pkg, root } from './helpers.js';

const { createEngine } = await import(pkg);

test('an engine without WebAssembly SIMD gets an error naming the minimum versions', async () => {
  const validate = WebAssembly.validate;
  // The probe is the only module validated before compiling: reject it as
  // an engine without SIMD would.
  WebAssembly.validate = () => false;
  try {
    // The Node version is the package's engines (test/docs.test.js ties the README to it too).
    const node = /^>=(\d+)$/.exec(JSON.parse(readFileSync(path.join(root, 'www', 'pkg', 'package.json'), 'utf8')).engines.node)[1];
    await assert.rejects(createEngine({ workers: 1 }), new RegExp(`lacks WebAssembly SIMD.*Chrome or Edge 91, Firefox 89, Safari 16\\.4, or Node\\.js ${node} `));
  } finally {
    WebAssembly.validate = validate;
  }
  const eng = await createEngine({ workers: 1 });
  try {
    const K = await eng.kernel({ rows: 1, cols: 2, data: Float64Array.from([3, 4]) }, null, { kernel: 'nngp', depth: 1 });
    assert.equal(K.data[0], 25);
  } finally {
    eng.close();
  }
});
