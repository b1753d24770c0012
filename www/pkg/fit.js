// fitRidge schedules Go's fit protocol (core/pipeline Plan: plan →
// statistics → parts → merge → solve) over the workers: which worker runs
// which chunk, and the wire forms handed on in row order. Every decision
// (task, classes, criterion, held-out rows, chunks) is Go's.
import { ntkrfError, typeError, describe } from './errors.js';
import { NAMES, splitControl, snapshotMatrix, snapshotVector, snapshotNames } from './options.js';
import { Model } from './model.js';
import { overRows, copyRange, CHUNK_BYTES, SPLIT_SELECT_BYTES } from './rows.js';

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
    if (ds.task !== NAMES.Classification && ds.task !== NAMES.Regression) {
      throw typeError(`${where}: dataset.task must be "${NAMES.Classification}" or "${NAMES.Regression}", got ${describe(ds.task)}`, 'task');
    }
    if (ds.task === NAMES.Classification && !(Array.isArray(ds.classes) && ds.classes.every((c) => typeof c === 'string'))) {
      throw typeError(`${where}: dataset.classes must be the class names (an array of strings), got ${describe(ds.classes)}`, 'classes');
    }
    opts.task = ds.task;
    // One class is refused by the fit itself, as for y alone (ERR_DATA).
    if (ds.task === NAMES.Classification && ds.classes.length >= 2) opts.classes = ds.classes.length;
    opts.groups = ds.groups;
    input = Object.fromEntries(INPUT_KEYS.map((k) => [k, ds[k]]));
  }
  if (opts.features && opts.kernel) throw ntkrfError('ERR_OPTION', `${where}: give features (primal) or kernel (dual), not both`, 'kernel');
  // The call's copies of X and y, made now: a fit waits for workers and
  // runs in stages, and every stage must see the rows it was called with.
  const { data, ...shape } = snapshotMatrix(where, 'X', X);
  X = shape; // rows and cols, read once
  // Text labels (scikit-learn's classifiers take them): Go's rule for a
  // CSV file's class column (data.TextLabels) gives the class indices and
  // the classes' names, which the model keeps.
  const names = fromDataset ? null : snapshotNames(y);
  let classNames;
  if (names) {
    if (opts.task === NAMES.Regression) {
      throw ntkrfError('ERR_OPTION', `${where}: y holds text labels (such as ${describe(names[0])}), which are classes: leave task out or give "${NAMES.Classification}"`, 'task');
    }
    const r = await pool.call('labels', { labels: names }, [], { signal: control.signal }, { where });
    [y, classNames] = [r.y, r.classes];
    opts.task = NAMES.Classification;
    if (opts.classes !== undefined && opts.classes !== classNames.length) {
      throw ntkrfError('ERR_OPTION', `${where}: classes ${opts.classes}, but y holds ${classNames.length} distinct labels; leave classes out`, 'classes');
    }
    // One class is refused by the fit itself, about the data (ERR_DATA).
    if (classNames.length >= 2) opts.classes = classNames.length;
  }
  const yd = snapshotVector(where, 'y', y);
  if (yd.length !== X.rows) throw ntkrfError('ERR_SHAPE', `${where}: X has ${X.rows} rows but y has ${yd.length} values`, 'y');
  const call = (op, args, arrays, ctl, extra = {}) => pool.call(op, args, arrays, ctl, { where, ...extra });
  const Xref = (rows) => ({ rows, cols: X.cols, array: 0 });
  const stage = (name) => control.onProgress && ((p) => control.onProgress({ ...p, stage: p.stage || name }));
  // The fit is Go's protocol (pipeline.Plan; the bridge's fit ops), which
  // this file only schedules. fitPlan settles everything (task, classes,
  // λ's criterion, the width, the held-out rows' rule) and cuts the rows
  // into chunks of at most CHUNK_BYTES of X: the chunks depend on the rows
  // and the plan, never on the number of workers. Then the statistics of
  // each chunk (fitStats); when the depth or preprocessing is 'auto', the
  // plan names the rows its selection scores (search.rows): only those are
  // gathered and sent, with the statistics, to select, which settles them
  // (every worker scores a share of the candidates, the first chooses);
  // then the part of each chunk through the scaler of all the statistics
  // (fitPart), and the parts merged and solved in one worker (fitSolve).
  // The wire forms are handed on in row order, so the same rows give the
  // same bits on any number of workers.
  const ridge = { lambda: opts.lambda, criterion: opts.criterion, gram: opts.gram, grid: opts.grid, task: opts.task, classes: opts.classes };
  const fit = { ...ridge, rows: X.rows, cols: X.cols, features: opts.kernel ? undefined : opts.features, kernel: opts.kernel,
    preprocess: opts.preprocess, search: opts.search, groups: opts.groups, classNames };
  let plan = await call('fitPlan', { ...fit, y: { array: 0 }, chunkBytes: CHUNK_BYTES }, [yd.slice()], { signal: control.signal }, { transfer: true });
  fit.task = plan.task;
  fit.classes = plan.classes;
  // A wire form goes to a worker as {wire: {array}, bytes}, its array
  // appended to the call's arrays (copied: every chunk's call needs them).
  const refs = (arrays, forms) => forms.map((w) => ({ wire: { array: arrays.push(w.wire) - 1 }, bytes: w.bytes }));
  const chunkX = (lo, hi, spare) => copyRange(data, lo * X.cols, hi * X.cols, spare.x);
  const stats = (await overRows(pool, plan.chunks, { signal: control.signal, onProgress: stage('preprocess') }, (lo, hi, ctl, spare) =>
    call('fitStats', { ...fit, X: Xref(hi - lo), first: lo }, [chunkX(lo, hi, spare)], ctl,
      { transfer: true, onInputs: ([x]) => { spare.x = x; } }))).map((r) => r.stats);
  let selection = null;
  if (plan.search) {
    selection = await select(pool, call, control, fit, plan.search.rows, data, yd, stats, refs);
    // The settled plan cuts the parts' chunks (the statistics' chunks
    // were the open plan's).
    plan = await call('fitPlan', { ...fit, chunkBytes: CHUNK_BYTES }, [], { signal: control.signal });
  }
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
  // What Go advises about the fit's size (pipeline.Plan.Advice), kept
  // with the model (not in its file).
  return new Model(pool, model, plan.advice ?? []);
}

