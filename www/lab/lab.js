// The lab page's entry: it makes the page's state (app.js) and its voice
// (page.js), builds one module per panel on them, wires what one panel's
// change means to the others, and awaits the engine. The panels:
// playground.js (the playground and active learning), data-panel.js (1),
// controls.js (the settings' controls, from vocab.js's table, and panel 2's
// cost line), compare-panel.js (3), train-panel.js (4), sweep-panel.js (5),
// model-panel.js (6); engine.js starts the engine as the page loads. What a run computes lives in DOM-free modules
// (experiments.js, sweep.js, cost.js, jobs.js, downloads.js, models.js,
// vocab.js, state.js, messages.js, toy.js, surface.js, active.js).
import { starting } from './engine.js';
import { vocabulary, LANDING, splitNames } from './vocab.js';
import { hashTable, readHash, linked } from './state.js';
import { linkNotice } from './messages.js';
import { autoSearch } from './experiments.js';
import { setCosts } from './cost.js';
import { prepName } from './models.js';
import { isToy } from './toy.js';
import { $ } from './dom.js';
import { createApp } from './app.js';
import { createPage } from './page.js';
import { createControls } from './controls.js';
import { createDataPanel } from './data-panel.js';
import { createComparePanel } from './compare-panel.js';
import { createSweepPanel } from './sweep-panel.js';
import { createTrainPanel } from './train-panel.js';
import { createModelPanel } from './model-panel.js';
import { createPlayground } from './playground.js';

const app = createApp(() => page.renderJobs());
const page = createPage(app);
const compare = createComparePanel({ app, page });
const sweep = createSweepPanel({ app, page, sampleMatrix: compare.sampleMatrix });
const models = createModelPanel({ app, page });
// What a moved control redraws (vocab.js SETTINGS' redraw lists).
const controls = createControls({
  app,
  page,
  redraws: {
    reload: () => data.reload(),
    prep: () => data.showPrep(),
    pictures: () => compare.refreshSoon(),
    heatmaps: () => compare.draw(),
    surfaces: () => play.redrawSoon(),
    toy: () => data.reloadToySoon(),
  },
});
const train = createTrainPanel({ app, page, models, controls });
const data = createDataPanel({
  app,
  page,
  controls,
  newData: () => {
    compare.clear();
    sweep.clear();
    train.clear();
  },
  loaded: () => {
    play.dataChanged();
    // The kernel pictures (panel 3, below) wait for the surfaces, so that
    // their engine calls do not take CPU from the page's first pictures.
    play.surfacesDrawn().then(() => compare.refresh());
  },
  planeChosen: () => play.planeChosen(),
});
const play = createPlayground({ app, run: page.run, say: page.say, addPoint: data.addPoint });
page.onJobs(play.renderJobs);

/** The 'auto' checkbox's help, with the engine's own candidates and sample size. */
function showAutoHelp(search) {
  if (!search) return;
  const { depths, preprocess, rows } = search;
  $('auto-help').textContent = `Tries depths ${depths[0]}–${depths[depths.length - 1]}, each with ${preprocess.map(prepName).join(' or ')}, by leave-one-out with the exact kernel on up to ${rows} training rows, and keeps the lowest depth within one standard error of the best (a sample cannot rank closer candidates, and lower depths are cheaper); the depth and preprocessing controls above then shape only the pictures.`;
}

/** A link pasted into the address bar of an open page changes only the hash (before the engine has started, the hash is read when it has). */
function followLink() {
  if (!app.settings) return;
  const { state: next, rejected } = readHash(app.table);
  const notes = [linkNotice(rejected, next)];
  // A link cannot carry a file: the data loaded now stays.
  if (next.data === 'file') {
    if (app.current && app.current.bundled) notes.push(`The link names your own file, which links cannot carry; ${app.current.name} stays loaded.`);
    next.data = app.settings.data;
    next.target = app.settings.target;
    next.exclude = app.settings.exclude;
  }
  // A generated set is drawn again from its size, noise and seed.
  const regenerate = isToy(next.data) && ['noise', 'points', 'dseed'].some((k) => next[k] !== app.settings[k]);
  const reload = next.data !== app.settings.data || next.target !== app.settings.target || next.exclude !== app.settings.exclude || next.task !== app.settings.task || regenerate;
  app.settings = next;
  controls.show();
  page.notify(notes.filter(Boolean).join(' '));
  if (reload) data.loadBundled(next.data, next.target, splitNames(next.exclude));
  else {
    compare.refreshSoon();
    play.redrawSoon();
  }
}

