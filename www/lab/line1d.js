// Regression in one dimension: a few generated curves (sin, |x|, steps)
// and what the playground draws of them — the exact NTK's mean with the
// band of an infinitely wide ensemble (±2 standard deviations of the
// NTK/NNGP Gaussian process: the engine's ensembleVariance), the Method's
// random features and the RBF kernel beside it. No DOM: playground.js
// draws the series this module computes.
import { rng, streamSeed } from './toy.js';
import { check } from './jobs.js';
import { NAMES } from './names.js';

/** The x range of the sets and the curve, ±EXTENT_1D. */
export const EXTENT_1D = 3;
/** Points on the drawn curves. */
export const CURVE_POINTS_1D = 161;
/** Training points of a set. */
export const POINTS_1D = 24;
/** The most rows of a table the 1-D panel fits (a seeded sample of more): the exact kernel and the band are n×n. */
export const MAX_POINTS_1D = 500;
/** The RBF kernel's γ of the contrast (a length scale of 0.5 on ±3). */
export const RBF_GAMMA_1D = 2;

/** The sets: f(x), and in words. Noise is added to the training points. */
export const SETS_1D = {
  sin: { title: 'sin x', f: (x) => Math.sin(x) },
  abs: { title: '|x|', f: (x) => Math.abs(x) - 1 },
  steps: { title: 'steps', f: (x) => Math.floor(x) / 2 },
};
export const SET_IDS_1D = Object.keys(SETS_1D);

/**
 * The training points of set id: n points at seeded x in ±EXTENT_1D, but
 * none in the gap (−0.5, 0.5) — so the band shows what the ensemble does
 * away from its data — with noise (a standard deviation) on y.
 */
export function set1d(id, { n = POINTS_1D, noise = 0.1, seed = 1 } = {}) {
  const u = rng(streamSeed(seed, 7));
  const x = new Float64Array(n), y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let v;
    do v = (2 * u() - 1) * EXTENT_1D; while (Math.abs(v) < 0.5);
    // Box–Muller noise.
    const g = Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
    x[i] = v;
    y[i] = SETS_1D[id].f(v) + noise * g;
  }
  return { id, x, y };
}

/** The x of the drawn curves: CURVE_POINTS_1D evenly over ±EXTENT_1D. */
export function curveX() {
  return Float64Array.from({ length: CURVE_POINTS_1D }, (_, i) => -EXTENT_1D + (2 * EXTENT_1D * i) / (CURVE_POINTS_1D - 1));
}

const column = (x) => ({ rows: x.length, cols: 1, data: x });

/**
 * Fits the three models on set (1-D regression, the page's preprocessing
 * and λ) and returns their curves over curveX(): { x, exact, lo, hi, rf,
 * rbf, lambda } — lo/hi the exact NTK's mean ± 2σ of the ensemble. kernel:
 * the exact NTK's spec ({ kernel: 'ntk', depth }); features: the Method's
 * feature options; lambda: a number or 'auto' (then the exact fit's λ is
 * the ensemble's too).
 */
export async function curves1d(engine, set, { depth, features, lambda, preprocess }, signal) {
  const X = column(set.x), Z = column(curveX());
  const fit = (more) => engine.fitRidge(X, set.y, { task: NAMES.Regression, lambda, preprocess, signal, ...more });
  const predict = async (more) => {
    const model = await fit(more);
    try {
      return { values: await model.predict(Z, { signal }), lambda: model.lambda };
    } finally {
      model.dispose();
    }
  };
  const exact = await predict({ kernel: { kernel: NAMES.NTK, depth } });
  check(signal);
  const variance = await engine.ensembleVariance(X, Z, { depth, lambda: exact.lambda, preprocess, signal });
  check(signal);
  const rf = await predict({ features });
  check(signal);
  const rbf = await predict({ kernel: { kernel: NAMES.RBF, gamma: RBF_GAMMA_1D } });
  const sd = Array.from(variance, (v) => 2 * Math.sqrt(v));
  return {
    x: Z.data,
    exact: exact.values,
    lo: exact.values.map((m, i) => m - sd[i]),
    hi: exact.values.map((m, i) => m + sd[i]),
    rf: rf.values,
    rbf: rbf.values,
    lambda: exact.lambda,
  };
}

/**
 * Why the 1-D panel cannot draw a table (ds, parseCSV's), with what the
 * user can do; '' when it can: one numeric input column, a numeric target
 * (regression), no missing cells.
 */
export function lineRefusal(ds) {
  const inputs = ds.columns.filter((c, i) => i !== ds.target);
  if (inputs.length !== 1 || ds.X.cols !== 1 || inputs[0].kind !== 'numeric') return `it has ${inputs.length === 1 ? 'one input column that is not numeric' : `${inputs.length} input columns`}; this panel draws a table of one numeric input column and a numeric target (Leave out the others)`;
  if (ds.task !== NAMES.Regression) return `its target “${ds.targetName}” is read as classes; this panel draws values (set Task to ${NAMES.Regression})`;
  if (ds.missingCells) return `${ds.missingCells} of its cells are missing (empty or NaN); this panel needs every cell (remove those rows from the file)`;
  return '';
}

/**
 * A 1-D table as the panel's set: at most MAX_POINTS_1D rows (the
 * engine's seeded sample, sample(engine, ds, max, opts): toy.js's
 * sampleTable), x mapped linearly onto ±(EXTENT_1D − 0.5) so that the
 * curve runs beyond the data on both sides, y as it is. Returns { id:
 * 'file', x, y, axis: { name, centre, half }, target, shown, of }; real(x)
 * maps a plotted x back to the column's units.
 */
export async function tableSet1d(engine, table, sample, { seed, signal }) {
  const { ds, of } = await sample(engine, table, MAX_POINTS_1D, { seed, signal });
  const n = ds.X.rows;
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < n; i++) {
    lo = Math.min(lo, ds.X.data[i]);
    hi = Math.max(hi, ds.X.data[i]);
  }
  const centre = (lo + hi) / 2, half = (hi - lo) / 2 || 1, reach = EXTENT_1D - 0.5;
  const x = Float64Array.from(ds.X.data, (v) => ((v - centre) / half) * reach);
  const name = ds.columns.find((c, i) => i !== ds.target).name;
  return { id: 'file', x, y: Float64Array.from(ds.y), axis: { name, centre, half: half / reach }, target: ds.targetName, shown: n, of };
}

/** A plotted x of a table's set in its column's units. */
export const realX = (set, x) => (set.axis ? set.axis.centre + x * set.axis.half : x);
