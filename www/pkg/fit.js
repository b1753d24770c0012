// fitRidge schedules Go's fit protocol (core/pipeline Plan: plan →
// statistics → parts → merge → solve) over the workers: which worker runs
// which chunk, and the wire forms (the plan's among them) handed on in row
// order. Every decision (task, classes, criterion, held-out rows, chunks,
// what the model keeps) is Go's.
import { ntkrfError, typeError } from './errors.js';
import { splitControl, snapshotMatrix, snapshotVector, snapshotNames } from './options.js';
import { Model } from './model.js';
import { overRows, overRowsBySlot, copyRange, SPLIT_SELECT_BYTES } from './rows.js';

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
 * a Dataset brings its task, class names and one-hot groups (Go's plan
 * takes them from its schema), and the model keeps its schema (input) to
 * read CSV rows later.
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
  // The call's copies of X and y, made now: a fit waits for workers and
  // runs in stages, and every stage must see the rows it was called with.
  const { data, ...shape } = snapshotMatrix(where, 'X', X);
  X = shape; // rows and cols, read once
  // Text labels (scikit-learn's classifiers take them): Go's rule for a
  // CSV file's class column (data.TextLabels) gives the class indices and
  // the classes' names, which the plan settles the task and classes from.
  const names = fromDataset ? null : snapshotNames(y);
  let classNames;
  if (names) ({ y, classes: classNames } = await pool.call('labels', { labels: names }, [], { signal: control.signal }, { where }));
  const yd = snapshotVector(where, 'y', y);
  if (yd.length !== X.rows) throw ntkrfError('ERR_SHAPE', `${where}: X has ${X.rows} rows but y has ${yd.length} values`, 'y');
  const call = (op, args, arrays, ctl, extra = {}) => pool.call(op, args, arrays, ctl, { where, ...extra });
  const stage = (name) => control.onProgress && ((p) => control.onProgress({ ...p, stage: p.stage || name }));
  // The fit is Go's protocol (protocol.Plan; the bridge's fit ops), which
  // this file only schedules. fitPlan settles everything (task, classes,
  // λ's criterion, the width, the held-out rows' rule, what the model
  // keeps) and returns the plan as bytes, which every later call gets, and
  // the chunks its rows are cut in: they depend on the rows and the plan,
  // never on the number of workers. Then the statistics of each chunk
  // (fitStats); when the plan leaves the depth or preprocessing open, it
  // names the rows its selection scores (search.rows): only those are
  // gathered and sent, with the statistics, to select, which returns the
  // settled plan (every worker scores a share of the candidates, the
  // first chooses); then the part of each chunk through the scaler of all
  // the statistics (fitPart), and the parts merged and solved in one
  // worker (fitSolve). The wire forms are handed on in row order, so the
  // same rows give the same bits on any number of workers.
  const input = ds && Object.fromEntries(INPUT_KEYS.map((k) => [k, ds[k]]));
  let plan = await call('fitPlan', { ...opts, rows: X.rows, cols: X.cols, input, classNames, y: { array: 0 } }, [yd.slice()],
    { signal: control.signal }, { transfer: true });
  const { advice } = plan;
  // A wire form goes to a worker as {wire: {array}, bytes}, its array
  // appended to the call's arrays (copied: every chunk's call needs them).
  const refs = (arrays, forms) => forms.map((w) => ({ wire: { array: arrays.push(w.wire) - 1 }, bytes: w.bytes }));
  const planRef = (arrays) => refs(arrays, [plan.plan])[0];
  const chunkX = (lo, hi, spare) => copyRange(data, lo * X.cols, hi * X.cols, spare.x);
  const stats = (await overRows(pool, plan.chunks, { signal: control.signal, onProgress: stage('preprocess') }, (lo, hi, ctl, spare) => {
    const arrays = [chunkX(lo, hi, spare)];
    return call('fitStats', { plan: planRef(arrays), X: { rows: hi - lo, cols: X.cols, array: 0 }, first: lo }, arrays, ctl,
      { transfer: arrays.slice(0, 1), onInputs: ([x]) => { spare.x = x; } });
  })).map((r) => r.stats);
  if (plan.search) plan = await select(pool, call, control, plan, X.cols, data, yd, stats, refs);
  // A chunk's part: kept in its worker (keep), or its wire form.
  const partCall = (lo, hi, ctl, spare, args, extra) => {
    const arrays = [];
    const head = { plan: planRef(arrays), stats: refs(arrays, stats) };
    const x = chunkX(lo, hi, spare);
    const yc = copyRange(yd, lo, hi, spare.y);
    arrays.push(x, yc);
    return call('fitPart', { ...head, X: { rows: hi - lo, cols: X.cols, array: arrays.length - 2 }, y: { array: arrays.length - 1 }, first: lo, ...args },
      arrays, ctl, { transfer: [x, yc], onInputs: (back) => { [spare.x, spare.y] = back.slice(-2); }, ...extra });
  };
  const solve = (parts, args, extra, signal = control.signal) => {
    const arrays = [];
    const solveArgs = { plan: planRef(arrays), stats: refs(arrays, stats), parts: refs(arrays, parts), ...args };
    return call('fitSolve', solveArgs, arrays, { signal, onProgress: stage('solve') }, { transfer: true, ...extra });
  };
  // A plan whose solve shares work (Go's plan.shares: the factorization
  // of an exact kernel on many rows or of wide features, the held-out
  // rows' sums beside a λ search) gets a second worker that is idle now as
  // its helper (fitHelp), the two calls linked by a MessageChannel, with
  // the bits of one worker. Only
  // when both workers are free at once (both calls start now, so a helper
  // never holds a worker waiting for a solver queued behind other calls);
  // else the solve runs alone.
  const solveOn = async (parts, args, slot) => {
    const free = (s) => s.worker && s.started && !pool.busy.has(s);
    const helper = plan.shares && free(slot) && pool.slots.find((s) => s !== slot && free(s));
    if (!helper) return solve(parts, args, { slot });
    const { port1, port2 } = new MessageChannel();
    const both = new AbortController();
    const stop = () => both.abort(control.signal?.reason);
    control.signal?.addEventListener('abort', stop, { once: true });
    try {
      const help = call('fitHelp', {}, [], { signal: both.signal }, { slot: helper, port: port2 });
      const solving = solve(parts, args, { slot, port: port1 }, both.signal);
      // A helper that fails (its instance died) would leave the solve
      // waiting for its messages: the solve is stopped, and the helper's
      // error is the fit's. A solve that fails ends the helper (Go's
      // fitSolve tells it), unless its instance died.
      const helped = help.then(() => null, (e) => { both.abort(); return e; });
      let model;
      try {
        model = await solving;
      } catch (e) {
        if (e?.code === 'ERR_INSTANCE' || e?.code === 'ERR_INTERNAL') both.abort();
        const failed = await helped;
        throw control.signal?.aborted || !failed || e?.name !== 'AbortError' ? e : failed;
      }
      const failed = await helped;
      if (failed) throw failed;
      return model;
    } finally {
      control.signal?.removeEventListener('abort', stop);
    }
  };
  // Each worker keeps the parts it makes, merged into one per fit (the
  // bridge's keep: a part is tens of MB of sums), and takes neighbouring
  // chunks (overRowsBySlot), so that its parts merge into few sums. The
  // last worker to finish solves, starting from its own part; the others
  // send theirs (fitShip) as soon as they have no chunk left, while it
  // still works. The bits are those of the parts merged in row order:
  // sums merge in any order into the same bits.
  const keep = pool.nextFit++;
  const holders = new Map(); // slot → its worker when it kept part of the fit
  let done = false;
  let open = true; // false once the fit failed: parts kept later are dropped at once
  const drop = (slot) => pool.call('fitDrop', { keep }, [], {}, { slot, where }).catch(() => {});
  // Every worker forgets what it keeps of the fit, after the calls it
  // runs; parts kept later are dropped as they are made.
  const dropAll = () => {
    open = false;
    for (const slot of holders.keys()) drop(slot);
    holders.clear();
  };
  // A worker restarts when a call on it is cancelled or crashes, and its
  // kept part is then lost: another call of the page's on the worker
  // between this fit's steps. Go says so (ERR_PROTOCOL on keep), and so
  // does a worker seen to have restarted before its part is asked for.
  const lost = (e) => e?.code === 'ERR_PROTOCOL' && e?.option === 'keep';
  const lostError = () => ntkrfError('ERR_PROTOCOL', `${where}: a worker that kept part of the fit restarted before the fit could solve; the parts are made again`, 'keep');
  const restarted = (slot) => slot.worker !== holders.get(slot);
  const ship = (slot) => {
    if (restarted(slot)) return Promise.reject(lostError());
    return call('fitShip', { keep }, [], { signal: control.signal }, { slot }).then((r) => r.part);
  };
  const kept = async () => {
    const shipping = new Map(); // slot → its part, sent
    let solver = null;
    await overRowsBySlot(pool, plan.chunks, control, (lo, hi, ctl, spare, i, slot) => {
      const onSlot = (s) => { if (!holders.has(s)) holders.set(s, s.worker); };
      return partCall(lo, hi, ctl, spare, { keep }, { slot, onSlot }).then(() => { if (!open) drop(slot); });
    }, (slot, last) => {
      if (!holders.has(slot)) return;
      if (last) {
        solver = slot;
        return;
      }
      const part = ship(slot);
      part.catch(() => {}); // awaited below; a fit that failed first does not leave it unhandled
      shipping.set(slot, part);
    });
    solver ??= holders.keys().next().value;
    if (restarted(solver)) throw lostError();
    const parts = await Promise.all(pool.slots.filter((s) => shipping.has(s)).map((s) => shipping.get(s)));
    return solveOn(parts, { keep }, solver);
  };
  // Every part as its wire form, solved on any worker: where a kept part
  // was lost (the rows of every chunk again, rarely).
  const sent = async () => {
    const parts = (await overRows(pool, plan.chunks, control, (lo, hi, ctl, spare) => partCall(lo, hi, ctl, spare, {}, {}))).map((r) => r.part);
    return solve(parts, {}, {});
  };
  let model;
  try {
    try {
      model = await kept();
    } catch (e) {
      if (!lost(e) || control.signal?.aborted) throw e;
      dropAll();
      model = await sent();
    }
    done = true; // fitSolve took the solver's part
  } finally {
    // A fit that failed or was cancelled (a cancelled call's worker was
    // restarted, and keeps nothing).
    if (!done) dropAll();
  }
  // What Go advises about the fit's size (protocol.Plan.Advice), kept
  // with the model (not in its file).
  return new Model(pool, model, advice ?? []);
}

