// Decision surfaces of the playground: the grid of points covering the
// plane, the options of the models (the page's preprocessing, with the
// engine's bias input preprocess.bias: without biases a ReLU network's NTK
// is positively homogeneous, its signs wedges from the origin), the three
// models drawn side by side, their predictions over the grid in batches (so that a stale run stops between batches), and the
// colours of a surface. No DOM: playground.js paints the pixels this module
// computes.
import { check } from './jobs.js';
import { CLASS_NAMES } from './toy.js';
import { lut } from './heatmap.js';

/** Cells per side of a surface's grid: 64² = 4096 predictions, drawn smoothly scaled up. */
export const GRID = 64;
/** Grid rows predicted per engine call: progress and a stop between calls. */
export const BATCH = 1024;

/**
 * The RBF kernel's γ in the contrast: a length scale 1/√(2γ) ≈ 0.22, a
 * fifth of the points' spread, so it fits every generated set.
 */
export const RBF_GAMMA = 10;

/**
 * The three pictures side by side, each a kernel ridge regression on the
 * same points, with the same preprocessing and the same λ (or each its own,
 * lambda 'auto'): the exact kernel (dual) that the page's Method
 * approximates (the NTK of depth L for the paper's method), the Method's
 * random features at m (primal: what the lab approximates), and the RBF
 * kernel for contrast. kernel / method: the engine's names of the defaults
 * (vocab.js checks them against the schema); the playground passes the
 * page's; caption({ depth, m }): what the picture's title adds.
 */
export const EXACT = { id: 'exact', title: 'Exact NTK', kernel: 'ntk', caption: ({ depth }) => `depth L = ${depth}` };
export const FEATURES = { id: 'rf', title: 'NTK random features', method: 'ntk', caption: ({ m }) => `m = ${m}` };
export const CONTRAST = { id: 'rbf', title: 'RBF kernel (contrast)', kernel: 'rbf', gamma: RBF_GAMMA, caption: () => `γ = ${RBF_GAMMA}` };
export const SURFACES = [EXACT, FEATURES, CONTRAST];

/** The task of every playground fit: the engine's name for it (vocab.js checks it). */
export const TASK = 'classification';

/**
 * fitRidge's options for a surface: depth L, features (the feature options
 * of the settings: method, dim, depth, seed, sketch, sampler), kernel (the
 * exact kernel they approximate; the NTK of depth L when absent), λ and
 * preprocess (the page's: experiments.js preprocessOf, with its bias input);
 * classes: how many (two for the generated sets, up to MAX_CLASSES for a table).
 */
export function surfaceOptions(surface, { depth, features, kernel, lambda, preprocess, classes: k = CLASS_NAMES.length }) {
  const exact = kernel ?? { kernel: surface.kernel, depth };
  const fit = surface.method
    ? { features }
    : { kernel: surface.gamma === undefined ? exact : { kernel: surface.kernel, gamma: surface.gamma } };
  return { ...fit, lambda, task: TASK, classes: k, preprocess };
}

/** n points ({x: n·2 coordinates}) as the engine's matrix of rows (x₁, x₂). */
export function planeRows(x) {
  return { rows: x.length / 2, cols: 2, data: x };
}

/**
 * The centres of a g×g grid over the square ±extent, row by row from the
 * top (largest x₂) and left (smallest x₁), as the canvas draws them:
 * coordinates (n·2 values).
 */
export function gridPoints(g, extent) {
  const x = new Float64Array(2 * g * g);
  for (let r = 0; r < g; r++) {
    for (let c = 0; c < g; c++) {
      const k = r * g + c;
      x[2 * k] = -extent + ((c + 0.5) * 2 * extent) / g;
      x[2 * k + 1] = extent - ((r + 0.5) * 2 * extent) / g;
    }
  }
  return x;
}

/** Pixel (px, py) of a side×side picture → the point of the plane, and back. */
export const toPlane = (px, py, side, extent) => [-extent + (px / side) * 2 * extent, extent - (py / side) * 2 * extent];
export const toPixel = (x1, x2, side, extent) => [((x1 + extent) / (2 * extent)) * side, ((extent - x2) / (2 * extent)) * side];

