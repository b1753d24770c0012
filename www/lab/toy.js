// Generated 2-D data sets for the playground: two classes in the plane,
// drawn from a seeded generator so that a link (data set, noise, size, seed)
// replays the same points. No DOM. Points lie within about ±1.2; the
// playground looks at the square ±EXTENT.
import { NAMES } from './names.js';

/** Half the side of the square the playground shows: points lie within it, with a margin to see how each kernel extrapolates. */
export const EXTENT = 1.5;

/** A seeded uniform generator on [0, 1): mulberry32, one state per stream. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The seed of stream k of a user's seed (0…2^53−1): both halves of the seed
 * mixed with the stream number (a splitmix-style finaliser), so that seeds
 * 1 and 2 and streams 1 and 2 give unrelated sequences.
 */
export function streamSeed(seed, k) {
  let h = (Math.floor(seed / 2 ** 32) ^ Math.imul(k + 1, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (seed >>> 0), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** A standard normal draw from two uniforms (Box–Muller). */
function normal(u) {
  return Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

/**
 * The generators: point(c, t, u, noise) → [x, y] of class c (0 or 1), t in
 * [0, 1) spreading the class's points (its i-th of n at t = i/n), u the
 * stream's uniform generator, noise in [0, 1]. title and what: the menu's
 * words and a line about what makes the set hard.
 */
export const TOYS = {
  spiral: {
    title: 'Spiral',
    what: 'two interleaved spirals: the classic test of a flexible kernel',
    point(c, t, u, noise) {
      const r = 0.05 + 0.95 * t;
      const a = 3.5 * Math.PI * t + c * Math.PI;
      return [r * Math.sin(a) + 0.25 * noise * normal(u), r * Math.cos(a) + 0.25 * noise * normal(u)];
    },
  },
  circles: {
    title: 'Circles',
    what: 'a disc inside a ring: no straight line separates them',
    point(c, t, u, noise) {
      const r = c === 0 ? 0.5 * Math.sqrt(u()) : 0.75 + 0.3 * u();
      const a = 2 * Math.PI * u();
      return [r * Math.cos(a) + 0.3 * noise * normal(u), r * Math.sin(a) + 0.3 * noise * normal(u)];
    },
  },
  xor: {
    title: 'XOR',
    what: 'opposite quadrants share a class (exclusive or)',
    point(c, t, u, noise) {
      // A quadrant of the class (c = 0: x·y > 0), away from the axes.
      const sx = u() < 0.5 ? 1 : -1;
      const sy = c === 0 ? sx : -sx;
      const x = sx * (0.05 + 0.95 * u()), y = sy * (0.05 + 0.95 * u());
      return [x + 0.3 * noise * normal(u), y + 0.3 * noise * normal(u)];
    },
  },
  moons: {
    title: 'Two moons',
    what: 'two interlocking half circles',
    point(c, t, u, noise) {
      const a = Math.PI * u();
      const [x, y] = c === 0 ? [Math.cos(a), Math.sin(a)] : [1 - Math.cos(a), 0.5 - Math.sin(a)];
      // Centred on the origin, within about ±1.2.
      return [0.8 * (x - 0.5) + 0.3 * noise * normal(u), 0.8 * (y - 0.25) + 0.3 * noise * normal(u)];
    },
  },
  gauss: {
    title: 'Two Gaussians',
    what: 'two round clouds that overlap more as noise grows',
    point(c, t, u, noise) {
      const s = 0.12 + 0.5 * noise;
      const m = c === 0 ? -0.45 : 0.45;
      return [m + s * normal(u), m + s * normal(u)];
    },
  },
};

/** Ids of the generated sets, in menu order. */
export const TOY_IDS = Object.keys(TOYS);

/** Whether id names a generated set. */
export const isToy = (id) => Object.hasOwn(TOYS, id);

/**
 * n points of the set id (n even: n/2 per class, classes alternating, so
 * any even prefix is balanced), noise in [0, 1], from stream `stream` of
 * seed. Returns { x: Float64Array of n·2 coordinates (row-major), y:
 * Float64Array of n class indices }.
 */
export function generate(id, { n, noise, seed, stream = 0 }) {
  if (!isToy(id)) throw new RangeError(`toy: no generated set ${id}`);
  if (!Number.isInteger(n) || n < 2 || n % 2) throw new RangeError(`toy: n must be an even integer ≥ 2, got ${n}`);
  if (!(noise >= 0 && noise <= 1)) throw new RangeError(`toy: noise must be in [0, 1], got ${noise}`);
  const u = rng(streamSeed(seed, stream));
  const x = new Float64Array(2 * n), y = new Float64Array(n);
  const half = n / 2;
  for (let i = 0; i < n; i++) {
    const c = i % 2;
    const [a, b] = TOYS[id].point(c, Math.floor(i / 2) / half, u, noise);
    x[2 * i] = a;
    x[2 * i + 1] = b;
    y[i] = c;
  }
  return { x, y };
}

/** Stream numbers of the training and the test points of a seed. */
export const STREAMS = { train: 1, test: 2 };

/**
 * The playground's data: n training and n test points of set id (fresh
 * draws of the same distribution, from two streams of seed), noise given in
 * percent as the page's setting holds it. Returns { train, test }.
 */
export function toySet(id, { n, noisePercent, seed }) {
  const noise = noisePercent / 100;
  return {
    train: generate(id, { n, noise, seed, stream: STREAMS.train }),
    test: generate(id, { n, noise, seed, stream: STREAMS.test }),
  };
}

/** Points with extra points appended ({x, y} each; extra may be empty). */
export function withPoints(pts, extra) {
  if (!extra.y.length) return pts;
  const x = new Float64Array(pts.x.length + extra.x.length);
  x.set(pts.x);
  x.set(extra.x, pts.x.length);
  const y = new Float64Array(pts.y.length + extra.y.length);
  y.set(pts.y);
  y.set(extra.y, pts.y.length);
  return { x, y };
}

/** Names of the two classes, as the CSV writes them and the menus show them. */
export const CLASS_NAMES = ['blue', 'orange'];

/**
 * Points as CSV text (x1, x2, class by name), for the engine's parser: the
 * rest of the lab then treats a generated set as it treats a file.
 * Coordinates are written with every digit, so parsing gives the same bits.
 */
export function toyCSV({ x, y }) {
  const lines = ['x1,x2,class'];
  for (let i = 0; i < y.length; i++) lines.push(`${x[2 * i]},${x[2 * i + 1]},${CLASS_NAMES[y[i]]}`);
  return `${lines.join('\n')}\n`;
}

/** How far from the origin a table's points reach on the plane, as the generated sets' do. */
export const TABLE_REACH = 1.2;

/**
 * The most rows of a table the playground draws and fits its three models
 * on: a seeded sample of a larger table (drawn by the engine, in a worker),
 * so that any size keeps the page responsive and the exact kernel's n×n
 * matrix small.
 */
export const MAX_PLANE_POINTS = 2000;

/**
 * Why the playground cannot draw a table (ds, parseCSV's), with what the
 * user can do there; '' when it can: two numeric input columns, no missing
 * cells, and a class of 2…maxClasses values.
 */
export function planeRefusal(ds, maxClasses) {
  const inputs = ds.columns.filter((c, i) => i !== ds.target);
  if (inputs.length !== 2 || ds.X.cols !== 2) return `it has ${inputs.length === 1 ? 'one input column' : `${inputs.length} input columns`}; the pictures need exactly two numeric ones (Leave out the others in the Data panel)`;
  const text = inputs.filter((c) => c.kind !== 'numeric');
  if (text.length) return `${text.map((c) => `“${c.name}”`).join(' and ')} ${text.length === 1 ? 'is' : 'are'} not numeric; the pictures need two numeric input columns`;
  if (ds.task !== NAMES.Classification) return `its target “${ds.targetName}” is read as values; the pictures colour classes (set Task to ${NAMES.Classification} if its values are classes)`;
  if (ds.classes.length > maxClasses) return `its target “${ds.targetName}” has ${ds.classes.length} classes; the pictures have colours for at most ${maxClasses} (choose a Target with fewer classes)`;
  if (ds.classes.length < 2) return `its target “${ds.targetName}” has one class; the pictures need two or more`;
  if (ds.missingCells) return `${ds.missingCells} of its cells are missing (empty or NaN); the pictures need every cell (remove those rows from the file: Train fills them in)`;
  return '';
}

/** Whether the playground can draw a table (see planeRefusal). */
export const drawable = (ds, maxClasses) => planeRefusal(ds, maxClasses) === '';

/**
 * The rows of ds to draw: all of them up to max, else a seeded sample of
 * max rows drawn by the engine (split's test part, in a worker), as a data
 * set of those rows. Returns { ds, of } (of: the table's rows).
 */
export async function sampleTable(engine, ds, max, { seed, signal }) {
  const n = ds.X.rows;
  if (n <= max) return { ds, of: n };
  const { test: idx } = await engine.split(n, { testFraction: max / n, seed, signal });
  return { ds: { ...ds, X: engine.take(ds.X, idx), y: engine.take(ds.y, idx) }, of: n };
}

/**
 * A table's points on the playground's plane: at most MAX_PLANE_POINTS of
 * its rows (sampleTable), split into training and test rows by the engine
 * (Go's split rule: the page's Test share and Seed, as Train splits them),
 * each column mapped linearly onto ±TABLE_REACH so that the pictures frame
 * them as they frame a generated set (the models are fitted on the mapped
 * points: what is drawn is what is fitted). Returns { train, test,
 * classes, added: 0, table: true, split, axes, shown, of }: split the {
 * testFraction, seed } it was drawn with, axes each column's { name,
 * centre, half } (the mapping back, for pointWords), shown of of the
 * table's rows drawn.
 */
export async function tablePlane(engine, table, { testFraction, seed, signal }) {
  const { ds, of } = await sampleTable(engine, table, MAX_PLANE_POINTS, { seed, signal });
  const n = ds.X.rows;
  const mid = [0, 1].map((j) => {
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < n; i++) {
      const v = ds.X.data[2 * i + j];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    return [(lo + hi) / 2, (hi - lo) / 2 || 1];
  });
  const place = (d) => {
    const x = new Float64Array(2 * d.X.rows);
    for (let i = 0; i < x.length; i++) x[i] = ((d.X.data[i] - mid[i % 2][0]) / mid[i % 2][1]) * TABLE_REACH;
    return { x, y: Float64Array.from(d.y) };
  };
  const { train, test } = await engine.split(ds, { testFraction, seed, signal });
  const names = ds.columns.filter((c, i) => i !== ds.target).map((c) => c.name);
  const axes = mid.map(([centre, half], j) => ({ name: names[j], centre, half }));
  return { train: place(train), test: place(test), classes: [...ds.classes], added: 0, table: true, split: { testFraction, seed }, axes, shown: n, of };
}

/** A point of the plane in words: a table's in its columns' names and units, a generated set's as it is. */
export function pointWords(plane, x1, x2) {
  if (!plane.axes) return `(${x1.toFixed(2)}, ${x2.toFixed(2)})`;
  const [a, b] = plane.axes.map((ax, j) => [ax.name, ax.centre + ([x1, x2][j] / TABLE_REACH) * ax.half]);
  return `(${a[0]} ${+a[1].toPrecision(4)}, ${b[0]} ${+b[1].toPrecision(4)})`;
}
