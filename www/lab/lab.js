// The lab page: the only module that wires DOM events. Work runs in the
// engine's WebAssembly workers; this module keeps the page state, starts and
// cancels runs, and draws their results.
import { createEngine } from './ntkrf/index.js';
import { DATASETS, readHash, writeHash } from './state.js';
import { BUNDLED, fetchBundled, readFile, formatBytes, sampleRows, takeRows, takeValues, prepare, renderPreview, toCSV } from './data.js';
import { drawHeatmap, clearHeatmap, drawLegend, SEQUENTIAL, DIVERGING, short } from './heatmap.js';
import { lineChart, scatterChart, confusionChart, clearChart } from './charts.js';

const $ = (id) => document.getElementById(id);

/** Rows in the kernel pictures (an n×n exact kernel is cheap at this size). */
const SAMPLE = 200;
/** Largest training set offered exact kernel ridge regression. */
const EXACT_MAX = 2000;
/** Feature counts of the error-vs-m sweep. */
const SWEEP_DIMS = [64, 128, 256, 512, 1024, 2048, 4096];
/** Methods of the sweep, each against its own exact kernel. */
const SWEEP_METHODS = ['ntk', 'naive', 'arccos1', 'rff'];
/** Largest features export (text is ~20 bytes a number). */
const MAX_EXPORT_VALUES = 10_000_000;

const METHOD = {
  ntk: { name: 'NTK RF', help: 'Arc-cosine features joined layer by layer with TensorSketch; approximates the NTK of depth L.' },
  nngp: { name: 'NNGP RF', help: 'The ReLU part of the same construction; approximates the NNGP kernel (last layer only trained).' },
  arccos1: { name: 'arc-cos', help: 'One layer of ReLU features; approximates the one-layer NNGP (arc-cosine) kernel. Ignores L.' },
  naive: { name: 'naive', help: 'Explicit tensor products without sketching; the same kernel as NTK RF, fewer effective features.' },
  grad: { name: 'grad', help: 'Gradient of one random finite-width ReLU network; approximates the NTK of depth L.' },
  rff: { name: 'RFF', help: 'Random Fourier features of the RBF kernel exp(−γ‖x−z‖²), γ = 1/columns. Ignores L.' },
};

let engine = null;
let state;
/** The loaded data set: name, bytes, parsed dataset, sample for the pictures. */
let current = null;
/** The last pictures (for redrawing the difference and for export). */
let pictures = null;
/** Comparison rows for export. */
let comparisons = [];
/** The last training run, for export. */
let lastRun = null;
/** Measured throughput of training (work units per second), refined after each run. */
let speed = 1e9;

// ---------------------------------------------------------------- messages

function say(text) {
  $('status').textContent = text;
}

function showError(text) {
  $('alert-text').textContent = text;
  $('alert').hidden = false;
}

function hideError() {
  $('alert').hidden = true;
}

function seconds(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}
const has = (op) => typeof engine?.[op] === 'function';

// ---------------------------------------------------------------- runs

/** Runs in progress: {label, lane, controller, fraction, stage}. */
const jobs = new Set();

function renderJobs() {
  const list = [...jobs];
  // The bar follows the newest job the user started; automatic picture updates come last.
  const job = list.findLast((j) => j.lane !== 'pictures') ?? list[list.length - 1];
  $('cancel').disabled = !job;
  $('progress').value = job ? job.fraction : 0;
  $('stage').textContent = job ? `${job.label}${job.stage ? ` · ${job.stage}` : ''} ${Math.round(job.fraction * 100)}%` : 'idle';
  for (const lane of ['train', 'sweep']) {
    const busy = list.some((j) => j.lane === lane);
    $(lane === 'train' ? 'train' : 'run-sweep').disabled = busy || !current;
  }
  document.body.classList.toggle('busy', list.length > 0);
}

/**
 * Runs fn(ctl) as a cancellable job. A new job in the same lane replaces the
 * old one. ctl(i, n) gives the {signal, onProgress} of step i of n, so the
 * progress bar covers the whole job. Returns fn's result, or undefined
 * after a cancel or an error (which is shown).
 */
