// The lab's vocabulary: the menus, their defaults, the ranges of the
// controls and the engine option behind each control, read from the
// engine's option table (eng.schema, declared once in Go: jsbridge/schema.go).
// This module writes down only what the lab adds to it: words for the menus,
// and where a control deliberately narrows
// the engine's range or keeps a default of its own. No DOM.
import { DATASETS } from './data.js';
import { TOY_IDS } from './toy.js';
import { SURFACES, TASK } from './surface.js';
import { NAMES, setNames } from './names.js';
import { withArticle } from './format.js';

export { NAMES };

/**
 * Every setting of the page, in the order of the URL hash.
 *
 * option: the engine option the setting sets, as "method.path" in eng.schema
 * ("fitRidge.preprocess.standardize"); the setting takes its kind, enum,
 * range and default from there. control: the page control ({id, label})
 * that error messages about that option point to.
 * narrow: the lab's range, which must lie inside the engine's (checked by
 * problems() and a Node test). def: a default of the lab's own, kept
 * because links without the key were made with it (a link replays a run).
 * always: written into every link, even at its default.
 * scale: how the setting maps to the option: 'log2' (logm → m = 2^logm),
 * 'percent' (test → testFraction = test/100), 'halfDecades' (lam → λ =
 * 10^(lam/2)), 'tenths' (bias → σ_b = bias/10).
 * Settings without option are the lab's own (values, bool, text or a
 * range).
 *
 * The page's controls come from this table too (controls.js): input: the
 * page element of a setting without a control (a control also names the
 * element; input does not make messages point at it); loads: the data
 * panel binds it (a new target reloads the data); redraw: what follows a
 * change ('reload' the data set read again, 'prep' the preprocessing
 * note, 'pictures' the kernel heatmaps,
 * 'heatmaps' only their colours, 'surfaces' the playground, 'toy' a
 * generated set drawn again); unit: what the slider's value is shown with.
 */
