// Panel 6, Save the model, predict new rows: the trained and the loaded
// model, which one is in use (the last chosen), its download, and the
// predictions of a CSV file.
import { $, line, download } from './dom.js';
import { readFile, formatBytes } from './data.js';
import { short } from './heatmap.js';
import { check } from './jobs.js';
import { shortName, count } from './format.js';
import { MAX_MODEL_BYTES, SHOWN_PREDICTIONS, describeModel, predictionTable, predictionCSV, predictionFileName } from './models.js';

export function createModelPanel({ app, page }) {
  const { say, run } = page;

  /**
   * Makes model the trained or loaded one (kind): origin says where it comes
   * from, spec holds the features or kernel options of its file, choice when
   * the user chose it (app.choices). It is the one in use unless the user
   * chose the other one later (a model file loaded while this one trained).
   * The model it replaces is disposed.
   */
  function set(kind, model, fileName, origin, spec, choice) {
    drop(kind);
    app[kind] = { model, fileName, origin, about: describeModel(spec, model), choice };
    putInUse(lastChosen());
  }

  /** Makes model the one in use; the predictions of another model go with it. */
  function putInUse(model) {
    app.inUse = model;
    if (app.predicted && app.predicted.by !== model) showPredictions(null);
    show();
  }

  /** The trained or loaded model the user chose last, or null. */
  function lastChosen() {
    const { trained, loaded } = app;
    if (!trained || !loaded) return trained ?? loaded;
    return loaded.choice > trained.choice ? loaded : trained;
  }

  /** Forgets the trained or loaded model; the other one, if any, is then in use. */
  function drop(kind) {
    const old = app[kind];
    if (!old) return;
    old.model.dispose();
    app[kind] = null;
    putInUse(lastChosen());
  }

  function show() {
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
    page.renderJobs();
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
    set('loaded', outcome.value.model, name, `Loaded from ${name}.`, outcome.value.spec, choice);
    say(`Loaded the model ${name}: ${app.loaded.about.title}.${app.loaded.about.readsCSV ? ' Choose a CSV file to predict.' : ''}`);
  }

  async function predictFile(file) {
    if (!file || !app.inUse) return;
    const model = app.inUse, name = file.name;
    say(`Predicting ${name}…`);
    const outcome = await run(`predicting ${shortName(name)}`, 'model', async (ctl, signal) => {
      const bytes = await readFile(file);
      check(signal);
      return model.model.predictCSV(bytes, ctl(0, 1));
    }, {
      where: 'load',
      failText: (text) => `Could not predict ${name} with ${model.fileName}: ${text}.`,
      failStatus: () => `${name} was not predicted.`,
    });
    // A failed file leaves no table: the one shown would pass for its predictions.
    if (outcome.why === 'failed') showPredictions(null);
    if (!outcome.ok) return;
    if (app.inUse !== model) {
      say(`${name} was predicted with ${model.fileName}, which is no longer in use: predict it again with ${app.inUse?.fileName ?? 'a model'}.`);
      return;
    }
    showPredictions({ values: outcome.value, fileName: name, targetName: model.model.input?.targetName ?? '', model: model.fileName, by: model });
    say(`Predicted ${count(outcome.value.length, 'row')} of ${name} with ${model.fileName}.`);
  }

  /** Shows the first predictions of a file (p: { values, fileName, targetName, model, by: the model that made them }), or none (null). */
  function showPredictions(p) {
    app.predicted = p;
    const box = $('predict-result');
    const table = $('predict-table');
    table.replaceChildren();
    box.dataset.rows = p ? String(p.values.length) : '';
    if (!p) {
      $('predict-note').textContent = '';
      page.renderJobs();
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
    page.renderJobs();
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

  function renderJobs() {
    $('download-model').disabled = !app.trained;
    $('model-file').disabled = !app.settings;
    $('predict-file').disabled = !app.inUse?.about.readsCSV || app.jobs.busy('model');
    $('export-model-pred').disabled = !app.predicted;
  }

  function bind() {
    $('download-model').addEventListener('click', downloadModel);
    for (const [id, handle] of [['model-file', loadModelFile], ['predict-file', predictFile]]) {
      $(id).addEventListener('change', (e) => {
        const file = e.target.files[0];
        e.target.value = ''; // so that choosing the same file again reads it again
        handle(file);
      });
    }
    $('export-model-pred').addEventListener('click', exportModelPredictions);
    page.onJobs(renderJobs);
  }

  return { set, drop, show, loadModelFile, bind };
}
