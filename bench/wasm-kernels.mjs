// The WebAssembly kernels with SIMD (GOEXPERIMENT=simd) against the
// portable Go kernels, under Node, in one run: Go benchmarks of
// core/linalg and core/rf built both ways, run in alternating
// rounds so that both see the same machine load. Prints the median time
// per operation, the range over the rounds and the speed-up.
//   node bench/wasm-kernels.mjs [--rounds 5] [--benchtime 1s] [--only REGEXP]
// The Gram and product benchmarks run every kernel in one binary (simd and
// portable sub-benchmarks); the others run in a binary built with and one
// built without the experiment. The hand-written kernels (wasm/kernels,
// assembled here with wabt and preloaded into Node as ./build.sh's wasm
// tests do) run beside the Go SIMD kernel they replace, in one binary: the
// float32 and float64 Grams in GFLOP/s (n·m·(m+1) flops: the upper
// triangle), the exact leave-one-out's products (mul64) in GFLOP/s of
// 2·n·k·m.
// --only keeps the rows whose label matches (e.g. --only wat).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const rounds = +arg('rounds', 5);
const benchtime = arg('benchtime', '1s');
const only = new RegExp(arg('only', ''));
const go = process.env.GO ?? 'go';
const env = { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'go1.27.0', GOOS: 'js', GOARCH: 'wasm' };
const goroot = execFileSync(go, ['env', 'GOROOT'], { env, encoding: 'utf8' }).trim();

// [package, benchmark regexp, pairs: [label, portable name, SIMD name,
// flops per op (optional)] or one name timed in both builds]
const allJobs = [
  ['./jsbridge', '^BenchmarkGram32_N2000_M1024$', [
    ['Gram AddAtA32 n=2000 m=1024: Go SIMD → wat kernel', 'Gram32_N2000_M1024/go-simd', 'Gram32_N2000_M1024/wat', 2000 * 1024 * 1025],
  ]],
  ['./jsbridge', '^BenchmarkGram64_N2000_M1024$', [
    ['Gram AddAtA n=2000 m=1024: Go SIMD → wat kernel', 'Gram64_N2000_M1024/go-simd', 'Gram64_N2000_M1024/wat', 2000 * 1024 * 1025],
  ]],
  ['./jsbridge', '^BenchmarkWeights32_N1024_K784_M2048$', [
    ['projection Weights32.Mul 1024×784·784×2048: Go SIMD → wat', 'Weights32_N1024_K784_M2048/go-simd', 'Weights32_N1024_K784_M2048/wat', 2 * 1024 * 784 * 2048],
  ]],
  ['./jsbridge', '^Benchmark(Reduce|ApplyQ|Cholesky)_M1024$', [
    ['Reduce (λ search) m=1024: Go SIMD → wat kernels', 'Reduce_M1024/go-simd', 'Reduce_M1024/wat'],
    ['ApplyQ (λ search) m=1024, 112 columns: Go SIMD → wat kernels', 'ApplyQ_M1024/go-simd', 'ApplyQ_M1024/wat'],
    ['Cholesky m=1024: Go SIMD → wat kernels', 'Cholesky_M1024/go-simd', 'Cholesky_M1024/wat'],
  ]],
  ['./jsbridge', '^Benchmark(Mul|ReduceQ_M634|Symv64)$', [
    ['product Mul 634×634·634×120: Go SIMD → wat mul64', 'Mul/634x634x120/go-simd', 'Mul/634x634x120/wat', 2 * 634 * 634 * 120],
    ['product Mul 32×634·634×634: Go SIMD → wat mul64', 'Mul/32x634x634/go-simd', 'Mul/32x634x634/wat', 2 * 32 * 634 * 634],
    ['product Mul 256×32·32×634: Go SIMD → wat mul64', 'Mul/256x32x634/go-simd', 'Mul/256x32x634/wat', 2 * 256 * 32 * 634],
    ['symmetric product m=634: Go SIMD → wat symv64', 'Symv64/go-simd', 'Symv64/wat', 2 * 634 * 634],
    ['ReduceQ m=634 (exact LOO): Go SIMD → wat kernels', 'ReduceQ_M634/go-simd', 'ReduceQ_M634/wat'],
  ]],
  ['./core/linalg', '^BenchmarkQuad_M634$', [['Quad m=634, 30 λ (exact LOO)', 'Quad_M634']]],
  ['./core/linalg', '^BenchmarkAddAtA_N2000_M1024$/^(simd|portable|float32-simd)$', [
    ['Gram AddAtA (float64), n=2000 m=1024', 'AddAtA_N2000_M1024/portable', 'AddAtA_N2000_M1024/simd'],
    ['Gram AddAtA32 (float32 SIMD vs float64 portable)', 'AddAtA_N2000_M1024/portable', 'AddAtA_N2000_M1024/float32-simd'],
  ]],
  ['./core/linalg', '^BenchmarkMul_N2000_K784_M2048$/^(simd|portable)$', [
    ['product Mul, 2000×784 · 784×2048', 'Mul_N2000_K784_M2048/portable', 'Mul_N2000_K784_M2048/simd'],
  ]],
  ['./core/linalg', '^BenchmarkGCVReduce_M1024$/^twostage$', [['reduction to tridiagonal (GCV path), m=1024', 'GCVReduce_M1024/twostage']]],
  ['./core/rf', '^Benchmark(FWHT_4096|TensorSketch_2048)$', [
    ['FWHT, 4096', 'FWHT_4096'],
    ['TensorSketch (FFT), 2048', 'TensorSketch_2048'],
  ]],
];
const jobs = allJobs.map(([pkg, re, pairs]) => [pkg, re, pairs.filter((p) => only.test(p[0]))]).filter(([, , pairs]) => pairs.length);

