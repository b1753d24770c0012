// The cost model: memory of the feature matrix and a rough training time
// before a run, from the shape of the data and the settings, and the
// throughput measured by earlier runs. No DOM.
import { formatBytes } from './data.js';
import { seconds } from './format.js';

/** Largest training set offered exact kernel ridge regression (an n×n matrix). */
export const EXACT_MAX = 2000;
/** A training run estimated longer than this gets a warning. */
export const SLOW_MS = 30_000;
/** Runs the rate is fitted on: the latest, so a page that moves to larger data follows it. */
export const RATE_RUNS = 8;

/**
 * The core's cost model (the engine's costs, Go's pipeline.Costs): the work
 * units of each step and the rates 'auto' chooses by. Empty until the engine
 * has started (setCosts); the page estimates nothing before then.
 */
export const COSTS = {};

/**
 * The rate before any run: ms = overheadMs + work / (speed · workers), the
 * core's WebAssembly rate and overhead once setCosts has run. runs: the
 * measured { work, ms, workers } it is fitted on.
 */
export const INITIAL_RATE = { overheadMs: NaN, speed: NaN, runs: [] };

/** Keeps the engine's cost model (eng.costs) in COSTS and INITIAL_RATE. */
export function setCosts(costs) {
  Object.assign(COSTS, costs);
  INITIAL_RATE.overheadMs = 1000 * costs.wasmOverhead;
  INITIAL_RATE.speed = costs.wasmRate;
}

/**
 * Work units of one fit of n rows, d columns, m features, as the core's
 * cost model counts them (Go's Costs.FeatureFit): the first layer (n·m·d),
 * each further layer (n·m²/2), ΦᵀΦ or, with fewer rows than features, ΦΦᵀ
 * (n·m·k, k = min(n, m)), and the λ search (k³ and k²·outputs). layers:
 * the layers after the first (depth − 1 for methods that use the depth,
 * else 0). search: with 'auto', { candidates, rows } of the engine's
 * search: each candidate an exact kernel on s = min(n, rows) rows
 * (s²·(d + 2·depth)) and its leave-one-out, the kernel reduced to
 * tridiagonal form with Q (s³) and the predictions of every λ (s²·outputs·λs)
 * (Go's Costs.SearchWork), all of them on the screen's rows first and the
 * screenKeep best on all s when the search screens (Go's screenPlan). exact: the exact kernel fitted instead of the
 * features (Go's Costs.ExactFit, λ searched).
 */
export function trainWork(n, d, m, layers, search = null, { outputs = 1, exact = false } = {}) {
  const C = COSTS;
  const k = Math.min(n, m);
  let work = exact
    ? C.kernel * n * n * (d + 2 * (layers + 1)) + C.candidate * n ** 3 + C.loo * n * n * outputs * C.lambdas
    : C.features * n * m * d + (C.layers * layers * n * m * m) / 2 + C.gram * n * m * k + C.lambda * k ** 3 + C.loo * k * k * outputs;
  if (search) {
    const s = Math.min(n, search.rows);
    const scored = (k, r) => k * (C.kernel * r * r * (d + 2 * (layers + 1)) + C.candidate * r ** 3 + C.loo * r * r * outputs * C.lambdas);
    // The successive halving (Go's screenPlan): every candidate on the
    // screen's rows, the kept ones on all s.
    const screen = Math.min(C.screenRows ?? 0, Math.floor(s / 2));
    work += C.screenKeep > 0 && search.candidates > C.screenKeep && screen >= Math.max(C.minScreenRows ?? 0, 3)
      ? scored(search.candidates, screen) + scored(C.screenKeep, s)
      : scored(search.candidates, s);
  }
  return work;
}

/** Rows a fit trains on under the evaluation settings. */
export function trainRows(n, { eval: evaluation, test, k }) {
  return evaluation === 'split' ? Math.round(n * (1 - test / 100)) : Math.round((n * (k - 1)) / k);
}

/**
 * The modelled work of a whole training run (what Train does, see
 * experiments.js trainAndTest): on each fold (one with a split) a feature
 * fit of the training rows with its 'auto' search, with k folds one more
 * fit on every row (the model kept), and with exact the exact kernel on
 * each fold (its own search). Returns { features, exact, total, calls,
 * exactCalls }: the work units and the number of fitting calls.
 */