export const SETTINGS = {
  // Links without a data set were made when iris was the only default; a
  // page opened without any link shows the spiral (LANDING), so every link
  // names its data set (always).
  data: { values: [...TOY_IDS, ...DATASETS, 'file'], def: 'iris', always: true },
  // '' = the last column. Room for long column names: a longer target would silently drop out of links.
  target: { text: 1000, def: '', option: 'parseCSV.target', control: { id: 'target', label: 'Target' }, loads: true },
  // Input columns left out (an identifier such as BreastCancer's Id): their names joined by NAMES_SEP; '' = none.
  exclude: { text: 4000, def: '', option: 'parseCSV.exclude', control: { id: 'exclude', label: 'Leave out' }, loads: true },
  // Whole-number targets with few values are classes unless the user says otherwise (mtcars' carb).
  task: { option: 'parseCSV.task', control: { id: 'task', label: 'Task' }, redraw: ['reload'] },
  std: { option: 'fitRidge.preprocess.standardize', control: { id: 'standardize', label: 'Standardize columns' }, redraw: ['prep', 'pictures', 'surfaces'] },
  unit: { option: 'fitRidge.preprocess.unitNorm', control: { id: 'unitnorm', label: 'Unit-norm rows' }, redraw: ['prep', 'pictures', 'surfaces'] },
  // The bias input σ_b (the engine's preprocess.bias) in tenths: 0 … 3; 1
  // is the engine's 'auto' candidate and what the playground was drawn with.
  bias: { option: 'fitRidge.preprocess.bias', scale: 'tenths', narrow: { min: 0, max: 30, step: 5 }, def: 10, control: { id: 'bias', label: 'Bias σ_b' }, redraw: ['prep', 'pictures', 'surfaces'] },
  // A slider of five steps: deeper NTKs of the bundled sets look alike, and every layer costs n·m²/2.
  depth: { option: 'features.depth', narrow: { min: 1, max: 5 }, control: { id: 'depth', label: 'Depth L' }, redraw: ['pictures', 'surfaces'] },
  // m = 64 … 8192 in powers of two; 512 fits every bundled set in about a second.
  logm: { option: 'features.dim', scale: 'log2', narrow: { min: 6, max: 13 }, def: 9, control: { id: 'dim', label: 'Features m' }, redraw: ['pictures', 'surfaces'] },
  method: { option: 'features.method', control: { id: 'method', label: 'Method' }, redraw: ['pictures', 'surfaces'] },
  sketch: { option: 'features.sketch', control: { id: 'sketch', label: 'Sketch' }, redraw: ['pictures', 'surfaces'] },
  sampler: { option: 'features.sampler', control: { id: 'sampler', label: 'Sampler' }, redraw: ['pictures', 'surfaces'] },
  // Nine digits fit the number box; links made so far default to seed 1.
  seed: { option: 'features.seed', narrow: { min: 0, max: 999_999_999 }, def: 1, control: { id: 'seed', label: 'Seed' }, redraw: ['pictures', 'surfaces'] },
  // The engine methods that hold rows out: split and kfold.
  eval: { values: ['split', 'kfold'], def: 'split', engineMethods: true, input: { id: 'eval', label: 'Evaluation' } },
  // Percent in the slider's steps; links made so far default to 30 %.
  test: { option: 'split.testFraction', scale: 'percent', narrow: { min: 10, max: 50, step: 5 }, def: 30, control: { id: 'testfrac', label: 'Test share' }, redraw: ['surfaces'] },
  // Fewer than 3 folds test on half the rows; more than 10 only repeat the fit. Links default to 5.
  k: { option: 'kfold.k', narrow: { min: 3, max: 10 }, def: 5, control: { id: 'kfolds', label: 'Folds k' } },
  // Training chooses depth and preprocessing ('auto', the engine's default); links made before default to it too.
  auto: { bool: true, def: true, input: { id: 'auto', label: 'Choose depth and preprocessing for me (auto)' }, redraw: ['prep'] },
  exact: { bool: true, def: true, input: { id: 'exact', label: 'Also fit the exact kernel' } },
  magnify: { bool: true, def: false, input: { id: 'magnify', label: 'Magnify the difference' }, redraw: ['heatmaps'] },
  // The ridge λ of the playground's surfaces and of active learning (Train
  // chooses its own): 1e-5 … 10 in half decades; 0.01 fits the generated
  // sets without smoothing their shapes away.
  lam: { option: 'fitRidge.lambda', scale: 'halfDecades', narrow: { min: -10, max: 2 }, def: -4, input: { id: 'lambda', label: 'Ridge λ' }, redraw: ['surfaces'] },
  // The surfaces may choose λ themselves instead (fitRidge's lambda: 'auto').
  lamauto: { bool: true, def: false, input: { id: 'lambda-auto', label: 'Let each picture choose its λ (auto)' }, redraw: ['surfaces'] },
  // The generated 2-D sets (toy.js): noise in percent, training points
  // (as many test points again), and the seed of the points.
  noise: { narrow: { min: 0, max: 50, step: 5 }, def: 10, unit: '%', input: { id: 'noise', label: 'Noise' }, redraw: ['toy'] },
  points: { narrow: { min: 50, max: 400, step: 50 }, def: 200, input: { id: 'points', label: 'Training points' }, redraw: ['toy'] },
  dseed: { narrow: { min: 0, max: 999_999_999 }, def: 1, input: { id: 'dseed', label: 'Data seed' }, redraw: ['toy'] },
  // Rows active learning labels: enough to see the curves part, few enough
  // that every step refits in a blink.
  labels: { option: 'selectActive.k', narrow: { min: 10, max: 80, step: 10 }, def: 40, input: { id: 'labels', label: 'Labels' } },
};

/** How a text setting holds a list of column names (a tab: no header cell holds one in practice). */
export const NAMES_SEP = '\t';
export const splitNames = (text) => (text ? text.split(NAMES_SEP) : []);

/** The data set shown when the page is opened without a link. */
export const LANDING = 'spiral';

/**
 * Engine options the page sets from another control: the page counts the
 * classes of the target column, so another Target is the remedy.
 */
export const OTHER_OPTIONS = {
  'fitRidge.classes': { id: 'target', label: 'Target', other: true },
};

