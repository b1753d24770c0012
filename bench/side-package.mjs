// The package's column of bench/side.py: fitRidge(parseCSV(train)) with no
// options, scored on the test file; one JSON line (seconds of the fit,
// engine start and parse excluded, as natively; warmSeconds of the same
// fit again).
//   node bench/side-package.mjs TRAIN.csv TEST.csv [TARGET]
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { createEngine } = await import(path.join(root, 'dist', 'npm', 'index.js'));
const [trainFile, testFile, target] = process.argv.slice(2);
const opt = target ? { target } : {};
const eng = await createEngine();
try {
  const train = await eng.parseCSV(await readFile(trainFile), opt);
  const testText = await readFile(testFile);
  let t0 = performance.now();
  const model = await eng.fitRidge(train);
  const seconds = (performance.now() - t0) / 1000;
  // The same fit again: the first call of an engine also compiles the
  // WebAssembly hot paths (0.5–1 s here on a 150-row table), a second does not.
  t0 = performance.now();
  await eng.fitRidge(train);
  const warmSeconds = (performance.now() - t0) / 1000;
  const pred = await model.predictCSV(testText);
  const test = await eng.parseCSV(testText, { ...opt, task: train.task });
  const out = { seconds, warmSeconds, rows: train.y.length };
  if (train.task === 'classification') {
    let hit = 0;
    test.y.forEach((y, i) => { if (pred[i] === test.classes[y]) hit++; });
    out.accuracy = hit / test.y.length;
  } else {
    const mean = test.y.reduce((a, b) => a + b, 0) / test.y.length;
    let ss = 0, res = 0;
    test.y.forEach((y, i) => { ss += (y - mean) ** 2; res += (y - pred[i]) ** 2; });
    out.r2 = 1 - res / ss;
  }
  console.log(JSON.stringify(out));
} finally {
  eng.close();
}