export function runWork({ n, d, m, layers, search = null, settings, outputs = 1, exact = false }) {
  const rows = trainRows(n, settings);
  const split = settings.eval === 'split';
  const fits = split ? 1 : settings.k;
  const features = fits * trainWork(rows, d, m, layers, search, { outputs }) + (split ? 0 : trainWork(n, d, m, layers, search, { outputs }));
  const withExact = exact && rows <= EXACT_MAX;
  const ex = withExact ? fits * trainWork(rows, d, 0, layers, search, { outputs, exact: true }) : 0;
  // Fitting calls, each with the rate's overhead.
  const exactCalls = withExact ? fits : 0;
  return { features, exact: ex, total: features + ex, calls: (split ? 1 : fits + 1) + exactCalls, exactCalls };
}

/**
 * The estimate shown before a run, for n × d data, m features, layers after
 * the first, the 'auto' search (see trainWork; null without it), rate (see
 * measuredRate), workers, the bytes of one feature value (4: float32, the
 * core's default precision where the map has a float32 form; 8: float64),
 * the outputs (classes), exact (the exact kernel fitted beside, as the
 * Exact checkbox asks) and cold (no run yet on this page: the core's
 * wasmWarmup, the engine optimising its code as it first runs it, once).
 * The time is the whole run's, as Train takes it (runWork).
 * Returns { bytes, trainRows, ms, slow, exactOK, text }.
 */
export function estimate({ n, d, m, layers, search = null, settings, rate = INITIAL_RATE, workers, bytesPerValue = 4, outputs = 1, exact = false, cold = false }) {
  const bytes = n * m * bytesPerValue;
  const rows = trainRows(n, settings);
  const work = runWork({ n, d, m, layers, search, settings, outputs, exact });
  const warmup = cold ? 1000 * (COSTS.wasmWarmup ?? 0) : 0;
  const ms = rate.overheadMs * work.calls + (1000 * work.total) / (rate.speed * workers) + warmup;
  const slow = ms > SLOW_MS;
  const parts = [];
  if (work.exact > 0) parts.push(`the exact kernel ${seconds(rate.overheadMs * work.exactCalls + (1000 * work.exact) / (rate.speed * workers))} of it`);
  if (warmup > 0) parts.push(`${seconds(warmup)} more for a first run`);
  const text = `Φ for all ${n} rows: ${n} × ${m} × ${bytesPerValue} bytes = ${formatBytes(bytes)}; training ≈ ${seconds(ms)} (rough${parts.length ? `; ${parts.join(', ')}` : ''})${slow ? ': a smaller Features m is much faster' : ''}.`;
  return { bytes, trainRows: rows, ms, slow, exactOK: rows <= EXACT_MAX, work, text };
}

/**
 * The rate after a run of work units in fits fitting calls that took ms on
 * workers: an overhead per fitting call (each one plans, gathers and
 * solves across the workers) plus a throughput, fitted by least squares
 * to the latest runs (RATE_RUNS). One run's ratio would charge a small
 * run's overhead to its few work units, and every later estimate would be
 * huge; so until runs of different shapes give both, the latest run
 * scales the rate (overhead and speed alike) to its own time. cold: the
 * page's first run, whose warm-up (the core's wasmWarmup) is left out.
 */
export function measuredRate(rate, work, ms, workers, fits = 1, { cold = false } = {}) {
  // A first run's warm-up (the core's wasmWarmup) is the page's, once: not the rate's.
  if (cold) ms = Math.max(ms / 4, ms - 1000 * (COSTS.wasmWarmup ?? 0));
  const runs = [...rate.runs, { work, ms, workers, fits }].slice(-RATE_RUNS);
  // ms = a · fits + x · 1000 / speed, x the work per worker: two regressors, no intercept.
  const pts = runs.map((r) => [r.fits ?? 1, r.work / r.workers, r.ms]);
  let s11 = 0, s12 = 0, s22 = 0, s1y = 0, s2y = 0;
  for (const [f, x, y] of pts) {
    s11 += f * f; s12 += f * x; s22 += x * x; s1y += f * y; s2y += x * y;
  }
  const det = s11 * s22 - s12 * s12;
  if (pts.length >= 2 && det > 1e-9 * s11 * s22) {
    const a = (s22 * s1y - s12 * s2y) / det;
    const slope = (s11 * s2y - s12 * s1y) / det;
    if (a >= 0 && slope > 0) return { overheadMs: a, speed: 1000 / slope, runs };
    // No positive overhead: the speed through the origin.
    if (s2y > 0) return { overheadMs: 0, speed: (1000 * s22) / s2y, runs };
  }
  // One shape of run so far: the rate scaled so that it gives this run's
  // time (the overhead and the work's share alike), from the rate that
  // estimated it.
  const estimated = rate.overheadMs * fits + (1000 * work) / workers / rate.speed;
  const f = ms > 0 && estimated > 0 ? ms / estimated : 1;
  return { overheadMs: rate.overheadMs * f, speed: rate.speed / f, runs };
}
