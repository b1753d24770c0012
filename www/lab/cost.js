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
 * The estimate shown before a run, for n × d data, m features, layers after
 * the first, the 'auto' search (see trainWork; null without it), rate (see
 * measuredRate), workers, the bytes of one feature value (4: float32, the
 * core's default precision where the map has a float32 form; 8: float64)
 * and the outputs (classes).
 * Returns { bytes, trainRows, ms, slow, exactOK, text }.
 */
export function estimate({ n, d, m, layers, search = null, settings, rate = INITIAL_RATE, workers, bytesPerValue = 4, outputs = 1 }) {
  const bytes = n * m * bytesPerValue;
  const rows = trainRows(n, settings);
  const fits = settings.eval === 'split' ? 1 : settings.k;
  const ms = rate.overheadMs + (1000 * fits * trainWork(rows, d, m, layers, search, { outputs })) / (rate.speed * workers);
  const slow = ms > SLOW_MS;
  const text = `Φ for all ${n} rows: ${n} × ${m} × ${bytesPerValue} bytes = ${formatBytes(bytes)}; training ≈ ${seconds(ms)} (rough)${slow ? ': a smaller Features m is much faster' : ''}.`;
  return { bytes, trainRows: rows, ms, slow, exactOK: rows <= EXACT_MAX, text };
}

/**
 * The rate after a run of work units that took ms on workers: a fixed
 * overhead plus a throughput, fitted by least squares to the latest runs
 * (RATE_RUNS). One run's ratio would charge a small run's overhead to its
 * few work units, and every later estimate would be huge; so with fewer
 * than two runs of different sizes the overhead keeps its assumed value and
 * only a run well above it measures the speed.
 */
export function measuredRate(rate, work, ms, workers) {
  const runs = [...rate.runs, { work, ms, workers }].slice(-RATE_RUNS);
  // x: seconds of work at one work unit a second per worker; y: ms.
  const pts = runs.map((r) => [r.work / r.workers, r.ms]);
  const mx = pts.reduce((a, [x]) => a + x, 0) / pts.length;
  const my = pts.reduce((a, [, y]) => a + y, 0) / pts.length;
  let sxx = 0, sxy = 0;
  for (const [x, y] of pts) {
    sxx += (x - mx) ** 2;
    sxy += (x - mx) * (y - my);
  }
  // ms = a + x · 1000 / speed: slope 1000 / speed.
  if (pts.length >= 2 && sxx > 0 && sxy > 0) {
    const slope = sxy / sxx;
    const a = my - slope * mx;
    if (a >= 0) return { overheadMs: a, speed: 1000 / slope, runs };
    // A negative intercept: no overhead, the speed through the origin.
    const through = pts.reduce((acc, [x, y]) => acc + x * y, 0) / pts.reduce((acc, [x]) => acc + x * x, 0);
    return { overheadMs: 0, speed: 1000 / through, runs };
  }
  const overheadMs = rate.overheadMs;
  const beyond = ms - overheadMs;
  // A run hardly longer than the overhead, or whose modelled work is a
  // small part of its time (a tiny fit slowed by a cold start or a loaded
  // machine), says nothing of the speed.
  const modelled = (1000 * work) / workers / rate.speed;
  const speed = beyond > overheadMs && modelled > ms / 20 ? (1000 * work) / workers / beyond : rate.speed;
  return { overheadMs, speed, runs };
}