async function run(label, lane, fn) {
  for (const j of jobs) if (j.lane === lane) j.controller.abort();
  const job = { label, lane, controller: new AbortController(), fraction: 0, stage: '' };
  jobs.add(job);
  renderJobs();
  const signal = job.controller.signal;
  const ctl = (i, n) => ({
    signal,
    onProgress: (p) => {
      job.fraction = (i + (p.total > 0 ? p.done / p.total : 0)) / n;
      job.stage = p.stage;
      renderJobs();
    },
  });
  try {
    return await fn(ctl, signal);
  } catch (e) {
    // Aborts come from Cancel (which says so) or from a newer job in the lane.
    if (e?.name !== 'AbortError') showError(`${label} failed: ${e?.message ?? e}`);
    return undefined;
  } finally {
    jobs.delete(job);
    renderJobs();
  }
}

/** Throws an AbortError when signal is aborted (between engine calls). */
function check(signal) {
  if (signal.aborted) throw new DOMException('cancelled', 'AbortError');
}

// ---------------------------------------------------------------- settings

const dim = () => 2 ** state.logm;

function featureOptions(method = state.method, m = dim()) {
  const o = { method, dim: m, seed: state.seed };
  if (!['arccos1', 'rff'].includes(method)) o.depth = state.depth;
  if (method === 'ntk') o.sketch = state.sketch;
  if (['ntk', 'nngp', 'arccos1', 'naive'].includes(method)) o.sampler = state.sampler;
  return o;
}

/** The exact kernel a method's features approximate. */
function targetKernel(method = state.method) {
  switch (method) {
    case 'nngp': return { kernel: 'nngp', depth: state.depth };
    case 'arccos1': return { kernel: 'nngp', depth: 1 };
    case 'rff': return { kernel: 'rbf' };
    default: return { kernel: 'ntk', depth: state.depth };
  }
}

function kernelName(spec) {
  return spec.kernel === 'rbf' ? 'RBF kernel' : `${spec.kernel.toUpperCase()}, L = ${spec.depth}`;
}

function save() {
  writeHash(state);
}

/** Puts the state into the controls. */
function showSettings() {
  $('standardize').checked = state.std;
  $('unitnorm').checked = state.unit;
  $('depth').value = state.depth;
  $('dim').value = state.logm;
  $('method').value = state.method;
  $('sketch').value = state.sketch;
  $('sampler').value = state.sampler;
  $('seed').value = state.seed;
  $('eval').value = state.eval;
  $('testfrac').value = state.test;
  $('kfolds').value = state.k;
  $('exact').checked = state.exact;
  $('magnify').checked = state.magnify;
  showDerived();
}

/** Labels that follow from the settings: slider values, cost, which controls apply. */
function showDerived() {
  $('depth-out').textContent = `= ${state.depth}`;
  $('dim-out').textContent = `= ${dim()}`;
  $('testfrac-out').textContent = `= ${state.test}%`;
  $('method-help').textContent = METHOD[state.method].help;
  const depthUsed = !['arccos1', 'rff'].includes(state.method);
  $('depth').closest('.row').classList.toggle('unused', !depthUsed);
  $('sketch').disabled = state.method !== 'ntk';
  $('sampler').disabled = !['ntk', 'nngp', 'arccos1', 'naive'].includes(state.method);
  $('row-test').hidden = state.eval !== 'split';
  $('row-k').hidden = state.eval !== 'kfold';
  showCost();
}

/** Memory of Φ and a rough training time, before running. */
function showCost() {
  if (!current) return;
  const n = current.ds.X.rows, d = current.ds.X.cols, m = dim();
  const bytes = n * m * 8;
  const trainRows = state.eval === 'split' ? Math.round(n * (1 - state.test / 100)) : Math.round((n * (state.k - 1)) / state.k);
  const work = (state.eval === 'split' ? 1 : state.k) * trainWork(trainRows, d, m);
  const workers = engine?.workers ?? 1;
  const ms = (1000 * work) / (speed * workers);
  $('cost').textContent = `Φ for all ${n} rows: ${n} × ${m} × 8 bytes = ${formatBytes(bytes)}; training ≈ ${seconds(ms)} (rough)${ms > 30_000 ? ': a smaller m is much faster' : ''}.`;
  $('cost').classList.toggle('warn', ms > 30_000);
  const exactOK = trainRows <= EXACT_MAX;
  $('exact').disabled = !exactOK;
  $('exact').closest('.check').classList.toggle('unused', !exactOK);
}

/**
 * Work units of one fit: the first layer (n·m·d), each further layer's
 * projection of m/2 inputs to m outputs (n·m²/2), the Gram ΦᵀΦ (n·m²) and
 * the eigendecomposition behind the automatic λ (about 9·m³).
 */
