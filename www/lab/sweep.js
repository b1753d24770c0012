// The error-vs-m sweep: every method of SWEEP_METHODS at every size of
// SWEEP_DIMS on the same sample, each against the exact kernel it
// approximates. No DOM: sweep-panel.js runs it as a job and draws the series.
import { METHODS } from './vocab.js';
import { compareOn, comparisonRow } from './experiments.js';
import { check } from './jobs.js';
import { NAMES } from './names.js';

/** Feature counts of the sweep. */
export const SWEEP_DIMS = [64, 128, 256, 512, 1024, 2048, 4096];
/** Methods of the sweep, each against its own exact kernel. */
export const SWEEP_METHODS = ['ntk', 'naive', 'arccos1', 'rff'];

/** Comparisons in a full sweep. */
export const SWEEP_STEPS = SWEEP_METHODS.length * SWEEP_DIMS.length;

/**
 * Runs the sweep on X (preprocessed rows) with the settings' depth, seed,
 * sketch and sampler. onRow(rows) is called after each comparison with the
 * rows so far (comparisonRow, kind 'sweep'). Returns all rows.
 */
export async function sweep(engine, X, settings, ctl, signal, onRow = () => {}) {
  const out = [];
  for (const method of SWEEP_METHODS) {
    for (const m of SWEEP_DIMS) {
      const c = await compareOn(engine, X, settings, method, m, ctl(out.length, SWEEP_STEPS), false);
      check(signal);
      out.push(comparisonRow('sweep', method, m, c));
      onRow(out);
    }
  }
  return out;
}

/** One series per method of the sweep: points [m, row[key]] of the rows so far. */
export function sweepSeries(rows, key) {
  return SWEEP_METHODS.map((method) => ({
    name: METHODS[method].name,
    points: rows.filter((r) => r.method === method).map((r) => [r.m, r[key]]),
  }));
}

/** The exact kernel's seconds, one point per size (measured with the NTK comparisons). */
export function exactTimes(rows) {
  return rows.filter((r) => r.method === NAMES.NTK).map((r) => [r.m, r.exactSeconds]);
}