/**
 * [lo, hi) row ranges of n rows in batches of at most size rows.
 */
export function batches(n, size = BATCH) {
  const out = [];
  for (let lo = 0; lo < n; lo += size) out.push([lo, Math.min(n, lo + size)]);
  return out;
}

/**
 * The decision value of each row of class scores (rows × k, from
 * model.predictScores): for two classes the score of class 1 less that of
 * class 0 (ridge regression on one-hot targets: −1 … 1 where it is sure);
 * for more, the winning score less the runner-up, signed by whether class 1
 * wins. Returns a Float64Array.
 */
export function decision(S) {
  const out = new Float64Array(S.rows);
  for (let i = 0; i < S.rows; i++) {
    const row = S.data.subarray(i * S.cols, (i + 1) * S.cols);
    if (S.cols === 2) out[i] = row[1] - row[0];
    else if (S.cols === 1) out[i] = row[0];
    else {
      let best = 0;
      for (let j = 1; j < row.length; j++) if (row[j] > row[best]) best = j;
      let second = -Infinity;
      for (let j = 0; j < row.length; j++) if (j !== best && row[j] > second) second = row[j];
      out[i] = (best === 1 ? 1 : -1) * (row[best] - second);
    }
  }
  return out;
}

/**
 * Predicts the decision value of every point of the plane (x: n·2
 * coordinates) with model, BATCH rows per call; onBatch(done, total) after
 * each. Stops with an AbortError between batches once signal is aborted.
 */
export async function evaluate(model, x, { signal, onBatch = () => {} } = {}) {
  const n = x.length / 2;
  const out = new Float64Array(n);
  for (const [lo, hi] of batches(n)) {
    if (signal) check(signal);
    const S = await model.predictScores(planeRows(x.subarray(2 * lo, 2 * hi)), signal ? { signal } : {});
    out.set(decision(S), lo);
    onBatch(hi, n);
  }
  return out;
}

/** The share of decision values on the side of their class (class 1 above 0). */
export function accuracy(values, y) {
  let right = 0;
  for (let i = 0; i < y.length; i++) if ((values[i] > 0 ? 1 : 0) === y[i]) right++;
  return y.length ? right / y.length : NaN;
}

/**
 * The classes' colours (blue, orange: told apart by every common colour
 * vision deficiency), as the points show them, and the surface's diverging
 * palette from blue (class 0 sure) through white (undecided) to orange
 * (class 1 sure), kept light so that the points stand out on it.
 */
export const CLASS_COLOURS = [[8, 119, 189], [232, 125, 20], [0, 158, 115], [204, 121, 167], [213, 94, 0], [86, 180, 233], [120, 94, 60], [90, 90, 90]];
/** The most classes a table may have to be drawn: one colour each (after blue and orange, Okabe–Ito's). */
export const MAX_CLASSES = CLASS_COLOURS.length;
export const SURFACE = lut([[94, 164, 214], [190, 218, 238], [246, 246, 246], [251, 209, 158], [244, 160, 72]]);

/** Decision values this far from 0 get the palette's ends. */
export const SURE = 1;

/** The index of the cell of a g×g grid over ±extent (gridPoints' order) that holds (x1, x2), clamped to the grid. */
export function gridIndex(x1, x2, g, extent) {
  const cell = (t) => Math.min(g - 1, Math.max(0, Math.floor((t * g) / (2 * extent))));
  return cell(extent - x2) * g + cell(x1 + extent);
}

/** A surface's value (decision) in words: the class (of names) it leans to and how sure, or undecided. */
export function readValue(v, names = CLASS_NAMES) {
  const a = Math.abs(v);
  if (a < 0.1) return `undecided (${v.toFixed(2)})`;
  return `${names[v > 0 ? 1 : 0]}${a >= SURE ? ', sure' : ''} (${v.toFixed(2)})`;
}