function trainWork(n, d, m) {
  const layers = ['arccos1', 'rff'].includes(state.method) ? 0 : state.depth - 1;
  return n * m * d + (layers * n * m * m) / 2 + n * m * m + 9 * m ** 3;
}

// ---------------------------------------------------------------- data

function datasetOptions(fileName) {
  const sel = $('dataset');
  sel.replaceChildren();
  for (const id of DATASETS) {
    const o = new Option(BUNDLED[id].title, id);
    sel.append(o);
  }
  if (fileName) {
    const o = new Option(`your file: ${fileName}`, 'file');
    sel.append(o);
  }
  sel.value = fileName ? 'file' : state.data;
}

/**
 * Loads bytes as the current data set. On any error the previous data set
 * stays loaded and the message names the file.
 */
async function load(name, bytes, { bundled, target = '' }) {
  say(`Reading ${name}…`);
  let preview, ds;
  try {
    preview = await engine.previewCSV(bytes, { rows: 6 });
    const opts = {};
    if (target && preview.names.includes(target)) opts.target = target;
    ds = await engine.parseCSV(bytes, opts);
    if (ds.X.rows < 2) throw new Error(`it has ${ds.X.rows} usable row; at least 2 are needed`);
  } catch (e) {
    const keep = current ? ` ${current.name} is still loaded.` : '';
    showError(`Could not load ${name}: ${String(e?.message ?? e).replace(/\.$/, '')}.${keep}`);
    say(`${name} was not loaded.`);
    if (current) datasetOptions(current.bundled ? null : current.name);
    return false;
  }
  hideError();
  // Runs on the previous data would report on the wrong one.
  for (const j of jobs) j.controller.abort();
  current = { name, bytes, bundled, preview, ds };
  current.sample = sampleRows(ds.y, SAMPLE);
  state.data = bundled ?? 'file';
  state.target = ds.targetName === preview.names[preview.names.length - 1] ? '' : ds.targetName;
  save();
  datasetOptions(bundled ? null : name);
  showData();
  clearResults();
  say(`Loaded ${name}: ${ds.X.rows} rows, ${ds.task}.`);
  refreshPictures();
  return true;
}

async function loadBundled(id, target = '') {
  try {
    const bytes = await fetchBundled(id);
    return await load(BUNDLED[id].file, bytes, { bundled: id, target });
  } catch (e) {
    showError(`Could not load ${BUNDLED[id].file}: ${e.message}`);
    return false;
  }
}

async function loadFile(file) {
  if (!file) return;
  try {
    await load(file.name, await readFile(file), { bundled: null });
  } catch (e) {
    showError(`Could not read ${file.name}: ${e.message}${current ? ` ${current.name} is still loaded.` : ''}`);
  }
}

/** Facts about the data set and what preprocessing will do. */
function showData() {
  const { ds, preview, name } = current;
  $('source').textContent = `Loaded: ${name}`;
  const sel = $('target');
  sel.replaceChildren(...ds.columns.map((c, i) => new Option(c.name, String(i))));
  sel.value = String(ds.target);
  renderPreview($('preview'), preview);
  const categorical = ds.columns.filter((c, i) => i !== ds.target && c.kind === 'categorical').length;
  const facts = [
    ['task', ds.task === 'classification' ? `classification, ${ds.classes.length} classes` : 'regression'],
    ['rows', `${ds.X.rows}${ds.droppedRows ? ` (${ds.droppedRows} dropped: no target)` : ''}`],
    ['features', `${ds.X.cols}${categorical ? ` (${categorical} categorical columns one-hot)` : ''}`],
    ['missing', ds.missingCells ? `${ds.missingCells} cells` : 'none'],
  ];
  if (ds.task === 'classification') facts.push(['classes', ds.classes.join(', ')]);
  const dl = $('facts');
  dl.replaceChildren();
  for (const [k, v] of facts) {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    dl.append(dt, dd);
  }
  showPrep();
  showCost();
}

function showPrep() {
  if (!current) return;
  const { ds } = current;
  const steps = [];
  if (ds.missingCells) steps.push(`fill ${ds.missingCells} missing cells with training means (or most frequent category)`);
  steps.push(state.std ? 'centre and scale each column' : 'keep columns as they are');
  if (state.unit) steps.push('scale rows to unit length');
  $('prep-note').textContent = `Before learning: ${steps.join(', then ')}.`;
}

