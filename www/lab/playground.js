// The playground's two panels, wired to the page's state (app.js):
// the decision surfaces of a generated 2-D set, redrawn as the settings
// move, with clicks that add points; and the active-learning panel. What
// they compute lives in surface.js and active.js; this module paints
// canvases and charts and handles their events.
import { SURFACES, EXACT, FEATURES, GRID, TASK, surfaceOptions, gridPoints, gridIndex, readValue, evaluate, accuracy, agreement, surfacePixels, toPixel, toPlane, planeRows, CLASS_COLOURS, SURFACE, sameShare, classPixels, decision, argmaxClasses, digest } from './surface.js';
import { EXTENT, TOYS, TOY_IDS, withPoints, tablePlane, pointWords } from './toy.js';
import { featureOptions, targetKernel, preprocessOf, dim, lambdaOf, planeSplit } from './experiments.js';
import { activeLearning, toyProblem, tableProblem, RANDOM_ORDERS } from './active.js';
import { lineChart, clearChart } from './charts.js';
import { SETS_1D, SET_IDS_1D, set1d, curves1d, RBF_GAMMA_1D, realX } from './line1d.js';
import { check } from './jobs.js';
import { NAMES } from './names.js';
import { short } from './heatmap.js';
import { count, seconds, withArticle } from './format.js';
import { mark } from './dom.js';

const $ = (id) => document.getElementById(id);

/** Whether two of the engine split's options ({ testFraction, seed }) draw the same split. */
const sameSplit = (a, b) => a.testFraction === b.testFraction && a.seed === b.seed;

/** Cells per side of the quick first picture of the slow (random-feature) surface. */
const COARSE = 16;
const GRID_X = gridPoints(GRID, EXTENT);
const COARSE_X = gridPoints(COARSE, EXTENT);
// The full grid's two halves (rows of cells from the top), one per worker.
const GRID_TOP = GRID_X.subarray(0, GRID_X.length / 2);
const GRID_BOTTOM = GRID_X.subarray(GRID_X.length / 2);

/** The answers of the two halves of the full grid as one: each model's grid scores joined by rows. */
function joinRows(a, b) {
  const surfaces = a.surfaces.map((s, i) => {
    const top = s.scores[1], bottom = b.surfaces[i].scores[0];
    const data = new Float64Array(top.data.length + bottom.data.length);
    data.set(top.data);
    data.set(bottom.data, top.data.length);
    return { ...s, reused: s.reused && b.surfaces[i].reused, scores: [s.scores[0], { rows: top.rows + bottom.rows, cols: top.cols, data }] };
  });
  return { ...a, surfaces };
}
/** The pause after the last move of a control before the 1-D curves are computed again (the surfaces answer at once). */
const DEBOUNCE_MS = 120;
/** How often the 1-D curves look whether the data's load has ended. */
const LOAD_POLL_MS = 50;
/** Surfaces expected to take longer than this get a word on why and what is faster. */
const SLOW_SURFACE_MS = 5000;
/** Radius of a point, in CSS pixels. */
const DOT = 3;

const css = ([r, g, b], a = 1) => `rgba(${r},${g},${b},${a})`;

/** A g×g canvas holding a surface's colours (scaled up, smoothly, when painted). */
function surfaceImage(values, g) {
  const c = document.createElement('canvas');
  c.width = g;
  c.height = g;
  // Two classes: the decision value through the diverging palette; more: the winning class's colour.
  const px = values.label ? classPixels(values) : surfacePixels(values);
  c.getContext('2d').putImageData(new ImageData(px, g, g), 0, 0);
  return c;
}

/**
 * Paints canvas: the surface image (or a blank plane), the axes, then the
 * points: test points as rings, training points filled, points added by
 * clicks with a dark edge. marks: numbered points ({x1, x2, c, label}) on
 * top. Returns the side in canvas pixels.
 */
