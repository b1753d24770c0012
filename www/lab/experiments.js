// What the lab runs on the engine: the feature and kernel options a setting
// means, the rows preprocessed as a fit would (by the engine), the
// comparison of features with the exact kernel they approximate, training
// with held-out rows (a split or k folds) with the exact kernel alongside,
// and the model kept to download and to predict files with. No DOM: train-panel.js
// starts these as jobs and draws results.
import { METHODS, SETTINGS, toOption, optionAt, uses } from './vocab.js';
import { NAMES } from './names.js';
import { check } from './jobs.js';
import { runWork, EXACT_MAX } from './cost.js';
import { count } from './format.js';
import { formatBytes } from './data.js';

/** Rows in the kernel pictures (an n×n exact kernel is cheap at this size). */
export const SAMPLE = 200;

/** The number of features m of the settings. */
export const dim = (settings) => toOption(SETTINGS.logm.scale, settings.logm);

/** The ridge λ of the settings (the playground's and active learning's; training chooses its own). */
export const lambdaOf = (settings) => toOption(SETTINGS.lam.scale, settings.lam);

/** Whether method uses the option name: the engine's rule (vocab.js uses). */
export { uses };

/** Layers after the first that method computes (the cost model's count). */
export const extraLayers = (settings, method = settings.method) => (uses(method, 'depth') ? settings.depth - 1 : 0);

/** The feature options of the settings for method and m: only those the method uses. */
export function featureOptions(settings, method = settings.method, m = dim(settings)) {
  const o = { method, dim: m, seed: settings.seed };
  if (uses(method, 'depth')) o.depth = settings.depth;
  if (uses(method, 'sketch')) o.sketch = settings.sketch;
  if (uses(method, 'sampler')) o.sampler = settings.sampler;
  return o;
}

/** The exact kernel a method's features approximate. */
export function targetKernel(settings, method = settings.method) {
  const { kernel, depth } = METHODS[method];
  return kernel === NAMES.RBF ? { kernel } : { kernel, depth: depth ?? settings.depth };
}

/** A kernel in words; depths: the depths 'auto' chose (one per fold), shown instead of 'auto'. */
export function kernelName(spec, depths = []) {
  if (spec.kernel === NAMES.RBF) return 'RBF kernel';
  const chosen = [...new Set(depths)].sort((a, b) => a - b);
  const depth = spec.depth === NAMES.Auto && chosen.length ? `${chosen.join(' or ')} (${NAMES.Auto})` : spec.depth;
  return `${spec.kernel.toUpperCase()}, L = ${depth}`;
}

/** The engine split's options of the settings: the Test share and Seed (Train, active learning and a table's playground split alike). */
export function planeSplit(settings) {
  return { testFraction: toOption(SETTINGS.test.scale, settings.test), seed: settings.seed };
}

/** The preprocessing of the settings, as the engine's options name it (the bias input only when there is one). */
export function preprocessOf(settings) {
  const bias = toOption(SETTINGS.bias.scale, settings.bias ?? 0);
  return { standardize: settings.std, unitNorm: settings.unit, ...(bias > 0 ? { bias } : {}) };
}

/**
 * The rows idx of ds.X (all rows when idx is null) preprocessed exactly as
 * a fit would: the engine imputes missing cells (the mean of a numeric
 * column, the most frequent category of a one-hot group), standardizes and
 * scales rows to unit norm, with statistics of every row of ds.X.
 */
export async function preprocessed(engine, ds, settings, idx, control = {}) {
  const P = await engine.preprocess(ds.X, { preprocess: preprocessOf(settings), groups: ds.groups, ...control });
  return idx ? engine.take(P, idx) : P;
}

/** Compares method's m features with the exact kernel they approximate, on X. */
export function compareOn(engine, X, settings, method, m, control, matrices) {
  return engine.compare(X, { features: featureOptions(settings, method, m), kernel: targetKernel(settings, method), matrices, ...control });
}

/** A comparison as a row of the comparison export. */
export function comparisonRow(kind, method, m, c) {
  return { kind, method, m, relFrobenius: c.relFrobenius, spectral: c.spectral, mse: c.mse, lambda: c.lambda, exactSeconds: c.seconds.exact, featureSeconds: c.seconds.features };
}

