import path from 'node:path';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { createEngine } = await import(path.join(root, 'dist', 'npm', 'index.js'));
const dir = '/usr/share/datasets/fashion-mnist/';
function images(file, count) {
  const b = gunzipSync(readFileSync(dir + file));
  const d = 784;
  const data = new Float64Array(count * d);
  for (let i = 0; i < count; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) { const v = b[16 + i * d + j] / 255; data[i * d + j] = v; s += v * v; }
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let j = 0; j < d; j++) data[i * d + j] *= inv;
  }
  return { rows: count, cols: d, data };
}
const n = 5000;
const X = images('train-images-idx3-ubyte.gz', n);
const y = Float64Array.from(gunzipSync(readFileSync(dir + 'train-labels-idx1-ubyte.gz')).subarray(8, 8 + n));
const eng = await createEngine({ workers: 2 });
const t0 = performance.now();
let lastStage = '';
const model = await eng.fitRidge(X, y, {
  task: 'classification', classes: 10, preprocess: { standardize: false }, lambda: 'auto',
  features: { method: 'ntk', depth: 1, dim: 2048, sampler: 'exact', seed: 1 },
  onProgress: (p) => { const t = ((performance.now() - t0) / 1e3).toFixed(3); if (p.stage !== lastStage || p.done === p.total) console.log(t, p.stage, p.done, p.total); lastStage = p.stage; },
});
console.log('fit', ((performance.now() - t0) / 1e3).toFixed(3), model.lambda);
eng.close();