function paint(canvas, image, { test = null, train = null, added = 0, pending = null, faint = false, marks = [] } = {}) {
  const dpr = globalThis.devicePixelRatio || 1;
  const side = Math.round((canvas.clientWidth || 240) * dpr);
  if (canvas.width !== side) {
    canvas.width = side;
    canvas.height = side;
  }
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#f6f6f6';
  ctx.fillRect(0, 0, side, side);
  if (image) {
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(image, 0, 0, side, side);
  }
  ctx.strokeStyle = 'rgba(27,31,36,0.25)';
  ctx.lineWidth = dpr;
  ctx.beginPath();
  ctx.moveTo(side / 2, 0);
  ctx.lineTo(side / 2, side);
  ctx.moveTo(0, side / 2);
  ctx.lineTo(side, side / 2);
  ctx.stroke();
  const r = DOT * dpr;
  const dot = (x1, x2, c, { ring = false, edge = 'white', width = 1, radius = r, alpha = 1 } = {}) => {
    const [px, py] = toPixel(x1, x2, side, EXTENT);
    ctx.beginPath();
    ctx.arc(px, py, radius, 0, 2 * Math.PI);
    if (ring) {
      ctx.fillStyle = 'rgba(255,255,255,0.7)';
      ctx.fill();
      ctx.strokeStyle = css(CLASS_COLOURS[c], alpha);
      ctx.lineWidth = 1.6 * dpr;
      ctx.stroke();
      return;
    }
    ctx.fillStyle = css(CLASS_COLOURS[c], alpha);
    ctx.fill();
    ctx.strokeStyle = edge;
    ctx.lineWidth = width * dpr;
    ctx.stroke();
  };
  if (test) for (let i = 0; i < test.y.length; i++) dot(test.x[2 * i], test.x[2 * i + 1], test.y[i], { ring: true });
  if (train) {
    const own = train.y.length - added;
    for (let i = 0; i < train.y.length; i++) {
      const mine = i >= own;
      dot(train.x[2 * i], train.x[2 * i + 1], train.y[i], faint ? { radius: r * 0.7, alpha: 0.45, edge: 'rgba(255,255,255,0.5)' } : mine ? { edge: '#1b1f24', width: 2, radius: r * 1.25 } : {});
    }
  }
  if (pending) for (let i = 0; i < pending.y.length; i++) dot(pending.x[2 * i], pending.x[2 * i + 1], pending.y[i], { edge: '#1b1f24', width: 2, radius: r * 1.25 });
  ctx.font = `600 ${Math.round(10 * dpr)}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const m of marks) {
    dot(m.x1, m.x2, m.c, { edge: '#1b1f24', width: 1.5, radius: r * 1.9 });
    const [px, py] = toPixel(m.x1, m.x2, side, EXTENT);
    ctx.fillStyle = '#fff';
    ctx.fillText(m.label, px, py + 0.5 * dpr);
  }
  return side;
}

/**
 * The playground on the page's state: app (app.js), run (a job with its
 * outcome handled), say (the status line), addPoint(x1, x2, class) (the data panel
 * reloads the set with it). Returns the hooks lab.js calls.
 */
export function createPlayground({ app, run, say, addPoint }) {
  const views = SURFACES.map((sf) => ({ sf, canvas: $(`surface-${sf.id}`), title: $(`title-${sf.id}`), note: $(`note-${sf.id}`), image: null, values: null }));
  // The slow surface (random features) is computed last, after the exact NTK it is compared with.
  const order = [...views].sort((a, b) => Number(!!a.sf.method) - Number(!!b.sf.method));
  let timer = 0;
  let serial = 0;
  /** The last active-learning picks on a generated set: { image, marks } (the surface they give, the picks numbered). */
  let picks = null;

  /**
   * The points drawn on: a generated set's or a drawable table's
   * (data-panel.js), or null; a generated set being loaded (app.pending)
   * is drawn already.
   */
  const plane = () => app.pending?.plane ?? app.current?.plane ?? null;
  /** The plane last shown (planeChosen, dataChanged), and the last one whose full pictures were drawn. */
  let shownPlane = null;
  let drawnPlane = null;
  /** Those waiting for the next full pictures (planeChosen's callers): told when they are painted, or when the redraw ends without them. */
  let pictureWaiters = [];
  const picturesDone = () => {
    for (const resolve of pictureWaiters) resolve();
    pictureWaiters = [];
  };

  /** The points shown: the set's (with those added before its load), and clicks not yet loaded. */
  function points() {
    const toy = plane();
    if (!toy) return null;
    const loaded = toy.added;
    const more = !toy.table && app.added.id === toy.id ? app.added.y.length - loaded : 0;
    const pending = more > 0 ? { x: app.added.x.slice(2 * loaded), y: app.added.y.slice(loaded) } : null;
    return { train: toy.train, test: toy.test, added: loaded, pending };
  }

  function paintView(v) {
    paint(v.canvas, v.image, points() ?? {});
  }

  function paintAll() {
    for (const v of views) paintView(v);
  }

  /** The pictures' titles: the page's Method and the exact kernel it approximates. */
  function titles(s) {
    for (const v of views) {
      const { sf } = v;
      const k = targetKernel(s);
      const title = sf === EXACT ? (k.kernel === NAMES.RBF ? 'Exact RBF kernel, γ = 1/columns' : `Exact ${k.kernel.toUpperCase()}, depth L = ${k.depth}`)
        : sf === FEATURES ? `Random features: ${app.vocab.methods[s.method].label}, m = ${dim(s)}`
          : `${sf.title}, ${sf.caption({ depth: s.depth, m: dim(s) })}`;
      v.title.textContent = title;
    }
  }

  /**
   * Rough milliseconds of m random features of depth L for n rows of three
   * inputs: cost.js's model of the features alone (n·m·d for the first
   * layer, n·m²/2 for each further one), at the page's measured speed.
   */
  function featureMs(n, m, depth) {
    return (1000 * n * (m * 3 + ((depth - 1) * m * m) / 2)) / (app.rate.speed * app.engine.workers);
  }

  /** After a move: the surfaces at once (a move during a redraw becomes its next wish), the 1-D curves after a pause. */
  function redrawSoon() {
    redraw();
    clearTimeout(timer);
    timer = setTimeout(redraw1d, DEBOUNCE_MS);
  }

  // ------------------------------------------------------------ one dimension

  let serial1d = 0;
  let wish1d = false;
  let drawing1d = null;

  /**
   * Draws the curves of the settings now: at once, or when the run in
   * flight ends (a newer move replaces the wish; a run is never stopped
   * for a newer one, which would restart its worker).
   */
  function redraw1d() {
    wish1d = true;
    drawing1d ??= (async () => {
      // The surfaces first: the curves wait until they are drawn, and while data loads (whose
      // surfaces come next: the page's first pictures).
      while (drawing || app.jobs.busy('load')) await (drawing ?? new Promise((r) => setTimeout(r, LOAD_POLL_MS)));
      while (wish1d) {
        wish1d = false;
        await draw1d();
      }
      drawing1d = null;
    })();
  }

  /** Fits the three models on the chosen curve's points and draws them, with the ensemble's band. */
  async function draw1d() {
    if (!app.settings || !app.engine) return;
    const s = { ...app.settings };
    const id = $('line1d-set').value || SET_IDS_1D[0];
    // The loaded table when it is one-dimensional (data-panel.js), else a generated curve.
    const table = id === 'file' ? app.current?.line ?? null : null;
    const set = table ?? set1d(Object.hasOwn(SETS_1D, id) ? id : SET_IDS_1D[0], { seed: s.dseed });
    const mine = ++serial1d;
    const chart = $('line1d-chart');
    chart.dataset.state = 'busy';
    const options = { depth: s.depth, features: featureOptions(s, s.method, dim(s)), lambda: s.lamauto ? NAMES.Auto : lambdaOf(s), preprocess: preprocessOf(s) };
    const outcome = await run('one-dimensional regression', 'line1d', (ctl, signal) => curves1d(app.engine, set, options, signal), { fallback: 'try a larger λ' });
    if (mine !== serial1d) return;
    if (!outcome.ok) {
      chart.dataset.state = outcome.why === 'failed' ? 'failed' : 'stopped';
      return;
    }
    const c = outcome.value;
    const line = (ys) => Array.from(c.x, (x, i) => [realX(set, x), ys[i]]);
    const method = app.vocab.methods[s.method];
    lineChart(chart, {
      series: [
        { name: `exact NTK, L = ${s.depth}`, points: line(c.exact), style: 'line', colour: 0 },
        { name: `${method.name}, m = ${dim(s)}`, points: line(c.rf), style: 'line', colour: 1 },
        { name: `RBF, γ = ${RBF_GAMMA_1D}`, points: line(c.rbf), style: 'line', colour: 2 },
        { name: table ? 'your rows' : 'training points', points: Array.from(set.x, (x, i) => [realX(set, x), set.y[i]]), style: 'dots', colour: 3 },
      ],
      bands: [{ name: 'ensemble ±2σ', lo: line(c.lo), hi: line(c.hi) }],
      x: { label: table ? set.axis.name : 'x' },
      y: { label: table ? set.target : 'y' },
      key: 'left',
      size: [520, 260],
    });
    const widest = Math.max(...c.hi.map((h, i) => h - c.lo[i]));
    Object.assign(chart.dataset, { state: 'done', run: String(mine), widest: String(widest), lambda: String(c.lambda) });
    Object.assign(chart.dataset, { set: table ? 'file' : set.id, points: String(set.x.length) });
    const drawn = table ? `${app.current.name}, ${set.target} against ${set.axis.name}${set.shown < set.of ? ` (a sample of ${set.shown} of its ${set.of} rows: the exact kernel and the band are n×n)` : ''}` : SETS_1D[set.id].title;
    $('line1d-note').textContent = `${drawn}: λ = ${short(c.lambda)}; the band is widest (±${short(widest / 2)}) where the ensemble has no data.`;
  }

  // ------------------------------------------------------------ the surfaces

  /**
   * The surfaces answer while a control moves (the TensorFlow Playground's
   * feel): one engine call fits the three models and scores the test
   * points and a grid (Go's core/playground, in the worker that keeps the
   * models the last call fitted, so a moved control refits only what it
   * changed), a coarse grid first, then the full one. A move while a
   * redraw runs is not a new job: it is kept as the wish (the newest
   * settings; older wishes are dropped), and the running job takes it as
   * soon as the call in flight answers, skipping the full grid of settings
   * already overtaken.
   */
  let wish = false;
  let drawing = null;

  /** Draws the surfaces of the settings now, as soon as the redraw in flight (if any) answers. */
  function redraw() {
    if (!plane() || !app.settings || !app.engine) return;
    wish = true;
    if (!drawing) drawing = drawLoop();
  }

  /** The job that draws every wish in turn, until none is left. */
  async function drawLoop() {
    const outcome = await run('decision surfaces', 'playground', async (ctl, signal) => {
      while (wish) {
        wish = false;
        await drawOnce(ctl, signal);
      }
    }, { fallback: 'try a larger λ or a smaller Features m' });
    drawing = null;
    picturesDone();
    if (!outcome.ok && (outcome.why === 'failed' || outcome.why === 'cancelled')) {
      wish = false;
      const failed = outcome.why === 'failed';
      for (const v of views) if (v.canvas.dataset.state === 'busy') v.canvas.dataset.state = failed ? 'failed' : 'stopped';
      $('play-status').textContent = failed
        ? 'The surfaces could not be computed (the message at the top says why).'
        : 'Stopped by Cancel: the pictures are of earlier settings. Move a control to draw them again.';
    } else if (wish) {
      // Replaced (new data) with a wish left: draw it.
      redraw();
    }
  }

  /** One redraw of the settings now: the coarse pictures, then (unless a newer wish came meanwhile) the full ones. */
  async function drawOnce(ctl, signal) {
    // A pending generated set has no table (only a loaded one is split again).
    const cur = app.pending?.plane ? app.pending : app.current;
    if (!cur?.plane) return;
    const s = { ...app.settings };
    const depth = s.depth, m = dim(s), lambda = s.lamauto ? NAMES.Auto : lambdaOf(s);
    const lam = s.lamauto ? 'λ auto' : `λ = ${short(lambda)}`;
    // Every model control beside the pictures shapes them: the Method (and the exact kernel it
    // approximates), its options, the preprocessing and the bias input.
    const features = featureOptions(s, s.method, m);
    const kernel = targetKernel(s);
    const preprocess = preprocessOf(s);
    const mine = ++serial;
    if (cur.plane.table && !sameSplit(cur.plane.split, planeSplit(s))) {
      // A moved Test share or Seed: the engine splits the table again; the clicked points stay.
      const old = cur.plane;
      let fresh;
      try {
        fresh = await tablePlane(app.engine, cur.ds, { ...planeSplit(s), signal });
      } catch (e) {
        if (signal.aborted) throw e;
        $('play-status').textContent = `The table could not be split again: ${e.message}`;
        return;
      }
      if (plane() !== old) return;
      const n = old.train.y.length - old.added;
      cur.plane = { ...fresh, train: withPoints(fresh.train, { x: old.train.x.slice(2 * n), y: old.train.y.slice(n) }), added: old.added };
      paintAll();
    }
    // The plane these pictures are of: a newer one (new data) drops them.
    const drawn = cur.plane;
    const { train, test, classes } = drawn;
    // More than two classes: each pixel the winning class (one-vs-rest scores), not a decision value.
    const multi = classes.length > 2;
    const values = (S) => (multi ? argmaxClasses(S) : decision(S));
    titles(s);
    for (const v of views) v.canvas.dataset.state = 'busy';
    const ms = featureMs(train.y.length + test.y.length + COARSE * COARSE + GRID * GRID, m, depth);
    const slow = ms > SLOW_SURFACE_MS ? ` The random features take about ${seconds(ms)} (rough): fewer features or a smaller depth are much faster.` : '';
    $('play-status').textContent = `Computing the surfaces for L = ${depth}, m = ${m}, ${lam}…${slow}`;
    const t0 = performance.now();
    const models = views.map((v) => {
      const { features: f, kernel: k } = surfaceOptions(v.sf, { depth, features, kernel, lambda, preprocess, classes: classes.length });
      return f ? { features: f } : { kernel: k };
    });
    const { onProgress } = ctl(0, 1);
    const call = (points, lane = 0) => app.engine.playground(planeRows(train.x), train.y, {
      models, points: points.map(planeRows), lambda, task: TASK, classes: classes.length, preprocess, lane, signal, onProgress,
    });
    // The coarse picture and the full one's first half to the worker of
    // lane 0, one after the other (no other job takes the worker between
    // them); with two workers, the full picture's second half to the other
    // (each worker keeps its own models) once the coarse picture is in:
    // started beside it, that half's three fits take CPU from the coarse
    // picture's (two cores), and the full picture waits for the first half,
    // which follows the coarse one, anyway. The page's first full picture
    // stays whole on lane 0, whose models the coarse call fitted: the other
    // worker is not started yet then, and its start and three cold fits
    // made that picture ~110 ms later (medians of 6 loads alternated).
    mark('playground call');
    const coarseCall = call([test.x, COARSE_X]);
    const split = app.engine.workers > 1 && drawnPlane !== null;
    const halves = split ? [call([test.x, GRID_TOP]), coarseCall.then(() => call([GRID_BOTTOM], 1))] : [call([test.x, GRID_X])];
    const fullCall = Promise.all(halves).then(([a, b]) => (b ? joinRows(a, b) : a));
    fullCall.catch(() => {}); // awaited below, unless the coarse call fails
    const coarse = await coarseCall;
    check(signal);
    if (plane() !== drawn) return;
    for (const [i, v] of views.entries()) {
      v.image = surfaceImage(values(coarse.surfaces[i].scores[1]), COARSE);
      paintView(v);
    }
    const tCoarse = performance.now() - t0;
    // When the page first showed pictures (its clock: milliseconds since it began loading).
    $('play-status').dataset.firstCoarse ??= String(Math.round(performance.now()));
    const full = await fullCall;
    check(signal);
    if (plane() !== drawn) return;
    let exact = null;
    for (const [i, v] of views.entries()) {
      const r = full.surfaces[i];
      const onTest = values(r.scores[0]);
      const acc = multi ? sameShare(onTest.label, test.y) : accuracy(onTest, test.y);
      const grid = values(r.scores[1]);
      v.image = surfaceImage(grid, GRID);
      v.values = grid;
      const agree = v.sf.method && exact ? (multi ? sameShare(grid.label, exact.label) : agreement(grid, exact)) : NaN;
      if (v.sf === EXACT) exact = grid;
      Object.assign(v.canvas.dataset, { state: 'done', run: String(mine), accuracy: String(acc), agreement: Number.isNaN(agree) ? '' : String(agree), lambda: String(r.lambda) });
      // What is drawn, for the reader of the page's state (the tests): fitRidge's options of this
      // model and a digest of its values on the grid.
      Object.assign(v.canvas.dataset, { options: JSON.stringify({ ...models[i], lambda, task: TASK, classes: classes.length, preprocess }), digest: digest(grid) });
      const chose = s.lamauto ? ` · chose λ = ${short(r.lambda)}` : '';
      v.note.textContent = `test accuracy ${(100 * acc).toFixed(1)}%${Number.isNaN(agree) ? '' : ` · same class as the exact kernel on ${(100 * agree).toFixed(1)}% of the plane`}${chose}`;
      paintView(v);
    }
    const ms1 = performance.now() - t0;
    $('play-status').dataset.firstFull ??= String(Math.round(performance.now()));
    picturesDone();
    drawnPlane = drawn;
    const refit = full.surfaces.filter((r, i) => !r.reused || !coarse.surfaces[i].reused).length;
    Object.assign($('play-status').dataset, { run: String(mine), ms: String(ms1), coarseMs: String(tCoarse), refit: String(refit) });
    $('play-status').textContent = `L = ${depth}, m = ${m}, ${lam}: three fits on ${count(train.y.length, 'point')} and ${count(3 * GRID * GRID, 'prediction')} in ${seconds(ms1)} (the coarse picture in ${seconds(tCoarse)}; ${refit === 0 ? 'no model refitted' : `${count(refit, 'model')} refitted`}).`;
  }

  /**
   * After a load: the surfaces of a generated set or a drawable table, a
   * one-dimensional table in the 1-D panel, and for a table either cannot
   * draw the reason why, in words; old active-learning results go.
   */
  function dataChanged() {
    const toy = plane();
    const cur = app.current;
    // A generated set shown as its load began (planeChosen): its pictures
    // are drawn, or being drawn (a redraw in flight reads the plane anew).
    const early = !!toy && toy === shownPlane && (drawing !== null || drawnPlane === toy);
    shownPlane = toy;
    $('play-surfaces').hidden = !toy;
    const names = TOY_IDS.map((id) => TOYS[id].title);
    const general = `Decision surfaces are drawn for the generated 2-D sets (choose ${names.slice(0, -1).join(', ')} or ${names.at(-1)} in Dataset) and for a table of two numeric columns and a class of at most ${CLASS_COLOURS.length} values; a table of one numeric column and a numeric target is drawn as a curve below. Active learning works on any data set.`;
    let note = '';
    if (toy?.table && toy.shown < toy.of) note = `Drawn: a sample of ${toy.shown} of the ${toy.of} rows of ${cur.name} (the engine draws it; the exact kernel's matrix is n×n and the page stays quick); Train uses every row.`;
    else if (!toy && cur) {
      note = cur.line
        ? `${cur.name} is drawn as a curve below, not on the plane: ${cur.planeWhy}. ${general}`
        : `${cur.name} is not drawn: on the plane, ${cur.planeWhy}; as a curve, ${cur.lineWhy}. ${general}`;
    }
    // What is drawn, for the reader of the page's state (the tests): the points on the plane.
    $('play-surfaces').dataset.points = toy ? String(toy.train.y.length + toy.test.y.length) : '';
    $('play-table-note').textContent = note;
    $('play-table-note').hidden = !note;
    $('play-table-note').classList.toggle('warn', !!cur && !toy && !cur.line);
    // The Curve menu: the generated curves, and the loaded table when it is one-dimensional (chosen).
    const sel = $('line1d-set');
    const was = sel.value;
    sel.replaceChildren(...SET_IDS_1D.map((id) => new Option(SETS_1D[id].title, id)), ...(cur?.line ? [new Option(`your table: ${cur.name}`, 'file')] : []));
    sel.value = cur?.line ? 'file' : Object.hasOwn(SETS_1D, was) ? was : SET_IDS_1D[0];
    if (cur?.line || was === 'file') redraw1d();
    if (toy) classKey(toy.classes);
    clearActive();
    if (!early) {
      for (const v of views) v.values = null;
      $('play-read').textContent = '';
    }
    if (toy) {
      paintAll();
      if (!early) redraw();
    } else {
      $('play-status').textContent = '';
    }
  }

  /**
   * A generated set chosen, its load just begun (data-panel.js): its points
   * and surfaces at once, while the engine reads it as a table (the page's
   * first pictures do not wait for the Data panel). dataChanged, once it
   * has loaded, finds them drawn. Resolves once their full pictures are
   * painted (or the redraw ended without them): the load's own engine
   * calls wait for that, so that they take no CPU from them.
   */
  function planeChosen() {
    const toy = plane();
    if (!toy || toy === shownPlane) return Promise.resolve();
    shownPlane = toy;
    $('play-surfaces').hidden = false;
    $('play-surfaces').dataset.points = String(toy.train.y.length + toy.test.y.length);
    $('play-table-note').textContent = '';
    $('play-table-note').hidden = true;
    classKey(toy.classes);
    for (const v of views) v.values = null;
    $('play-read').textContent = '';
    paintAll();
    redraw();
    return drawing ? new Promise((resolve) => pictureWaiters.push(resolve)) : Promise.resolve();
  }

  // ------------------------------------------------------------ active learning

  function clearActive() {
    picks = null;
    clearChart($('active-chart'));
    $('active-result').textContent = '';
    delete $('active-result').dataset.done;
    $('active-plane-figure').hidden = !app.current?.toy;
    paintPlane();
  }

  function paintPlane() {
    const p = points();
    paint($('active-plane'), picks?.image ?? null, p ? { train: p.train, added: 0, faint: true, marks: picks?.marks ?? [] } : {});
  }

  function drawCurves(r) {
    const accuracy = r.metric === 'accuracy';
    // Accuracy from chance (or below) to 1, so that runs compare at a glance; R² as it comes.
    let low = Infinity;
    for (const [, v] of [...r.design, ...r.random]) if (v < low) low = v;
    lineChart($('active-chart'), {
      series: [{ name: 'greedy design', points: r.design }, { name: `random (mean of ${RANDOM_ORDERS})`, points: r.random }],
      x: { label: 'labelled rows', domain: [0, r.k] },
      y: { label: accuracy ? 'test accuracy' : 'test R²', domain: accuracy ? [Math.min(0.5, Math.floor(low * 10) / 10), 1] : undefined },
      key: 'left',
      size: [380, 240],
    });
  }

  async function runActive() {
    const cur = app.current;
    if (!cur) return;
    const s = { ...app.settings };
    clearActive();
    const result = $('active-result');
    let last = null;
    const t0 = performance.now();
    const outcome = await run('active learning', 'active', async (ctl, signal) => {
      const p = cur.toy ? toyProblem(cur.toy, s) : await tableProblem(app.engine, cur.ds, s, signal);
      check(signal);
      const r = await activeLearning(app.engine, p, s.labels, ctl, signal, (partial) => {
        last = partial;
        drawCurves(partial);
      });
      if (cur.toy) {
        // The surface the design's labels give, with the picks numbered in order.
        const idx = r.picks;
        const model = await app.engine.fitRidge(app.engine.take(p.pool, idx), app.engine.take(p.poolY, idx), { kernel: p.kernel, lambda: p.lambda, task: p.task, classes: p.classes, preprocess: p.preprocess, signal });
        try {
          const values = await evaluate(model, GRID_X, { signal });
          check(signal);
          const { x, y } = cur.toy.train;
          picks = { image: surfaceImage(values, GRID), marks: idx.map((i, j) => ({ x1: x[2 * i], x2: x[2 * i + 1], c: y[i], label: String(j + 1) })) };
        } finally {
          model.dispose();
        }
      }
      return r;
    }, { fallback: 'try a larger λ or a smaller Features m' });
    if (outcome.ok) {
      const r = outcome.value;
      const [c, d] = r.design.at(-1), [, rnd] = r.random.at(-1);
      const fmt = (v) => (r.metric === 'accuracy' ? `${(100 * v).toFixed(1)}%` : short(v));
      result.textContent = `With ${count(c, 'label')}${r.k < s.labels ? ` (all ${r.k} rows of the pool)` : ''}: the design reaches ${r.metric} ${fmt(d)}, random picks ${fmt(rnd)}, on ${count(r.testRows, 'held-out row')}. ${seconds(performance.now() - t0)}.`;
      result.dataset.done = '1';
      paintPlane();
      say(`Active learning on ${cur.name}: done.`);
    } else {
      const why = {
        failed: 'No result: active learning failed (the message at the top says why).',
        cancelled: `Cancelled ${last ? `after ${count(last.random.length, 'label count')} of ${last.counts.length}; the chart shows those` : 'while the design picked its rows'}. Run it again to start over.`,
        'new data': 'No result: other data was loaded meanwhile.',
      }[outcome.why];
      if (why) result.textContent = why;
      if (outcome.why === 'cancelled') say('Cancelled active learning. You can start it again.');
    }
  }

  function renderJobs() {
    const job = app.jobs.list.find((j) => j.lane === 'active');
    $('run-active').disabled = !!job || !app.current;
    $('cancel-active').disabled = !job;
    $('active-progress').value = job ? job.fraction : 0;
    if (job) $('active-result').textContent = `Running: ${/labels$/.test(job.stage) ? `scoring both strategies with ${job.stage}` : 'the design picks its rows (one step, the longest)'}… ${Math.round(100 * job.fraction)}%`;
  }

  /** Reads the three pictures at the pointer: each model's prediction at that point of the plane. */
  function readPoint(e) {
    const toy = plane();
    if (!toy) return;
    const box = e.currentTarget.getBoundingClientRect();
    const [x1, x2] = toPlane(e.clientX - box.left, e.clientY - box.top, box.width, EXTENT);
    const k = gridIndex(x1, x2, GRID, EXTENT);
    const word = (v) => (v.values.label ? `${toy.classes[v.values.label[k]]} (margin ${v.values.margin[k].toFixed(2)})` : readValue(v.values[k], toy.classes));
    const parts = views.filter((v) => v.values).map((v) => `${v.title.textContent.split(',')[0]}: ${word(v)}`);
    const read = $('play-read');
    read.textContent = parts.length ? `At ${pointWords(toy, x1, x2)}: ${parts.join(' · ')}.` : '';
    Object.assign(read.dataset, { x1: String(x1), x2: String(x2), values: JSON.stringify(views.map((v) => (!v.values ? null : v.values.label ? v.values.label[k] : v.values[k]))) });
  }

  // ------------------------------------------------------------ events

  const paintClass = () => Number(document.querySelector('input[name="paint"]:checked')?.value ?? 0);
  for (const v of views) {
    v.canvas.addEventListener('click', (e) => {
      const toy = plane();
      if (!toy) return;
      const box = v.canvas.getBoundingClientRect();
      const [x1, x2] = toPlane(e.clientX - box.left, e.clientY - box.top, box.width, EXTENT);
      const c = Math.min(paintClass(), toy.classes.length - 1);
      if (toy.table) {
        // A table's points live on the plane only (the table itself is the file's): add and refit.
        toy.train = withPoints(toy.train, { x: [x1, x2], y: [c] });
        toy.added++;
        redrawSoon();
      } else addPoint(x1, x2, c);
      paintAll();
      say(`Added ${withArticle(toy.classes[c])} point at ${pointWords(toy, x1, x2)}; refitting…`);
    });
  }
  for (const v of views) v.canvas.addEventListener('pointermove', readPoint);
  $('line1d-set').replaceChildren(...SET_IDS_1D.map((id) => new Option(SETS_1D[id].title, id)));
  $('line1d-set').addEventListener('change', redraw1d);
  $('run-active').addEventListener('click', runActive);
  $('cancel-active').addEventListener('click', () => app.jobs.stopAll('cancelled', (j) => j.lane !== 'active'));
  // Canvases follow the layout's width (their pixels are their CSS size × the device's ratio).
  const resized = new ResizeObserver(() => {
    paintAll();
    paintPlane();
  });
  resized.observe($('play-surfaces'));
  resized.observe($('active-plane'));

  /** The classes' key (a swatch and a name each) and the click's class choice, for the set's classes. */
  function classKey(names) {
    const was = paintClass();
    const swatch = (c) => {
      const s = document.createElement('span');
      s.className = 'class-dot';
      s.style.background = css(CLASS_COLOURS[c]);
      return s;
    };
    const key = $('play-classes');
    key.replaceChildren(...names.map((name, c) => {
      const item = document.createElement('span');
      item.className = 'class';
      item.append(swatch(c), ` ${name}`);
      return item;
    }));
    // The colour bar reads two classes' decision value; with more, the key says which colour is which.
    $('surface-bar').hidden = names.length > 2;
    $('paint-classes').replaceChildren(...names.map((name, c) => {
      const label = document.createElement('label');
      const input = Object.assign(document.createElement('input'), { type: 'radio', name: 'paint', value: String(c), checked: c === (was < names.length ? was : 0) });
      label.append(input, swatch(c), ` ${name}`);
      return label;
    }));
    const ticks = $('surface-bar').querySelectorAll('.ticks span');
    ticks[0].textContent = `${names[0]}, sure`;
    ticks[2].textContent = `${names[1]}, sure`;
  }

  drawLegend();

  /** Resolves once no surfaces are being drawn: work for panels further down waits for them (the page's first pictures), as the 1-D curves do. */
  async function surfacesDrawn() {
    while (drawing) await drawing;
  }

  return { redrawSoon, redraw1d, dataChanged, planeChosen, surfacesDrawn, renderJobs };
}

/** The surface's colour bar. */
function drawLegend() {
  const c = $('surface-legend');
  c.width = 256;
  c.height = 1;
  const img = new ImageData(256, 1);
  for (let i = 0; i < 256; i++) img.data.set([SURFACE[3 * i], SURFACE[3 * i + 1], SURFACE[3 * i + 2], 255], 4 * i);
  c.getContext('2d').putImageData(img, 0, 0);
}
