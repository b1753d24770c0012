// The lab page: it keeps the page's one state object, starts and cancels
// runs, and draws their results. What a run computes lives in DOM-free
// modules (experiments.js, sweep.js, cost.js, jobs.js, downloads.js,
// models.js, vocab.js, state.js, messages.js, toy.js, surface.js,
// active.js); the playground's two panels are wired by playground.js, which
// works on the same state.
import { createEngine } from './ntkrf/index.js';
import { vocabulary, LANDING } from './vocab.js';
import { hashTable, readHash, writeHash, linked } from './state.js';
import { BUNDLED, DATASETS, fetchBundled, readFile, formatBytes, sampleRows, renderPreview, summarizeList } from './data.js';
import { drawHeatmap, clearHeatmap, drawLegend, SEQUENTIAL, DIVERGING, short } from './heatmap.js';
import { lineChart, scatterChart, confusionChart, clearChart, topConfusions, MAX_SVG_CLASSES } from './charts.js';
import { explain, linkNotice, quote, capAlert } from './messages.js';
import { Jobs, check, AUTOMATIC } from './jobs.js';
import { EXACT_MAX, INITIAL_SPEED, estimate, measuredSpeed } from './cost.js';
import { SAMPLE, dim, lambdaOf, uses, extraLayers, featureOptions, targetKernel, kernelName, preprocessed, compareOn, comparisonRow, pictureScales, trainingPlan, searchOf, autoSearch, untrainable, trainAndTest, metric } from './experiments.js';
import { sweep, sweepSeries, exactTimes, SWEEP_METHODS, SWEEP_STEPS } from './sweep.js';
import { MAX_EXPORT_VALUES, baseName, predictionsCSV, comparisonsCSV, featuresCSV } from './downloads.js';
import { shortName, capital, count, seconds } from './format.js';
import { MAX_MODEL_BYTES, SHOWN_PREDICTIONS, modelFileName, describeModel, selectionText, prepName, predictionTable, predictionCSV, predictionFileName } from './models.js';
import { TOYS, TOY_IDS, isToy, toySet, withPoints, toyCSV } from './toy.js';
import { createPlayground } from './playground.js';

const $ = (id) => document.getElementById(id);

/** Controls whose values, ranges and menus come from the engine's schema: usable once it has started. */
const SETTING_CONTROLS = ['standardize', 'unitnorm', 'depth', 'dim', 'lambda', 'lambda-auto', 'method', 'sketch', 'sampler', 'seed', 'eval', 'testfrac', 'kfolds', 'auto', 'exact', 'magnify', 'noise', 'points', 'dseed', 'resample', 'labels'];

/** Everything the page knows and changes. */
const app = {
  /** The engine once it has started. */
  engine: null,
  /** Resolves to the engine once it has started (and the settings are read), or to null if it cannot start; loads wait for it. */
  engineReady: null,
  engineStarted: null,
  /** The lab's vocabulary (vocab.js) from the engine's schema, and the URL hash table built from it. */
  vocab: null,
  table: null,
  /** The settings (state.js), null until the engine has started. */
  settings: null,
  /** The engine's 'auto' search (experiments.js autoSearch), for its help and the cost estimate. */
  search: null,
  /**
   * The loaded data set: id (a serial number), name, bytes, bundled id
   * (a menu id: a bundled file or a generated set), preview, parsed
   * dataset, sample for the pictures; for a generated set also toy: its
   * training points (with those added by clicks), its test points.
   */
  current: null,
  /** Points added by clicks on a generated set: { id, x: [x1, x2, …], y: [class, …] } (dropped with another set). */
  added: { id: '', x: [], y: [] },
  /** Data sets loaded so far (the id of the next), and loads started (the default data set is loaded only if the user has not chosen one). */
  datasetSerial: 0,
  loadsStarted: 0,
  /** The sample rows preprocessed by the engine: { key, X } (key: data set and preprocessing). */
  sample: null,
  /** The last pictures (for redrawing the difference and for export). */
  pictures: null,
  /** Comparison rows for export. */
  comparisons: [],
  /** The last training run, for export. */
  lastRun: null,
  /**
   * Models: trained (the last training's, to download) and loaded (from a
   * file), each { model, fileName, origin, about (models.js describeModel),
   * choice }; inUse is the one the user chose last (choice: the count of
   * choices when Train was pressed or the model file picked, so that a
   * training that ends after a model was loaded does not replace it), which
   * predicts files. predicted: the last file's predictions { values,
   * fileName, targetName }.
   */
  trained: null,
  loaded: null,
  inUse: null,
  choices: 0,
  predicted: null,
  /** Measured throughput of training (work units per second per worker), refined after each run. */
  speed: INITIAL_SPEED,
  /** Runs in progress. */
  jobs: new Jobs(() => renderJobs()),
  /** Alerts shown so far, and the one showing: { seq, lane }, so that a later success can clear it. */
  alertSeq: 0,
  alertShown: null,
  /** The pending redraw of the pictures, and of a generated set. */
  picturesTimer: 0,
  toyTimer: 0,
};
app.engineReady = new Promise((resolve) => { app.engineStarted = resolve; });

// ---------------------------------------------------------------- messages

function say(text) {
  $('status').textContent = capAlert(text);
}

/** Shows an error; control, the page control the user should change, is outlined until the alert goes. */
function showError(text, { lane = 'page', control = null } = {}) {
  // Whatever a message quotes (a cell, a name), the alert stays a few lines.
  $('alert-text').textContent = capAlert(text);
  $('alert').hidden = false;
  app.alertShown = { seq: ++app.alertSeq, lane };
  markControl(control);
}

