// Model.predict of many rows on 1 and 2 workers (and more with --workers),
// side by side in alternating rounds so that both see the same machine
// load: one model (random features, m = --dim, fitted once and loaded into
// every engine from its file), --rows rows of --cols columns predicted per
// run; prints each run's wall time and process CPU time (all threads)
// and checks that the labels and scores
// are the same bits on every worker count.
//   node bench/predict-split.mjs [--rows 50000] [--cols 32] [--dim 2048] [--rounds 3] [--workers 1,2]
import { createEngine } from '../dist/npm/index.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const rows = +arg('rows', 50_000), cols = +arg('cols', 32), dim = +arg('dim', 2048), rounds = +arg('rounds', 3);
const counts = arg('workers', '1,2').split(',').map(Number);
let s = 12345;
const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 1;
const matrix = (n) => ({ rows: n, cols, data: Float64Array.from({ length: n * cols }, rnd) });
const Xfit = matrix(2000);
const yfit = Float64Array.from({ length: 2000 }, (_, i) => (Xfit.data[i * cols] + Xfit.data[i * cols + 1] > 0 ? 1 : 0) + (Xfit.data[i * cols + 2] > 0.5 ? 1 : 0));
const X = matrix(rows);
const first = await createEngine({ workers: 1 });
const file = JSON.stringify(await first.fitRidge(Xfit, yfit, { task: 'classification', features: { dim, seed: 1 }, lambda: 0.01 }));
first.close();
const engines = [];
for (const n of counts) {
  const eng = await createEngine({ workers: n });
  engines.push({ n, eng, model: await eng.loadModel(file) });
}
const same = (a, b) => a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
let ref = null;
for (let r = 1; r <= rounds; r++) {
  for (const { n, model } of engines) {
    const t = performance.now();
    const c = process.cpuUsage();
    const S = await model.predictScores(X);
    const ms = performance.now() - t;
    const cpu = process.cpuUsage(c); // every thread of the process: the workers' too
    ref ??= S.data;
    console.log(`round ${r}, ${n} worker${n > 1 ? 's' : ''}: predictScores of ${rows} rows × ${cols} (m = ${dim}) ${ms.toFixed(0)} ms, process CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms${same(S.data, ref) ? '' : ' — DIFFERENT BITS'}`);
  }
}
for (const { eng } of engines) eng.close();
