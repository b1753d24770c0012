// The standard job through the npm package under Node, with 1 and 2
// WebAssembly workers: Fashion-MNIST unit rows, NTK random features,
// fitRidge (λ by GCV on the training rows), predict, accuracy.
//   node bench/package-bench.mjs [--n 20000] [--test 10000] [--dim 4096] [--depth 1] [--sampler exact|hadamard|…] [--precision float32|float64 (default: the package's, float32 where the features have a float32 form)] [--workers 1,2] [--lambda auto|λ]
// Pass --lambda with the λ the native run chose to time the same pipeline
// (features, ΦᵀΦ, one Cholesky solve, predict) without the λ search.
// --again: the same fit once more on the same engine (againSeconds,
// againCPU): V8 has compiled the hot paths by then and the workers' memory
// has grown, so it tells the first fit's one-off costs from the job's.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
// --root: another checkout's build (its dist/npm), timed by this script.
const root = arg('root', path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
const { createEngine } = await import(path.join(root, 'dist', 'npm', 'index.js'));
const n = +arg('n', 20000);
const nTest = +arg('test', 10000);
const dim = +arg('dim', 4096);
const depth = +arg('depth', 1);
const sampler = arg('sampler', 'exact');
const precision = arg('precision', undefined); // undefined: the package's default path
const workerCounts = arg('workers', '1,2').split(',').map(Number);
const lambda = arg('lambda', 'auto') === 'auto' ? 'auto' : Number(arg('lambda'));
const again = process.argv.includes('--again');
const dir = '/usr/share/datasets/fashion-mnist/';

function images(file, count) {
  const b = gunzipSync(readFileSync(dir + file));
  const dv = new DataView(b.buffer, b.byteOffset);
  if (dv.getUint32(0) !== 0x803) throw new Error(`${file}: not an IDX image file`);
  const d = dv.getUint32(8) * dv.getUint32(12);
  const data = new Float64Array(count * d);
  for (let i = 0; i < count; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) { const v = b[16 + i * d + j] / 255; data[i * d + j] = v; s += v * v; }
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0; // unit-norm rows, as the native job
    for (let j = 0; j < d; j++) data[i * d + j] *= inv;
  }
  return { rows: count, cols: d, data };
}
const labels = (file, count) => Float64Array.from(gunzipSync(readFileSync(dir + file)).subarray(8, 8 + count));

let X, y, Xt, yt;
try {
  X = images('train-images-idx3-ubyte.gz', n); y = labels('train-labels-idx1-ubyte.gz', n);
  Xt = images('t10k-images-idx3-ubyte.gz', nTest); yt = labels('t10k-labels-idx1-ubyte.gz', nTest);
} catch (e) {
  console.error(`package-bench: ${e.message}\nInstall the Debian package dataset-fashion-mnist (apt-get install dataset-fashion-mnist).`);
  process.exit(1);
}
const results = [];
console.log(`package under Node: n = ${n}, test ${nTest}, d = ${X.cols}, m = ${dim}, L = ${depth}, sampler ${sampler}, precision ${precision ?? 'default'}`);
for (const workers of workerCounts) {
  const eng = await createEngine({ workers });
  const t0 = performance.now();
  const stages = {};
  // CPU seconds of the whole process (every worker, the main thread, V8's
  // compiler threads) per stage: the measure that holds under load.
  const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
  const cpuStages = {};
  const c0 = cpu();
  let last = t0;
  let lastCPU = c0;
  let lastStage = null;
  const fitOptions = {
    task: 'classification', classes: 10, preprocess: { standardize: false }, lambda,
    features: { method: 'ntk', depth, dim, sampler, precision, seed: 1 },
  };
  const onProgress = (p) => {
    const now = performance.now();
    const c = cpu();
    stages[p.stage] = (stages[p.stage] ?? 0) + (now - last) / 1e3;
    cpuStages[p.stage] = (cpuStages[p.stage] ?? 0) + (c - lastCPU);
    last = now;
    lastCPU = c;
    lastStage = p.stage;
  };
  const model = await eng.fitRidge(X, y, { ...fitOptions, onProgress });
  const firstStages = { ...stages };
  const tFit = performance.now();
  const cFit = cpu();
  if (lastStage) cpuStages[lastStage] += cFit - lastCPU; // the fit's tail: its last stage's
  const pred = await model.predict(Xt);
  const tPred = performance.now();
  cpuStages.predict = cpu() - cFit;
  const cpuSeconds = cpu() - c0;
  const { accuracy } = await eng.score(yt, pred, { task: 'classification' });
  const firstCPUStages = { ...cpuStages }; // the again fit adds to cpuStages
  let againSeconds, againCPU, againStages;
  if (again) {
    const [t1, c1] = [performance.now(), cpu()];
    // The stages again, in their own tally (wall seconds).
    for (const k of Object.keys(stages)) delete stages[k];
    [last, lastCPU] = [t1, c1];
    const m2 = await eng.fitRidge(X, y, { ...fitOptions, onProgress });
    againStages = { ...stages };
    await m2.predict(Xt);
    [againSeconds, againCPU] = [(performance.now() - t1) / 1e3, cpu() - c1];
    if (m2.lambda !== model.lambda) throw new Error(`package-bench: the fit again chose λ ${m2.lambda}, the first ${model.lambda}`);
  }
  const r = { job: 'package', workers, depth, sampler, precision: model.toJSON().features.precision ?? 'float64', n, nTest, dim, fitSeconds: (tFit - t0) / 1e3, predictSeconds: (tPred - tFit) / 1e3, totalSeconds: (tPred - t0) / 1e3, lambda: model.lambda, accuracy, stages: firstStages, cpuSeconds, cpuStages: firstCPUStages, againSeconds, againCPU, againStages };
  results.push(r);
  console.log(`workers ${workers}: fit ${r.fitSeconds.toFixed(1)} s, predict ${r.predictSeconds.toFixed(1)} s, total ${r.totalSeconds.toFixed(1)} s, accuracy ${accuracy.toFixed(4)}, λ ${model.lambda.toPrecision(3)}${again ? `; again ${againSeconds.toFixed(1)} s (CPU ${againCPU.toFixed(1)} s)` : ''}`);
  eng.close();
}
if (results.length > 1) console.log(`speed-up ${results[0].workers} → ${results.at(-1).workers} workers: ${(results[0].totalSeconds / results.at(-1).totalSeconds).toFixed(2)}×`);
console.log(JSON.stringify(results));
