// The settings' controls, generated from the settings table (vocab.js
// SETTINGS): their menus and ranges, their values, the labels that follow
// from them, and what a change redraws. Also the Kernel & features panel's
// cost line. A setting added to the table with an input gets its control
// wired here; nothing else lists them.
import { $ } from './dom.js';
import { SETTINGS, toOption } from './vocab.js';
import { writeHash } from './state.js';
import { short } from './heatmap.js';
import { dim, uses, extraLayers, searchOf, featureMemory } from './experiments.js';
import { EXACT_MAX, estimate } from './cost.js';

/** The settings that have a control of their own on the page: [key, element id, table entry]. */
export const CONTROLLED = Object.entries(SETTINGS)
  .filter(([, s]) => (s.control || s.input) && !s.loads)
  .map(([key, s]) => [key, (s.control ?? s.input).id, s]);

/** Buttons usable once the settings are (they change settings). */
const SETTING_BUTTONS = ['resample'];

/** The value a slider shows beside its label. */
function shown(s, v) {
  if (s.scale === 'log2') return String(toOption(s.scale, v));
  if (s.scale === 'halfDecades') return short(toOption(s.scale, v));
  if (s.scale === 'tenths') return String(toOption(s.scale, v));
  if (s.scale === 'percent') return `${v}%`;
  return `${v}${s.unit ?? ''}`;
}

/**
 * The controls on the page's state: app, page (page.js), redraws: name →
 * function for the names of SETTINGS' redraw lists.
 */
export function createControls({ app, page, redraws }) {
  function save() {
    writeHash(app.table, app.settings);
  }

  /** Fills the menus and the ranges of the controls from the vocabulary, and makes them usable. */
  function build(vocab) {
    for (const [key, id] of CONTROLLED) {
      const el = $(id);
      const v = vocab.settings[key];
      if (vocab.menus[key]) el.replaceChildren(...vocab.menus[key].map((o) => new Option(o.label, o.value)));
      else if (v.min !== undefined) Object.assign(el, { min: v.min, max: v.max, step: v.step });
      el.disabled = false;
    }
    for (const id of SETTING_BUTTONS) $(id).disabled = false;
    $('exact-help').textContent = `Exact kernel ridge regression needs an n×n matrix; offered up to ${EXACT_MAX} training rows.`;
    for (const el of document.querySelectorAll('[aria-busy]')) el.removeAttribute('aria-busy');
  }

  /** Puts the settings into the controls. */
  function show() {
    for (const [key, id] of CONTROLLED) {
      const el = $(id);
      if (el.type === 'checkbox') el.checked = app.settings[key];
      else el.value = app.settings[key];
    }
    showDerived();
  }

  /** Labels that follow from the settings: slider values, cost, which controls apply. */
  function showDerived() {
    const s = app.settings;
    for (const [key, id, entry] of CONTROLLED) {
      const out = $(`${id}-out`);
      if (out) out.textContent = `= ${shown(entry, s[key])}`;
    }
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
    // The whole run Train starts: the exact kernel beside when asked, and
    // the engine's warm-up before the page's first run.
    const e = estimate({ n: X.rows, d: X.cols, m: dim(app.settings), layers: extraLayers(app.settings), search, settings: app.settings, rate: app.rate, workers: app.engine?.workers ?? 1, outputs: Math.max(1, app.current.ds.classes?.length ?? 1), exact: !!app.settings.exact, cold: app.rate.runs.length === 0 });
    // Φ's memory at the precision the engine computes it in (float32: 4 bytes a value for most
    // methods; the engine's limits.featureBytes), then cost.js's time estimate.
    const mem = featureMemory(X.rows, dim(app.settings), app.settings, app.engine?.limits);
    $('cost').textContent = mem ? `${mem.text}; ${e.text.slice(e.text.indexOf('training ≈'))}` : e.text;
    $('cost').dataset.ms = String(e.ms);
    $('cost').classList.toggle('warn', e.slow);
    $('exact').disabled = !e.exactOK;
    $('exact').closest('.check').classList.toggle('unused', !e.exactOK);
  }

  /** A whole number in the setting's range, or the value stays and the status says why. */
  function wholeNumber(key, label, el) {
    const { min, max } = app.vocab.settings[key];
    const v = Number(el.value);
    if (Number.isInteger(v) && v >= min && v <= max) return v;
    el.value = app.settings[key];
    page.say(`${label} must be a whole number from ${min} to ${max}; it stays ${el.value}.`);
    return undefined;
  }

  function read(key, entry, el) {
    if (el.type === 'checkbox') return el.checked;
    if (el.type === 'number') return wholeNumber(key, (entry.control ?? entry.input).label, el);
    if (el.tagName === 'SELECT') return el.value;
    return +el.value;
  }

  /** Wires every control: a change sets its setting, saves the link, and redraws what depends on it. */
  function bind() {
    for (const [key, id, entry] of CONTROLLED) {
      const el = $(id);
      // Number boxes take a value when it is complete; sliders as they move.
      el.addEventListener(el.type === 'number' ? 'change' : 'input', () => {
        if (!app.settings) return;
        const v = read(key, entry, el);
        if (v === undefined) return;
        app.settings[key] = v;
        save();
        showDerived();
        for (const name of entry.redraw ?? []) redraws[name]();
      });
    }
  }

  return { build, show, showDerived, showCost, save, bind };
}