function clearResults() {
  pictures = null;
  comparisons = [];
  lastRun = null;
  for (const id of ['map-exact', 'map-approx', 'map-diff']) clearHeatmap($(id));
  for (const id of ['sweep-chart', 'cond-chart', 'time-chart', 'train-chart', 'lambda-chart']) clearChart($(id));
  $('compare-numbers').textContent = '';
  $('hover').textContent = 'Point at a heatmap to read its entries.';
  $('sweep-key').replaceChildren();
  $('train-result').replaceChildren();
  $('export-compare').disabled = true;
  $('export-pred').disabled = true;
}

// ---------------------------------------------------------------- pictures

/** The sample rows, preprocessed as fitRidge would. */
function sampleMatrix() {
  const X = prepare(current.ds.X, { standardize: state.std, unitNorm: state.unit });
  return takeRows(X, current.sample);
}

/** Compares method's features with the exact kernel it approximates, on X. */
function compareOn(X, method, m, control, matrices) {
  return engine.compare(X, { features: featureOptions(method, m), kernel: targetKernel(method), matrices, ...control });
}

let picturesTimer = 0;
/** Recomputes the heatmaps soon (settings moving fast replace each other). */
function refreshPicturesSoon() {
  clearTimeout(picturesTimer);
  picturesTimer = setTimeout(refreshPictures, 150);
}

async function refreshPictures() {
  if (!current) return;
  const X = sampleMatrix();
  const method = state.method, m = dim();
  const spec = targetKernel(method);
  $('sample-note').textContent = `${X.rows} of ${current.ds.X.rows} rows, sorted by target; exact kernel: ${kernelName(spec)}.`;
  $('cap-exact').textContent = `exact kernel K (${kernelName(spec)})`;
  await run('kernel pictures', 'pictures', async (ctl) => {
    // A new exact kernel is drawn first, as immediate feedback; when only
    // the features change, the old pictures stay until the new ones are in.
    const key = JSON.stringify([current.name, current.ds.targetName, state.std, state.unit, spec]);
    if (pictures?.key !== key) {
      pictures = { key, K: await engine.kernel(X, null, { ...spec, ...ctl(0, 2) }), approx: null };
      drawPictures();
    }
    const c = await compareOn(X, method, m, ctl(1, 2), true);
    pictures = { key, K: c.K, approx: c.approx };
    comparisons = comparisons.filter((r) => r.kind !== 'current');
    comparisons.push(comparisonRow('current', method, m, c));
    $('export-compare').disabled = false;
    drawPictures();
    const spectral = Number.isFinite(c.spectral) ? `, spectral condition number ${short(c.spectral)} (1 is perfect)` : '';
    $('compare-numbers').dataset.rel = String(c.relFrobenius);
    $('compare-numbers').textContent =
      `${METHOD[method].name}, m = ${m}: relative error ‖ΦΦᵀ − K‖/‖K‖ = ${short(c.relFrobenius)}${spectral}. ` +
      `Time: exact kernel ${seconds(c.seconds.exact * 1000)}, features ${seconds(c.seconds.features * 1000)}.`;
  });
}

function comparisonRow(kind, method, m, c) {
  return { kind, method, m, relFrobenius: c.relFrobenius, spectral: c.spectral, mse: c.mse, lambda: c.lambda, exactSeconds: c.seconds.exact, featureSeconds: c.seconds.features };
}

/** The q-quantile of values (sorted copy; n ≤ SAMPLE², cheap). */
function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function drawPictures() {
  if (!pictures) return;
  const { K, approx } = pictures;
  // A few large entries (long rows, the diagonal) would leave the rest of
  // the picture in one colour: the scale spans the 1st to 99th percentile
  // of both matrices and the legend says that values beyond are clipped.
  const all = new Float64Array(approx ? 2 * K.data.length : K.data.length);
  all.set(K.data);
  if (approx) all.set(approx.data, K.data.length);
  all.sort();
  const lo = quantile(all, 0.01), hi = quantile(all, 0.99);
  drawHeatmap($('map-exact'), K, SEQUENTIAL, lo, hi);
  drawLegend($('legend-seq'), $('ticks-seq'), SEQUENTIAL, lo, hi);
  $('note-seq').textContent = 'K and ΦΦᵀ: 1st to 99th percentile, beyond clipped';
  if (!approx) {
    clearHeatmap($('map-approx'));
    clearHeatmap($('map-diff'));
    return;
  }
  drawHeatmap($('map-approx'), approx, SEQUENTIAL, lo, hi);
  const diff = { rows: K.rows, cols: K.cols, data: approx.data.map((v, i) => v - K.data[i]) };
  let s = 0;
  if (state.magnify) for (const v of diff.data) s = Math.max(s, Math.abs(v));
  else s = Math.max(Math.abs(lo), Math.abs(hi));
  drawHeatmap($('map-diff'), diff, DIVERGING, -s, s);
  drawLegend($('legend-div'), $('ticks-div'), DIVERGING, -s, s);
  $('note-div').textContent = state.magnify ? 'difference: ± its largest value' : 'difference: ± the kernel scale';
}

