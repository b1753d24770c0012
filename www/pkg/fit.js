// The distributed ridge fit: the scaler fitted in one worker, then either
// one worker fitting everything (the dual, a kernel, or a small problem) or
// every worker accumulating ΦᵀΦ and Φᵀy over chunks of rows, merged and
// solved in one.
import { ntkrfError, typeError, describe } from './errors.js';
import { splitControl, snapshotMatrix, snapshotVector } from './options.js';
import { Model } from './model.js';
import { rowBlocks, overRows, chunkRows, copyRange } from './rows.js';

/**
 * The largest X, in bytes, whose 'auto' selection is split over the
 * workers: each worker scoring a share of the candidates holds a copy.
 */
const SPLIT_SELECT_BYTES = 64 << 20;

/** A Dataset (parseCSV's result) rather than a matrix: it has X and y, and no rows. */
const isDataset = (v) => v !== null && typeof v === 'object' && !ArrayBuffer.isView(v) && 'X' in v && 'y' in v && !('rows' in v);

/** The dataset schema a model keeps to read new rows (predictCSV), copied from a Dataset. */
const INPUT_KEYS = ['columns', 'target', 'targetName', 'groups', 'classes', 'task', 'delimiter', 'header'];

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
  // The task and class count, settled by Go's rule (krr Options.Labels, as
  // a native fit settles them): whole-number targets are never guessed.
  const settled = await call('labels', { task: opts.task, classes: opts.classes, y: { array: 0 } }, [yd.slice()],
    { signal: control.signal }, { transfer: true });
  const task = settled.task;
  const classes = task === 'classification' ? settled.classes : undefined;
  const ridge = { lambda: opts.lambda, criterion: opts.criterion, grid: opts.grid, task, classes };
  const Xref = (rows) => ({ rows, cols: X.cols, array: 0 });
  const stage = (name) => control.onProgress && ((p) => control.onProgress({ ...p, stage: p.stage || name }));
  const first = pool.slots[0];
  // The 'auto' depth and preprocessing are settled first, in one worker
  // (Go's pipeline.Select, as a native Fit does); the rest of the fit runs
  // with them fixed. Nothing is open when both are given.
  let features = opts.features ?? {};
  let kernel = opts.kernel;
  let preprocess = opts.preprocess;
  let selection = null;
  let scaler;
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
    ({ preprocess, selection, scaler } = chosen);
    // A kernel or method without a depth (rbf, rff, …) leaves it unset.
    const depth = chosen.depth === undefined ? {} : { depth: chosen.depth };
    if (kernel) kernel = { ...kernel, ...depth }; else features = { ...features, ...depth };
  }
  // Go plans a fit on features (jsbridge plan, krr): the feature
  // dimension, and whether the fit must run in one worker (the dual on ΦΦᵀ
  // when there are no more rows than features, or exact leave-one-out). A
  // fit of one chunk runs in one worker too. A chunk holds at most
  // CHUNK_BYTES of X but at least 4m² numbers, so that the partial sums
  // waiting for the solve (an m×m ΦᵀΦ per chunk) add up to at most a
  // quarter of X.
  //
  // The scaler needs every row in one worker: the first, see below. A
  // copy moved there peaks lower than posting X, which serializes it into
  // a buffer first. (select has fitted it already when it ran: one copy of
  // X, not two.) Plan and scaler run side by side: plan in the last worker
  // (building the feature map there, which its chunk then reuses), the
  // scaler in the first. Plan's errors come first, as they would in
  // sequence. Every stage reports: the search, the scaler, the features
  // (in rows, over the workers) and the solve with its λ search.
  const planned = kernel ? null : call('plan', { rows: X.rows, cols: X.cols, preprocess, features, criterion: opts.criterion, lambda: opts.lambda, task }, [], { signal: control.signal }, { slot: pool.slots.at(-1) });
  const scaled = scaler ? null : call('fitScaler', { X: Xref(X.rows), preprocess, groups: opts.groups }, [data.slice()],
    { signal: control.signal, onProgress: stage('preprocess') }, { slot: first, transfer: true });
  scaled?.catch(() => {}); // awaited below, unless plan fails first
  let oneWorker = true;
  let maxRows = Infinity;
  let plan = {};
  if (planned) {
    plan = await planned;
    maxRows = Math.max(chunkRows(X.cols), Math.ceil((4 * plan.dim * plan.dim) / X.cols));
    oneWorker = plan.oneWorker || rowBlocks(X.rows, pool.slots.length, maxRows).length === 1;
  }
  scaler ??= await scaled;
  let model;
  if (kernel) {
    // The last use of the call's copies: moved, not copied again.
    model = await call('fitKernel', { ...ridge, X: Xref(X.rows), y: { array: 1 }, scaler, kernel, input, selection }, [data, yd], control, { transfer: true });
  } else if (oneWorker) {
    model = await call('fitFeatures', { ...ridge, X: Xref(X.rows), y: { array: 1 }, scaler, features, input, selection }, [data, yd], control, { transfer: true });
  } else {
    // The bridge collects the copy of X that fitScaler left in the first
    // worker before returning, so the chunks reuse that memory.
    // The workers featurize chunks of rows and accumulate each chunk's
    // ΦᵀΦ and Φᵀy; one worker merges the parts in row order and solves.
    // The held-out rows of criterion holdout (classification; Go named
    // them in plan, ascending) are left out of the sums, their features
    // coming back (keep → phi): the solving worker scores λ on them and
    // then adds them, without featurizing or summing them a second time.
    const held = plan.holdout ?? [];
    const parts = await overRows(pool, rowBlocks(X.rows, pool.slots.length, maxRows), control, (lo, hi, ctl, spare) => {
      const keep = held.filter((r) => r >= lo && r < hi).map((r) => r - lo);
      return call('accumulate',
        { X: Xref(hi - lo), y: { array: 1 }, scaler, features, task, classes, ...(keep.length ? { keep } : {}) },
        [copyRange(data, lo * X.cols, hi * X.cols, spare.x), copyRange(yd, lo, hi, spare.y)], ctl,
        { transfer: true, onInputs: ([x, yb]) => { spare.x = x; spare.y = yb; } });
    });
    const arrays = [];
    const ref = (a) => { arrays.push(a); return { array: arrays.length - 1 }; };
    const partRefs = parts.map((p) => ({ rows: p.rows, mu: ref(p.mu), ybar: ref(p.ybar), C: ref(p.C), D: ref(p.D), E: ref(p.E) }));
    const dim = parts[0].mu.length;
    let holdout, holdoutPhi;
    if (held.length) {
      // Parts come back in row order, each with the phi of its held-out rows.
      const phi = new Float64Array(held.length * dim);
      let at = 0;
      for (const p of parts) if (p.phi) { phi.set(p.phi, at); at += p.phi.length; }
      holdout = { y: ref(Float64Array.from(held, (r) => yd[r])) };
      holdoutPhi = { rows: held.length, cols: dim, array: ref(phi).array };
    }
    model = await call('solve', { ...ridge, parts: partRefs, dim, features, scaler, input, holdout, holdoutPhi, selection },
      arrays, { signal: control.signal, onProgress: stage('solve') }, { transfer: true });
  }
  return new Model(pool, model);
}
