// The lab page: the only module that wires DOM events. Work runs in the
// engine's WebAssembly workers; this module keeps the page state, starts and
// cancels runs, and draws their results.
import { createEngine } from './ntkrf/index.js';
import { DATASETS, readHash, writeHash } from './state.js';
import { BUNDLED, fetchBundled, readFile, formatBytes, sampleRows, takeRows, takeValues, prepare, renderPreview, summarizeList } from './data.js';
import { drawHeatmap, clearHeatmap, drawLegend, SEQUENTIAL, DIVERGING, short } from './heatmap.js';
import { lineChart, scatterChart, confusionChart, clearChart, topConfusions, MAX_SVG_CLASSES } from './charts.js';
import { toCSV, csvLine } from './csv.js';
import { explain, linkNotice, quote } from './messages.js';

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
/** Resolves to the engine once it has started, or to null if it cannot start; loads wait for it. */
let engineStarted;
const engineReady = new Promise((resolve) => { engineStarted = resolve; });
let state;
/** The loaded data set: id (a serial number), name, bytes, parsed dataset, sample for the pictures. */
let current = null;
/** Loads started so far (the default data set is loaded only if the user has not chosen one). */
let loadsStarted = 0;
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

/** Alerts shown so far, and the one showing: { seq, lane }, so that a later success can clear it. */
let alertSeq = 0;
let alertShown = null;

/** Shows an error; control, the page control the user should change, is outlined until the alert goes. */
function showError(text, { lane = 'page', control = null } = {}) {
  $('alert-text').textContent = text;
  $('alert').hidden = false;
  alertShown = { seq: ++alertSeq, lane };
  markControl(control);
}

function hideError() {
  $('alert').hidden = true;
  alertShown = null;
  markControl(null);
}

function markControl(control) {
  for (const el of document.querySelectorAll('.fault')) el.classList.remove('fault');
  const el = control && $(control.id);
  (el?.closest('.row, .check') ?? el)?.classList.add('fault');
}

/**
 * After a run of lane succeeds: an alert from the same lane, or one shown
 * before a run the user started (seq), is out of date. A newer alert about
 * something else stays.
 */
function clearOldError(lane, seq) {
  // The automatic pictures prove nothing about what the user ran.
  const older = lane !== 'pictures' && alertShown?.seq <= seq;
  if (alertShown && (alertShown.lane === lane || older)) hideError();
}

/** Shows a notice (not an error): settings of a link that could not be used. Empty text hides it. */
function notify(text, { append = false } = {}) {
  const box = $('notice-text');
  if (!append) box.replaceChildren();
  if (text) box.append(line(text));
  $('notice').hidden = box.childElementCount === 0;
}

/** A file name short enough for the progress line (the status shows it in full). */
const shortName = (name) => (name.length > 24 ? `${name.slice(0, 23)}…` : name);
const capital = (s) => s[0].toUpperCase() + s.slice(1);
const count = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function seconds(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}
const has = (op) => typeof engine?.[op] === 'function';

// ---------------------------------------------------------------- runs

/** Runs in progress: {label, lane, controller, fraction, stage, why}. */
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
  $('export-features').disabled = !current || list.some((j) => j.lane === 'export');
  document.body.classList.toggle('busy', list.length > 0);
}

/** Stops a job; why ('cancelled', 'replaced', 'new data') is what its run reports. */
function stop(job, why) {
  job.why ??= why;
  job.controller.abort();
}

/**
 * Runs fn(ctl, signal) as a cancellable job. A new job in the same lane
 * replaces the old one. ctl(i, n) gives the {signal, onProgress} of step i
 * of n, so the progress bar covers the whole job. Every run ends in a state
 * that says what happened: on success the alerts it outdates are cleared
 * and fn says what it did; on failure the error is shown (worded by
 * failText) and the status says so; a stopped run was stopped by Cancel,
 * a newer run or new data, which say so themselves.
 *
 * Returns { ok: true, value } or { ok: false, why } with why 'failed',
 * 'cancelled', 'replaced' or 'new data'.
 */
