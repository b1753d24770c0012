// The package's standard job side by side with another build of the
// package (a baseline commit's dist, built apart) and native, alternating
// in rounds so that all see the same machine load; prints each run's
// stages (wall and CPU seconds: the CPU of the whole process, every
// worker, during the stage) and its ratio to native's float64 job of the
// same round. Under load from other processes the wall times swing; the
// CPU seconds hold better (native's process CPU includes its bench's
// limit measurements).
//   node bench/package-side.mjs --base /tmp/pkgbase [--rounds 3] [--native path/to/ntkrf] [--again]
// --again: each package run also fits again on its engine (package-bench's
// --again), printed beside the first fit as its own ratio to native.
// Job: 5,000 + 2,000 Fashion-MNIST rows, m = 2048, L = 1, 2 workers (the
// package at its default path and at float64; native float64, as ./build.sh bench).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const base = arg('base', null);
const rounds = +arg('rounds', 3);
const native = arg('native', path.join(root, 'dist', 'bin', 'ntkrf'));
const job = ['--n', '5000', '--test', '2000', '--dim', '2048', '--depth', '1', '--workers', '2', ...(process.argv.includes('--again') ? ['--again'] : [])];
// Each run under /usr/bin/time: its CPU seconds (user + system, all
// threads) beside the wall time, the measure that holds when other
// processes load the machine.
function timed(cmd, args) {
  const r = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  const [, u, s] = r.stderr.trim().split('\n').at(-1).split(' ');
  return { ...JSON.parse(r.stdout.trim().split('\n').at(-1))[0], processCPU: +u + +s };
}
// Both builds timed by this checkout's script (--root), for the same
// stages and CPU accounting.
const pkg = (dir, extra = []) => () => timed('node', [path.join(root, 'bench', 'package-bench.mjs'), '--root', dir, ...job, ...extra]);
const runs = [
  ['native float64', () => timed(native, ['bench', '-n', '5000', '-test', '2000', '-m', '2048', '-depths', '1', '-exact=false', '-oracle=false'])],
  ...(base ? [['base default', pkg(base)]] : []),
  ['this default', pkg(root)],
  ['this float64', pkg(root, ['--precision', 'float64'])],
];
const f = (x) => x.toFixed(2);
// Native first in every round (the ratios are to its job of the round);
// the package builds in turn, the order reversed every other round, so
// that neither build always runs after the other (the second ran slower
// often enough to decide a comparison by itself).
const [nativeRun, ...pkgRuns] = runs;
for (let r = 1; r <= rounds; r++) {
  let nat = null;
  let natCPU = null;
  for (const [name, run] of [nativeRun, ...(r % 2 ? pkgRuns : [...pkgRuns].reverse())]) {
    const res = run();
    if (name.startsWith('native')) {
      nat = res.totalWithSearchSeconds;
      natCPU = res.processCPU;
      console.log(`round ${r} ${name}: ${f(nat)} s, process CPU ${f(natCPU)} s (features ${f(res.featuresSeconds)}, gram ${f(res.gramSeconds)}, λ search ${f(res.lambdaSearchSeconds)}, solve ${f(res.solveSeconds)}, predict ${f(res.predictSeconds)}), λ ${res.lambda}, accuracy ${res.accuracy}`);
      continue;
    }
    const st = Object.entries(res.stages).map(([k, v]) => `${k} ${f(v)}/${f(res.cpuStages[k])}`).join(', ');
    const again = res.againSeconds === undefined ? '' : `; again on the same engine ${f(res.againSeconds)} s, ${f(res.againSeconds / nat)}× native, CPU ${f(res.againCPU)} s`;
    console.log(`round ${r} ${name}: ${f(res.totalSeconds)} s, ${f(res.totalSeconds / nat)}× native; job CPU ${f(res.cpuSeconds)} s (stages wall/CPU s: ${st}, predict ${f(res.predictSeconds)}/${f(res.cpuStages.predict)}), λ ${res.lambda}, accuracy ${res.accuracy}${again}`);
  }
}