/**
 * What the lab knows of each feature method: words for the menu and the
 * exact kernel it approximates, for the pictures and the sweep. Which
 * options it uses (the others are not sent, and their controls are greyed)
 * is the engine's: the method option's uses (rf.Uses), read by
 * vocabulary() into USES.
 * Methods of the schema that are not here are left out of the menu (and
 * listed by problems()); EXCLUDED names those left out on purpose.
 */
export const METHODS = {
  ntk: { label: 'NTK RF (the paper)', name: 'NTK RF', kernel: 'ntk',
    help: 'Arc-cosine features joined layer by layer with TensorSketch; approximates the NTK of depth L.' },
  nngp: { label: 'NNGP RF', name: 'NNGP RF', kernel: 'nngp',
    help: 'The ReLU part of the same construction; approximates the NNGP kernel (last layer only trained).' },
  arccos1: { label: 'arc-cosine, one layer', name: 'arc-cos', kernel: 'nngp', depth: 1,
    help: 'One layer of ReLU features; approximates the one-layer NNGP (arc-cosine) kernel. Ignores L.' },
  naive: { label: 'naive tensor products', name: 'naive', kernel: 'ntk',
    help: 'Explicit tensor products without sketching; the same kernel as NTK RF, fewer effective features.' },
  grad: { label: 'gradient features', name: 'grad', kernel: 'ntk',
    help: 'Gradient of one random finite-width ReLU network; approximates the NTK of depth L.' },
  rff: { label: 'random Fourier (RBF)', name: 'RFF', kernel: 'rbf',
    help: 'Random Fourier features of the RBF kernel exp(−γ‖x−z‖²), γ = 1/columns. Ignores L.' },
};

/**
 * Which options each method uses: the engine's (features.method's uses in
 * the schema), filled by vocabulary(); empty before the engine has
 * started, when nothing runs.
 */
export const USES = {};

/** Whether method uses the option name ('depth', 'sketch', 'sampler', 'gamma'). */
export const uses = (method, name) => USES[method]?.includes(name) ?? false;

/** Methods of the engine the lab leaves out, and why. */
export const EXCLUDED = {
  arccos0: 'its order-0 arc-cosine kernel is not one of the exact kernels the engine computes, so there is nothing to compare it with',
};

/** Words for the other menus' values; a value missing here shows as itself. */
export const WORDS = {
  sketch: { auto: 'auto (split where it fits)', split: 'split (exact linear part)', tensorsketch: 'TensorSketch (FFT, the paper)', tensorsrht: 'TensorSRHT (Hadamard)' },
  sampler: {
    exact: 'exact importance',
    gibbs: 'Gibbs (as in the paper)',
    orthogonal: 'orthogonal blocks',
    gaussian: 'plain Gaussian',
    hadamard: 'Hadamard (fast, structured)',
  },
  eval: { split: 'train/test split', kfold: 'k-fold cross-validation' },
  task: { auto: 'auto (the engine decides)', classification: 'classification', regression: 'regression' },
};

/** The schema entry at "method.path" ("fitRidge.preprocess.standardize"), or undefined. */
export function optionAt(schema, path) {
  const [method, ...names] = path.split('.');
  let list = schema?.[method];
  let entry;
  for (const name of names) {
    entry = list?.find((o) => o.name === name);
    list = entry?.fields;
  }
  return names.length ? entry : undefined;
}

/** The option's range in the setting's units: log2 of m, percent of rows. */
function scaled(scale, o) {
  const min = o.min, max = o.max;
  switch (scale) {
    case 'log2': return { min: min === undefined ? undefined : Math.log2(min), max: max === undefined ? undefined : Math.log2(max) };
    case 'percent': return { min: min === undefined ? undefined : 100 * min, max: max === undefined ? undefined : 100 * max, minExclusive: o.minExclusive, maxExclusive: o.maxExclusive };
    case 'halfDecades': return { min: min === undefined ? undefined : 2 * Math.log10(min), max: max === undefined ? undefined : 2 * Math.log10(max), minExclusive: o.minExclusive, maxExclusive: o.maxExclusive };
    case 'tenths': return { min: min === undefined ? undefined : 10 * min, max: max === undefined ? undefined : 10 * max, minExclusive: o.minExclusive, maxExclusive: o.maxExclusive };
    default: return { min, max, minExclusive: o.minExclusive, maxExclusive: o.maxExclusive };
  }
}

