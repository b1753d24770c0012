// Engine.playground: several small models fitted on the same rows and
// every set of points scored with each, in one call to one worker (Go's
// core/playground). The worker keeps what it fitted and scored, so the
// calls go to the worker that answered the last one, before other waiting
// calls: a call that changes one model's settings then fits that model
// alone.
import { ntkrfError, typeError, describe } from './errors.js';
import { splitControl, snapshotMatrix, snapshotVector } from './options.js';

/**
 * Per pool, per lane: the worker that took the lane's last playground call
 * (slot), and a promise settled once that call has a worker (next).
 */
const keepers = new WeakMap();

/**
 * playground(pool, X, y, { models, points, lambda, task, classes,
 * preprocess, criterion, lane, signal, onProgress }): models are
 * fitRidge's { features } or { kernel } each, sharing the other options;
 * points are matrices of X's columns. lane (0 by default, one per worker):
 * the calls of a lane go to one worker, which keeps their models, and
 * different lanes to different workers (a picture split over them). Resolves to { surfaces: [{ lambda, reused,
 * computed, scores: [{ rows, cols, data } per set of points] }], fits }.
 */
export async function playground(pool, X, y, options = {}) {
  const where = 'playground';
  if (options === null || typeof options !== 'object') throw typeError(`${where}: options must be an object, got ${describe(options)}`);
  const { models, points = [], lane = 0, ...rest } = options;
  if (!Number.isInteger(lane) || lane < 0 || lane >= pool.slots.length) {
    throw ntkrfError('ERR_OPTION', `${where}: lane must be an integer in 0…${pool.slots.length - 1} (one per worker), got ${describe(lane)}`, 'lane');
  }
  // How many models and sets of points a call takes is Go's to say (core/playground).
  if (!Array.isArray(models)) throw typeError(`${where}: models must be an array of models ({ features } or { kernel }), got ${describe(models)}`, 'models');
  if (!Array.isArray(points)) throw typeError(`${where}: points must be an array of matrices, got ${describe(points)}`, 'points');
  const [opts, control] = splitControl(where, rest, 'fitRidge');
  const ms = models.map((m, i) => {
    if (m === null || typeof m !== 'object') throw typeError(`${where}: models[${i}] must be { features } or { kernel }, got ${describe(m)}`, 'models');
    const [one] = splitControl(where, { features: m.features, kernel: m.kernel }, 'fitRidge');
    return one;
  });
  const x = snapshotMatrix(where, 'X', X);
  const yd = snapshotVector(where, 'y', y);
  if (yd.length !== x.rows) throw ntkrfError('ERR_SHAPE', `${where}: X has ${x.rows} rows but y has ${yd.length} values`, 'y');
  const arrays = [x.data, yd];
  const refs = points.map((P, i) => {
    const p = snapshotMatrix(where, `points[${i}]`, P);
    arrays.push(p.data);
    return { rows: p.rows, cols: p.cols, array: arrays.length - 1 };
  });
  const args = { ...opts, models: ms, X: { rows: x.rows, cols: x.cols, array: 0 }, y: { array: 1 }, points: refs };
  // The worker that keeps the models, waited for (before the calls
  // waiting already): a cold worker would fit and featurize everything
  // again, which takes longer than the call it would wait for. A call made
  // while the last one waits for a worker follows it to the same one.
  if (!keepers.has(pool)) keepers.set(pool, new Map());
  const lanes = keepers.get(pool);
  if (!lanes.has(lane)) lanes.set(lane, { slot: null, next: null });
  const k = lanes.get(lane);
  if (k.next) await k.next;
  // A worker not started yet (createEngine starts the first; a call that
  // waits starts the others) is one a lane may take.
  const alive = (s) => (s?.worker || s?.pending) && !s.dead;
  // A lane's first call (or one whose worker was lost) takes a worker no
  // other lane keeps: lanes split a picture over the workers.
  const taken = new Set([...lanes.values()].filter((o) => o !== k).map((o) => o.slot));
  const slot = alive(k.slot) ? k.slot : lanes.size > 1 ? pool.slots.find((s) => alive(s) && !taken.has(s)) : undefined;
  let assigned;
  k.next = new Promise((resolve) => { assigned = resolve; });
  const call = pool.call(where, args, arrays, control, { transfer: true, slot, urgent: true, onSlot: (s) => { k.slot = s; assigned(); } });
  call.then(assigned, assigned);
  return call;
}