/**
 * Settles an open plan's 'auto' settings (Go's protocol.Plan.Select):
 * gathers the rows the plan names, sends them with every chunk's
 * statistics to select (each worker scoring a share of the candidates
 * when the sample is at most SPLIT_SELECT_BYTES, the first choosing), and
 * returns the settled plan (its bytes and chunks), which holds the
 * selection the model keeps.
 */
async function select(pool, call, control, plan, cols, data, yd, stats, refs) {
  const rows = plan.search.rows;
  const xs = new Float64Array(rows.length * cols);
  const ys = new Float64Array(rows.length);
  rows.forEach((r, i) => {
    xs.set(data.subarray(r * cols, (r + 1) * cols), i * cols);
    ys[i] = yd[r];
  });
  // A scoring call's arrays: the plan's and statistics' wire forms, then
  // the sample; the choice (scored) needs no statistics nor sample.
  const args = (extra) => {
    const arrays = [];
    const a = { plan: refs(arrays, [plan.plan])[0], ...extra };
    if ('scored' in extra) return [a, arrays];
    a.stats = refs(arrays, stats);
    arrays.push(xs.slice(), ys.slice());
    return [{ ...a, X: { rows: rows.length, cols, array: arrays.length - 2 }, y: { array: arrays.length - 1 } }, arrays];
  };
  // Only the sample's copies move: the other forms serve every call.
  const moved = (arrays) => arrays.slice(-2);
  const k = pool.slots.length;
  const first = pool.slots[0];
  const stage = control.onProgress && ((p) => control.onProgress({ ...p, stage: p.stage || 'select' }));
  if (!(k > 1 && xs.length * 8 <= SPLIT_SELECT_BYTES)) {
    const [a, arrays] = args({});
    return call('select', a, arrays, { signal: control.signal, onProgress: stage }, { slot: first, transfer: moved(arrays) });
  }
  // One count for the selection, reported once every share is known
  // (each worker's first report gives its share), so that it never runs
  // backwards. A selection that screens runs in two rounds, each worker
  // scoring a share of the screen, then a share of the candidates it
  // keeps (Go's Plan.ScoreScreen and ScoreKept), so that no worker scores
  // the whole screen; the count covers both (the plan says how many the
  // screen keeps).
  const { screen, kept, candidates } = plan.search;
  const all = screen > 0 ? candidates + kept : 0;
  const sum = (a) => a.reduce((s, v) => s + Math.max(v, 0), 0);
  const score = async (extra, before) => {
    const done = new Array(k).fill(-1);
    const total = new Array(k).fill(-1);
    const report = control.onProgress && ((i) => (p) => {
      done[i] = p.done; total[i] = p.total;
      if (all || !total.includes(-1)) control.onProgress({ ...p, done: before + sum(done), total: all || sum(total), stage: 'select' });
    });
    // A share goes to the first free worker, not to worker i: a worker
    // still starting (the others start with the first call answered)
    // leaves its share to one that is free first, instead of the
    // selection waiting for it. The shares' scores are joined in share
    // order, whichever worker scored them.
    const out = await Promise.all(pool.slots.map((_, i) => {
      const [a, arrays] = args({ part: { index: i, count: k }, ...extra });
      return call('select', a, arrays, { signal: control.signal, onProgress: report && report(i) }, { transfer: moved(arrays) });
    }));
    return out.flatMap((p) => p.scored ?? []);
  };
  const scored = screen > 0 ? await score({ screened: await score({ screen: true }, 0) }, candidates) : await score({}, 0);
  const [a, arrays] = args({ scored });
  return call('select', a, arrays, { signal: control.signal }, { slot: first });
}