const toSetting = (scale, v) => (scale === 'log2' ? Math.log2(v) : scale === 'percent' ? 100 * v : scale === 'halfDecades' ? 2 * Math.log10(v) : scale === 'tenths' ? 10 * v : v);

/** The engine's value of a setting's value: m of logm, testFraction of test, λ of lam, σ_b of bias. */
export const toOption = (scale, v) => (scale === 'log2' ? 2 ** v : scale === 'percent' ? v / 100 : scale === 'halfDecades' ? 10 ** (v / 2) : scale === 'tenths' ? v / 10 : v);

/** Whether x lies in the range r (min, max, exclusive ends). */
const inside = (r, x) => !(r.min !== undefined && (x < r.min || (r.minExclusive && x === r.min)))
  && !(r.max !== undefined && (x > r.max || (r.maxExclusive && x === r.max)));

/**
 * The lab's vocabulary from the engine's schema:
 * - settings: key → { values } | { min, max, step } | { bool } | { maxLength },
 *   each with def and maybe always (what state.js validates and writes the
 *   URL hash with);
 * - menus: key → [{ value, label, help? }] for the selects;
 * - methods: the METHODS entries of the methods in the menu, by name;
 * - controls: option name → the control that sets it (for messages.js);
 * - problems: where the lab and the engine disagree (empty when they agree).
 * Disagreements never stop the page: a setting whose option is missing keeps
 * the lab's own values, so the problems are for the tests to catch.
 * names: the engine's names (eng.names), kept in NAMES (names.js).
 */