function hideError() {
  $('alert').hidden = true;
  app.alertShown = null;
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
  // The automatic pictures and surfaces prove nothing about what the user ran.
  const older = !AUTOMATIC.has(lane) && app.alertShown?.seq <= seq;
  if (app.alertShown && (app.alertShown.lane === lane || older)) hideError();
}

/** Shows a notice (not an error): settings of a link that could not be used. Empty text hides it. */
function notify(text, { append = false } = {}) {
  const box = $('notice-text');
  if (!append) box.replaceChildren();
  if (text) box.append(line(capAlert(text))); // a link's values are the link's: any length
  $('notice').hidden = box.childElementCount === 0;
}

/** The page's wording of an engine error, naming the page's controls once the vocabulary is known. */
const wording = (e, opts = {}) => explain(e, { ...opts, controls: app.vocab?.controls });

function line(text, cls) {
  const p = document.createElement('p');
  p.textContent = text;
  if (cls) p.className = cls;
  return p;
}

// ---------------------------------------------------------------- runs

function renderJobs() {
  const job = app.jobs.shown;
  $('cancel').disabled = !job;
  $('progress').value = job ? job.fraction : 0;
  $('stage').textContent = job ? `${job.label}${job.stage ? ` · ${job.stage}` : ''} ${Math.round(job.fraction * 100)}%` : app.settings ? 'idle' : 'starting…';
  $('train').disabled = app.jobs.busy('train') || !app.current;
  $('run-sweep').disabled = app.jobs.busy('sweep') || !app.current;
  $('export-features').disabled = !app.current || app.jobs.busy('export');
  $('download-model').disabled = !app.trained;
  $('model-file').disabled = !app.settings;
  $('predict-file').disabled = !app.inUse?.about.readsCSV || app.jobs.busy('model');
  $('export-model-pred').disabled = !app.predicted;
  play.renderJobs();
  document.body.classList.toggle('busy', app.jobs.list.length > 0);
}

/**
 * Runs fn(ctl, signal) as a cancellable job (jobs.js). Every run ends in a
 * state that says what happened: on success the alerts it outdates are
 * cleared and fn says what it did; on failure the error is shown (worded
 * by failText) and the status says so; a stopped run was stopped by Cancel,
 * a newer run or new data, which say so themselves.
 *
 * Returns { ok: true, value } or { ok: false, why } with why 'failed',
 * 'cancelled', 'replaced' or 'new data'.
 */
async function run(label, lane, fn, { failText = (text) => `${capital(label)} failed: ${text}.`, failStatus = () => `${capital(label)} failed.`, where = 'run', fallback = '' } = {}) {
  const seq = app.alertSeq;
  const outcome = await app.jobs.run(label, lane, fn);
  if (outcome.ok) clearOldError(lane, seq);
  else if (outcome.why === 'failed') {
    const ex = wording(outcome.error, { where, fallback });
    showError(failText(ex.text), { lane, control: ex.control });
    say(failStatus());
  }
  return outcome;
}

// ---------------------------------------------------------------- settings

function save() {
  writeHash(app.table, app.settings);
}

/** Fills the menus and the ranges of the controls from the vocabulary, and makes them usable. */
function buildControls(vocab) {
  for (const key of ['method', 'sketch', 'sampler', 'eval']) {
    $(key).replaceChildren(...vocab.menus[key].map((o) => new Option(o.label, o.value)));
  }
  const range = (id, s) => Object.assign($(id), { min: s.min, max: s.max, step: s.step });
  range('depth', vocab.settings.depth);
  range('dim', vocab.settings.logm);
  range('lambda', vocab.settings.lam);
  range('seed', vocab.settings.seed);
  range('testfrac', vocab.settings.test);
  range('kfolds', vocab.settings.k);
  range('noise', vocab.settings.noise);
  range('points', vocab.settings.points);
  range('dseed', vocab.settings.dseed);
  range('labels', vocab.settings.labels);
  $('exact-help').textContent = `Exact kernel ridge regression needs an n×n matrix; offered up to ${EXACT_MAX} training rows.`;
  for (const id of SETTING_CONTROLS) $(id).disabled = false;
  for (const el of document.querySelectorAll('[aria-busy]')) el.removeAttribute('aria-busy');
}

/** Puts the settings into the controls. */
function showSettings() {
  const s = app.settings;
  $('standardize').checked = s.std;
  $('unitnorm').checked = s.unit;
  $('depth').value = s.depth;
  $('dim').value = s.logm;
  $('lambda').value = s.lam;
  $('lambda-auto').checked = s.lamauto;
  $('noise').value = s.noise;
  $('points').value = s.points;
  $('dseed').value = s.dseed;
  $('labels').value = s.labels;
  $('method').value = s.method;
  $('sketch').value = s.sketch;
  $('sampler').value = s.sampler;
  $('seed').value = s.seed;
  $('eval').value = s.eval;
  $('testfrac').value = s.test;
  $('kfolds').value = s.k;
  $('auto').checked = s.auto;
  $('exact').checked = s.exact;
  $('magnify').checked = s.magnify;
  showDerived();
}

