// What the page's downloads hold: their file names and their CSV text,
// written through csv.js's safe writer. No DOM: the panels save them.
import { toCSV, csvLine } from './csv.js';
import { check } from './jobs.js';
import { NAMES } from './names.js';

/** Largest features export (text is ~20 bytes a number). */
export const MAX_EXPORT_VALUES = 10_000_000;
/** Rows of the features export written per slice, between which the page handles events (Cancel). */
export const EXPORT_SLICE_ROWS = 1000;

/** A data set's file name as the stem of export names: no extension, only safe characters. */
export const baseName = (name) => name.replace(/\.(csv|tsv|txt)(\.gz)?$/i, '').replace(/[^\w.-]+/g, '_');

/** The predictions of a training run (experiments.js trainAndTest, with ds) as CSV text. */
export function predictionsCSV(r) {
  const cls = r.ds.task === NAMES.Classification;
  const label = (v) => (cls ? r.ds.classes[v] : v);
  const header = ['row', 'fold', `true ${r.ds.targetName}`, 'predicted'];
  if (r.withExact) header.push('predicted (exact kernel)');
  const rows = r.rows.map((row, i) => {
    const out = [row + 1, r.fold[i], label(r.yTrue[i]), label(r.pred[i])];
    if (r.withExact) out.push(label(r.exactPred[i]));
    return out;
  });
  return { text: toCSV(header, rows), rows: rows.length };
}

/** The comparison rows (experiments.js comparisonRow) as CSV text. */
export function comparisonsCSV(comparisons) {
  const header = ['kind', 'method', 'm', 'relative Frobenius error', 'spectral condition number', 'mse', 'lambda', 'exact seconds', 'feature seconds'];
  const rows = comparisons.map((c) => [c.kind, c.method, c.m, c.relFrobenius, c.spectral, c.mse, c.lambda ?? '', c.exactSeconds, c.featureSeconds]);
  return { text: toCSV(header, rows), rows: rows.length };
}

/**
 * The features P of every row with its target from ds, as CSV text in parts
 * (a Blob takes them as they are). Millions of numbers take seconds to
 * write: slices of EXPORT_SLICE_ROWS let the page handle events between
 * them, and signal stops the writing. onProgress({done, total, stage}).
 */
export async function featuresCSV(P, ds, signal, onProgress = () => {}) {
  const parts = [csvLine([...Array.from({ length: P.cols }, (_, j) => `phi${j + 1}`), ds.targetName])];
  for (let start = 0; start < P.rows; start += EXPORT_SLICE_ROWS) {
    let text = '';
    for (let i = start; i < Math.min(P.rows, start + EXPORT_SLICE_ROWS); i++) {
      const r = Array.from(P.data.subarray(i * P.cols, (i + 1) * P.cols));
      r.push(ds.task === NAMES.Classification ? ds.classes[ds.y[i]] : ds.y[i]);
      text += csvLine(r);
    }
    parts.push(text);
    onProgress({ done: start, total: P.rows, stage: 'writing' });
    await new Promise((resolve) => setTimeout(resolve));
    check(signal);
  }
  return parts;
}