/** Shows the entries under the pointer: rows i and j of the sample, K, ΦΦᵀ and their difference. */
function showEntry(e) {
  if (!pictures) return;
  const { K, approx } = pictures;
  const box = e.currentTarget.getBoundingClientRect();
  const j = Math.floor(((e.clientX - box.left) / box.width) * K.cols);
  const i = Math.floor(((e.clientY - box.top) / box.height) * K.rows);
  if (i < 0 || j < 0 || i >= K.rows || j >= K.cols) return;
  const k = K.data[i * K.cols + j];
  const rows = `rows ${current.sample[i] + 1} and ${current.sample[j] + 1}`;
  $('hover').textContent = approx
    ? `${rows}: K = ${short(k)}, ΦΦᵀ = ${short(approx.data[i * K.cols + j])}, difference ${short(approx.data[i * K.cols + j] - k)}`
    : `${rows}: K = ${short(k)}`;
}

// ---------------------------------------------------------------- error vs m

async function sweep() {
  if (!current) return;
  const X = sampleMatrix();
  const steps = SWEEP_METHODS.length * SWEEP_DIMS.length;
  const t0 = performance.now();
  const rows = await run('error vs m', 'sweep', async (ctl, signal) => {
    const out = [];
    let i = 0;
    for (const method of SWEEP_METHODS) {
      for (const m of SWEEP_DIMS) {
        check(signal);
        const c = await compareOn(X, method, m, ctl(i++, steps), false);
        out.push(comparisonRow('sweep', method, m, c));
        drawSweep(out);
      }
    }
    return out;
  });
  if (!rows) return;
  comparisons = comparisons.filter((r) => r.kind !== 'sweep').concat(rows);
  $('export-compare').disabled = false;
  say(`Error vs m: ${rows.length} comparisons on ${X.rows} rows in ${seconds(performance.now() - t0)}.`);
}

function drawSweep(rows) {
  const series = (key) => SWEEP_METHODS.map((method) => ({
    name: METHOD[method].name,
    points: rows.filter((r) => r.method === method).map((r) => [r.m, r[key]]),
  }));
  const x = { label: 'features m', log: true, ticks: [64, 256, 1024, 4096] };
  const size = [280, 210];
  const key = (names) => names.map((name, i) => {
    const item = document.createElement('span');
    const swatch = document.createElement('span');
    swatch.className = `swatch s${i}`;
    item.append(swatch, name);
    return item;
  });
  $('sweep-key').replaceChildren(...key([...SWEEP_METHODS.map((mth) => METHOD[mth].name), 'exact kernel (time only)']));
  lineChart($('sweep-chart'), { series: series('relFrobenius'), x, y: { label: 'relative error', log: true }, size, key: false });
  if (rows.some((r) => Number.isFinite(r.spectral))) {
    lineChart($('cond-chart'), { series: series('spectral'), x, y: { label: 'condition number', log: true }, size, key: false });
  }
  const exact = rows.filter((r) => r.method === 'ntk');
  lineChart($('time-chart'), {
    series: [...series('featureSeconds'), { name: 'exact kernel', points: exact.map((r) => [r.m, r.exactSeconds]) }],
    x,
    y: { label: 'seconds', log: true },
    key: false,
    size,
  });
}

// ---------------------------------------------------------------- training

function complement(test, n) {
  const out = new Uint8Array(n);
  for (const i of test) out[i] = 1;
  const train = [];
  for (let i = 0; i < n; i++) if (!out[i]) train.push(i);
  return train;
}