/**
 * Settles an open plan's 'auto' depth and preprocessing (Go's
 * pipeline.Plan.Select): gathers the rows the plan names, sends them with
 * every chunk's statistics to select (each worker scoring a share of the
 * candidates when the sample is at most SPLIT_SELECT_BYTES, the first
 * choosing), puts the settings select settled (pipeline.Settings) in
 * place of fit's, and returns the selection (saved with the model).
 */
async function select(pool, call, control, fit, rows, data, yd, stats, refs) {
  const cols = fit.cols;
  const xs = new Float64Array(rows.length * cols);
  const ys = new Float64Array(rows.length);
  rows.forEach((r, i) => {
    xs.set(data.subarray(r * cols, (r + 1) * cols), i * cols);
    ys[i] = yd[r];
  });
  // A scoring call's arrays: the statistics' wire forms, then the sample;
  // the choice (scored) needs neither.
  const args = (extra) => {
    const arrays = [];
    if ('scored' in extra) return [{ ...fit, ...extra }, arrays];
    const a = { ...fit, stats: refs(arrays, stats), ...extra };
    arrays.push(xs.slice(), ys.slice());
    return [{ ...a, X: { rows: rows.length, cols, array: arrays.length - 2 }, y: { array: arrays.length - 1 } }, arrays];
  };
  // Only the sample's copies move: the statistics' forms serve every call.
  const moved = (arrays) => arrays.slice(-2);
  const k = pool.slots.length;
  const first = pool.slots[0];
  const stage = control.onProgress && ((p) => control.onProgress({ ...p, stage: p.stage || 'select' }));
  let chosen;
  if (k > 1 && xs.length * 8 <= SPLIT_SELECT_BYTES) {
    // One count for the selection, reported once every share is known
    // (each worker's first report gives its share), so that it never runs
    // backwards.
    const done = new Array(k).fill(-1);
    const total = new Array(k).fill(-1);
    const sum = (a) => a.reduce((s, v) => s + v, 0);
    const report = control.onProgress && ((i) => (p) => {
      done[i] = p.done; total[i] = p.total;
      if (!total.includes(-1)) control.onProgress({ ...p, done: sum(done), total: sum(total), stage: 'select' });
    });
    const parts = await Promise.all(pool.slots.map((slot, i) => {
      const [a, arrays] = args({ part: { index: i, count: k } });
      return call('select', a, arrays, { signal: control.signal, onProgress: report && report(i) }, { slot, transfer: moved(arrays) });
    }));
    chosen = await call('select', ...args({ scored: parts.flatMap((p) => p.scored ?? []) }), { signal: control.signal }, { slot: first });
  } else {
    const [a, arrays] = args({});
    chosen = await call('select', a, arrays, { signal: control.signal, onProgress: stage }, { slot: first, transfer: moved(arrays) });
  }
  // The settled options whole (Go's pipeline.Settings: the features or
  // the kernel, with the depth chosen, and the preprocessing) in place of
  // the given ones: what a choice fixes is Go's to say. Whole: 'auto' may
  // have chosen the exact kernel for features given without a width (or
  // the reverse), so the given features and kernel go first.
  delete fit.features;
  delete fit.kernel;
  Object.assign(fit, chosen.settings);
  return chosen.selection;
}
