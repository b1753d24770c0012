// Active learning: which rows are worth labelling? The greedy design of the
// paper (eng.selectActive: rows that minimise the criterion on NTK random
// features) against random picks, both scored on held-out rows by exact NTK
// ridge regression fitted on the labelled rows only. No DOM: playground.js
// runs it as a job and draws the curves and the picks.
import { check } from './jobs.js';
import { rng, streamSeed, CLASS_NAMES } from './toy.js';
import { planeRows, EXACT, FEATURES, TASK } from './surface.js';
import { featureOptions, preprocessOf, dim, lambdaOf, planeSplit } from './experiments.js';

/** Random orders averaged for the baseline: one order is too noisy to compare with. */
export const RANDOM_ORDERS = 5;
/** Label counts at which both strategies are scored. */
export const CURVE_POINTS = 10;
/** The streams of the random orders (toy.js streamSeed), apart from the data's. */
const ORDER_STREAM = 100;

/** Label counts k/CURVE_POINTS, 2k/CURVE_POINTS, …, k: at least 2 (two classes can show up), distinct, rising. */
export function schedule(k, points = CURVE_POINTS) {
  const out = new Set();
  for (let i = 1; i <= points; i++) out.add(Math.max(2, Math.round((k * i) / points)));
  return [...out].filter((c) => c <= k).sort((a, b) => a - b);
}

/** A seeded random order of 0…n−1 (Fisher–Yates on the stream of seed). */
export function randomOrder(n, seed, stream) {
  const u = rng(streamSeed(seed, stream));
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(u() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** The most frequent label of y (the first of the tied). */
function majority(y) {
  const counts = new Map();
  for (const v of y) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = y[0];
  for (const [v, c] of counts) if (c > counts.get(best)) best = v;
  return best;
}

/**
 * The experiment on a generated set: the training points are the pool to
 * label, the test points score; points as the surfaces see them (the
 * page's preprocessing and bias input). settings: the page's.
 */
export function toyProblem(toy, settings) {
  return {
    pool: planeRows(toy.train.x), poolY: toy.train.y, test: planeRows(toy.test.x), testY: toy.test.y,
    task: TASK, classes: CLASS_NAMES.length, preprocess: preprocessOf(settings), groups: undefined,
    ...common(settings),
  };
}

/**
 * The experiment on a table: a seeded split (the Test share and Seed of
 * the page); the training rows are the pool, the held-out rows score.
 */
export async function tableProblem(engine, ds, settings, signal) {
  const { train, test } = await engine.split(ds.X.rows, { ...planeSplit(settings), signal });
  return {
    pool: engine.take(ds.X, train), poolY: engine.take(ds.y, train), test: engine.take(ds.X, test), testY: engine.take(ds.y, test),
    task: ds.task, classes: ds.task === TASK ? ds.classes.length : undefined, preprocess: preprocessOf(settings), groups: ds.groups,
    ...common(settings),
  };
}

/** What both kinds share: the exact NTK of depth L for the fits, its random features at m for the design (the playground's), λ, seed. */
function common(settings) {
  return {
    kernel: { kernel: EXACT.kernel, depth: settings.depth },
    features: featureOptions(settings, FEATURES.method, dim(settings)),
    lambda: lambdaOf(settings),
    seed: settings.seed,
  };
}

/**
 * Fits exact NTK ridge regression on the pool rows idx and scores its
 * predictions of the test rows. Labels of one class only (a few random
 * picks) cannot be fitted: that class is predicted everywhere.
 */
async function scoreLabels(engine, p, idx, signal) {
  const y = engine.take(p.poolY, idx);
  let pred;
  if (p.task === TASK && new Set(y).size < 2) {
    pred = new Float64Array(p.testY.length).fill(majority(y));
  } else {
    const opts = { kernel: p.kernel, lambda: p.lambda, task: p.task, preprocess: p.preprocess, signal };
    if (p.classes) opts.classes = p.classes;
    if (p.groups) opts.groups = p.groups;
    const model = await engine.fitRidge(engine.take(p.pool, idx), y, opts);
    try {
      pred = await model.predict(p.test, { signal });
    } finally {
      model.dispose();
    }
  }
  return scoreOf(engine, p, pred, signal);
}

/** Accuracy (classification) or R² (regression) of predictions pred of the test rows, by the engine (core/metrics). */
export async function scoreOf(engine, p, pred, signal) {
  const s = await engine.score(p.testY, pred, { task: p.task, ...(p.classes ? { classes: p.classes } : {}), signal });
  return p.task === TASK ? s.accuracy : s.r2;
}

/**
 * Runs the experiment with k labels: the design picks k pool rows in order
 * (eng.selectActive), then at each count of schedule(k) both strategies are
 * scored: the design's first rows, and the first rows of RANDOM_ORDERS
 * random orders (their mean). onStep(result) after each count, with the
 * curves so far. ctl(i, n) and signal come from the job (jobs.js).
 *
 * Returns { picks, counts, design: [[count, score]], random: [[count,
 * mean score]], metric: 'accuracy' | 'R²', k, testRows }.
 */
export async function activeLearning(engine, p, k, ctl, signal, onStep = () => {}) {
  const n = p.pool.rows;
  k = Math.min(k, n);
  const counts = schedule(k);
  const steps = 1 + counts.length * (1 + RANDOM_ORDERS);
  let step = 0;
  const opts = { k, lambda: p.lambda, features: p.features, preprocess: p.preprocess, ...ctl(step++, steps) };
  if (p.groups) opts.groups = p.groups;
  const picks = await engine.selectActive(p.pool, opts);
  check(signal);
  const orders = Array.from({ length: RANDOM_ORDERS }, (_, r) => randomOrder(n, p.seed, ORDER_STREAM + r));
  const out = { picks, counts, design: [], random: [], metric: p.task === TASK ? 'accuracy' : 'R²', k, testRows: p.testY.length };
  for (const c of counts) {
    ctl(step++, steps).onProgress?.({ done: 0, total: 1, stage: `${c} labels` });
    out.design.push([c, await scoreLabels(engine, p, picks.slice(0, c), signal)]);
    let sum = 0;
    for (const order of orders) {
      ctl(step++, steps).onProgress?.({ done: 0, total: 1, stage: `${c} labels` });
      sum += await scoreLabels(engine, p, order.slice(0, c), signal);
      check(signal);
    }
    out.random.push([c, sum / orders.length]);
    onStep(out);
  }
  return out;
}
