// fitRidge schedules Go's fit protocol (core/pipeline Plan: plan →
// statistics → parts → merge → solve) over the workers: which worker runs
// which chunk, and the wire forms handed on in row order. Every decision
// (task, classes, criterion, held-out rows, chunks) is Go's.
import { ntkrfError, typeError, describe } from './errors.js';
import { splitControl, snapshotMatrix, snapshotVector } from './options.js';
import { Model } from './model.js';
import { overRows, copyRange, CHUNK_BYTES } from './rows.js';

/**
 * The largest X, in bytes, whose 'auto' selection is split over the
 * workers: each worker scoring a share of the candidates holds a copy.
 */
const SPLIT_SELECT_BYTES = 64 << 20;

/** A Dataset (parseCSV's result) rather than a matrix: it has X and y, and no rows. */
const isDataset = (v) => v !== null && typeof v === 'object' && !ArrayBuffer.isView(v) && 'X' in v && 'y' in v && !('rows' in v);

/** The dataset schema a model keeps to read new rows (predictCSV), copied from a Dataset. */
const INPUT_KEYS = ['columns', 'target', 'targetName', 'excluded', 'groups', 'classes', 'task', 'delimiter', 'header'];

/**
 * A Dataset's fields read once each (a getter is never asked twice): X and
 * y as they are (snapshotted with the other inputs), the schema fields as
 * copies, so that what is checked is what the model keeps.
 */
function readDataset(where, d) {
  const out = { X: d.X, y: d.y };
  for (const k of INPUT_KEYS) {
    const v = d[k];
    try {
      // The model keeps the schema as JSON (its file): copied as JSON, each field read once.
      out[k] = v === undefined ? undefined : JSON.parse(JSON.stringify(v));
    } catch (e) {
      throw typeError(`${where}: dataset.${k} cannot be copied (${e.message}); pass parseCSV's result`, k);
    }
  }
  return out;
}

/**
 * Engine.fitRidge(X, y, options), or Engine.fitRidge(dataset, options):
 * a Dataset brings its task, class names and one-hot groups, and the model
 * keeps its schema (input) to read CSV rows later.
 */