/** The q-quantile of sorted values. */
export function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/**
 * The colour scales of the kernel pictures. A few large entries (long rows,
 * the diagonal) would leave the rest of a picture in one colour, so K and
 * ΦΦᵀ share a scale from the 1st to the 99th percentile of both (values
 * beyond are clipped); the difference ΦΦᵀ − K spans ± the kernel scale, or
 * ± its own largest value when magnify is set. approx may be null.
 * Returns { lo, hi, diff, s } (diff null without approx).
 */
export function pictureScales(K, approx, magnify) {
  const all = new Float64Array(approx ? 2 * K.data.length : K.data.length);
  all.set(K.data);
  if (approx) all.set(approx.data, K.data.length);
  all.sort();
  const lo = quantile(all, 0.01), hi = quantile(all, 0.99);
  if (!approx) return { lo, hi, diff: null, s: 0 };
  const diff = { rows: K.rows, cols: K.cols, data: approx.data.map((v, i) => v - K.data[i]) };
  let s = 0;
  if (magnify) for (const v of diff.data) s = Math.max(s, Math.abs(v));
  else s = Math.max(Math.abs(lo), Math.abs(hi));
  return { lo, hi, diff, s };
}

/** What chose λ, from the curve the engine returns: validated accuracy (classification) or squared error. */
export const curveByAccuracy = (points) => points.some((p) => p.accuracy !== undefined);

/** The rows of 0…n−1 not in test. */
export function complement(test, n) {
  const out = new Uint8Array(n);
  for (const i of test) out[i] = 1;
  const train = [];
  for (let i = 0; i < n; i++) if (!out[i]) train.push(i);
  return train;
}

/** Folds as {train, test}, from kfold's result: {train, test} per fold, or (older engines) the test rows of each. */
export function folds(result, n) {
  return result.map((f) => (Array.isArray(f) || ArrayBuffer.isView(f) ? { test: Array.from(f), train: complement(f, n) } : f));
}

/**
 * The plan of a training run, fixed when it starts (the controls may move
 * while it runs): the settings and the data set's task.
 */
export function trainingPlan(settings, ds, search = null) {
  const method = settings.method, m = dim(settings);
  return {
    search: searchOf(settings, search),
    method, m,
    // The task, the classes and the one-hot groups come with the data set.
    // 'auto' (the engine's default) chooses the depth and preprocessing on
    // the training rows; the sliders then shape only the kernel pictures.
    auto: settings.auto,
    preprocess: settings.auto ? NAMES.Auto : preprocessOf(settings),
    features: autoDepth(featureOptions(settings, method, m), settings.auto),
    kernel: autoDepth(targetKernel(settings, method), settings.auto && !METHODS[method].depth),
    layers: extraLayers(settings, method),
    evaluation: settings.eval, testShare: settings.test, k: settings.k, seed: settings.seed, exactWanted: settings.exact,
    rows: ds.X.rows,
  };
}

/**
 * The 'auto' search a training run with these settings does, for the cost
 * model: { candidates, rows } from the engine's search (autoSearch), depths
 * only for a method that has one; null with auto off.
 */
export function searchOf(settings, search) {
  if (!settings.auto || !search) return null;
  const method = settings.method;
  const depths = featureOptions(settings, method).depth !== undefined || targetKernel(settings, method).depth !== undefined ? search.depths.length : 1;
  return { candidates: depths * search.preprocess.length, rows: search.rows };
}

/**
 * The engine's defaults of the 'auto' search (fitRidge's search option):
 * { depths, preprocess (the candidate preprocessings), rows }, or null if
 * it has none.
 */
export function autoSearch(schema) {
  const def = (name) => optionAt(schema, `fitRidge.search.${name}`)?.default;
  const depths = def('depths'), preprocess = def('preprocess'), rows = def('rows');
  if (!Array.isArray(depths) || !Array.isArray(preprocess) || !Number.isInteger(rows)) return null;
  return { depths, preprocess, rows };
}

/** options with depth 'auto' when auto is set and they have a depth. */
const autoDepth = (options, auto) => (auto && options.depth !== undefined ? { ...options, depth: NAMES.Auto } : options);

/** The rows idx of a data set, as a data set (fitRidge reads its task, classes, groups and columns). */
export const subset = (engine, ds, idx) => ({ ...ds, X: engine.take(ds.X, idx), y: engine.take(ds.y, idx) });