/**
 * The RGBA pixels of a g×g surface (values row by row as gridPoints orders
 * them), through palette over [−SURE, SURE].
 */
export function surfacePixels(values, palette = SURFACE, sure = SURE) {
  const px = new Uint8ClampedArray(values.length * 4);
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    const f = Number.isFinite(v) ? (Math.max(-sure, Math.min(sure, v)) + sure) / (2 * sure) : 0.5;
    const i = Math.round(f * 255) * 3;
    px[4 * k] = palette[i];
    px[4 * k + 1] = palette[i + 1];
    px[4 * k + 2] = palette[i + 2];
    px[4 * k + 3] = 255;
  }
  return px;
}

/** The share of grid cells on which two surfaces decide alike (same sign). */
export function agreement(a, b) {
  let same = 0;
  for (let i = 0; i < a.length; i++) if ((a[i] > 0) === (b[i] > 0)) same++;
  return a.length ? same / a.length : NaN;
}

// ------------------------------------------------------------ more than two classes

/**
 * The winning class of each row of class scores (rows × k, one-vs-rest
 * ridge scores) and its margin over the runner-up. Returns { label:
 * Float64Array, margin: Float64Array }.
 */
export function argmaxClasses(S) {
  const label = new Float64Array(S.rows), margin = new Float64Array(S.rows);
  for (let i = 0; i < S.rows; i++) {
    const row = S.data.subarray(i * S.cols, (i + 1) * S.cols);
    let best = 0;
    for (let j = 1; j < row.length; j++) if (row[j] > row[best]) best = j;
    let second = -Infinity;
    for (let j = 0; j < row.length; j++) if (j !== best && row[j] > second) second = row[j];
    label[i] = best;
    margin[i] = row[best] - second;
  }
  return { label, margin };
}

/** evaluate for k > 2 classes: the winning class and its margin at every point, in batches. */
export async function evaluateClasses(model, x, { signal, onBatch = () => {} } = {}) {
  const n = x.length / 2;
  const label = new Float64Array(n), margin = new Float64Array(n);
  for (const [lo, hi] of batches(n)) {
    if (signal) check(signal);
    const r = argmaxClasses(await model.predictScores(planeRows(x.subarray(2 * lo, 2 * hi)), signal ? { signal } : {}));
    label.set(r.label, lo);
    margin.set(r.margin, lo);
    onBatch(hi, n);
  }
  return { label, margin };
}

/** The share of labels equal to y (or of two surfaces' labels that agree). */
export function sameShare(a, b) {
  let same = 0;
  for (let i = 0; i < b.length; i++) if (a[i] === b[i]) same++;
  return b.length ? same / b.length : NaN;
}

/**
 * The RGBA pixels of a k-class surface: each point the winning class's
 * colour, mixed with the undecided grey by its margin (sure at SURE / 2,
 * kept light like the two-class palette so that the points stand out).
 */
export function classPixels({ label, margin }, colours = CLASS_COLOURS, sure = SURE / 2) {
  const px = new Uint8ClampedArray(label.length * 4);
  for (let k = 0; k < label.length; k++) {
    const f = Number.isFinite(margin[k]) ? 0.65 * Math.min(1, Math.max(0, margin[k]) / sure) : 0;
    const c = colours[label[k]] ?? [246, 246, 246];
    for (let j = 0; j < 3; j++) px[4 * k + j] = Math.round(246 + f * (c[j] - 246));
    px[4 * k + 3] = 255;
  }
  return px;
}

/**
 * A digest of a surface's values (decision values, or { label, margin }):
 * FNV-1a over their float64 bits, as hex. Two surfaces with the same
 * digest hold the same bits (the tests compare the playground's pictures
 * with fitRidge's predictions by it).
 */
export function digest(values) {
  let h = 0x811c9dc5;
  for (const a of values.label ? [values.label, values.margin] : [values]) {
    const b = new Uint8Array(Float64Array.from(a).buffer);
    for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 16777619);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
