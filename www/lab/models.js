// The saved model: its file name, what the page says about it, and the
// predictions of a file as a table and as CSV text. The model file itself
// is the engine's (model.toJSON, eng.loadModel); nothing here reads its
// numbers. No DOM.
import { toCSV } from './csv.js';
import { baseName } from './downloads.js';
import { METHODS, uses } from './vocab.js';
import { NAMES } from './names.js';
import { summarizeList } from './data.js';
import { short } from './heatmap.js';
import { withArticle } from './format.js';

/** Largest model file the page reads (a model of random features is small; one of an exact kernel holds its training rows). */
export const MAX_MODEL_BYTES = 256 << 20;

/** Rows of predictions the page shows (the export has them all). */
export const SHOWN_PREDICTIONS = 10;

/** The download name of a model trained on dataName with method: ntkrf-<data set>-<method>.json. */
export const modelFileName = (dataName, method) => `ntkrf-${baseName(dataName)}-${baseName(method)}.json`;

/**
 * What the page says about a model: spec holds the features or kernel
 * options of its file ({ features } or { kernel }, as model.toJSON() has
 * them), model the Model. Returns { title, lines, readsCSV }: readsCSV is
 * false for a model fitted from a matrix (it has no columns to read a file
 * by).
 */
export function describeModel(spec, model) {
  const f = spec.features, k = spec.kernel;
  let title;
  if (f) {
    const name = METHODS[f.method]?.name ?? f.method;
    const depth = f.depth && uses(f.method, 'depth') ? `, L = ${f.depth}` : '';
    title = `${name}, m = ${f.dim}${depth}, seed ${f.seed ?? 0}`;
  } else if (k) {
    title = `exact ${k.kernel === NAMES.RBF || k.kernel === NAMES.Linear ? `${k.kernel} kernel` : `${String(k.kernel).toUpperCase()}, L = ${k.depth}`}`;
  } else {
    title = 'ridge model';
  }
  const lines = [];
  const input = model.input;
  const what = model.task === NAMES.Classification
    ? `classification of ${input?.targetName ?? 'the target'} into ${model.classes ? `${model.classes.length} classes (${summarizeList(model.classes, 6)})` : 'classes'}`
    : `regression of ${input?.targetName ?? 'the target'}`;
  lines.push(`${capitalize(what)}; λ = ${short(model.lambda)}.`);
  if (input) {
    const names = input.columns.filter((_, i) => i !== input.target).map((c) => c.name);
    lines.push(`Reads ${names.length === 1 ? 'the column' : `${names.length} columns`} ${summarizeList(names, 8)}${input.header ? ', by name' : ', by position'}; ${withArticle(input.targetName)} column, if present, is ignored.`);
  } else {
    lines.push('Fitted from a matrix, not a file: it has no columns to read a CSV file by.');
  }
  return { title, lines, readsCSV: !!input };
}

const capitalize = (s) => s[0].toUpperCase() + s.slice(1);

/** A preprocessing in words, as the selection and the auto help name it. */
export const prepName = (p) => (p.unitNorm ? (p.standardize === false ? 'unit-norm rows of the raw columns' : 'unit-norm rows') : p.standardize === false ? 'raw columns' : 'standardized columns') + (p.bias ? ' with a bias input' : '');

/**
 * What 'auto' chose (model.selection), in a sentence with the runners-up:
 * the method and why (the core's cost model, when the method was left to
 * it), then the candidate, with what told the candidates apart: accuracy
 * to two decimals and each runner-up's paired difference from the best
 * with its standard error over the rows searched (leave-one-out losses are
 * 0/1 for classification, so the mean difference is the accuracy gap);
 * with a screen (sel.screen), the runners-up are the kept candidates.
 */