export function vocabulary(schema, names) {
  const problems = [];
  const settings = {};
  const menus = {};
  const controls = {};
  for (const [key, s] of Object.entries(SETTINGS)) {
    const o = s.option ? optionAt(schema, s.option) : undefined;
    if (s.option && !o) problems.push(`${key}: the engine has no option ${s.option}`);
    if (s.control && s.option) controls[s.option.split('.').pop()] = s.control;
    if (s.engineMethods) for (const v of s.values) if (!schema?.[v]) problems.push(`${key}: ${v} is not an engine method`);
    // Words the lab has for an enum's values (METHODS for the method).
    const known = key === 'method' ? METHODS : WORDS[key];
    // Without the option (an engine that lacks it) the lab's own values keep the page working.
    const kind = s.values ? 'values' : s.text ? 'text' : s.bool ? 'bool' : o?.kind ?? (known ? 'enum' : 'int');
    // A text setting may carry a list of names (exclude).
    if (o && !['bool', 'enum', 'int', 'number', 'nameOrIndex', ...(s.text ? ['array'] : [])].includes(o.kind)) problems.push(`${key}: ${s.option} is ${withArticle(o.kind)}, which the lab cannot offer`);
    if (kind === 'values') settings[key] = { values: s.values, def: s.def, ...(s.always ? { always: true } : {}) };
    else if (kind === 'text' || kind === 'nameOrIndex') settings[key] = { maxLength: s.text, def: s.def };
    else if (kind === 'bool') settings[key] = { bool: true, def: s.def ?? o?.default ?? false };
    else if (kind === 'enum') {
      const all = o?.enum ?? Object.keys(known ?? {});
      const values = all.filter((v) => key !== 'method' || (METHODS[v] && !EXCLUDED[v]));
      if (key === 'method') {
        for (const v of all) if (!METHODS[v] && !EXCLUDED[v]) problems.push(`method: the engine's ${v} is neither in METHODS nor in EXCLUDED`);
        for (const v of Object.keys(METHODS)) if (!all.includes(v)) problems.push(`method: ${v} is not an engine method`);
      } else {
        for (const v of Object.keys(known ?? {})) if (!all.includes(v)) problems.push(`${key}: ${v} is not an engine value`);
      }
      const def = s.def ?? o?.default;
      if (!values.includes(def)) problems.push(`${key}: the default ${def} is not offered`);
      settings[key] = { values, def: values.includes(def) ? def : values[0] };
      menus[key] = values.map((v) => ({ value: v, label: (key === 'method' ? METHODS[v]?.label : known?.[v]) ?? v }));
    } else {
      const r = { step: 1, ...s.narrow };
      if (o) {
        const engine = scaled(s.scale, o);
        for (const x of [r.min, r.max]) if (!inside(engine, x)) problems.push(`${key}: the lab's ${x} is outside the engine's range of ${s.option}`);
      }
      const def = s.def ?? (typeof o?.default === 'number' ? toSetting(s.scale, o.default) : r.min);
      if (!(Number.isInteger(def) && def >= r.min && def <= r.max && (def - r.min) % r.step === 0)) problems.push(`${key}: the default ${def} is outside the lab's range ${r.min}…${r.max}`);
      settings[key] = { min: r.min, max: r.max, step: r.step, def };
    }
  }
  for (const [path, control] of Object.entries(OTHER_OPTIONS)) {
    if (!optionAt(schema, path)) problems.push(`the engine has no option ${path}`);
    controls[path.split('.').pop()] = control;
  }
  for (const m of Object.values(METHODS)) {
    if (!optionAt(schema, 'kernel.kernel')?.enum?.includes(m.kernel)) problems.push(`the engine has no exact kernel ${m.kernel}`);
  }
  // The playground's pictures: kernels, method, γ and task the engine has.
  const gamma = optionAt(schema, 'fitRidge.kernel.gamma');
  if (!optionAt(schema, 'fitRidge.task')?.enum?.includes(TASK)) problems.push(`the engine has no task ${TASK}`);
  for (const sf of SURFACES) {
    if (sf.kernel && !optionAt(schema, 'fitRidge.kernel.kernel')?.enum?.includes(sf.kernel)) problems.push(`surface ${sf.id}: the engine has no exact kernel ${sf.kernel}`);
    if (sf.method && !optionAt(schema, 'fitRidge.features.method')?.enum?.includes(sf.method)) problems.push(`surface ${sf.id}: the engine has no feature method ${sf.method}`);
    if (sf.gamma !== undefined && !(gamma && inside(gamma, sf.gamma))) problems.push(`surface ${sf.id}: γ = ${sf.gamma} is outside the engine's range of fitRidge.kernel.gamma`);
  }
  const methodUses = optionAt(schema, 'features.method')?.uses;
  if (!methodUses) problems.push('the engine does not say which options each method uses (features.method uses)');
  for (const m of Object.keys(METHODS)) if (methodUses && !methodUses[m]) problems.push(`method ${m}: the engine does not say which options it uses`);
  if (methodUses) {
    for (const k of Object.keys(USES)) delete USES[k];
    Object.assign(USES, methodUses);
  }
  if (!names?.Auto) problems.push('the engine does not name its vocabulary (eng.names)');
  else {
    setNames(names);
    // The lab's tables name the core's words; each must be one the engine has.
    const known = new Set(Object.values(names));
    for (const [m, { kernel }] of Object.entries(METHODS)) for (const v of [m, kernel]) if (!known.has(v)) problems.push(`method ${m}: ${v} is not a name of the engine`);
    for (const [key, words] of Object.entries(WORDS)) if (key !== 'eval') for (const v of Object.keys(words)) if (!known.has(v)) problems.push(`${key}: ${v} is not a name of the engine`);
    for (const sf of SURFACES) for (const v of [sf.kernel, sf.method]) if (v !== undefined && !known.has(v)) problems.push(`surface ${sf.id}: ${v} is not a name of the engine`);
    if (!known.has(TASK)) problems.push(`the playground's task ${TASK} is not a name of the engine`);
  }
  menus.eval = SETTINGS.eval.values.map((v) => ({ value: v, label: WORDS.eval[v] }));
  const methods = Object.fromEntries(settings.method.values.map((v) => [v, METHODS[v]]));
  return { settings, menus, methods, controls, problems, schema };
}