const dir = mkdtempSync(path.join(tmpdir(), 'ntkrf-bench-'));
execFileSync('node', [path.join(root, 'wasm', 'kernels', 'assemble.mjs'), dir], { stdio: 'inherit' });
const bins = {};
for (const [pkg] of jobs) {
  for (const simd of [true, false]) {
    const out = path.join(dir, `${path.basename(pkg)}-${simd ? 'simd' : 'portable'}.test`);
    if (bins[out]) continue;
    execFileSync(go, ['test', '-c', '-o', out, pkg], { cwd: root, env: { ...env, GOEXPERIMENT: simd ? 'simd' : '' }, stdio: 'inherit' });
    bins[out] = true;
  }
}

// times[build][name] = ns/op per round
const times = { simd: {}, portable: {} };
const run = (pkg, re, build) => {
  const bin = path.join(dir, `${path.basename(pkg)}-${build}.test`);
  // Go's wasm runner passes argv and environment to Node within 8 KiB: a
  // trimmed environment.
  const out = execFileSync('node', ['--stack-size=8192', path.join(goroot, 'lib', 'wasm', 'wasm_exec_node.js'), bin,
    '-test.run=^$', `-test.bench=${re}`, `-test.benchtime=${benchtime}`], {
    env: {
      PATH: process.env.PATH, HOME: process.env.HOME,
      NODE_OPTIONS: `--require ${path.join(root, 'wasm', 'kernels', 'node-preload.cjs')}`, NTKRF_KERNELS_WASM: path.join(dir, 'kernels.wasm'),
    },
    encoding: 'utf8', cwd: path.join(root, pkg),
  });
  for (const m of out.matchAll(/^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns\/op/gm)) {
    (times[build][m[1]] ??= []).push(+m[2]);
  }
};
for (let r = 0; r < rounds; r++) {
  for (const [pkg, re, pairs] of jobs) {
    const both = pairs.some((p) => p.length === 2);
    // Alternate which build goes first, so neither always runs warmer.
    const order = r % 2 ? ['portable', 'simd'] : ['simd', 'portable'];
    for (const build of order) if (both || build === 'simd') run(pkg, re, build);
  }
  process.stderr.write(`round ${r + 1}/${rounds} done\n`);
}
rmSync(dir, { recursive: true });

const median = (v) => { const s = [...v].sort((a, b) => a - b); const h = s.length >> 1; return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2; };
const ms = (ns) => (ns / 1e6).toFixed(ns < 1e7 ? 3 : 1);
console.log(`WebAssembly under Node ${process.version}, ${rounds} alternating rounds, -benchtime ${benchtime}: median (range) ms/op`);
console.log(`${'kernel'.padEnd(52)} ${'portable'.padStart(24)} ${'SIMD'.padStart(24)}  speed-up (range of round ratios)`);
for (const [, , pairs] of jobs) {
  for (const p of pairs) {
    const [label, a, b, flops] = p;
    const pt = p.length === 2 ? times.portable[a] : times.simd[a];
    const st = p.length === 2 ? times.simd[a] : times.simd[b];
    if (!pt?.length || !st?.length) { console.log(`${label}: no result`); continue; }
    const ratios = pt.map((t, i) => t / st[i]).filter(Number.isFinite);
    const cell = (v) => `${ms(median(v))} (${ms(Math.min(...v))}–${ms(Math.max(...v))})`;
    const rate = flops ? `; ${(flops / median(pt)).toFixed(2)} → ${(flops / median(st)).toFixed(2)} GFLOP/s` : '';
    console.log(`${label.padEnd(52)} ${cell(pt).padStart(24)} ${cell(st).padStart(24)}  ${(median(pt) / median(st)).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})${rate}`);
  }
}