async function run(label, lane, fn, { failText = (text) => `${capital(label)} failed: ${text}.`, failStatus = () => `${capital(label)} failed.`, where = 'run', fallback = '' } = {}) {
  for (const j of jobs) if (j.lane === lane) stop(j, 'replaced');
  const job = { label, lane, controller: new AbortController(), fraction: 0, stage: '', why: null };
  const seq = alertSeq;
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
    const value = await fn(ctl, signal);
    // A run stopped just as its last step finished has no say any more.
    check(signal);
    clearOldError(lane, seq);
    return { ok: true, value };
  } catch (e) {
    const ex = signal.aborted ? null : explain(e, { where, fallback });
    if (!ex) return { ok: false, why: job.why ?? 'cancelled' };
    showError(failText(ex.text), { lane, control: ex.control });
    say(failStatus());
    return { ok: false, why: 'failed' };
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
  $('cost').textContent = `Φ for all ${n} rows: ${n} × ${m} × 8 bytes = ${formatBytes(bytes)}; training ≈ ${seconds(ms)} (rough)${ms > 30_000 ? ': a smaller Features m is much faster' : ''}.`;
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

/** Puts the data controls back to the loaded data set (after a load that did not finish). */
function showCurrentChoice() {
  if (!current) return;
  datasetOptions(current.bundled ? null : current.name);
  $('target').value = String(current.ds.target);
}

let datasetSerial = 0;

/**
 * Loads a data set as the current one; source(signal) gives its bytes. The
 * newest choice wins whatever the timing: a newer load (a file, a bundled
 * set, a target, a link) stops this one at its next step, and a stopped
 * load changes nothing and says nothing. A load waits for the engine, so a
 * file chosen while the page starts is loaded once the engine is up. On an
 * error the previous data set stays loaded and the message names the file.
 * target: a column name from a link; if the file has no such column, a
 * notice says so and the last column is the target. where: 'load' for new
 * data (only the file can change), 'run' for the loaded data with another
 * Target.
 */
async function load(name, source, { bundled = null, target = '', where = 'load' } = {}) {
  loadsStarted++;
  say(`Reading ${name}…`);
  const still = () => (current ? ` ${current.name} is still loaded.` : '');
  const outcome = await run(`reading ${shortName(name)}`, 'load', async (ctl, signal) => {
    const bytes = await source(signal);
    check(signal);
    if (!engine) say(`Reading ${name}: waiting for the engine to start…`);
    const eng = await engineReady;
    check(signal);
    // The alert already says why the engine did not start.
    if (!eng) throw new DOMException('no engine', 'AbortError');
    const preview = await eng.previewCSV(bytes, { rows: 6, ...ctl(0, 2) });
    check(signal);
    const opts = {};
    let note = '';
    if (target && preview.names.includes(target)) opts.target = target;
    else if (target) note = `The link's target ${quote(target)} is not a column of ${name}; using its last column, ${quote(preview.names.at(-1) ?? '')}.`;
    const ds = await eng.parseCSV(bytes, { ...opts, ...ctl(1, 2) });
    check(signal);
    if (ds.X.rows < 2) throw new Error(`it has ${ds.X.rows} usable row${ds.X.rows === 1 ? '' : 's'}; at least 2 are needed`);
    // Runs on the previous data would report on the wrong one.
    for (const j of jobs) if (j.lane !== 'load') stop(j, 'new data');
    current = { id: ++datasetSerial, name, bytes, bundled, preview, ds };
    current.sample = sampleRows(ds.y, SAMPLE);
    state.data = bundled ?? 'file';
    state.target = ds.targetName === preview.names[preview.names.length - 1] ? '' : ds.targetName;
    save();
    datasetOptions(bundled ? null : name);
    showData();
    clearResults();
    if (note) notify(note, { append: true });
    say(`Loaded ${name}: ${count(ds.X.rows, 'row')}, ${ds.task}${ds.task === 'classification' ? ` (${count(ds.classes.length, 'class', 'classes')})` : ''}.`);
  }, {
    where,
    failText: (text) => `Could not load ${name}: ${text}.${still()}`,
    failStatus: () => `${name} was not loaded.${still()}`,
  });
  if (outcome.ok) refreshPictures();
  else if (outcome.why !== 'replaced') showCurrentChoice();
  return outcome.ok;
}

function loadBundled(id, target = '') {
  return load(BUNDLED[id].file, (signal) => fetchBundled(id, signal), { bundled: id, target });
}

function loadFile(file) {
  if (!file) return;
  load(file.name, () => readFile(file));
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
    ['task', ds.task === 'classification' ? `classification, ${count(ds.classes.length, 'class', 'classes')}` : 'regression'],
    ['rows', `${ds.X.rows}${ds.droppedRows ? ` (${ds.droppedRows} dropped: no target)` : ''}`],
    ['features', `${ds.X.cols}${categorical ? ` (${categorical} categorical columns one-hot)` : ''}`],
    ['missing', ds.missingCells ? `${ds.missingCells} cells` : 'none'],
  ];
  if (ds.task === 'classification') facts.push(['classes', summarizeList(ds.classes)]);
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
  return prepare(current.ds.X, { standardize: state.std, unitNorm: state.unit }, current.sample);
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
  const outcome = await run('kernel pictures', 'pictures', async (ctl, signal) => {
    // A new exact kernel is drawn first, as immediate feedback; when only
    // the features change, the old pictures stay until the new ones are in.
    // The key names the data set by its serial: two files may share a name.
    const key = JSON.stringify([current.id, state.std, state.unit, spec]);
    if (pictures?.key !== key) {
      const K = await engine.kernel(X, null, { ...spec, ...ctl(0, 2) });
      check(signal);
      pictures = { key, K, approx: null };
      drawPictures();
    }
    const c = await compareOn(X, method, m, ctl(1, 2), true);
    check(signal);
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
  }, { fallback: 'try a smaller Features m or another Method' });
  if (!outcome.ok && outcome.why === 'failed') {
    // The numbers of earlier settings would pass for these ones.
    delete $('compare-numbers').dataset.rel;
    $('compare-numbers').textContent = `No comparison for ${METHOD[method].name}, m = ${m}: it failed (the message at the top says why).`;
  }
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
  let done = 0;
  const outcome = await run('error vs m', 'sweep', async (ctl, signal) => {
    const out = [];
    for (const method of SWEEP_METHODS) {
      for (const m of SWEEP_DIMS) {
        const c = await compareOn(X, method, m, ctl(done, steps), false);
        check(signal);
        out.push(comparisonRow('sweep', method, m, c));
        done++;
        drawSweep(out);
      }
    }
    return out;
  }, { failStatus: () => `Error vs m failed after ${done} of ${steps} comparisons; the charts show those.` });
  if (!outcome.ok) return;
  const rows = outcome.value;
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

/** How λ is chosen: exact leave-one-out while the training rows are no more than the features (the fit then runs on the n×n side), GCV beyond. */
const lambdaCriterion = (rows, m) => (rows <= m ? 'loo' : 'gcv');
const CRITERIA = { loo: 'leave-one-out', gcv: 'GCV' };

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
  if (ds.task === 'classification' && ds.classes.length < 2) {
    showError(`${ds.targetName} has one class only (${quote(ds.classes[0] ?? '')}): there is nothing to tell apart; choose another Target.`, { lane: 'train', control: { id: 'target' } });
    say('Not trained.');
    return;
  }
  const n = ds.X.rows;
  const classification = ds.task === 'classification';
  const fitBase = {
    task: ds.task,
    preprocess: { standardize: state.std, unitNorm: state.unit },
    groups: ds.groups,
  };
  if (classification) fitBase.classes = ds.classes.length;
  // The settings of this run: the controls may move while it runs.
  const method = state.method, m = dim(), kernel = targetKernel(method);
  const { eval: evaluation, test: testShare, k, seed, exact: exactWanted } = state;
  // The previous run's charts would pass for this run's until it ends.
  lastRun = null;
  $('export-pred').disabled = true;
  clearChart($('train-chart'));
  clearChart($('lambda-chart'));
  $('train-result').replaceChildren(line('Training…'));
  say(`Training on ${name}…`);
  const outcome = await run('training', 'train', async (ctl, signal) => {
    let folds;
    if (evaluation === 'split') {
      const s = await engine.split(n, { testFraction: testShare / 100, seed, signal });
      folds = [s];
    } else {
      const tests = await engine.kfold(n, { k, seed, signal });
      folds = tests.map((test) => ({ test, train: complement(test, n) }));
    }
    const maxTrain = Math.max(...folds.map((f) => f.train.length));
    const withExact = exactWanted && maxTrain <= EXACT_MAX;
    const steps = folds.length * (withExact ? 4 : 2);
    let step = 0;
    const out = { rows: [], pred: [], exactPred: [], fold: [], curve: null, lambda: [], exactLambda: [], rfMs: 0, exactMs: 0, withExact, maxTrain };
    out.exactSkipped = exactWanted && !withExact;
    for (const [f, { train: tr, test }] of folds.entries()) {
      check(signal);
      const Xtr = takeRows(ds.X, tr), ytr = takeValues(ds.y, tr), Xte = takeRows(ds.X, test);
      let t = performance.now();
      // Named, not left to the engine's default, so that the page can say which error chose λ.
      const criterion = lambdaCriterion(tr.length, m);
      const model = await engine.fitRidge(Xtr, ytr, { ...fitBase, features: featureOptions(method, m), criterion, ...ctl(step++, steps) });
      try {
        const p = await model.predict(Xte, ctl(step++, steps));
        out.rfMs += performance.now() - t;
        // Loops, not push(...a): arrays of test rows can exceed the argument limit.
        test.forEach((row, i) => { out.rows.push(row); out.pred.push(p[i]); out.fold.push(f + 1); });
        out.lambda.push(model.lambda);
        if (f === 0) out.curve = { points: model.curve, lambda: model.lambda, criterion };
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
    out.scores = await engine.score(yTrue, Float64Array.from(out.pred), { ...opts, signal });
    if (withExact) out.exactScores = await engine.score(yTrue, Float64Array.from(out.exactPred), { ...opts, signal });
    out.yTrue = yTrue;
    out.work = folds.reduce((a, f) => a + trainWork(f.train.length, ds.X.cols, m), 0);
    out.how = evaluation === 'split' ? count(out.rows.length, 'held-out test row') : `${folds.length}-fold cross-validation (${count(out.rows.length, 'row')})`;
    return out;
  }, { fallback: 'try Standardize columns, a smaller Features m or another Method' });
  if (!outcome.ok) {
    const why = {
      failed: 'No result: training failed (the message at the top says why).',
      cancelled: 'No result: training was cancelled.',
      'new data': 'No result: other data was loaded while training.',
    }[outcome.why];
    // A replacing run has written its own line.
    if (why) $('train-result').replaceChildren(line(why));
    return;
  }
  const result = outcome.value;
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

/**
 * The headline score. R² of test targets that do not vary (one test row,
 * say) is undefined, whatever number the engine gives: a dash, not 0.000.
 */
function metric(ds, s, yTrue) {
  const name = ds.task === 'classification' ? 'accuracy' : 'R²';
  const value = ds.task === 'classification' ? s.accuracy : s.r2;
  const flat = ds.task === 'regression' && yTrue.every((v) => v === yTrue[0]);
  if (flat || typeof value !== 'number' || !Number.isFinite(value)) return { name, value: NaN, text: '—', note: `${name} is undefined here: the test rows' ${ds.targetName} does not vary.` };
  return { name, value, text: ds.task === 'classification' ? `${(100 * value).toFixed(1)}%` : value.toFixed(3) };
}

function showTraining(r) {
  const { ds, scores } = r;
  const main = metric(ds, scores, r.yTrue);
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
  if (main.note) box.append(line(main.note));
  const by = r.curve ? ` (by ${CRITERIA[r.curve.criterion]} error)` : '';
  const lambda = r.lambda.length > 1 ? `λ = ${short(Math.min(...r.lambda))} … ${short(Math.max(...r.lambda))} over the folds${by}` : `λ = ${short(r.lambda[0])}${by}`;
  box.append(line(`${METHOD[r.method].name}, m = ${r.m}, on ${r.how}; ${lambda}; fit and predict ${seconds(r.rfMs)}.`));
  if (ds.task === 'regression') box.append(line(`test MSE ${short(scores.mse)}`));
  if (r.withExact) {
    const e = metric(ds, r.exactScores, r.yTrue);
    const speedup = r.exactMs / r.rfMs;
    box.append(line(`Exact ${kernelName(r.kernel)}: ${e.name} ${e.text}, ${seconds(r.exactMs)} — random features are ${speedup >= 1 ? `${speedup.toFixed(1)}× faster` : `${(1 / speedup).toFixed(1)}× slower at this size (they pay off when rows far outnumber m)`}.`, 'exact'));
  } else if (r.exactSkipped) {
    box.append(line(`Exact kernel not fitted: ${r.maxTrain} training rows, more than the ${EXACT_MAX} this page fits it for.`, 'exact'));
  }
  box.dataset.rows = String(r.rows.length);
  if (ds.task === 'classification') {
    confusionChart($('train-chart'), scores.confusion, ds.classes);
    if (ds.classes.length > MAX_SVG_CLASSES) {
      // Too many classes to label the matrix: name the pairs most often confused.
      const pairs = topConfusions(scores.confusion, ds.classes, 8);
      if (pairs.length) {
        box.append(line('Most often confused (true → predicted: test rows):'));
        const list = document.createElement('ol');
        list.className = 'pairs';
        list.id = 'confused-pairs';
        for (const p of pairs) {
          const li = document.createElement('li');
          li.textContent = `${p.trueClass} → ${p.predicted}: ${p.count} (${(100 * p.share).toFixed(0)}% of ${p.trueClass})`;
          list.append(li);
        }
        box.append(list);
      }
    }
  } else {
    scatterChart($('train-chart'), { points: r.rows.map((_, i) => [r.yTrue[i], r.pred[i]]), x: { label: `true ${ds.targetName}` }, y: { label: 'predicted' } });
  }
  if (r.curve?.points.length) {
    const best = r.curve.points.find((p) => p.lambda === r.curve.lambda);
    lineChart($('lambda-chart'), {
      series: [{ name: `${CRITERIA[r.curve.criterion]} error`, points: r.curve.points.map((p) => [p.lambda, p.score]) }],
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

/** Saves text (a string or Blob parts) as a file. */
function download(fileName, parts) {
  const url = URL.createObjectURL(new Blob(Array.isArray(parts) ? parts : [parts], { type: 'text/csv' }));
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

/** Rows of the features export written per slice, between which the page handles events (Cancel). */
const EXPORT_SLICE_ROWS = 1000;

async function exportFeatures() {
  if (!current) return;
  const { ds } = current;
  const m = dim(), method = state.method, file = `${baseName()}-features-${method}-m${m}.csv`;
  if (ds.X.rows * m > MAX_EXPORT_VALUES) {
    showError(`Exporting ${ds.X.rows} × ${m} features would make a CSV of about ${formatBytes(ds.X.rows * m * 20)}; choose a smaller Features m (at most ${MAX_EXPORT_VALUES.toLocaleString('en')} numbers in all).`, { control: { id: 'dim' } });
    say('The features were not exported.');
    return;
  }
  const X = prepare(ds.X, { standardize: state.std, unitNorm: state.unit });
  const outcome = await run('features export', 'export', async (ctl, signal) => {
    const P = await engine.features(X, { ...featureOptions(method, m), ...ctl(0, 2) });
    check(signal);
    // Millions of numbers take seconds to write: slices keep the page responsive.
    const parts = [csvLine([...Array.from({ length: P.cols }, (_, j) => `phi${j + 1}`), ds.targetName])];
    const progress = ctl(1, 2).onProgress;
    for (let start = 0; start < P.rows; start += EXPORT_SLICE_ROWS) {
      let text = '';
      for (let i = start; i < Math.min(P.rows, start + EXPORT_SLICE_ROWS); i++) {
        const r = Array.from(P.data.subarray(i * P.cols, (i + 1) * P.cols));
        r.push(ds.task === 'classification' ? ds.classes[ds.y[i]] : ds.y[i]);
        text += csvLine(r);
      }
      parts.push(text);
      progress({ done: start, total: P.rows, stage: 'writing' });
      await new Promise((resolve) => setTimeout(resolve));
      check(signal);
    }
    return { parts, rows: P.rows, cols: P.cols };
  });
  if (!outcome.ok) return;
  download(file, outcome.value.parts);
  say(`Exported ${outcome.value.rows} × ${outcome.value.cols} features.`);
}

// ---------------------------------------------------------------- wiring

function bind() {
  $('dataset').addEventListener('change', (e) => {
    if (e.target.value !== 'file') loadBundled(e.target.value);
  });
  $('file').addEventListener('change', (e) => {
    const file = e.target.files[0];
    e.target.value = ''; // so that choosing the same file again reloads it
    loadFile(file);
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
    const { name, bytes, bundled, ds } = current;
    load(name, () => bytes, { bundled, target: ds.columns[+e.target.value].name, where: 'run' });
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
    say(`${el.id === 'seed' ? 'Seed' : 'Folds k'} must be a whole number from ${min} to ${max}; it stays ${el.value}.`);
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
    const notes = [linkNotice(rejected, next)];
    // A link cannot carry a file: the data loaded now stays.
    if (next.data === 'file') {
      if (current && current.bundled) notes.push(`The link names your own file, which links cannot carry; ${current.name} stays loaded.`);
      next.data = state.data;
      next.target = state.target;
    }
    const reload = next.data !== state.data || next.target !== state.target;
    state = next;
    showSettings();
    notify(notes.filter(Boolean).join(' '));
    if (reload) loadBundled(next.data, next.target);
    else refreshPicturesSoon();
  });
  for (const id of ['map-exact', 'map-approx', 'map-diff']) $(id).addEventListener('pointermove', showEntry);
  $('run-sweep').addEventListener('click', sweep);
  $('train').addEventListener('click', train);
  $('cancel').addEventListener('click', () => {
    const labels = [...jobs].map((j) => j.label);
    for (const j of jobs) stop(j, 'cancelled');
    if (labels.length) say(`Cancelled ${labels.join(' and ')}. You can start again.`);
  });
  $('alert-close').addEventListener('click', hideError);
  $('notice-close').addEventListener('click', () => notify(''));
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
  notify(linkNotice(rejected, state));
  // A file chosen before this module ran is in the input already.
  if ($('file').files[0]) $('file').dispatchEvent(new Event('change'));
  try {
    engine = await createEngine();
  } catch (e) {
    engineStarted(null);
    showError(`The WebAssembly engine did not start: ${explain(e)?.text ?? e}. This page needs a browser with WebAssembly and module workers.`);
    say('Engine not available.');
    return;
  }
  engineStarted(engine);
  const missing = ['features', 'parseCSV', 'previewCSV', 'fitRidge', 'compare', 'split', 'kfold', 'score'].filter((op) => !has(op));
  if (missing.length) showError(`This build of ntkrf lacks ${missing.join(', ')}; the parts of the page that need them will fail.`);
  // The link's data set, unless the user chose data while the engine started.
  if (loadsStarted === 0) {
    if (state.data === 'file') notify('The link names your own file, which links cannot carry: iris.csv is loaded instead.', { append: true });
    await loadBundled(state.data === 'file' ? 'iris' : state.data, state.target);
  }
  document.body.dataset.ready = '1';
}

main();