function bind() {
  data.bind();
  controls.bind();
  compare.bind();
  sweep.bind();
  train.bind();
  models.bind();
  // A file dropped anywhere is loaded (instead of the browser opening it):
  // a model file as the model, any other as data.
  const drop = $('drop');
  document.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  document.addEventListener('dragleave', (e) => { if (!e.relatedTarget) drop.classList.remove('over'); });
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const file = e.dataTransfer?.files[0];
    if (file && /\.json$/i.test(file.name) && app.settings) models.loadModelFile(file);
    else data.loadFile(file);
  });
  window.addEventListener('hashchange', followLink);
  // The header's buttons bring a panel into view (below the sticky header)
  // and focus its first step: the file input, the Train button.
  for (const b of document.querySelectorAll('.jump [data-goto]')) {
    b.addEventListener('click', () => {
      const panel = $(b.dataset.goto);
      const target = b.dataset.focus ? $(b.dataset.focus) : null;
      panel.scrollIntoView({ block: 'start' });
      if (target && !target.disabled) target.focus({ preventScroll: true });
    });
  }
  $('cancel').addEventListener('click', () => {
    const labels = app.jobs.stopAll('cancelled');
    if (labels.length) page.say(`Cancelled ${labels.join(' and ')}. You can start again.`);
  });
  $('alert-close').addEventListener('click', page.hideError);
  $('notice-close').addEventListener('click', () => page.notify(''));
}

/**
 * Keeps a focused control clear of the sticky header: the page scrolls
 * focus into view below it, whatever its height (an alert makes it taller).
 */
function keepFocusVisible() {
  const header = document.querySelector('.top');
  const pad = () => {
    const sticky = getComputedStyle(header).position === 'sticky';
    document.documentElement.style.scrollPaddingTop = sticky ? `${header.offsetHeight + 8}px` : '';
  };
  new ResizeObserver(pad).observe(header);
  window.addEventListener('resize', pad);
  pad();
}

async function main() {
  keepFocusVisible();
  data.datasetOptions(null);
  bind();
  page.renderJobs();
  // A file chosen before this module ran is in the input already.
  if ($('file').files[0]) $('file').dispatchEvent(new Event('change'));
  try {
    app.engine = await starting;
  } catch (e) {
    app.engineStarted(null);
    page.showError(`The WebAssembly engine did not start: ${page.wording(e)?.text ?? e}. This page needs a browser with WebAssembly and module workers.`);
    page.say('Engine not available.');
    $('stage').textContent = 'no engine';
    return;
  }
  const has = (op) => typeof app.engine[op] === 'function';
  const missing = ['features', 'parseCSV', 'previewCSV', 'fitRidge', 'compare', 'split', 'kfold', 'score', 'preprocess', 'take', 'loadModel', 'selectActive'].filter((op) => !has(op));
  if (missing.length) page.showError(`This build of ntkrf lacks ${missing.join(', ')}; the parts of the page that need them will fail.`);
  // The menus, ranges and defaults come from the engine's own option table.
  app.vocab = vocabulary(app.engine.schema, app.engine.names);
  setCosts(app.engine.costs); // the time estimate reads the core's cost model
  app.table = hashTable(app.vocab);
  // Opened without a link, the page shows the playground's spiral.
  const landing = !linked();
  const { state, rejected } = readHash(app.table);
  if (landing) state.data = LANDING;
  app.settings = state;
  app.search = autoSearch(app.engine.schema);
  page.notify(linkNotice(rejected, state), { append: true });
  app.engineStarted(app.engine);
  // The link's data set, unless the user chose data while the engine started.
  // A generated set's surfaces are asked for as its load starts (the
  // playground draws its points while the engine reads them as a table),
  // so they go to the workers first; the 1-D curves wait for them.
  let loading = null;
  if (app.loadsStarted === 0) {
    if (state.data === 'file') page.notify('The link names your own file, which links cannot carry: iris.csv is loaded instead.', { append: true });
    loading = data.loadBundled(state.data === 'file' ? 'iris' : state.data, state.target, splitNames(state.exclude));
  }
  // The controls are built while the workers compute the first pictures
  // (the load's and the surfaces' next steps wait for this to return).
  controls.build(app.vocab);
  showAutoHelp(app.search);
  data.datasetOptions(app.current && !app.current.bundled ? app.current.name : null);
  controls.show();
  models.show();
  play.redraw1d();
  await loading;
  document.body.dataset.ready = '1';
}

main();
