// Assembles the hand-written WebAssembly kernels (wasm/kernels/*.wat) with
// the wabt package (a devDependency: build time only; the package ships the
// .wasm). ./build.sh runs it into dist/npm; tests run it into a directory
// of their own.
//   node wasm/kernels/assemble.mjs OUTDIR
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = process.argv[2];
if (!out) {
  console.error('usage: node wasm/kernels/assemble.mjs OUTDIR');
  process.exit(2);
}
const wabt = await wabtInit();
mkdirSync(out, { recursive: true });
// [source, output, features]
for (const [src, dst, features] of [['kernels.wat', 'kernels.wasm', { simd: true }]]) {
  const file = path.join(here, src);
  const mod = wabt.parseWat(file, readFileSync(file), features);
  mod.validate();
  const { buffer } = mod.toBinary({ log: false, write_debug_names: false });
  mod.destroy();
  writeFileSync(path.join(out, dst), buffer);
}