export async function fitRidge(pool, ...args) {
  const where = 'fitRidge';
  const fromDataset = isDataset(args[0]);
  if (fromDataset && args.length > 2) {
    throw typeError(`${where}: a dataset carries its own y: call fitRidge(dataset, options)`, 'y');
  }
  // The dataset's fields, each read once, as the call's own copies.
  const ds = fromDataset ? readDataset(where, args[0]) : null;
  let [X, y, options] = fromDataset ? [ds.X, ds.y, args[1]] : args;
  const [opts, control] = splitControl(where, options);
  let input;
  if (fromDataset) {
    for (const k of ['task', 'classes', 'groups']) {
      if (opts[k] !== undefined) {
        throw ntkrfError('ERR_OPTION', `${where}: ${k} comes from the dataset; parse the file again (parseCSV options) to change it`, k);
      }
    }
    if (ds.task !== 'classification' && ds.task !== 'regression') {
      throw typeError(`${where}: dataset.task must be "classification" or "regression", got ${describe(ds.task)}`, 'task');
    }
    if (ds.task === 'classification' && !(Array.isArray(ds.classes) && ds.classes.every((c) => typeof c === 'string'))) {
      throw typeError(`${where}: dataset.classes must be the class names (an array of strings), got ${describe(ds.classes)}`, 'classes');
    }
    opts.task = ds.task;
    // One class is refused by the fit itself, as for y alone (ERR_DATA).
    if (ds.task === 'classification' && ds.classes.length >= 2) opts.classes = ds.classes.length;
    opts.groups = ds.groups;
    input = Object.fromEntries(INPUT_KEYS.map((k) => [k, ds[k]]));
  }
  if (opts.features && opts.kernel) throw ntkrfError('ERR_OPTION', `${where}: give features (primal) or kernel (dual), not both`, 'kernel');
  // The call's copies of X and y, made now: a fit waits for workers and
  // runs in stages, and every stage must see the rows it was called with.
  const { data, ...shape } = snapshotMatrix(where, 'X', X);
  X = shape; // rows and cols, read once
  const yd = snapshotVector(where, 'y', y);
  if (yd.length !== X.rows) throw ntkrfError('ERR_SHAPE', `${where}: X has ${X.rows} rows but y has ${yd.length} values`, 'y');
  const call = (op, args, arrays, ctl, extra = {}) => pool.call(op, args, arrays, ctl, { where, ...extra });
  const Xref = (rows) => ({ rows, cols: X.cols, array: 0 });
  const stage = (name) => control.onProgress && ((p) => control.onProgress({ ...p, stage: p.stage || name }));
  const first = pool.slots[0];
  // The 'auto' depth and preprocessing are settled first (Go's
  // pipeline.Select, as a native Fit does); the rest of the fit runs with
  // them fixed. Nothing is open when both are given.
  const ridge = { lambda: opts.lambda, criterion: opts.criterion, grid: opts.grid, task: opts.task, classes: opts.classes };
  let features = opts.features ?? {};
  let kernel = opts.kernel;
  let preprocess = opts.preprocess;
  let selection = null;
  const depthOpen = (o) => o.depth === undefined || o.depth === 'auto';
  if (preprocess === undefined || preprocess === 'auto' || depthOpen(kernel ?? features)) {
    const args = { ...ridge, X: Xref(X.rows), y: { array: 1 }, features: kernel ? undefined : features, kernel, preprocess, search: opts.search, groups: opts.groups };
    // The candidates (an eigendecomposition each) are independent: every
    // worker scores a share (part), and the first chooses from them all
    // (scored). Each worker then holds a copy of X, so only X of at most
    // SPLIT_SELECT_BYTES is split; larger X leaves the first worker alone.
    const k = pool.slots.length;
    if (k > 1 && data.length * 8 <= SPLIT_SELECT_BYTES) {
      // One count for the selection, reported once every share is known
      // (each worker's first report gives its share), so that it never
      // runs backwards.
      const done = new Array(k).fill(-1);
      const total = new Array(k).fill(-1);
      const sum = (a) => a.reduce((s, v) => s + v, 0);
      const report = control.onProgress && ((i) => (p) => {
        done[i] = p.done; total[i] = p.total;
        if (!total.includes(-1)) control.onProgress({ ...p, done: sum(done), total: sum(total), stage: 'select' });
      });
      const parts = await Promise.all(pool.slots.map((slot, i) => call('select', { ...args, part: { index: i, count: k } },
        [data.slice(), yd.slice()], { signal: control.signal, onProgress: report && report(i) }, { slot, transfer: true })));
      args.scored = parts.flatMap((p) => p.scored ?? []);
    }
    const chosen = await call('select', args,
      [data.slice(), yd.slice()], { signal: control.signal, onProgress: stage('select') }, { slot: first, transfer: true });
    ({ preprocess, selection } = chosen);
    // A kernel or method without a depth (rbf, rff, …) leaves it unset.
    const depth = chosen.depth === undefined ? {} : { depth: chosen.depth };
    if (kernel) kernel = { ...kernel, ...depth }; else features = { ...features, ...depth };
  }
  // The fit is Go's protocol (pipeline.Plan; the bridge's fit ops), which
  // this file only schedules. fitPlan settles everything (task, classes,
  // λ's criterion, the width, the held-out rows' rule) and cuts the rows
  // into chunks of at most CHUNK_BYTES of X: the chunks depend on the rows
  // and the plan, never on the number of workers. Then the statistics of
  // each chunk (fitStats), the part of each chunk through the scaler of
  // all of them (fitPart), and the parts merged and solved in one worker
  // (fitSolve); the wire forms are handed on in row order, so the same
  // rows give the same bits on any number of workers.
  const fit = { ...ridge, rows: X.rows, cols: X.cols, features: kernel ? undefined : features, kernel, preprocess, groups: opts.groups };
  const plan = await call('fitPlan', { ...fit, y: { array: 0 }, chunkBytes: CHUNK_BYTES }, [yd.slice()], { signal: control.signal }, { transfer: true });
  fit.task = plan.task;
  fit.classes = plan.classes;
  // A wire form goes to a worker as {wire: {array}, bytes}, its array
  // appended to the call's arrays (copied: every chunk's call needs them).
  const refs = (arrays, forms) => forms.map((w) => ({ wire: { array: arrays.push(w.wire) - 1 }, bytes: w.bytes }));
  const chunkX = (lo, hi, spare) => copyRange(data, lo * X.cols, hi * X.cols, spare.x);
  const stats = (await overRows(pool, plan.chunks, { signal: control.signal, onProgress: stage('preprocess') }, (lo, hi, ctl, spare) =>
    call('fitStats', { ...fit, X: Xref(hi - lo) }, [chunkX(lo, hi, spare)], ctl,
      { transfer: true, onInputs: ([x]) => { spare.x = x; } }))).map((r) => r.stats);
  const parts = (await overRows(pool, plan.chunks, control, (lo, hi, ctl, spare) => {
    const arrays = [];
    const statsRefs = refs(arrays, stats);
    const x = chunkX(lo, hi, spare);
    const yc = copyRange(yd, lo, hi, spare.y);
    arrays.push(x, yc);
    return call('fitPart', { ...fit, stats: statsRefs, X: { rows: hi - lo, cols: X.cols, array: arrays.length - 2 }, y: { array: arrays.length - 1 }, first: lo },
      arrays, ctl, { transfer: [x, yc], onInputs: (back) => { [spare.x, spare.y] = back.slice(-2); } });
  })).map((r) => r.part);
  const arrays = [];
  const solveArgs = { ...fit, stats: refs(arrays, stats), parts: refs(arrays, parts), input, selection };
  const model = await call('fitSolve', solveArgs, arrays, { signal: control.signal, onProgress: stage('solve') }, { transfer: true });
  return new Model(pool, model);
}
