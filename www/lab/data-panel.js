// Panel 1, Data: the data set menu, files, generated sets and the points
// added to them, the target, and what the data is and what preprocessing
// does to it. A load replaces the current data set (app.current); the
// other panels hear of it through newData() and loaded().
import { $, mark } from './dom.js';
import { LANDING, NAMES_SEP, splitNames } from './vocab.js';
import { NAMES } from './names.js';
import { BUNDLED, DATASETS, fetchBundled, readFile, sampleRows, renderPreview, summarizeList } from './data.js';
import { quote } from './messages.js';
import { check, isAbort, orAbort } from './jobs.js';
import { SAMPLE, preprocessOf, planeSplit } from './experiments.js';
import { shortName, count } from './format.js';
import { TOYS, TOY_IDS, isToy, toySet, withPoints, toyCSV, CLASS_NAMES, planeRefusal, tablePlane, sampleTable } from './toy.js';
import { lineRefusal, tableSet1d } from './line1d.js';
import { MAX_CLASSES } from './surface.js';

/**
 * The panel on the page's state: app, page (page.js), controls
 * (controls.js), newData() (the other panels drop their results, as the
 * load takes effect) and loaded() (they draw the new data, once it has).
 */
export function createDataPanel({ app, page, controls, newData, loaded, planeChosen = async () => {} }) {
  const { say, run, notify, wording } = page;
  let toyTimer = 0;

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
   * notice says so and the suggested column is the target (the engine's:
   * one named like a target, else the last); by: who chose target ('the
   * link', 'you'), as the Data panel says. where: 'load' for new
   * data (only the file can change), 'run' for the loaded data with another
   * Target. toy: the points of a generated set (their CSV text is source's).
   */
  async function load(name, source, { bundled = null, target = '', exclude = [], by = 'the link', where = 'load', toy = null, fresh = false } = {}) {
    app.loadsStarted++;
    mark(`load ${name}`);
    // A generated set's points are known now: the playground draws them
    // while the engine reads them as a table (app.pending, until this load
    // ends; the loaded set keeps this very plane).
    const early = toy ? { plane: { ...toy, classes: CLASS_NAMES } } : null;
    app.pending = early;
    // Its engine calls wait for the surfaces' full pictures (they would take CPU from them: the
    // first full pictures came ~50 ms sooner than when the load waited for the coarse ones only).
    if (early) early.drawn = planeChosen();
    try {
      return await loadNow(name, source, { bundled, target, exclude, by, where, toy, fresh, early });
    } finally {
      if (app.pending === early) app.pending = null;
    }
  }

  async function loadNow(name, source, { bundled, target, exclude, by, where, toy, fresh, early }) {
    say(`Reading ${name}…`);
    const still = () => (app.current ? ` ${app.current.name} is still loaded.` : '');
    const outcome = await run(`reading ${shortName(name)}`, 'load', async (ctl, signal) => {
      const bytes = await source(signal);
      check(signal);
      if (!app.engine) say(`Reading ${name}: waiting for the engine to start…`);
      const eng = await orAbort(app.engineReady, signal);
      check(signal);
      // The alert already says why the engine did not start.
      if (!eng) throw new DOMException('no engine', 'AbortError');
      if (early) await orAbort(early.drawn, signal);
      check(signal);
      const preview = await eng.previewCSV(bytes, { rows: 6, ...ctl(0, 2) });
      check(signal);
      // The link's target, else the column the engine suggests (one named like a target, or the last).
      const suggested = preview.names[preview.target] ?? preview.names.at(-1) ?? '';
      const opts = {};
      let note = '';
      if (target && preview.names.includes(target)) opts.target = target;
      else {
        if (target) note = `The link's target ${quote(target)} is not a column of ${name}; using ${quote(suggested)}: ${preview.targetWhy}.`;
        if (preview.target !== undefined && preview.target !== preview.names.length - 1) opts.target = preview.target;
      }
      // The columns to leave out: those of the file, never the target.
      const targetName = typeof opts.target === 'number' ? preview.names[opts.target] : opts.target ?? preview.names.at(-1);
      const lost = exclude.filter((n) => !preview.names.includes(n));
      if (lost.length) note += `${note ? ' ' : ''}The link leaves out ${lost.map(quote).join(', ')}, not ${lost.length === 1 ? 'a column' : 'columns'} of ${name}.`;
      const out = exclude.filter((n) => preview.names.includes(n) && n !== targetName);
      if (out.length) opts.exclude = out;
      // The Task control: 'auto' is the engine's rule (toy sets are classes).
      // A new file is read with 'auto': the Task set for the old one was about its target.
      if (!toy && !fresh && app.settings.task !== NAMES.Auto) opts.task = app.settings.task;
      let ds, why = preview.targetWhy;
      try {
        ds = await eng.parseCSV(bytes, { ...opts, ...ctl(1, 2) });
      } catch (e) {
        // Refused with the Task the user set: that is the control to change.
        if (opts.task && !isAbort(e) && typeof opts.target !== 'number') throw taskRefusal(e, opts.task);
        // A suggestion the file cannot be read with (its other columns unusable as inputs):
        // the last column, as parseCSV reads it by default.
        if (typeof opts.target !== 'number' || isAbort(e)) throw e;
        check(signal);
        delete opts.target;
        if (opts.exclude) opts.exclude = opts.exclude.filter((n) => n !== preview.names.at(-1));
        ds = await eng.parseCSV(bytes, { ...opts, ...ctl(1, 2) }).catch((e2) => { throw opts.task && !isAbort(e2) ? taskRefusal(e2, opts.task) : e2; });
        why = `the last column (with ${quote(suggested)}, named like a target, the file cannot be read: ${wording(e).text})`;
      }
      check(signal);
      if (ds.X.rows < 2) throw new Error(`it has ${ds.X.rows} usable row${ds.X.rows === 1 ? '' : 's'}; at least 2 are needed`);
      // The playground's points: a generated set's, or a drawable table's
      // (a sample of a large one, split by the engine); a one-column
      // regression table is drawn in one dimension. Else why not, in words.
      const planeWhy = toy ? '' : planeRefusal(ds, MAX_CLASSES);
      const plane = toy ? early.plane
        : !planeWhy ? await tablePlane(eng, ds, { ...planeSplit(app.settings), signal }) : null;
      check(signal);
      const lineWhy = toy ? '' : lineRefusal(ds);
      const line = !toy && !lineWhy ? await tableSet1d(eng, ds, sampleTable, { seed: app.settings.seed, signal }) : null;
      check(signal);
      // Runs on the previous data would report on the wrong one (the 1-D curves have their own data;
      // the surfaces of a generated set drawn as its load began are this data's).
      app.jobs.stopAll('new data', (j) => j.lane === 'load' || j.lane === 'line1d' || (!!early && j.lane === 'playground'));
      // What belonged to the old data and goes with it (the user's Depth, m and λ stay).
      const reset = fresh ? resetFor(ds) : [];
      app.current = { id: ++app.datasetSerial, name, bytes, bundled, preview, ds, sample: sampleRows(ds.y, SAMPLE), toy, plane, planeWhy, line, lineWhy };
      app.settings.data = bundled ?? 'file';
      // A link names the target only when it is not the suggested one.
      app.settings.target = ds.targetName === suggested ? '' : ds.targetName;
      app.current.targetWhy = opts.target === target ? `chosen by ${by}` : why;
      app.settings.exclude = ds.excluded.join(NAMES_SEP);
      controls.save();
      if (fresh) {
        // New data: an alert about the old data or its settings is out of date.
        page.hideError();
        controls.show();
      }
      datasetOptions(bundled ? null : name);
      showData();
      newData();
      if (note) notify(note, { append: true });
      const said = reset.length ? ` Reset for this file: ${reset.join('; ')}; Depth, Features m and λ are kept.` : '';
      if (said) notify(said.trim(), { append: true });
      $('reset-note').textContent = said.trim();
      say(`Loaded ${name}: ${count(ds.X.rows, 'row')}, ${ds.task}${ds.task === NAMES.Classification ? ` (${count(ds.classes.length, 'class', 'classes')})` : ''}.${said}`);
    }, {
      where,
      failText: (text) => `Could not load ${name}: ${text}.${still()}`,
      failStatus: () => `${name} was not loaded.${still()}`,
    });
    if (outcome.ok) {
      mark(`loaded ${name}`);
      loaded();
    }
    else if (outcome.why !== 'replaced') showCurrentChoice();
    return outcome.ok;
  }

  /**
   * The settings of the old data that a new data set ds resets, in words
   * ('Task auto (was regression)'): the task, a target chosen by name, the
   * columns left out. Sets them in app.settings.
   */
  function resetFor(ds) {
    const s = app.settings, out = [];
    if (s.task !== NAMES.Auto) {
      out.push(`Task ${NAMES.Auto} (was ${s.task})`);
      s.task = NAMES.Auto;
    }
    if (s.target && s.target !== ds.targetName) out.push(`Target ${quote(ds.targetName)} (was ${quote(s.target)})`);
    const was = splitNames(s.exclude);
    if (was.length && was.join(NAMES_SEP) !== ds.excluded.join(NAMES_SEP)) out.push(`Leave out ${ds.excluded.length ? ds.excluded.map((n) => quote(n)).join(', ') : 'none'} (was ${was.map((n) => quote(n)).join(', ')})`);
    return out;
  }

  /** A refusal of the file under the Task the user set, naming Task as the control to change. */
  function taskRefusal(e, task) {
    const text = wording(e, { where: 'load' })?.text ?? String(e?.message ?? e);
    return Object.assign(new Error(`${text}. Task is set to ${task}: set Task to ${NAMES.Auto} (or another task) to read this target`), { pageControl: 'task' });
  }

  /** Reads the loaded data set again (another Task, or other columns left out), keeping its target. */
  function reload(exclude = splitNames(app.settings.exclude)) {
    if (!app.current || app.current.toy) return;
    const { name, bytes, bundled, targetWhy } = app.current;
    const by = /^chosen by (.*)$/.exec(targetWhy)?.[1] ?? 'the link';
    load(name, () => bytes, { bundled, target: app.settings.target, exclude, by, where: 'run' });
  }

  /** Loads a bundled file or a generated set by its menu id (target and exclude: a link's). */
  function loadBundled(id, target = '', exclude = [], { fresh = false } = {}) {
    if (isToy(id)) return loadToy(id, { fresh });
    return load(BUNDLED[id].file, (signal) => fetchBundled(id, signal), { bundled: id, target, exclude, fresh });
  }

  /**
   * Generates the set id with the settings' noise, size and data seed, adds
   * the points added by clicks (dropped when the set changes), and loads the
   * training points as a CSV file would be: the panels below treat it as a
   * table, the playground draws it.
   */
  function loadToy(id, { fresh = false } = {}) {
    if (app.added.id !== id) app.added = { id, x: [], y: [] };
    const s = app.settings;
    const set = toySet(id, { n: s.points, noisePercent: s.noise, seed: s.dseed });
    const added = { x: Float64Array.from(app.added.x), y: Float64Array.from(app.added.y) };
    const toy = { id, train: withPoints(set.train, added), test: set.test, added: added.y.length };
    const bytes = new TextEncoder().encode(toyCSV(toy.train));
    return load(`${id}.csv`, () => bytes, { bundled: id, toy, fresh });
  }

  /** Generates the current set again soon (its sliders move fast) with the settings and added points. */
  function reloadToySoon() {
    clearTimeout(toyTimer);
    toyTimer = setTimeout(() => {
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
    load(file.name, () => readFile(file), { fresh: true });
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
    $('task').disabled = !!toy;
    const ex = $('exclude');
    ex.replaceChildren(...preview.names.filter((n) => n !== ds.targetName).map((n) => new Option(n, n, false, ds.excluded.includes(n))));
    ex.disabled = !!toy;
    $('target-why').textContent = toy ? '' : `Target ${quote(ds.targetName)}: ${app.current.targetWhy}.`;
    renderPreview($('preview'), preview);
    const categorical = ds.columns.filter((c, i) => i !== ds.target && c.kind === 'categorical').length;
    const facts = [
      ['task', ds.task === NAMES.Classification ? `${ds.task}, ${count(ds.classes.length, 'class', 'classes')}` : ds.task],
      ['rows', `${ds.X.rows}${ds.droppedRows ? ` (${ds.droppedRows} dropped: no target)` : ''}`],
      ['features', `${ds.X.cols}${categorical ? ` (${categorical} categorical columns one-hot)` : ''}`],
      ['missing', ds.missingCells ? `${ds.missingCells} cells` : 'none'],
    ];
    if (ds.task === NAMES.Classification) facts.push(['classes', summarizeList(ds.classes)]);
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
    controls.showCost();
  }

  function showPrep() {
    if (!app.current) return;
    const { ds } = app.current;
    const steps = [];
    if (ds.missingCells) steps.push(`fill ${ds.missingCells} missing cells with training means (or most frequent category)`);
    steps.push(app.settings.std ? 'centre and scale each column' : 'keep columns as they are');
    if (app.settings.unit) steps.push('scale rows to unit length');
    const { bias } = preprocessOf(app.settings);
    if (bias) steps.push(`append a bias input of ${bias} × the rows' root-mean-square length`);
    // The playground's pictures and Train (with auto off) use this preprocessing; auto chooses its own.
    $('prep-note').textContent = `Before learning: ${steps.join(', then ')}.${app.settings.auto ? ' Train with auto chooses the preprocessing itself.' : ''}`;
  }

  function bind() {
    $('dataset').addEventListener('change', (e) => {
      if (e.target.value !== 'file') loadBundled(e.target.value, '', [], { fresh: true });
    });
    $('file').addEventListener('change', (e) => {
      const file = e.target.files[0];
      e.target.value = ''; // so that choosing the same file again reloads it
      loadFile(file);
    });
    $('target').addEventListener('change', (e) => {
      const { name, bytes, bundled, ds } = app.current;
      load(name, () => bytes, { bundled, target: ds.columns[+e.target.value].name, exclude: ds.excluded, by: 'you', where: 'run' });
    });
    $('exclude').addEventListener('change', (e) => reload([...e.target.selectedOptions].map((o) => o.value)));
    $('resample').addEventListener('click', () => {
      const { max } = app.vocab.settings.dseed;
      app.settings.dseed = app.settings.dseed >= max ? 0 : app.settings.dseed + 1;
      $('dseed').value = app.settings.dseed;
      controls.save();
      reloadToySoon();
    });
    $('clear-added').addEventListener('click', clearAdded);
  }

  return { datasetOptions, loadBundled, loadFile, reload, reloadToySoon, addPoint, showPrep, bind };
}
