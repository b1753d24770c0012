// Settings ↔ URL hash. One table drives reading, validation and writing, so
// a link (seed included) replays a run. The table is the lab's vocabulary
// (vocab.js: the engine's schema, narrowed where the lab says so). The only
// module that touches location.hash.
import { describeExpected } from './messages.js';

/**
 * The hash properties of a vocabulary's settings: each parses a hash value
 * (undefined when invalid), keeps what it accepts (for notices) and its
 * default.
 */
export function hashTable(vocab) {
  const table = {};
  for (const [key, s] of Object.entries(vocab.settings)) {
    let parse;
    if (s.values) parse = (v) => (s.values.includes(v) ? v : undefined);
    else if (s.bool) parse = (v) => (v === '1' ? true : v === '0' ? false : undefined);
    else if (s.maxLength !== undefined) parse = (v) => (v.length <= s.maxLength ? v : undefined);
    else parse = (v) => (/^-?\d+$/.test(v) && +v >= s.min && +v <= s.max && (+v - s.min) % s.step === 0 ? +v : undefined);
    table[key] = { ...s, parse };
  }
  return table;
}

/** The default settings. */
export function defaults(table) {
  return Object.fromEntries(Object.entries(table).map(([k, p]) => [k, p.def]));
}

/** Whether value is valid for setting key. */
export function valid(table, key, value) {
  return Object.hasOwn(table, key) && table[key].parse(format(value)) === value;
}

function format(v) {
  return typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
}

/**
 * Reads the settings from location.hash. Unknown keys and invalid values
 * are not used (the default, or an earlier valid value, stays) and are
 * listed in `rejected` as { key, value, known, expected }, so the page can
 * say what it did instead.
 */
export function readHash(table) {
  const state = defaults(table);
  const rejected = [];
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  for (const [key, raw] of params) {
    const p = Object.hasOwn(table, key) ? table[key] : undefined;
    const v = p?.parse(raw);
    if (v === undefined) rejected.push({ key, value: raw, known: !!p, expected: p ? describeExpected(p) : '' });
    else state[key] = v;
  }
  return { state, rejected };
}

/** Whether the page was opened with settings in its hash (a link), rather than bare. */
export function linked() {
  return location.hash.replace(/^#/, '') !== '';
}

/** Writes the settings that differ from the defaults (and those always written) into the hash, without a history entry. */
export function writeHash(table, state) {
  const params = new URLSearchParams();
  for (const [key, p] of Object.entries(table)) {
    if ((state[key] !== p.def || p.always) && valid(table, key, state[key])) params.set(key, format(state[key]));
  }
  const hash = params.toString();
  history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
}
