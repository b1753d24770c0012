// What the page says when something goes wrong: engine errors reworded to
// name the page's own controls, and notices about links whose settings could
// not be used. Which control sets which engine option comes from the lab's
// vocabulary (vocab.js, read from the engine's schema). No DOM: page.js shows
// the text.
import { splitMessage } from './ntkrf/errors.js';

/** The most characters an alert shows: a message quoting a 30 MB cell must not take the page with it. */
export const MAX_ALERT_CHARS = 1000;

/**
 * text in at most MAX_ALERT_CHARS characters: its start and its end (where
 * the advice is), with how much was left out between them.
 */
export function capAlert(text) {
  const s = String(text);
  if (s.length <= MAX_ALERT_CHARS) return s;
  const tail = 300;
  const head = MAX_ALERT_CHARS - tail - 60;
  return `${s.slice(0, head)}… (${s.length - head - tail} characters left out) …${s.slice(-tail)}`;
}

/** Options the engine takes that the page sets without a control, and what the user can do instead. */
export const NO_CONTROL = {
  lambda: 'λ is chosen automatically here: try Standardize columns, a smaller Features m or another Method',
  grid: 'λ is chosen automatically here: try Standardize columns, a smaller Features m or another Method',
  maxBytes: 'use a smaller file, or a sample of its rows',
  rows: 'use a smaller file, or a sample of its rows',
};

/**
 * Words of the engine's API that a message may suggest changing but that
 * this page offers no control for (it reads them from the file or fixes them).
 */
const API_ONLY = /\b(maxBytes|MaxBytes|lambda|Lambda|grid|classes|Classes|delimiter|header|missing|task|sketchDim|m0|m1|gamma|blockRows|gibbsSweeps|workers|wasmURL|options?|createEngine|Float64Array|dispose)\b|λ/;

/** Engine errors carry "method: what is wrong; what to do"; the advice starts with one of these verbs. */

/** "features.dim" → "dim", "grid[2]" → "grid". */
const lastName = (option) => String(option).replace(/\[\d+\]/g, '').split('.').pop();

/**
 * The page control behind an engine option, if the page has one: controls
 * is vocabulary(schema).controls (option name → {id, label, other?}).
 */
export function controlFor(option, controls) {
  return option && controls && Object.hasOwn(controls, lastName(option)) ? controls[lastName(option)] : null;
}

/**
 * The page's wording of an engine error. Returns null for an abort (the
 * page says itself why a run stopped), otherwise { text, control }: text
 * without the engine's method prefixes and with advice the page can follow,
 * control the page control to change (or null).
 *
 * where: 'load' (a new file: only the file can change), or 'run' (settings
 * can change). fallback: advice when the engine's advice names only options
 * the page lacks. controls: vocabulary(schema).controls; without them (the
 * engine did not start) no control is named. Works without codes and
 * options: the message alone then.
 */
export function explain(e, { where = 'run', fallback = '', controls = null } = {}) {
  if (e?.name === 'AbortError' || e?.code === 'ERR_ABORTED') return null;
  let what, advice;
  if (typeof e?.fault === 'string') {
    // Every ntkrf error in parts (Go's errs.Error Fault and Advice, or the
    // package's split of its own messages by the same grammar): what went
    // wrong, without the method the page's user never called, and what to do.
    what = capAlert(e.fault.trim()).replace(/\.$/, '');
    advice = e.advice ?? '';
  } else {
    // An error without parts (another library's, a browser's): split by
    // the same grammar (the package's splitMessage, Go's advice verbs).
    ({ fault: what, advice } = splitMessage(capAlert(String(e?.message ?? e ?? 'unknown error').trim()).replace(/\.$/, '')));
  }
  const control = where === 'load' ? null : controlFor(e?.option, controls);
  // "features.dim must be …" → "Features m must be …": the user sees the control, not the option.
  if (control) return { text: `${control.other ? what : what.replaceAll(e.option, control.label)}; change ${control.label}`, control };
  const option = e?.option ? lastName(e.option) : '';
  if (Object.hasOwn(NO_CONTROL, option)) return { text: `${what}; ${NO_CONTROL[option]}`, control: null };
  switch (e?.code) {
    case 'ERR_INSTANCE':
      // "…ran out of memory during this call and was restarted": say what needs less.
      return { text: `${what}; a smaller Features m or a smaller file needs less memory`, control: null };
    case 'ERR_CLOSED':
      return { text: `${what}. Reload the page to start the engine again`, control: null };
    case 'ERR_INTERNAL':
      return { text: `${what}. This is a bug in ntkrf; please report it with the file and the link of this page`, control: null };
    default:
  }
  // Keep the alternatives of the engine's advice that the page offers.
  const offered = (part) => !API_ONLY.test(part) && (where !== 'load' || !/\btarget\b/.test(part));
  const kept = advice.split(/,? or /).filter(offered);
  advice = kept.length ? kept.join(' or ') : fallback;
  return { text: advice ? `${what}; ${advice}` : what, control: null };
}

/** How a value of each link setting is written, for notices ("a whole number from 1 to 5"). */
export function describeExpected(p) {
  if (p.values) return `one of ${p.values.join(', ')}`;
  if (p.min !== undefined) return p.step > 1 ? `a multiple of ${p.step} from ${p.min} to ${p.max}` : `a whole number from ${p.min} to ${p.max}`;
  if (p.bool) return '1 or 0';
  if (p.maxLength) return `at most ${p.maxLength} characters`;
  return 'a valid value';
}

/** Values in notices: long ones shortened, so a hostile link cannot flood the page. */
export function quote(v, max = 40) {
  const s = String(v);
  return `“${s.length > max ? `${s.slice(0, max - 1)}…` : s}”`;
}

const shown = (v) => (typeof v === 'boolean' ? (v ? '1' : '0') : String(v));

/**
 * A notice for the settings of a link that were not used: rejected is
 * readHash's list, state the settings in use. Empty when all were used.
 */
export function linkNotice(rejected, state) {
  if (!rejected.length) return '';
  const parts = rejected.map((r) => (r.known
    ? `${r.key}=${quote(r.value)} is not ${r.expected}; using ${quote(shown(state[r.key]))}`
    : `${quote(r.key)} is not a setting of this page`));
  return `The link had settings this page cannot use: ${parts.join('; ')}.`;
}