async function train() {
  if (!current) return;
  const { ds, name } = current;
  const n = ds.X.rows;
  const classification = ds.task === 'classification';
  const fitBase = {
    task: ds.task,
    preprocess: { standardize: state.std, unitNorm: state.unit },
    groups: ds.groups,
  };
  if (classification) fitBase.classes = ds.classes.length;
  const method = state.method, m = dim(), kernel = targetKernel(method);
  $('train-result').replaceChildren(line('Training…'));
  say(`Training on ${name}…`);
  const result = await run('training', 'train', async (ctl, signal) => {
    let folds;
    if (state.eval === 'split') {
      const s = await engine.split(n, { testFraction: state.test / 100, seed: state.seed });
      folds = [s];
    } else {
      const tests = await engine.kfold(n, { k: state.k, seed: state.seed });
      folds = tests.map((test) => ({ test, train: complement(test, n) }));
    }
    const maxTrain = Math.max(...folds.map((f) => f.train.length));
    const withExact = state.exact && maxTrain <= EXACT_MAX;
    const steps = folds.length * (withExact ? 4 : 2);
    let step = 0;
    const out = { rows: [], pred: [], exactPred: [], fold: [], curve: null, lambda: [], exactLambda: [], rfMs: 0, exactMs: 0, withExact };
    for (const [f, { train: tr, test }] of folds.entries()) {
      check(signal);
      const Xtr = takeRows(ds.X, tr), ytr = takeValues(ds.y, tr), Xte = takeRows(ds.X, test);
      let t = performance.now();
      const model = await engine.fitRidge(Xtr, ytr, { ...fitBase, features: featureOptions(method, m), ...ctl(step++, steps) });
      try {
        const p = await model.predict(Xte, ctl(step++, steps));
        out.rfMs += performance.now() - t;
        // Loops, not push(...a): arrays of test rows can exceed the argument limit.
        test.forEach((row, i) => { out.rows.push(row); out.pred.push(p[i]); out.fold.push(f + 1); });
        out.lambda.push(model.lambda);
        if (f === 0) out.curve = { points: model.curve, lambda: model.lambda };
      } finally {
        model.dispose();
      }
      if (withExact) {
        t = performance.now();
        const exact = await engine.fitRidge(Xtr, ytr, { ...fitBase, kernel, ...ctl(step++, steps) });
        try {
          for (const v of await exact.predict(Xte, ctl(step++, steps))) out.exactPred.push(v);
          out.exactMs += performance.now() - t;
          out.exactLambda.push(exact.lambda);
        } finally {
          exact.dispose();
        }
      }
    }
    const yTrue = takeValues(ds.y, out.rows);
    const opts = { task: ds.task, ...(classification ? { classes: ds.classes.length } : {}) };
    out.scores = await engine.score(yTrue, Float64Array.from(out.pred), opts);
    if (withExact) out.exactScores = await engine.score(yTrue, Float64Array.from(out.exactPred), opts);
    out.yTrue = yTrue;
    out.work = folds.reduce((a, f) => a + trainWork(f.train.length, ds.X.cols, m), 0);
    out.how = state.eval === 'split' ? `${out.rows.length} held-out test rows` : `${folds.length}-fold cross-validation (${out.rows.length} rows)`;
    return out;
  });
  if (!result) {
    $('train-result').replaceChildren(line('No result (cancelled or failed).'));
    return;
  }
  speed = result.work / Math.max(1e-3, result.rfMs / 1000) / engine.workers;
  lastRun = { ...result, ds, name, method, m, kernel };
  showTraining(lastRun);
  showCost();
  $('export-pred').disabled = false;
}

function line(text, cls) {
  const p = document.createElement('p');
  p.textContent = text;
  if (cls) p.className = cls;
  return p;
}

function metric(ds, s) {
  return ds.task === 'classification'
    ? { name: 'accuracy', value: s.accuracy, text: `${(100 * s.accuracy).toFixed(1)}%` }
    : { name: 'R²', value: s.r2, text: s.r2.toFixed(3) };
}

