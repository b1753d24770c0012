// Settings ↔ URL hash. One table drives reading, validation and writing, so
// a link (seed included) replays a run. The only module that touches
// location.hash.
import { describeExpected } from './messages.js';

/** Bundled data sets, by id (file names in data/). */
export const DATASETS = ['iris', 'wine', 'Glass', 'BostonHousing'];

// Each type parses a hash value (undefined when invalid) and describes what it accepts, for notices.
const int = (min, max, step = 1) => ({ parse: (s) => (/^\d+$/.test(s) && +s >= min && +s <= max && (+s - min) % step === 0 ? +s : undefined), min, max, step });
const oneOf = (...values) => ({ parse: (s) => (values.includes(s) ? s : undefined), values });
const bool = { parse: (s) => (s === '1' ? true : s === '0' ? false : undefined), bool: true };
// Room for long column names: a target longer than this would silently drop out of links.
const text = { parse: (s) => (s.length <= 1000 ? s : undefined), maxLength: 1000 };

/** Every setting: its hash key, type and default. */
const PROPS = {
  data: { ...oneOf(...DATASETS, 'file'), def: 'iris' },
  target: { ...text, def: '' }, // '' = the last column
  std: { ...bool, def: true },
  unit: { ...bool, def: false },
  depth: { ...int(1, 5), def: 1 },
  logm: { ...int(6, 13), def: 9 }, // m = 2^logm
  method: { ...oneOf('ntk', 'nngp', 'arccos1', 'naive', 'grad', 'rff'), def: 'ntk' },
  sketch: { ...oneOf('tensorsketch', 'tensorsrht'), def: 'tensorsketch' },
  sampler: { ...oneOf('exact', 'gibbs', 'orthogonal', 'gaussian', 'hadamard'), def: 'exact' },
  seed: { ...int(0, 999999999), def: 1 },
  eval: { ...oneOf('split', 'kfold'), def: 'split' },
  test: { ...int(10, 50, 5), def: 30 }, // test share in percent, in the slider's steps
  k: { ...int(3, 10), def: 5 },
  exact: { ...bool, def: true },
  magnify: { ...bool, def: false },
};

/** The default settings. */
export function defaults() {
  return Object.fromEntries(Object.entries(PROPS).map(([k, p]) => [k, p.def]));
}

/** Whether value is valid for setting key. */
export function valid(key, value) {
  return Object.hasOwn(PROPS, key) && PROPS[key].parse(format(value)) === value;
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
export function readHash() {
  const state = defaults();
  const rejected = [];
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  for (const [key, raw] of params) {
    const p = Object.hasOwn(PROPS, key) ? PROPS[key] : undefined;
    const v = p?.parse(raw);
    if (v === undefined) rejected.push({ key, value: raw, known: !!p, expected: p ? describeExpected(p) : '' });
    else state[key] = v;
  }
  return { state, rejected };
}

/** Writes the settings that differ from the defaults into the hash, without a history entry. */
export function writeHash(state) {
  const params = new URLSearchParams();
  for (const [key, p] of Object.entries(PROPS)) {
    if (state[key] !== p.def && valid(key, state[key])) params.set(key, format(state[key]));
  }
  const hash = params.toString();
  history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
}