/** Labels that follow from the settings: slider values, cost, which controls apply. */
function showDerived() {
  const s = app.settings;
  $('depth-out').textContent = `= ${s.depth}`;
  $('dim-out').textContent = `= ${dim(s)}`;
  $('lambda-out').textContent = `= ${short(lambdaOf(s))}`;
  $('noise-out').textContent = `= ${s.noise}%`;
  $('points-out').textContent = `= ${s.points}`;
  $('labels-out').textContent = `= ${s.labels}`;
  $('testfrac-out').textContent = `= ${s.test}%`;
  $('method-help').textContent = app.vocab.methods[s.method].help;
  $('depth').closest('.row').classList.toggle('unused', !uses(s.method, 'depth'));
  $('sketch').disabled = !uses(s.method, 'sketch');
  $('sampler').disabled = !uses(s.method, 'sampler');
  $('row-test').hidden = s.eval !== 'split';
  $('row-k').hidden = s.eval !== 'kfold';
  showCost();
}

/** Memory of Φ and a rough training time, before running. */
function showCost() {
  if (!app.current || !app.settings) return;
  const { X } = app.current.ds;
  const search = searchOf(app.settings, app.search);
  const e = estimate({ n: X.rows, d: X.cols, m: dim(app.settings), layers: extraLayers(app.settings), search, settings: app.settings, speed: app.speed, workers: app.engine?.workers ?? 1 });
  $('cost').textContent = e.text;
  $('cost').classList.toggle('warn', e.slow);
  $('exact').disabled = !e.exactOK;
  $('exact').closest('.check').classList.toggle('unused', !e.exactOK);
}

// ---------------------------------------------------------------- data

function datasetOptions(fileName) {
  const sel = $('dataset');
  const group = (label, options) => {
    const g = document.createElement('optgroup');
    g.label = label;
    g.append(...options);
    return g;
  };
  const tables = group('Tables (CSV)', DATASETS.map((id) => new Option(BUNDLED[id].title, id)));
  sel.replaceChildren(group('2-D playground (generated)', TOY_IDS.map((id) => new Option(TOYS[id].title, id))), tables);
  if (fileName) tables.append(new Option(`your file: ${fileName}`, 'file'));
  sel.value = fileName ? 'file' : app.current?.bundled ?? app.settings?.data ?? LANDING;
}