export function selectionText(sel) {
  const prep = prepName;
  const byAcc = sel.candidates.every((c) => c.accuracy !== undefined);
  const score = (c) => (byAcc ? `${(100 * c.accuracy).toFixed(2)}%` : `MSE ${short(c.score)}`);
  // 'auto''s RBF candidates (kernel 'rbf', of scale gamma) beside the NTK's depths.
  const kind = (o) => (o.kernel === NAMES.RBF ? `RBF γ = ${short(o.gamma)}, ` : o.depth ? `L = ${o.depth}, ` : '');
  const named = (o) => `${kind(o)}${prep(o.preprocess)} ${score(o)}`;
  const c = sel.candidates[sel.chosen];
  // The engine names its best by index (0 is not written); a standard error
  // of 0 (omitted) does not say which it is: a candidate may tie the best.
  const best = sel.candidates[sel.best ?? 0];
  // o's paired difference from the best and its standard error.
  const diff = (o) => {
    const se = o.stdErr ?? 0;
    return byAcc
      ? `${(100 * (best.accuracy - o.accuracy)).toFixed(2)} ± ${(100 * se).toFixed(2)} points below it`
      : `MSE ${short(o.score - best.score)} ± ${short(se)} above it`;
  };
  const simpler = best.kernel === NAMES.RBF && c.kernel !== NAMES.RBF ? ', and the NTK, preferred to the RBF kernel'
    : best.depth > c.depth && !c.kernel ? `, and shallower (L = ${c.depth} < ${best.depth})` : '';
  const rule = best === c ? 'the best' : `within one standard error of the best, ${named(best)}: ${diff(c)}${simpler}`;
  // With a screen (successive halving), only the kept candidates were
  // scored on all sel.rows; the others' scores are on sel.screen rows.
  const full = (o) => !sel.screen || o.rows === sel.rows;
  const kept = sel.candidates.filter(full).length;
  const among = sel.screen ? `among the ${kept} best of ${sel.candidates.length} candidates on ${sel.screen} of those rows` : `among ${sel.candidates.length} candidates`;
  const others = sel.candidates.filter((o) => o !== c && o !== best && full(o))
    .sort((a, b) => (b.accuracy ?? -b.score) - (a.accuracy ?? -a.score)).slice(0, 3)
    .map((o) => `${named(o)} (${diff(o).replace(' it', ' the best')})`);
  // Features of an RBF candidate are its random Fourier features.
  const method = sel.method === NAMES.MethodKernel ? 'the exact kernel'
    : sel.method === NAMES.MethodFeatures ? `m = ${sel.dim} ${c.kernel === NAMES.RBF ? 'random Fourier features' : 'random features'}` : '';
  const why = method ? `auto fitted ${method}: ${sel.reason}; modelled ≈ ${sel.seconds.toPrecision(2)} CPU-s for the fit and ${(sel.searchSeconds ?? 0).toPrecision(2)} for the search. ` : '';
  return `${why}auto chose ${c.kernel === NAMES.RBF ? `the RBF kernel γ = ${short(c.gamma)} with ` : c.depth ? `depth L = ${c.depth} with ` : ''}${prep(c.preprocess)} (leave-one-out ${score(c)} on ${sel.rows} training rows: ${rule}) ${among}; next: ${others.join('; ')}.`;
}

/**
 * The predictions of a file, one per data row: class names (an array of
 * strings) or values (numbers). targetName heads the column. Returns
 * { header, rows } with rows [row number, prediction].
 */
export function predictionTable(predictions, targetName) {
  const header = ['row', `predicted ${targetName || 'value'}`];
  const rows = Array.from(predictions, (v, i) => [i + 1, v]);
  return { header, rows };
}

/** The predictions of a file as CSV text (csv.js: formulas in class names neutralised). */
export function predictionCSV(predictions, targetName) {
  const { header, rows } = predictionTable(predictions, targetName);
  return toCSV(header, rows);
}

/** The export name of the predictions of a file. */
export const predictionFileName = (fileName) => `${baseName(fileName)}-predicted.csv`;