function showTraining(r) {
  const { ds, scores } = r;
  const main = metric(ds, scores);
  const box = $('train-result');
  box.replaceChildren();
  const big = line('', 'metric');
  const label = document.createElement('span');
  label.textContent = `${main.name} `;
  const value = document.createElement('strong');
  value.id = 'metric-value';
  value.dataset.value = String(main.value);
  value.textContent = main.text;
  big.append(label, value);
  box.append(big);
  const lambda = r.lambda.length > 1 ? `λ = ${short(Math.min(...r.lambda))} … ${short(Math.max(...r.lambda))} over the folds` : `λ = ${short(r.lambda[0])}`;
  box.append(line(`${METHOD[r.method].name}, m = ${r.m}, on ${r.how}; ${lambda}; fit and predict ${seconds(r.rfMs)}.`));
  if (ds.task === 'regression') box.append(line(`test MSE ${short(scores.mse)}`));
  if (r.withExact) {
    const e = metric(ds, r.exactScores);
    const speedup = r.exactMs / r.rfMs;
    box.append(line(`Exact ${kernelName(r.kernel)}: ${e.name} ${e.text}, ${seconds(r.exactMs)} — random features are ${speedup >= 1 ? `${speedup.toFixed(1)}× faster` : `${(1 / speedup).toFixed(1)}× slower at this size (they pay off when rows far outnumber m)`}.`, 'exact'));
  }
  box.dataset.rows = String(r.rows.length);
  if (ds.task === 'classification') {
    confusionChart($('train-chart'), scores.confusion, ds.classes);
  } else {
    scatterChart($('train-chart'), { points: r.rows.map((_, i) => [r.yTrue[i], r.pred[i]]), x: { label: `true ${ds.targetName}` }, y: { label: 'predicted' } });
  }
  if (r.curve?.points.length) {
    const best = r.curve.points.find((p) => p.lambda === r.curve.lambda);
    lineChart($('lambda-chart'), {
      series: [{ name: 'GCV error', points: r.curve.points.map((p) => [p.lambda, p.score]) }],
      x: { label: 'λ (log)', log: true },
      y: { label: 'validation MSE (log)', log: true },
      marks: best ? [{ x: best.lambda, y: best.score, label: 'chosen' }] : [],
    });
  } else {
    clearChart($('lambda-chart'));
  }
  say(`Trained on ${current.name}: ${main.name} ${main.text}.`);
}

// ---------------------------------------------------------------- export

