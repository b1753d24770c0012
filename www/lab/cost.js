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
 * (n·m²/2), the Gram ΦᵀΦ (n·m²) and the eigendecomposition behind the
 * automatic λ (about 9·m³). layers: the layers after the first (depth − 1
 * for methods that use the depth, else 0).
 */
export function trainWork(n, d, m, layers) {
  return n * m * d + (layers * n * m * m) / 2 + n * m * m + 9 * m ** 3;
}

/** Rows a fit trains on under the evaluation settings. */
export function trainRows(n, { eval: evaluation, test, k }) {
  return evaluation === 'split' ? Math.round(n * (1 - test / 100)) : Math.round((n * (k - 1)) / k);
}

/**
 * The estimate shown before a run, for n × d data, m features, layers after
 * the first, speed (work units a second per worker) and workers.
 * Returns { bytes, trainRows, ms, slow, exactOK, text }.
 */
export function estimate({ n, d, m, layers, settings, speed, workers }) {
  const bytes = n * m * 8;
  const rows = trainRows(n, settings);
  const fits = settings.eval === 'split' ? 1 : settings.k;
  const ms = (1000 * fits * trainWork(rows, d, m, layers)) / (speed * workers);
  const slow = ms > SLOW_MS;
  const text = `Φ for all ${n} rows: ${n} × ${m} × 8 bytes = ${formatBytes(bytes)}; training ≈ ${seconds(ms)} (rough)${slow ? ': a smaller Features m is much faster' : ''}.`;
  return { bytes, trainRows: rows, ms, slow, exactOK: rows <= EXACT_MAX, text };
}

/** Work units a second per worker measured by a run of work units in ms. */
export function measuredSpeed(work, ms, workers) {
  return work / Math.max(1e-3, ms / 1000) / workers;
}
