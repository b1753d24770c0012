// Settings ↔ URL hash. One table drives reading, validation and writing, so
// a link (seed included) replays a run. The only module that touches
// location.hash.

/** Bundled data sets, by id (file names in data/). */
export const DATASETS = ['iris', 'wine', 'Glass', 'BostonHousing'];

const int = (min, max) => ({ parse: (s) => (/^\d+$/.test(s) && +s >= min && +s <= max ? +s : undefined), min, max });
const oneOf = (...values) => ({ parse: (s) => (values.includes(s) ? s : undefined), values });
const bool = { parse: (s) => (s === '1' ? true : s === '0' ? false : undefined) };
const text = { parse: (s) => (s.length <= 200 ? s : undefined) };

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
  test: { ...int(10, 50), def: 30 }, // test share in percent
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
  const p = PROPS[key];
  return p !== undefined && p.parse(format(value)) === value;
}

function format(v) {
  return typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
}

/**
 * Reads the settings from location.hash. Unknown keys and invalid values
 * are ignored (the default is kept) and listed in `rejected`.
 */
export function readHash() {
  const state = defaults();
  const rejected = [];
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  for (const [key, raw] of params) {
    const p = PROPS[key];
    const v = p?.parse(raw);
    if (v === undefined) rejected.push(key);
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