function download(fileName, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has started reading the blob; free it a little later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

const baseName = () => current.name.replace(/\.(csv|tsv|txt)(\.gz)?$/i, '').replace(/[^\w.-]+/g, '_');

function exportPredictions() {
  const r = lastRun;
  if (!r) return;
  const cls = r.ds.task === 'classification';
  const label = (v) => (cls ? r.ds.classes[v] : v);
  const header = ['row', 'fold', `true ${r.ds.targetName}`, 'predicted'];
  if (r.withExact) header.push('predicted (exact kernel)');
  const rows = r.rows.map((row, i) => {
    const out = [row + 1, r.fold[i], label(r.yTrue[i]), label(r.pred[i])];
    if (r.withExact) out.push(label(r.exactPred[i]));
    return out;
  });
  download(`${baseName()}-predictions.csv`, toCSV(header, rows));
  say(`Exported ${rows.length} predictions.`);
}

function exportComparison() {
  const header = ['kind', 'method', 'm', 'relative Frobenius error', 'spectral condition number', 'mse', 'lambda', 'exact seconds', 'feature seconds'];
  const rows = comparisons.map((c) => [c.kind, c.method, c.m, c.relFrobenius, c.spectral, c.mse, c.lambda ?? '', c.exactSeconds, c.featureSeconds]);
  download(`${baseName()}-comparison.csv`, toCSV(header, rows));
  say(`Exported ${rows.length} comparison rows.`);
}

async function exportFeatures() {
  if (!current) return;
  const { ds } = current;
  const m = dim();
  if (ds.X.rows * m > MAX_EXPORT_VALUES) {
    showError(`Exporting ${ds.X.rows} × ${m} features would make a CSV of about ${formatBytes(ds.X.rows * m * 20)}; pick a smaller m (at most ${MAX_EXPORT_VALUES} numbers).`);
    return;
  }
  const X = prepare(ds.X, { standardize: state.std, unitNorm: state.unit });
  const P = await run('features export', 'export', (ctl) => engine.features(X, { ...featureOptions(), ...ctl(0, 1) }));
  if (!P) return;
  const header = [...Array.from({ length: P.cols }, (_, j) => `phi${j + 1}`), ds.targetName];
  const rows = Array.from({ length: P.rows }, (_, i) => {
    const r = Array.from(P.data.subarray(i * P.cols, (i + 1) * P.cols));
    r.push(ds.task === 'classification' ? ds.classes[ds.y[i]] : ds.y[i]);
    return r;
  });
  download(`${baseName()}-features-${state.method}-m${m}.csv`, toCSV(header, rows));
  say(`Exported ${P.rows} × ${P.cols} features.`);
}

// ---------------------------------------------------------------- wiring

function bind() {
  $('dataset').addEventListener('change', (e) => {
    if (e.target.value !== 'file') loadBundled(e.target.value);
  });
  $('file').addEventListener('change', async (e) => {
    await loadFile(e.target.files[0]);
    e.target.value = ''; // so that choosing the same file again reloads it
  });
  // A file dropped anywhere is loaded (instead of the browser opening it).
  const drop = $('drop');
  document.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  document.addEventListener('dragleave', (e) => { if (!e.relatedTarget) drop.classList.remove('over'); });
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    loadFile(e.dataTransfer?.files[0]);
  });
  $('target').addEventListener('change', (e) => {
    const col = current.ds.columns[+e.target.value];
    load(current.name, current.bytes, { bundled: current.bundled, target: col.name });
  });

  const setting = (id, key, read, after) => {
    $(id).addEventListener(id === 'seed' || id === 'kfolds' ? 'change' : 'input', () => {
      const v = read($(id));
      if (v === undefined) return;
      state[key] = v;
      save();
      showDerived();
      after?.();
    });
  };
  const intIn = (min, max) => (el) => {
    const v = Number(el.value);
    if (Number.isInteger(v) && v >= min && v <= max) return v;
    el.value = state[el.id === 'seed' ? 'seed' : 'k'];
    say(`${el.id === 'seed' ? 'The seed' : 'k'} must be a whole number from ${min} to ${max}.`);
    return undefined;
  };
  setting('standardize', 'std', (el) => el.checked, () => { showPrep(); refreshPicturesSoon(); });
  setting('unitnorm', 'unit', (el) => el.checked, () => { showPrep(); refreshPicturesSoon(); });
  setting('depth', 'depth', (el) => +el.value, refreshPicturesSoon);
  setting('dim', 'logm', (el) => +el.value, refreshPicturesSoon);
  setting('method', 'method', (el) => el.value, refreshPicturesSoon);
  setting('sketch', 'sketch', (el) => el.value, refreshPicturesSoon);
  setting('sampler', 'sampler', (el) => el.value, refreshPicturesSoon);
  setting('seed', 'seed', intIn(0, 999999999), refreshPicturesSoon);
  setting('eval', 'eval', (el) => el.value);
  setting('testfrac', 'test', (el) => +el.value);
  setting('kfolds', 'k', intIn(3, 10));
  setting('exact', 'exact', (el) => el.checked);
  setting('magnify', 'magnify', (el) => el.checked, drawPictures);

  // A link pasted into the address bar of an open page changes only the hash.
  window.addEventListener('hashchange', () => {
    const { state: next, rejected } = readHash();
    const reload = next.data !== 'file' && (next.data !== state.data || next.target !== state.target);
    state = next;
    showSettings();
    if (reload) loadBundled(next.data, next.target);
    else refreshPicturesSoon();
    if (rejected.length) say(`Ignored invalid settings in the link: ${rejected.join(', ')}.`);
  });
  for (const id of ['map-exact', 'map-approx', 'map-diff']) $(id).addEventListener('pointermove', showEntry);
  $('run-sweep').addEventListener('click', sweep);
  $('train').addEventListener('click', train);
  $('cancel').addEventListener('click', () => {
    const labels = [...jobs].map((j) => j.label);
    for (const j of jobs) j.controller.abort();
    if (labels.length) say(`Cancelled ${labels.join(' and ')}. Everything else is as before; you can start again.`);
  });
  $('alert-close').addEventListener('click', hideError);
  $('export-pred').addEventListener('click', exportPredictions);
  $('export-compare').addEventListener('click', exportComparison);
  $('export-features').addEventListener('click', exportFeatures);
}

async function main() {
  const { state: s, rejected } = readHash();
  state = s;
  datasetOptions(null);
  showSettings();
  bind();
  renderJobs();
  try {
    engine = await createEngine();
  } catch (e) {
    showError(`The WebAssembly engine did not start: ${e.message}. This page needs a browser with WebAssembly and module workers.`);
    say('Engine not available.');
    return;
  }
  const missing = ['features', 'parseCSV', 'previewCSV', 'fitRidge', 'compare', 'split', 'kfold', 'score'].filter((op) => !has(op));
  if (missing.length) showError(`This build of ntkrf lacks ${missing.join(', ')}; the parts of the page that need them will fail.`);
  const notes = [];
  if (rejected.length) notes.push(`ignored invalid settings in the link: ${rejected.join(', ')}`);
  if (state.data === 'file') notes.push('your own file is not part of the link, so iris is loaded');
  const id = state.data === 'file' ? 'iris' : state.data;
  await loadBundled(id, state.target);
  if (notes.length) say(`Loaded ${BUNDLED[id].file}; ${notes.join('; ')}.`);
  document.body.dataset.ready = '1';
}

main();
