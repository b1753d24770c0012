// The cost model: memory of the feature matrix and a rough training time
// before a run, from the shape of the data and the settings, and the
// throughput measured by earlier runs. No DOM.
import { formatBytes } from './data.js';
import { seconds } from './format.js';

/** Largest training set offered exact kernel ridge regression (an n×n matrix). */
export const EXACT_MAX = 2000;
/** A training run estimated longer than this gets a warning. */
export const SLOW_MS = 30_000;
/** Work units a second assumed before the first run has measured any. */
export const INITIAL_SPEED = 1e9;

/**
 * Work units of one fit of n rows, d columns, m features: the first layer
 * (n·m·d), each further layer's projection of m/2 inputs to m outputs
 * (n·m²/2), then ridge regression on k = min(n, m) — the primal's ΦᵀΦ or,
 * with fewer rows than features, the dual's ΦΦᵀ (n·m·k) — and the
 * eigendecomposition behind the automatic λ (about 9·k³). layers: the layers
 * after the first (depth − 1 for methods that use the depth, else 0).
 * search: with 'auto', { candidates, rows } of the engine's search: each
 * candidate is an exact kernel on min(n, rows) rows (s²·d) and its
 * eigendecomposition (9·s³).
 */
export function trainWork(n, d, m, layers, search = null) {
  const k = Math.min(n, m);
  let work = n * m * d + (layers * n * m * m) / 2 + n * m * k + 9 * k ** 3;
  if (search) {
    const s = Math.min(n, search.rows);
    work += search.candidates * (s * s * d + 9 * s ** 3);
  }
  return work;
}

/** Rows a fit trains on under the evaluation settings. */
export function trainRows(n, { eval: evaluation, test, k }) {
  return evaluation === 'split' ? Math.round(n * (1 - test / 100)) : Math.round((n * (k - 1)) / k);
}

/**
 * The estimate shown before a run, for n × d data, m features, layers after
 * the first, the 'auto' search (see trainWork; null without it), speed (work
 * units a second per worker) and workers.
 * Returns { bytes, trainRows, ms, slow, exactOK, text }.
 */
export function estimate({ n, d, m, layers, search = null, settings, speed, workers }) {
  const bytes = n * m * 8;
  const rows = trainRows(n, settings);
  const fits = settings.eval === 'split' ? 1 : settings.k;
  const ms = (1000 * fits * trainWork(rows, d, m, layers, search)) / (speed * workers);
  const slow = ms > SLOW_MS;
  const text = `Φ for all ${n} rows: ${n} × ${m} × 8 bytes = ${formatBytes(bytes)}; training ≈ ${seconds(ms)} (rough)${slow ? ': a smaller Features m is much faster' : ''}.`;
  return { bytes, trainRows: rows, ms, slow, exactOK: rows <= EXACT_MAX, text };
}

/** Work units a second per worker measured by a run of work units in ms. */
export function measuredSpeed(work, ms, workers) {
  return work / Math.max(1e-3, ms / 1000) / workers;
}
