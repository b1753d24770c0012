// Runs the README's JavaScript example against the built package, so it
// cannot rot (internal/readme does the same for the Go example).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { root, pkg } from './helpers.js';

test('the README JavaScript example runs and prints what it says', async () => {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(blocks.length > 0, 'README.md has no JavaScript example');
  await mkdir(path.join(root, 'dist', 'test'), { recursive: true });
  for (const [i, src] of blocks.entries()) {
    assert.match(src, /'\.\/dist\/npm\/index\.js'/, 'the example imports the built package');
    const file = path.join(root, 'dist', 'test', `readme-${i + 1}.mjs`);
    await writeFile(file, src.replace("'./dist/npm/index.js'", JSON.stringify(pkg)));
    const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: root });
    // K(x1, x2) of the depth-2 NTK (REFERENCE.md), the feature width, one name per iris row,
    // and the test part's accuracy above 0.9.
    assert.match(stdout, /^3\.65457490759\d* 1024 150 true\n$/);
  }
});
