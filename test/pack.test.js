// The package as users get it: `npm pack`, install the tarball into a fresh
// project, run the README's example against it. The package is ES modules
// loaded as they are: every module build.sh copies is packed, and every
// relative import of a packed module names a packed file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root } from './helpers.js';

test('npm pack → npm install → import "ntkrf" works', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ntkrf-pack-'));
  try {
    const npm = (args, cwd) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8' });
    const tgz = npm(['pack', path.join(root, 'dist', 'npm'), '--pack-destination', dir], root).trim().split('\n').at(-1);
    const manifest = JSON.parse(readFileSync(path.join(root, 'dist', 'npm', 'package.json'), 'utf8'));
    assert.equal(manifest.type, 'module');
    assert.equal(manifest.exports['.'].types, './index.d.ts');
    // What the tarball holds: everything build.sh put in dist/npm, nothing else.
    const [{ files }] = JSON.parse(npm(['pack', '--dry-run', '--json', path.join(root, 'dist', 'npm')], root));
    const packed = files.map((f) => f.path).sort();
    assert.deepEqual(packed, readdirSync(path.join(root, 'dist', 'npm')).sort(), 'dist/npm and the tarball differ: update "files" in www/pkg/package.json');
    for (const name of ['index.js', 'worker.js', 'wasm_exec.js', 'ntkrf.wasm', 'kernels.wasm', 'index.d.ts', 'README.md', 'LICENSE']) assert.ok(packed.includes(name), name);
    // Each module's relative imports (static, dynamic and new URL(…, import.meta.url)) resolve to packed files.
    for (const js of packed.filter((f) => f.endsWith('.js') && f !== 'wasm_exec.js')) {
      const text = readFileSync(path.join(root, 'dist', 'npm', js), 'utf8');
      const refs = [...text.matchAll(/(?:from\s+|import\s*\(?\s*|new URL\(\s*)'(\.\/[^']+)'/g)].map((m) => m[1].slice(2));
      for (const ref of refs) assert.ok(packed.includes(ref), `${js} imports ./${ref}, which is not packed`);
      if (js === 'index.js') assert.ok(refs.length >= 5, `index.js imports ${refs}`);
    }
    const app = path.join(dir, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    npm(['install', '--offline', path.join(dir, tgz)], app);
    writeFileSync(path.join(app, 'example.mjs'), `
      import { createEngine } from 'ntkrf';
      const eng = await createEngine({ workers: 1 });
      const X = { rows: 2, cols: 2, data: Float64Array.from([1, 0, 0.6, 0.8]) };
      const K = await eng.kernel(X, null, { kernel: 'ntk', depth: 3 });
      const P = await eng.features(X, { dim: 16, seed: 1 });
      console.log(JSON.stringify({ K: [...K.data], cols: P.cols }));
      eng.close();
    `);
    const out = JSON.parse(execFileSync('node', ['example.mjs'], { cwd: app, encoding: 'utf8' }));
    assert.deepEqual([out.K[0], out.K[3]], [4, 4]);
    assert.ok(out.K[1] > 0 && out.K[1] < 4);
    assert.equal(out.cols, 16);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
