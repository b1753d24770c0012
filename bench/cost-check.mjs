// The lab's time estimate (www/lab/cost.js, from the core's cost model
// eng.costs) against the package's measured fit, for the lab's default
// training run: a 70/30 split, NTK features m = 512 with depth and
// preprocessing 'auto' (the engine's search), λ 'auto'; and for a fit with
// no options at all ('auto' method: the exact kernel or features, from the
// selection's modelled seconds). Prints each estimate, the time measured
// and their ratio (issue 39/42: within 2×), each file's fits --repeat
// times (default 2: the first fit of a file, then the same fits again), and
// the range of the ratios at the end. Needs ./build.sh build.
//   node bench/cost-check.mjs [--repeat N] FILE.csv[:TARGET] ...
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lab = (name) => import(pathToFileURL(path.join(root, 'dist', 'www', name)).href);
const { createEngine } = await import(pathToFileURL(path.join(root, 'dist', 'www', 'ntkrf', 'index.js')).href);
const { estimate, setCosts, trainRows } = await lab('cost.js');
const { autoSearch } = await lab('experiments.js');
const eng = await createEngine();
setCosts(eng.costs);
const s = autoSearch(eng.schema);
const search = { candidates: s.depths.length * s.preprocess.length, rows: s.rows };
const settings = { eval: 'split', test: 30, k: 5 };
const args = process.argv.slice(2);
let repeat = 2;
if (args[0] === '--repeat') {
  repeat = Number(args[1]);
  args.splice(0, 2);
}
const ratios = [];
try {
  for (const spec of args.flatMap((a) => Array(repeat).fill(a))) {
    const [file, target] = spec.split(':');
    const ds = await eng.parseCSV(await readFile(file), target ? { target } : {});
    const { train } = await eng.split(ds, { testFraction: 0.3, seed: 1 });
    const outputs = Math.max(1, ds.classes.length);
    // The engine's first fit (of the first file) is a page's first run: the core's warm-up counts.
    const e = estimate({ n: ds.X.rows, d: ds.X.cols, m: 512, layers: 0, search, settings, workers: eng.workers, outputs, cold: ratios.length === 0 });
    let t0 = performance.now();
    await eng.fitRidge(train, { features: { dim: 512 } });
    const ms = performance.now() - t0;
    t0 = performance.now();
    const auto = await eng.fitRidge(train);
    const msAuto = performance.now() - t0;
    const sel = auto.selection;
    // The selection's modelled CPU seconds natively, at the WebAssembly rate on the workers.
    const C = eng.costs;
    const estAuto = sel && sel.method ? 1000 * (C.wasmOverhead + ((sel.seconds + sel.searchSeconds) * C.nativeRate) / (C.wasmRate * eng.workers)) : NaN;
    ratios.push(e.ms / ms, estAuto / msAuto);
    const r = (a, b) => (a / b).toFixed(2);
    console.log(`${path.basename(file)} (${trainRows(ds.X.rows, settings)} training rows, ${eng.workers} workers): m = 512 estimated ${(e.ms / 1000).toFixed(2)} s, measured ${(ms / 1000).toFixed(2)} s (${r(e.ms, ms)}×); ` +
      `no options (${sel?.method} ${sel?.dim ?? ''}) estimated ${(estAuto / 1000).toFixed(2)} s, measured ${(msAuto / 1000).toFixed(2)} s (${r(estAuto, msAuto)}×)`);
  }
  const fin = ratios.filter(Number.isFinite);
  console.log(`estimate / measured: ${Math.min(...fin).toFixed(2)}× … ${Math.max(...fin).toFixed(2)}× over ${fin.length} fits`);
} finally {
  eng.close();
}