/** Why a data set cannot be trained on, or '' (one class: nothing to tell apart). */
export function untrainable(ds) {
  if (ds.task === NAMES.Classification && ds.classes.length < 2) return 'one class';
  return '';
}

/**
 * Trains random-feature ridge regression on ds as plan says, on every fold,
 * and predicts the held-out rows; with the exact kernel too when asked and
 * the training rows are at most EXACT_MAX. ctl(i, n) and signal come from
 * the job (jobs.js).
 *
 * The model it returns is the one to download and to predict files with:
 * on a split, the model evaluated (fitted on the training rows); with k
 * folds, a model fitted on every row afterwards (the folds only measure).
 * It is fitted from the data set, so it reads CSV files by its columns.
 *
 * Returns { rows, pred, exactPred, fold, curve, lambda, exactLambda,
 * exactDepths (the depths the exact kernel chose, with depth 'auto'), rfMs,
 * exactMs, withExact, exactSkipped, maxTrain, scores, exactScores?, yTrue,
 * work (the modelled work of all its fits), calls (its fitting calls),
 * totalMs (the run's time), how,
 * model, modelRows }: rows are the held-out rows in the order
 * of pred.
 */
export async function trainAndTest(engine, ds, plan, ctl, signal) {
  const t0 = performance.now();
  const n = ds.X.rows;
  const classification = ds.task === NAMES.Classification;
  let parts;
  if (plan.evaluation === 'split') {
    parts = [await engine.split(n, { testFraction: plan.testShare / 100, seed: plan.seed, signal })];
  } else {
    parts = folds(await engine.kfold(n, { k: plan.k, seed: plan.seed, signal }), n);
  }
  const maxTrain = Math.max(...parts.map((f) => f.train.length));
  const withExact = plan.exactWanted && maxTrain <= EXACT_MAX;
  const final = plan.evaluation !== 'split';
  const steps = parts.length * (withExact ? 4 : 2) + (final ? 1 : 0);
  let step = 0;
  const out = { rows: [], pred: [], exactPred: [], fold: [], curve: null, selection: null, lambda: [], exactLambda: [], exactDepths: [], rfMs: 0, exactMs: 0, withExact, maxTrain, model: null, modelRows: 0 };
  out.exactSkipped = plan.exactWanted && !withExact;
  const fit = (data, more) => engine.fitRidge(data, { preprocess: plan.preprocess, ...more, ...ctl(step++, steps) });
  try {
    for (const [f, { train: tr, test }] of parts.entries()) {
      check(signal);
      const train = subset(engine, ds, tr), Xte = engine.take(ds.X, test);
      let t = performance.now();
      // λ by the engine's default criterion; the curve says what it scored.
      const model = await fit(train, { features: plan.features });
      let kept = false;
      try {
        const p = await model.predict(Xte, ctl(step++, steps));
        out.rfMs += performance.now() - t;
        // Loops, not push(...a): arrays of test rows can exceed the argument limit.
        test.forEach((row, i) => { out.rows.push(row); out.pred.push(p[i]); out.fold.push(f + 1); });
        out.lambda.push(model.lambda);
        if (f === 0) {
          out.curve = { points: model.curve, lambda: model.lambda, accuracy: curveByAccuracy(model.curve) };
          out.selection = model.selection;
        }
        if (!final) [out.model, out.modelRows, kept] = [model, tr.length, true];
      } finally {
        if (!kept) model.dispose();
      }
      if (withExact) {
        t = performance.now();
        const exact = await fit(train, { kernel: plan.kernel });
        try {
          for (const v of await exact.predict(Xte, ctl(step++, steps))) out.exactPred.push(v);
          out.exactMs += performance.now() - t;
          out.exactLambda.push(exact.lambda);
          // With depth 'auto' the exact kernel chooses its own depth: the depth it fitted.
          const sel = exact.selection;
          if (sel) out.exactDepths.push(sel.candidates[sel.chosen].depth);
        } finally {
          exact.dispose();
        }
      }
    }
    if (final) [out.model, out.modelRows] = [await fit(ds, { features: plan.features }), n];
    const yTrue = engine.take(ds.y, out.rows);
    const opts = { task: ds.task, ...(classification ? { classes: ds.classes.length } : {}) };
    out.scores = await engine.score(yTrue, Float64Array.from(out.pred), { ...opts, signal });
    if (withExact) out.exactScores = await engine.score(yTrue, Float64Array.from(out.exactPred), { ...opts, signal });
    out.yTrue = yTrue;
  } catch (e) {
    out.model?.dispose();
    throw e;
  }
  // The modelled work of what ran (cost.js runWork), and its time.
  // The work the estimate counts for these settings (cost.js runWork), so that the rate is fitted on the same figures.
  const w = runWork({ n, d: ds.X.cols, m: plan.m, layers: plan.layers, search: plan.search, settings: { eval: plan.evaluation, test: plan.testShare, k: plan.k },
    outputs: classification ? ds.classes.length : 1, exact: withExact });
  [out.work, out.calls] = [w.total, w.calls];
  out.totalMs = performance.now() - t0;
  out.how = plan.evaluation === 'split' ? count(out.rows.length, 'held-out test row') : `${parts.length}-fold cross-validation (${count(out.rows.length, 'row')})`;
  return out;
}