/** Puts the data controls back to the loaded data set (after a load that did not finish). */
function showCurrentChoice() {
  if (!app.current) return;
  datasetOptions(app.current.bundled ? null : app.current.name);
  $('target').value = String(app.current.ds.target);
}

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
 * Target. toy: the points of a generated set (their CSV text is source's).
 */
async function load(name, source, { bundled = null, target = '', where = 'load', toy = null } = {}) {
  app.loadsStarted++;
  say(`Reading ${name}…`);
  const still = () => (app.current ? ` ${app.current.name} is still loaded.` : '');
  const outcome = await run(`reading ${shortName(name)}`, 'load', async (ctl, signal) => {
    const bytes = await source(signal);
    check(signal);
    if (!app.engine) say(`Reading ${name}: waiting for the engine to start…`);
    const eng = await app.engineReady;
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
    app.jobs.stopAll('new data', (j) => j.lane === 'load');
    app.current = { id: ++app.datasetSerial, name, bytes, bundled, preview, ds, sample: sampleRows(ds.y, SAMPLE), toy };
    app.settings.data = bundled ?? 'file';
    app.settings.target = ds.targetName === preview.names[preview.names.length - 1] ? '' : ds.targetName;
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
  if (outcome.ok) {
    refreshPictures();
    play.dataChanged();
  } else if (outcome.why !== 'replaced') showCurrentChoice();
  return outcome.ok;
}

/** Loads a bundled file or a generated set by its menu id. */
function loadBundled(id, target = '') {
  if (isToy(id)) return loadToy(id);
  return load(BUNDLED[id].file, (signal) => fetchBundled(id, signal), { bundled: id, target });
}

/**
 * Generates the set id with the settings' noise, size and data seed, adds
 * the points added by clicks (dropped when the set changes), and loads the
 * training points as a CSV file would be: the panels below treat it as a
 * table, the playground draws it.
 */
function loadToy(id) {
  if (app.added.id !== id) app.added = { id, x: [], y: [] };
  const s = app.settings;
  const set = toySet(id, { n: s.points, noisePercent: s.noise, seed: s.dseed });
  const added = { x: Float64Array.from(app.added.x), y: Float64Array.from(app.added.y) };
  const toy = { id, train: withPoints(set.train, added), test: set.test, added: added.y.length };
  const bytes = new TextEncoder().encode(toyCSV(toy.train));
  return load(`${id}.csv`, () => bytes, { bundled: id, toy });
}

/** Generates the current set again soon (its sliders move fast) with the settings and added points. */
function reloadToySoon() {
  clearTimeout(app.toyTimer);
  app.toyTimer = setTimeout(() => {
    if (app.current?.toy) loadToy(app.current.toy.id);
  }, 150);
}

/** Adds a point of class c at (x1, x2) to the generated set shown, and refits. */
function addPoint(x1, x2, c) {
  if (!app.current?.toy) return;
  app.added.x.push(x1, x2);
  app.added.y.push(c);
  reloadToySoon();
}

/** Removes the points added by clicks. */
function clearAdded() {
  if (!app.added.y.length) return;
  app.added = { id: app.added.id, x: [], y: [] };
  reloadToySoon();
}

function loadFile(file) {
  if (!file) return;
  load(file.name, () => readFile(file));
}

/** The 'auto' checkbox's help, with the engine's own candidates and sample size. */
function showAutoHelp(search) {
  if (!search) return;
  const { depths, preprocess, rows } = search;
  $('auto-help').textContent = `Tries depths ${depths[0]}–${depths[depths.length - 1]}, each with ${preprocess.map(prepName).join(' or ')}, by leave-one-out with the exact kernel on up to ${rows} training rows, and keeps the lowest depth within one standard error of the best (a sample cannot rank closer candidates, and lower depths are cheaper); the depth and preprocessing controls above then shape only the pictures.`;
}

/** Facts about the data set and what preprocessing will do. */
function showData() {
  const { ds, preview, name, toy } = app.current;
  $('source').textContent = `Loaded: ${name}`;
  $('toy-controls').hidden = !toy;
  if (toy) {
    const added = toy.added ? `, ${count(toy.added, 'point')} added by you` : '';
    $('toy-what').textContent = `${TOYS[toy.id].title}: ${TOYS[toy.id].what}. ${count(toy.train.y.length, 'training point')}${added}; ${toy.test.y.length} test points.`;
    $('clear-added').disabled = !toy.added;
  }
  const sel = $('target');
  sel.replaceChildren(...ds.columns.map((c, i) => new Option(c.name, String(i))));
  sel.value = String(ds.target);
  // A generated set's target is its class: the playground draws classes.
  sel.disabled = !!toy;
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
  if (!app.current) return;
  const { ds } = app.current;
  const steps = [];
  if (ds.missingCells) steps.push(`fill ${ds.missingCells} missing cells with training means (or most frequent category)`);
  steps.push(app.settings.std ? 'centre and scale each column' : 'keep columns as they are');
  if (app.settings.unit) steps.push('scale rows to unit length');
  $('prep-note').textContent = `Before learning: ${steps.join(', then ')}.`;
}

function clearResults() {
  app.pictures = null;
  app.comparisons = [];
  app.lastRun = null;
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

/**
 * The sample rows of current preprocessed as a fit would (by the engine,
 * with statistics of all rows), computed once per data set and
 * preprocessing.
 */
async function sampleMatrix(current, settings, control) {
  const key = JSON.stringify([current.id, settings.std, settings.unit]);
  if (app.sample?.key !== key) app.sample = { key, X: await preprocessed(app.engine, current.ds, settings, current.sample, control) };
  return app.sample.X;
}

/** Recomputes the heatmaps soon (settings moving fast replace each other). */
function refreshPicturesSoon() {
  clearTimeout(app.picturesTimer);
  app.picturesTimer = setTimeout(refreshPictures, 150);
}

async function refreshPictures() {
  if (!app.current) return;
  const { engine, current } = app;
  // The settings of this run: the controls may move while it runs.
  const settings = { ...app.settings };
  const method = settings.method, m = dim(settings);
  const spec = targetKernel(settings, method);
  const name = app.vocab.methods[method].name;
  $('sample-note').textContent = `${current.sample.length} of ${current.ds.X.rows} rows, sorted by target; exact kernel: ${kernelName(spec)}.`;
  $('cap-exact').textContent = `exact kernel K (${kernelName(spec)})`;
  const outcome = await run('kernel pictures', 'pictures', async (ctl, signal) => {
    const X = await sampleMatrix(current, settings, ctl(0, 3));
    check(signal);
    // A new exact kernel is drawn first, as immediate feedback; when only
    // the features change, the old pictures stay until the new ones are in.
    // The key names the data set by its serial: two files may share a name.
    const key = JSON.stringify([current.id, settings.std, settings.unit, spec]);
    if (app.pictures?.key !== key) {
      const K = await engine.kernel(X, null, { ...spec, ...ctl(1, 3) });
      check(signal);
      app.pictures = { key, K, approx: null };
      drawPictures();
    }
    const c = await compareOn(engine, X, settings, method, m, ctl(2, 3), true);
    check(signal);
    app.pictures = { key, K: c.K, approx: c.approx };
    app.comparisons = app.comparisons.filter((r) => r.kind !== 'current');
    app.comparisons.push(comparisonRow('current', method, m, c));
    $('export-compare').disabled = false;
    drawPictures();
    const spectral = Number.isFinite(c.spectral) ? `, spectral condition number ${short(c.spectral)} (1 is perfect)` : '';
    $('compare-numbers').dataset.rel = String(c.relFrobenius);
    $('compare-numbers').textContent =
      `${name}, m = ${m}: relative error ‖ΦΦᵀ − K‖/‖K‖ = ${short(c.relFrobenius)}${spectral}. ` +
      `Time: exact kernel ${seconds(c.seconds.exact * 1000)}, features ${seconds(c.seconds.features * 1000)}.`;
  }, { fallback: 'try a smaller Features m or another Method' });
  if (!outcome.ok && outcome.why === 'failed') {
    // The numbers of earlier settings would pass for these ones.
    delete $('compare-numbers').dataset.rel;
    $('compare-numbers').textContent = `No comparison for ${name}, m = ${m}: it failed (the message at the top says why).`;
  }
}

function drawPictures() {
  if (!app.pictures) return;
  const { K, approx } = app.pictures;
  const { lo, hi, diff, s } = pictureScales(K, approx, app.settings.magnify);
  drawHeatmap($('map-exact'), K, SEQUENTIAL, lo, hi);
  drawLegend($('legend-seq'), $('ticks-seq'), SEQUENTIAL, lo, hi);
  $('note-seq').textContent = 'K and ΦΦᵀ: 1st to 99th percentile, beyond clipped';
  if (!approx) {
    clearHeatmap($('map-approx'));
    clearHeatmap($('map-diff'));
    return;
  }
  drawHeatmap($('map-approx'), approx, SEQUENTIAL, lo, hi);
  drawHeatmap($('map-diff'), diff, DIVERGING, -s, s);
  drawLegend($('legend-div'), $('ticks-div'), DIVERGING, -s, s);
  $('note-div').textContent = app.settings.magnify ? 'difference: ± its largest value' : 'difference: ± the kernel scale';
}

/** Shows the entries under the pointer: rows i and j of the sample, K, ΦΦᵀ and their difference. */
function showEntry(e) {
  if (!app.pictures) return;
  const { K, approx } = app.pictures;
  const box = e.currentTarget.getBoundingClientRect();
  const j = Math.floor(((e.clientX - box.left) / box.width) * K.cols);
  const i = Math.floor(((e.clientY - box.top) / box.height) * K.rows);
  if (i < 0 || j < 0 || i >= K.rows || j >= K.cols) return;
  const k = K.data[i * K.cols + j];
  const rows = `rows ${app.current.sample[i] + 1} and ${app.current.sample[j] + 1}`;
  $('hover').textContent = approx
    ? `${rows}: K = ${short(k)}, ΦΦᵀ = ${short(approx.data[i * K.cols + j])}, difference ${short(approx.data[i * K.cols + j] - k)}`
    : `${rows}: K = ${short(k)}`;
}

// ---------------------------------------------------------------- error vs m

async function runSweep() {
  if (!app.current) return;
  const current = app.current, settings = { ...app.settings };
  const t0 = performance.now();
  let done = 0;
  const outcome = await run('error vs m', 'sweep', async (ctl, signal) => {
    const X = await sampleMatrix(current, settings, { signal });
    check(signal);
    return sweep(app.engine, X, settings, ctl, signal, (rows) => {
      done = rows.length;
      drawSweep(rows);
    });
  }, { failStatus: () => `Error vs m failed after ${done} of ${SWEEP_STEPS} comparisons; the charts show those.` });
  if (!outcome.ok) return;
  const rows = outcome.value;
  app.comparisons = app.comparisons.filter((r) => r.kind !== 'sweep').concat(rows);
  $('export-compare').disabled = false;
  say(`Error vs m: ${rows.length} comparisons on ${current.sample.length} rows in ${seconds(performance.now() - t0)}.`);
}

function drawSweep(rows) {
  const x = { label: 'features m', log: true, ticks: [64, 256, 1024, 4096] };
  const size = [280, 210];
  const key = (names) => names.map((name, i) => {
    const item = document.createElement('span');
    const swatch = document.createElement('span');
    swatch.className = `swatch s${i}`;
    item.append(swatch, name);
    return item;
  });
  $('sweep-key').replaceChildren(...key([...SWEEP_METHODS.map((mth) => app.vocab.methods[mth]?.name ?? mth), 'exact kernel (time only)']));
  lineChart($('sweep-chart'), { series: sweepSeries(rows, 'relFrobenius'), x, y: { label: 'relative error', log: true }, size, key: false });
  if (rows.some((r) => Number.isFinite(r.spectral))) {
    lineChart($('cond-chart'), { series: sweepSeries(rows, 'spectral'), x, y: { label: 'condition number', log: true }, size, key: false });
  }
  lineChart($('time-chart'), {
    series: [...sweepSeries(rows, 'featureSeconds'), { name: 'exact kernel', points: exactTimes(rows) }],
    x,
    y: { label: 'seconds', log: true },
    key: false,
    size,
  });
}

// ---------------------------------------------------------------- training

async function train() {
  if (!app.current) return;
  const { ds, name } = app.current;
  if (untrainable(ds)) {
    showError(`${ds.targetName} has one class only (${quote(ds.classes[0] ?? '')}): there is nothing to tell apart; choose another Target.`, { lane: 'train', control: { id: 'target' } });
    say('Not trained.');
    return;
  }
  // The settings of this run: the controls may move while it runs.
  const plan = trainingPlan(app.settings, ds, app.search);
  // Pressing Train chooses its model, unless a model file is chosen before it ends.
  const choice = ++app.choices;
  // The previous run's charts and model would pass for this run's until it ends.
  app.lastRun = null;
  dropModel('trained');
  $('export-pred').disabled = true;
  clearChart($('train-chart'));
  clearChart($('lambda-chart'));
  $('train-result').replaceChildren(line('Training…'));
  say(`Training on ${name}…`);
  const outcome = await run('training', 'train', (ctl, signal) => trainAndTest(app.engine, ds, plan, ctl, signal),
    { fallback: 'try Standardize columns, a smaller Features m or another Method' });
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
  app.speed = measuredSpeed(result.work, result.rfMs, app.engine.workers);
  app.lastRun = { ...result, ds, name, method: plan.method, m: plan.m, kernel: plan.kernel };
  const rows = plan.evaluation === 'split' ? `its ${count(result.modelRows, 'training row')}` : `all ${count(result.modelRows, 'row')} (the folds only measure)`;
  // Described by its file: the depth 'auto' chose, not the 'auto' sent.
  setModel('trained', result.model, modelFileName(name, plan.method), `Trained on ${name}, ${rows}.`, { features: result.model.toJSON().features }, choice);
  showTraining(app.lastRun);
  if (app.inUse !== app.trained) say(`Trained on ${name}; the model in use stays ${app.inUse.fileName}, loaded after Train was pressed.`);
  showCost();
  $('export-pred').disabled = false;
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
  const by = r.curve ? ` (by validated ${r.curve.accuracy ? 'accuracy' : 'squared error'})` : '';
  const lambda = r.lambda.length > 1 ? `λ = ${short(Math.min(...r.lambda))} … ${short(Math.max(...r.lambda))} over the folds${by}` : `λ = ${short(r.lambda[0])}${by}`;
  box.append(line(`${app.vocab.methods[r.method].name}, m = ${r.m}, on ${r.how}; ${lambda}; fit and predict ${seconds(r.rfMs)}.`));
  if (r.selection) box.append(line(selectionText(r.selection), 'selection'));
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
    const acc = r.curve.accuracy;
    const value = (p) => (acc ? p.accuracy : p.score);
    lineChart($('lambda-chart'), {
      series: [{ name: acc ? 'validated accuracy' : 'validated squared error', points: r.curve.points.map((p) => [p.lambda, value(p)]) }],
      x: { label: 'λ (log)', log: true },
      y: acc ? { label: 'validated accuracy' } : { label: 'validation MSE (log)', log: true },
      marks: best ? [{ x: best.lambda, y: value(best), label: 'chosen' }] : [],
    });
  } else {
    clearChart($('lambda-chart'));
  }
  say(`Trained on ${app.current.name}: ${main.name} ${main.text}.`);
}

// ---------------------------------------------------------------- models

/**
 * Makes model the trained or loaded one (kind): origin says where it comes
 * from, spec holds the features or kernel options of its file, choice when
 * the user chose it (app.choices). It is the one in use unless the user
 * chose the other one later (a model file loaded while this one trained).
 * The model it replaces is disposed.
 */
function setModel(kind, model, fileName, origin, spec, choice) {
  dropModel(kind);
  app[kind] = { model, fileName, origin, about: describeModel(spec, model), choice };
  app.inUse = lastChosen();
  showModel();
}

/** The trained or loaded model the user chose last, or null. */
function lastChosen() {
  const { trained, loaded } = app;
  if (!trained || !loaded) return trained ?? loaded;
  return loaded.choice > trained.choice ? loaded : trained;
}

/** Forgets the trained or loaded model; the other one, if any, is then in use. */
function dropModel(kind) {
  const old = app[kind];
  if (!old) return;
  old.model.dispose();
  app[kind] = null;
  app.inUse = lastChosen();
  showModel();
}

function showModel() {
  const box = $('model-info');
  const use = app.inUse;
  if (!use) {
    box.replaceChildren(line('No model yet: train one above, or load a model file.'));
  } else {
    const title = document.createElement('p');
    const strong = document.createElement('strong');
    strong.textContent = use.about.title;
    title.append('In use: ', strong);
    box.replaceChildren(title, line(use.origin), ...use.about.lines.map((t) => line(t)));
    // A training that ended after a model file was chosen: its model waits, to download.
    if (app.trained && app.trained !== use) {
      box.append(line(`The model trained on ${app.trained.origin.replace(/^Trained on /, '').replace(/\.$/, '')} is not in use: ${use.fileName} was loaded after Train was pressed, and the last choice wins. Download the trained model, or train again to use it.`, 'not-in-use'));
    }
  }
  box.dataset.model = use ? use.fileName : '';
  renderJobs();
}

async function loadModelFile(file) {
  if (!file) return;
  // Picking the file chooses its model, over a training still running.
  const choice = ++app.choices;
  const name = file.name;
  say(`Reading the model ${name}…`);
  const outcome = await run(`reading ${shortName(name)}`, 'model', async (ctl, signal) => {
    if (file.size > MAX_MODEL_BYTES) throw new Error(`it is ${formatBytes(file.size)}, and this page reads model files up to ${formatBytes(MAX_MODEL_BYTES)}`);
    const text = await file.text();
    check(signal);
    // The text itself, read by Go as native ntkrf reads it (JSON.parse
    // would drop a repeated field and the ".0" of 64.0); it says what is
    // wrong with a bad file.
    const model = await app.engine.loadModel(text, ctl(0, 1));
    const obj = JSON.parse(text);
    return { model, spec: { features: obj.features, kernel: obj.kernel } };
  }, {
    where: 'load',
    failText: (text) => `Could not load the model ${name}: ${text}.${app.inUse ? ` The model in use stays: ${app.inUse.fileName}.` : ''}`,
    failStatus: () => `The model ${name} was not loaded.`,
  });
  if (!outcome.ok) return;
  setModel('loaded', outcome.value.model, name, `Loaded from ${name}.`, outcome.value.spec, choice);
  showPredictions(null);
  say(`Loaded the model ${name}: ${app.loaded.about.title}.${app.loaded.about.readsCSV ? ' Choose a CSV file to predict.' : ''}`);
}

async function predictFile(file) {
  if (!file || !app.inUse) return;
  const use = app.inUse, name = file.name;
  say(`Predicting ${name}…`);
  const outcome = await run(`predicting ${shortName(name)}`, 'model', async (ctl, signal) => {
    const bytes = await readFile(file);
    check(signal);
    return use.model.predictCSV(bytes, ctl(0, 1));
  }, {
    where: 'load',
    failText: (text) => `Could not predict ${name} with ${use.fileName}: ${text}.`,
    failStatus: () => `${name} was not predicted.`,
  });
  if (!outcome.ok) return;
  showPredictions({ values: outcome.value, fileName: name, targetName: use.model.input?.targetName ?? '', model: use.fileName });
  say(`Predicted ${count(outcome.value.length, 'row')} of ${name} with ${use.fileName}.`);
}

/** Shows the first predictions of a file (p), or none (null). */
function showPredictions(p) {
  app.predicted = p;
  const box = $('predict-result');
  const table = $('predict-table');
  table.replaceChildren();
  box.dataset.rows = p ? String(p.values.length) : '';
  if (!p) {
    $('predict-note').textContent = '';
    renderJobs();
    return;
  }
  const { header, rows } = predictionTable(p.values.slice(0, SHOWN_PREDICTIONS), p.targetName);
  const head = table.createTHead().insertRow();
  for (const h of header) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = h;
    head.append(th);
  }
  const body = table.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    for (const v of r) tr.insertCell().textContent = typeof v === 'number' && !Number.isInteger(v) ? short(v) : String(v);
  }
  const more = p.values.length - rows.length;
  $('predict-note').textContent = `${count(p.values.length, 'prediction')} for ${p.fileName} by ${p.model}${more > 0 ? `; the first ${rows.length} are shown, the export has all` : ''}.`;
  renderJobs();
}

function downloadModel() {
  if (!app.trained) return;
  download(app.trained.fileName, JSON.stringify(app.trained.model), 'application/json');
  say(`Downloaded the model as ${app.trained.fileName}.`);
}

function exportModelPredictions() {
  const p = app.predicted;
  if (!p) return;
  download(predictionFileName(p.fileName), predictionCSV(p.values, p.targetName));
  say(`Exported ${count(p.values.length, 'prediction')}.`);
}

// ---------------------------------------------------------------- export

/** Saves text (a string or Blob parts) as a file of type. */
function download(fileName, parts, type = 'text/csv') {
  const url = URL.createObjectURL(new Blob(Array.isArray(parts) ? parts : [parts], { type }));
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

function exportPredictions() {
  if (!app.lastRun) return;
  const { text, rows } = predictionsCSV(app.lastRun);
  download(`${baseName(app.current.name)}-predictions.csv`, text);
  say(`Exported ${rows} predictions.`);
}

function exportComparison() {
  const { text, rows } = comparisonsCSV(app.comparisons);
  download(`${baseName(app.current.name)}-comparison.csv`, text);
  say(`Exported ${rows} comparison rows.`);
}

async function exportFeatures() {
  if (!app.current) return;
  const { ds, name } = app.current;
  const m = dim(app.settings), method = app.settings.method, file = `${baseName(name)}-features-${method}-m${m}.csv`;
  if (ds.X.rows * m > MAX_EXPORT_VALUES) {
    showError(`Exporting ${ds.X.rows} × ${m} features would make a CSV of about ${formatBytes(ds.X.rows * m * 20)}; choose a smaller Features m (at most ${MAX_EXPORT_VALUES.toLocaleString('en')} numbers in all).`, { control: { id: 'dim' } });
    say('The features were not exported.');
    return;
  }
  const settings = { ...app.settings };
  const options = featureOptions(settings, method, m);
  const outcome = await run('features export', 'export', async (ctl, signal) => {
    const X = await preprocessed(app.engine, ds, settings, null, ctl(0, 3));
    check(signal);
    const P = await app.engine.features(X, { ...options, ...ctl(1, 3) });
    check(signal);
    return { parts: await featuresCSV(P, ds, signal, ctl(2, 3).onProgress), rows: P.rows, cols: P.cols };
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
  // A file dropped anywhere is loaded (instead of the browser opening it):
  // a model file as the model, any other as data.
  const drop = $('drop');
  document.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  document.addEventListener('dragleave', (e) => { if (!e.relatedTarget) drop.classList.remove('over'); });
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const file = e.dataTransfer?.files[0];
    if (file && /\.json$/i.test(file.name) && app.settings) loadModelFile(file);
    else loadFile(file);
  });
  $('target').addEventListener('change', (e) => {
    const { name, bytes, bundled, ds } = app.current;
    load(name, () => bytes, { bundled, target: ds.columns[+e.target.value].name, where: 'run' });
  });

  const setting = (id, key, read, after) => {
    // Number boxes take a value when it is complete; sliders as they move.
    $(id).addEventListener($(id).type === 'number' ? 'change' : 'input', () => {
      if (!app.settings) return;
      const v = read($(id));
      if (v === undefined) return;
      app.settings[key] = v;
      save();
      showDerived();
      after?.();
    });
  };
  // A whole number in the setting's range, or the value stays and the status says why.
  const intIn = (key, what) => (el) => {
    const { min, max } = app.vocab.settings[key];
    const v = Number(el.value);
    if (Number.isInteger(v) && v >= min && v <= max) return v;
    el.value = app.settings[key];
    say(`${what} must be a whole number from ${min} to ${max}; it stays ${el.value}.`);
    return undefined;
  };
  setting('standardize', 'std', (el) => el.checked, () => { showPrep(); refreshPicturesSoon(); });
  setting('unitnorm', 'unit', (el) => el.checked, () => { showPrep(); refreshPicturesSoon(); });
  // Settings of the features redraw the kernel pictures and the surfaces.
  const both = () => { refreshPicturesSoon(); play.redrawSoon(); };
  setting('depth', 'depth', (el) => +el.value, both);
  setting('dim', 'logm', (el) => +el.value, both);
  setting('lambda', 'lam', (el) => +el.value, play.redrawSoon);
  setting('lambda-auto', 'lamauto', (el) => el.checked, play.redrawSoon);
  setting('method', 'method', (el) => el.value, refreshPicturesSoon);
  setting('sketch', 'sketch', (el) => el.value, both);
  setting('sampler', 'sampler', (el) => el.value, both);
  setting('seed', 'seed', intIn('seed', 'Seed'), both);
  setting('noise', 'noise', (el) => +el.value, reloadToySoon);
  setting('points', 'points', (el) => +el.value, reloadToySoon);
  setting('dseed', 'dseed', intIn('dseed', 'Data seed'), reloadToySoon);
  setting('labels', 'labels', (el) => +el.value);
  setting('eval', 'eval', (el) => el.value);
  setting('testfrac', 'test', (el) => +el.value);
  setting('kfolds', 'k', intIn('k', 'Folds k'));
  setting('auto', 'auto', (el) => el.checked);
  setting('exact', 'exact', (el) => el.checked);
  setting('magnify', 'magnify', (el) => el.checked, drawPictures);

  // A link pasted into the address bar of an open page changes only the hash
  // (before the engine has started, the hash is read when it has).
  window.addEventListener('hashchange', () => {
    if (!app.settings) return;
    const { state: next, rejected } = readHash(app.table);
    const notes = [linkNotice(rejected, next)];
    // A link cannot carry a file: the data loaded now stays.
    if (next.data === 'file') {
      if (app.current && app.current.bundled) notes.push(`The link names your own file, which links cannot carry; ${app.current.name} stays loaded.`);
      next.data = app.settings.data;
      next.target = app.settings.target;
    }
    // A generated set is drawn again from its size, noise and seed.
    const regenerate = isToy(next.data) && ['noise', 'points', 'dseed'].some((k) => next[k] !== app.settings[k]);
    const reload = next.data !== app.settings.data || next.target !== app.settings.target || regenerate;
    app.settings = next;
    showSettings();
    notify(notes.filter(Boolean).join(' '));
    if (reload) loadBundled(next.data, next.target);
    else {
      refreshPicturesSoon();
      play.redrawSoon();
    }
  });
  for (const id of ['map-exact', 'map-approx', 'map-diff']) $(id).addEventListener('pointermove', showEntry);
  $('resample').addEventListener('click', () => {
    const { max } = app.vocab.settings.dseed;
    app.settings.dseed = app.settings.dseed >= max ? 0 : app.settings.dseed + 1;
    $('dseed').value = app.settings.dseed;
    save();
    reloadToySoon();
  });
  $('clear-added').addEventListener('click', clearAdded);
  $('run-sweep').addEventListener('click', runSweep);
  $('train').addEventListener('click', train);
  $('cancel').addEventListener('click', () => {
    const labels = app.jobs.stopAll('cancelled');
    if (labels.length) say(`Cancelled ${labels.join(' and ')}. You can start again.`);
  });
  $('alert-close').addEventListener('click', hideError);
  $('notice-close').addEventListener('click', () => notify(''));
  $('export-pred').addEventListener('click', exportPredictions);
  $('export-compare').addEventListener('click', exportComparison);
  $('export-features').addEventListener('click', exportFeatures);
  $('download-model').addEventListener('click', downloadModel);
  for (const [id, handle] of [['model-file', loadModelFile], ['predict-file', predictFile]]) {
    $(id).addEventListener('change', (e) => {
      const file = e.target.files[0];
      e.target.value = ''; // so that choosing the same file again reads it again
      handle(file);
    });
  }
  $('export-model-pred').addEventListener('click', exportModelPredictions);
}

async function main() {
  datasetOptions(null);
  bind();
  renderJobs();
  // A file chosen before this module ran is in the input already.
  if ($('file').files[0]) $('file').dispatchEvent(new Event('change'));
  try {
    app.engine = await createEngine();
  } catch (e) {
    app.engineStarted(null);
    showError(`The WebAssembly engine did not start: ${wording(e)?.text ?? e}. This page needs a browser with WebAssembly and module workers.`);
    say('Engine not available.');
    $('stage').textContent = 'no engine';
    return;
  }
  const has = (op) => typeof app.engine[op] === 'function';
  const missing = ['features', 'parseCSV', 'previewCSV', 'fitRidge', 'compare', 'split', 'kfold', 'score', 'preprocess', 'take', 'loadModel', 'selectActive'].filter((op) => !has(op));
  if (missing.length) showError(`This build of ntkrf lacks ${missing.join(', ')}; the parts of the page that need them will fail.`);
  // The menus, ranges and defaults come from the engine's own option table.
  app.vocab = vocabulary(app.engine.schema);
  app.table = hashTable(app.vocab);
  // Opened without a link, the page shows the playground's spiral.
  const landing = !linked();
  const { state, rejected } = readHash(app.table);
  if (landing) state.data = LANDING;
  app.settings = state;
  buildControls(app.vocab);
  app.search = autoSearch(app.engine.schema);
  showAutoHelp(app.search);
  datasetOptions(app.current && !app.current.bundled ? app.current.name : null);
  showSettings();
  showModel();
  notify(linkNotice(rejected, state), { append: true });
  app.engineStarted(app.engine);
  // The link's data set, unless the user chose data while the engine started.
  if (app.loadsStarted === 0) {
    if (state.data === 'file') notify('The link names your own file, which links cannot carry: iris.csv is loaded instead.', { append: true });
    await loadBundled(state.data === 'file' ? 'iris' : state.data, state.target);
  }
  document.body.dataset.ready = '1';
}

const play = createPlayground({ app, run, say, addPoint });

main();