/**
 * The headline score. R² of test targets that do not vary (one test row,
 * say) is undefined, whatever number the engine gives: a dash, not 0.000.
 */
export function metric(ds, s, yTrue) {
  const classification = ds.task === NAMES.Classification;
  const name = classification ? 'accuracy' : 'R²';
  const value = classification ? s.accuracy : s.r2;
  const flat = ds.task === NAMES.Regression && yTrue.every((v) => v === yTrue[0]);
  if (flat || typeof value !== 'number' || !Number.isFinite(value)) return { name, value: NaN, text: '—', note: `${name} is undefined here: the test rows' ${ds.targetName} does not vary.` };
  return { name, value, text: classification ? `${(100 * value).toFixed(1)}%` : value.toFixed(3) };
}

/** How far random features may trail the exact kernel before the page says so: accuracy points, or R². */
export const SHORTFALL = { classification: 0.03, regression: 0.05 };

/** Whether random features (rf, a metric) trail the exact kernel by more than SHORTFALL: the gap, or 0. */
export function shortBy(ds, rf, exact) {
  if (!exact || !Number.isFinite(rf.value) || !Number.isFinite(exact.value)) return 0;
  const gap = exact.value - rf.value;
  return gap > SHORTFALL[ds.task] ? gap : 0;
}

/**
 * The larger m a shortfall at m is checked with: twice m, at least the
 * package's default (defaultM), at most the largest the page offers
 * (maxM); null when the page offers no larger m.
 */
export function checkM(m, { defaultM, maxM }) {
  const next = Math.min(maxM, Math.max(2 * m, defaultM ?? 0));
  return next > m ? next : null;
}

/**
 * A sentence when the random features (rf, a metric) fall well short of
 * the exact kernel (exact) at m features; '' when they keep up or no exact
 * kernel was fitted. Advice only as far as it was checked: checked is the
 * metric of a fit the page ran at checkM's m on the same rows ({ m, value,
 * text }): the sentence says what that fit reached, and suggests it only
 * if it did better; without one the sentence says that more features are
 * a guess.
 */
export function shortfall(ds, rf, exact, m, { checked = null } = {}) {
  const gap = shortBy(ds, rf, exact);
  if (!gap) return '';
  const by = ds.task === NAMES.Classification ? `${(100 * gap).toFixed(1)} points of accuracy` : `${gap.toFixed(3)} in R²`;
  const head = `The random features fall ${by} short of the exact kernel at m = ${m}`;
  if (!checked) return `${head}: more features than this page offers might close the gap (a guess, not checked here; the package takes more).`;
  if (checked.value > rf.value) return `${head}. Checked on the same rows: at m = ${checked.m} they reach ${checked.text}; set Features m to ${checked.m}.`;
  return `${head}. Checked on the same rows: m = ${checked.m} reaches ${checked.text}, no better; more features do not close it here, the exact kernel is the better model at this size.`;
}

/**
 * The memory of Φ for n rows of m features at the precision the engine
 * computes them in by default (the engine's limits.featureBytes, by method
 * and sampler: 4 bytes for float32, 8 for float64). Returns { bytes, per,
 * text }, or null when the engine does not say.
 */
export function featureMemory(n, m, settings, limits) {
  const per = limits?.featureBytes?.[settings.method]?.[settings.sampler];
  if (!Number.isInteger(per)) return null;
  const bytes = n * m * per;
  return { bytes, per, text: `Φ for all ${n} rows: ${n} × ${m} × ${per} bytes = ${formatBytes(bytes)}` };
}
