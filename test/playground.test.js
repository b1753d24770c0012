// The lab's playground in Chromium (dist/www served by dist/bin/serve, its
// strict CSP): the spiral and its surfaces on a bare address, every
// generated set drawn with many colours, redraws when m, depth, λ or the
// data move (stale runs dropped), points added by clicks, active learning
// with both curves, its cancel mid-run, and the same on a table. No console
// errors, no request off the local server. Screenshots of every state go to
// test-results/playground-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './helpers.js';
import { startSite, openLab, colours, idle, TIMEOUT } from './site.js';

const shots = path.join(root, 'test-results');
const shot = (page, name, options = {}) => page.screenshot({ path: path.join(shots, `playground-${name}.png`), ...options });
const SURFACE_IDS = ['exact', 'rf', 'rbf'];
const TOYS = ['spiral', 'circles', 'xor', 'moons', 'gauss'];
/**
 * A drawn surface has a smooth colour ramp through many values (a blank or
 * flat canvas has a handful: background, axes, points).
 */
const MANY_COLOURS = 200;
/** Exact NTK ridge regression at the defaults separates every generated set at 10 % noise on its test points (0.97–1.0 measured). */
const EXACT_ACCURACY_FLOOR = 0.9;
/** A bare page shows its surfaces within this time on this 2-core machine (about 4 s measured). */
const LANDING_MS = 30_000;

let site;
before(async () => {
  await mkdir(shots, { recursive: true });
  site = await startSite();
});
after(async () => {
  await site?.close();
});

/** The run numbers of the three surfaces (data-run), as drawn now. */
const runs = (page) => page.evaluate((ids) => ids.map((id) => document.getElementById(`surface-${id}`).dataset.run ?? ''), SURFACE_IDS);

/**
 * Waits until all three surfaces are drawn by a run newer than `after`
 * (their run numbers), and no surface run is in progress; an alert fails at
 * once with its text.
 */
async function surfaces(page, after = ['', '', ''], timeout = TIMEOUT) {
  await page.waitForFunction(({ ids, after }) => {
    if (!document.getElementById('alert').hidden) return true;
    return ids.every((id, i) => {
      const c = document.getElementById(`surface-${id}`);
      return c.dataset.state === 'done' && c.dataset.run !== after[i];
    });
  }, { ids: SURFACE_IDS, after }, { timeout });
  if (await page.isVisible('#alert')) assert.fail(`the page shows an error: ${await page.textContent('#alert-text')}`);
}

/** A hash of a canvas's pixels, to tell whether it was painted again differently. */
const pixels = (page, id) => page.evaluate((id) => {
  const c = document.getElementById(id);
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let h = 2166136261;
  for (let i = 0; i < d.length; i++) h = Math.imul(h ^ d[i], 16777619);
  return `${c.width}:${h >>> 0}`;
}, id);

const dataset = (page, id) => page.evaluate((id) => ({ ...document.getElementById(id).dataset }), id);

/** Whether the element is wholly inside the window, unscrolled (the first screen). */
const onFirstScreen = (page, selector) => page.evaluate((sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
}, selector);

/** Moves a slider by keys (its input events fire as a user's would). */
async function slide(page, id, key, times = 1) {
  await page.focus(`#${id}`);
  for (let i = 0; i < times; i++) await page.keyboard.press(key);
}

test('a bare address shows the spiral and its three surfaces within seconds, with help beside the two sliders', { timeout: 2 * TIMEOUT }, async () => {
  const t0 = Date.now();
  const { page, context, check } = await openLab(site, { ready: false });
  await surfaces(page, undefined, LANDING_MS);
  const ms = Date.now() - t0;
  assert.ok(ms < LANDING_MS, `surfaces after ${ms} ms`);
  assert.equal(await page.inputValue('#dataset'), 'spiral');
  // The set's load (the Data panel, the link) follows the full pictures.
  await page.waitForFunction(() => /spiral\.csv/.test(document.getElementById('source').textContent), null, { timeout: TIMEOUT });
  assert.match(page.url(), /#data=spiral$/, 'the link names the data set');
  assert.match(await page.textContent('#source'), /spiral\.csv/);
  for (const id of SURFACE_IDS) {
    const n = await colours(page, `surface-${id}`);
    assert.ok(n >= MANY_COLOURS, `${id}: ${n} colours`);
  }
  assert.ok(Number((await dataset(page, 'surface-exact')).accuracy) >= EXACT_ACCURACY_FLOOR);
  // The first screen says what to do, and the two sliders say what to look for.
  assert.ok(await page.locator('#play-panel .intro').isVisible());
  assert.match(await page.textContent('#play-panel .intro'), /Start here/);
  for (const id of ['depth-hint', 'dim-hint']) assert.ok(await onFirstScreen(page, `#${id}`), `${id} is on the first screen`);
  assert.match(await page.textContent('#depth-hint'), /What does depth do\?/);
  assert.match(await page.textContent('#dim-hint'), /How many features are enough\?/);
  for (const id of SURFACE_IDS) assert.ok(await onFirstScreen(page, `#surface-${id}`), `surface ${id} is on the first screen`);
  await idle(page);
  await shot(page, '01-landing');
  check();
  await context.close();
});

test('every generated set trains and draws three surfaces with many colours', { timeout: 4 * TIMEOUT }, async () => {
  const { page, context, check } = await openLab(site, { hash: '#data=spiral' });
  await surfaces(page);
  for (const id of TOYS) {
    const before = id === 'spiral' ? ['', '', ''] : await runs(page);
    if (id !== 'spiral') await page.selectOption('#dataset', id);
    await surfaces(page, before);
    // The Data panel follows: the set's load waits for the full pictures.
    await page.waitForFunction((id) => new RegExp(`${id}\\.csv`).test(document.getElementById('source').textContent), id, { timeout: TIMEOUT });
    assert.match(await page.textContent('#facts'), /classification, 2 classes/, 'the rest of the lab reads the set as a table');
    for (const s of SURFACE_IDS) {
      const n = await colours(page, `surface-${s}`);
      assert.ok(n >= MANY_COLOURS, `${id}, ${s}: ${n} colours`);
    }
    const exact = await dataset(page, 'surface-exact');
    assert.ok(Number(exact.accuracy) >= EXACT_ACCURACY_FLOOR, `${id}: exact NTK test accuracy ${exact.accuracy}`);
    const agree = Number((await dataset(page, 'surface-rf')).agreement);
    assert.ok(agree > 0.5 && agree <= 1, `${id}: random features agree with the exact NTK on ${agree} of the plane`);
    await idle(page);
    await page.locator('#play-panel').screenshot({ path: path.join(shots, `playground-02-${id}.png`) });
  }
  check();
  await context.close();
});

test('moving m, depth and λ redraws at once; a run overtaken by a newer move is dropped; more features agree more', { timeout: 4 * TIMEOUT }, async () => {
  const { page, context, check } = await openLab(site, { hash: '#data=spiral&logm=6' });
  await surfaces(page);
  await idle(page);
  const at64 = Number((await dataset(page, 'surface-rf')).agreement);
  const rf64 = await pixels(page, 'surface-rf');
  const exact1 = await pixels(page, 'surface-exact');
  await shot(page, '03-m64');

  // Five quick moves: one redraw for the last, whose numbers the captions show.
  let before = await runs(page);
  await slide(page, 'dim', 'ArrowRight', 5); // m = 2048
  assert.match(await page.textContent('#dim-out'), /2048/);
  await surfaces(page, before);
  assert.match(await page.textContent('#title-rf'), /m = 2048/);
  const drawn = await runs(page);
  // The surfaces answer while a control moves: at most one redraw per move (those that came while
  // a redraw ran are merged into the next), the last of the newest settings.
  assert.ok(Number(drawn[1]) - Number(before[1]) <= 5, `at most one redraw per move for five quick moves (runs ${before[1]} → ${drawn[1]})`);
  assert.notEqual(await pixels(page, 'surface-rf'), rf64, 'the random-feature surface is painted anew');
  const at2048 = Number((await dataset(page, 'surface-rf')).agreement);
  assert.ok(at2048 > at64, `2048 features agree with the exact NTK more than 64: ${at2048} vs ${at64}`);
  await idle(page);
  assert.match(page.url(), /logm=11/, 'the link follows the slider');
  await shot(page, '04-m2048');

  before = await runs(page);
  await slide(page, 'depth', 'ArrowRight', 2); // L = 3
  await surfaces(page, before);
  assert.match(await page.textContent('#title-exact'), /depth L = 3/);
  assert.notEqual(await pixels(page, 'surface-exact'), exact1, 'the exact NTK of depth 3 is another surface');
  await idle(page);
  await shot(page, '05-depth3');

  before = await runs(page);
  const rbf = await pixels(page, 'surface-rbf');
  await slide(page, 'lambda', 'End'); // λ = 10: flat, unsure surfaces
  assert.match(await page.textContent('#lambda-out'), /= 10$/);
  await surfaces(page, before);
  assert.notEqual(await pixels(page, 'surface-rbf'), rbf, 'a larger λ paints the RBF surface anew');
  await idle(page);
  await shot(page, '06-lambda10');

  // λ auto: each picture picks its own by leave-one-out, and says which; the link keeps it.
  before = await runs(page);
  await page.check('#lambda-auto');
  await surfaces(page, before);
  await page.waitForFunction(() => /λ auto: three fits/.test(document.getElementById('play-status').textContent), null, { timeout: TIMEOUT });
  for (const id of ['surface-exact', 'surface-rf', 'surface-rbf']) {
    const chosen = Number((await dataset(page, id)).lambda);
    assert.ok(chosen > 0 && chosen < 10, `${id}: auto chose λ = ${chosen}, sharper than the slider's 10 on these clean spirals`);
  }
  assert.match(await page.textContent('#note-exact'), /chose λ = /);
  await idle(page);
  assert.match(page.url(), /lamauto=1/, 'the link keeps auto');
  await shot(page, '06-lambda-auto');
  await page.uncheck('#lambda-auto');

  // A move while a redraw runs: the older run is dropped, and only the newest settings are drawn.
  await slide(page, 'lambda', 'Home');
  await slide(page, 'dim', 'Home'); // m = 64
  await page.waitForFunction(() => document.getElementById('surface-rf').dataset.state === 'busy');
  await slide(page, 'dim', 'ArrowRight'); // m = 128
  await page.waitForFunction(() => /m = 128, .*three fits/.test(document.getElementById('play-status').textContent), null, { timeout: TIMEOUT });
  assert.match(await page.textContent('#title-rf'), /m = 128/);
  const last = await runs(page);
  assert.ok(last.every((r) => r === last[0]), `the three surfaces come from the same, newest run: ${last}`);
  await idle(page);
  check();
  await context.close();
});

/** The status line's figures of the last redraw: { run, ms, coarseMs, refit }. */
const statusFigures = (page) => page.evaluate(() => ({ ...document.getElementById('play-status').dataset }));

test('redraws answer while the controls move: depth, m and λ timed by the status line, every picture fitRidge\'s predictions', { timeout: 6 * TIMEOUT }, async () => {
  const { page, context, check } = await openLab(site, { ready: false });
  await surfaces(page, undefined, LANDING_MS);
  const first = await statusFigures(page);
  console.log(`first pictures (page clock, since it began loading): coarse ${first.firstCoarse} ms, full ${first.firstFull} ms`);
  await idle(page);
  const moves = [['depth', 'ArrowRight'], ['depth', 'ArrowLeft'], ['dim', 'ArrowRight'], ['dim', 'ArrowLeft'], ['lambda', 'ArrowRight'], ['lambda', 'ArrowLeft']];
  const times = { cold: [], warm: [] };
  for (const round of ['cold', 'warm']) {
    for (const [id, key] of moves) {
      const was = await statusFigures(page);
      const pics = await Promise.all(SURFACE_IDS.map((s) => pixels(page, `surface-${s}`)));
      await slide(page, id, key);
      await page.waitForFunction((run) => {
        const d = document.getElementById('play-status').dataset;
        return d.run !== run && ['exact', 'rf', 'rbf'].every((s) => document.getElementById(`surface-${s}`).dataset.state === 'done');
      }, was.run, { timeout: TIMEOUT });
      const now = await statusFigures(page);
      times[round].push(Number(now.ms));
      console.log(`${round} ${id} ${key}: ${await page.textContent('#play-status')}`);
      // The pictures follow the move: the surfaces that depend on it are painted anew.
      const changed = id === 'dim' ? ['rf'] : id === 'depth' ? ['exact', 'rf'] : SURFACE_IDS;
      for (const s of changed) assert.notEqual(await pixels(page, `surface-${s}`), pics[SURFACE_IDS.indexOf(s)], `${round} ${id} ${key}: ${s} is painted anew`);
      // Moved back, the worker keeps the models: the status says how many were fitted again (not
      // asserted: another panel's stopped job restarts the worker it ran on, and its models go;
      // test/playground-engine.test.js asserts what a worker keeps).
      await idle(page);
    }
  }
  const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  console.log(`redraw median: cold ${Math.round(median(times.cold))} ms (${times.cold.map(Math.round).join(', ')}), moved back ${Math.round(median(times.warm))} ms (${times.warm.map(Math.round).join(', ')}), all ${Math.round(median([...times.cold, ...times.warm]))} ms`);
  // Every picture is what fitRidge and predictScores (the path the page used before) give for
  // the options it was drawn with: the same bits, by the digest of the grid's values.
  const same = await page.evaluate(async (ids) => {
    const { createEngine } = await import('./ntkrf/index.js');
    const { toySet } = await import('./toy.js');
    const S = await import('./surface.js');
    const set = toySet('spiral', { n: 200, noisePercent: 10, seed: 1 });
    const engine = await createEngine({ workers: 1 });
    try {
      const out = [];
      for (const id of ids) {
        const c = document.getElementById(`surface-${id}`);
        const model = await engine.fitRidge(S.planeRows(set.train.x), set.train.y, JSON.parse(c.dataset.options));
        const values = await S.evaluate(model, S.gridPoints(S.GRID, 1.5));
        out.push([id, S.digest(values), c.dataset.digest, String(model.lambda), c.dataset.lambda]);
      }
      return out;
    } finally {
      engine.close();
    }
  }, SURFACE_IDS);
  for (const [id, want, got, lw, lg] of same) {
    assert.equal(got, want, `${id}: the picture's values are fitRidge's predictions`);
    assert.equal(lg, lw, `${id}: λ`);
  }
  check();
  await context.close();
});

test('every model control beside the pictures shapes them: Method, Standardize, Unit-norm and σ_b redraw the surfaces, and the titles and the Data panel say what is drawn', { timeout: 4 * TIMEOUT }, async () => {
  const { page, context, check } = await openLab(site, { hash: '#data=spiral&logm=8' });
  await surfaces(page);
  await idle(page);
  // Regression in one dimension: the three curves and the ensemble's band, widest where there is no data.
  await page.waitForFunction(() => document.getElementById('line1d-chart').dataset.state === 'done', null, { timeout: TIMEOUT });
  assert.equal(await page.$$eval('#line1d-chart polygon.band', (b) => b.length), 1, 'the ensemble\'s band');
  assert.equal(await page.$$eval('#line1d-chart .series polyline', (l) => l.length), 3, 'exact NTK, random features, RBF');
  assert.ok(Number((await dataset(page, 'line1d-chart')).widest) > 0);
  await page.selectOption('#line1d-set', 'steps');
  await page.waitForFunction(() => /^steps/.test(document.getElementById('line1d-note').textContent), null, { timeout: TIMEOUT });
  await page.locator('#line1d').screenshot({ path: path.join(shots, 'playground-15-line1d.png') });
  // Read a point: the pointer over any picture shows the three models' predictions there.
  await page.locator('#surface-rf').scrollIntoViewIfNeeded();
  const box = await page.locator('#surface-rf').boundingBox();
  await page.mouse.move(box.x + box.width * 0.75, box.y + box.height * 0.25);
  await page.waitForFunction(() => /^At \(/.test(document.getElementById('play-read').textContent));
  const read = await dataset(page, 'play-read');
  assert.ok(Number(read.x1) > 0 && Number(read.x2) > 0, `the upper right quadrant: (${read.x1}, ${read.x2})`);
  const values = JSON.parse(read.values);
  assert.equal(values.length, 3);
  assert.ok(values.every(Number.isFinite), `three predictions: ${read.values}`);
  assert.match(await page.textContent('#play-read'), /Exact NTK: .* · Random features: .* · RBF kernel \(contrast\): /);
  assert.match(await page.textContent('#bias-out'), /= 1$/, 'σ_b = 1 by default (the engine\'s auto candidate)');
  assert.match(await page.textContent('#bias-help'), /wedges from the origin/);
  assert.match(await page.textContent('#prep-note'), /bias input of 1 ×/);
  const steps = [
    // [what, change, the surfaces that must change, what the page then says]
    ['Method RFF', () => page.selectOption('#method', 'rff'), ['surface-rf', 'surface-exact'], async () => {
      assert.match(await page.textContent('#title-rf'), /random Fourier/);
      assert.match(await page.textContent('#title-exact'), /Exact RBF kernel/);
    }],
    ['Standardize off', () => page.uncheck('#standardize'), ['surface-exact', 'surface-rf', 'surface-rbf'], async () => {
      assert.match(await page.textContent('#prep-note'), /keep columns as they are/);
    }],
    ['Unit-norm on', () => page.check('#unitnorm'), ['surface-exact', 'surface-rf', 'surface-rbf'], async () => {
      assert.match(await page.textContent('#prep-note'), /unit length/);
    }],
    ['σ_b 0', () => slide(page, 'bias', 'Home'), ['surface-exact', 'surface-rf'], async () => {
      assert.match(await page.textContent('#bias-out'), /= 0$/);
      assert.doesNotMatch(await page.textContent('#prep-note'), /bias input/);
    }],
  ];
  for (const [what, change, changed, says] of steps) {
    const before = await runs(page);
    const was = Object.fromEntries(await Promise.all(changed.map(async (id) => [id, await pixels(page, id)])));
    await change();
    await surfaces(page, before);
    for (const id of changed) assert.notEqual(await pixels(page, id), was[id], `${what}: ${id} is drawn anew`);
    await says();
    await idle(page);
  }
  assert.match(page.url(), /method=rff/);
  assert.match(page.url(), /bias=0/, 'the link keeps σ_b');
  await shot(page, '07-controls');
  check();
  await context.close();
});

test('a click adds a point of the chosen class; noise, size and seed draw the set again; a link replays it', { timeout: 4 * TIMEOUT }, async () => {
  const { page, context, check } = await openLab(site, { hash: '#data=circles' });
  await surfaces(page);
  await idle(page);
  // Blue points where the circles' surface is orange.
  await page.check('input[name="paint"][value="1"]');
  await page.check('input[name="paint"][value="0"]');
  const box = await page.locator('#surface-exact').boundingBox();
  // The far top-left corner, empty of points.
  let before = await runs(page);
  await page.mouse.click(box.x + box.width * 0.08, box.y + box.height * 0.08);
  await page.mouse.click(box.x + box.width * 0.14, box.y + box.height * 0.1);
  await surfaces(page, before);
  await page.waitForFunction(() => /2 points added by you/.test(document.getElementById('toy-what').textContent), null, { timeout: TIMEOUT });
  assert.match(await page.textContent('#facts'), /rows\s*202(?!\d)/, 'the added points are rows of the data set');
  assert.equal(await page.isDisabled('#clear-added'), false);
  // The clicked pixel shows the new point, in its class's colour.
  const corner = await page.evaluate(() => {
    const c = document.getElementById('surface-exact');
    const [r, g, b] = c.getContext('2d').getImageData(Math.round(c.width * 0.08), Math.round(c.height * 0.08), 1, 1).data;
    return { r, g, b };
  });
  assert.ok(corner.b > corner.r + 80, `the clicked corner shows a blue point: rgb(${corner.r}, ${corner.g}, ${corner.b})`);
  await idle(page);
  await shot(page, '07-points-added');
  before = await runs(page);
  await page.click('#clear-added');
  await page.waitForFunction(() => /200 training points;/.test(document.getElementById('toy-what').textContent), null, { timeout: TIMEOUT });
  await surfaces(page, before);

  before = await runs(page);
  await slide(page, 'noise', 'ArrowRight', 4); // 30 %
  await slide(page, 'points', 'ArrowLeft', 2); // 100 points
  await surfaces(page, before);
  // The Data panel follows: the set's load waits for the full pictures.
  await page.waitForFunction(() => /rows\s*100(?!\d)/.test(document.getElementById('facts').textContent), null, { timeout: TIMEOUT });
  before = await runs(page);
  await page.click('#resample');
  await surfaces(page, before);
  await idle(page);
  const url = page.url();
  assert.match(url, /noise=30/);
  assert.match(url, /points=100/);
  assert.match(url, /dseed=2/);
  const drawn = await pixels(page, 'surface-exact');
  await shot(page, '08-noise-size-seed');
  check();
  await context.close();

  // The link replays the same points and the same surfaces, bit for bit.
  const again = await openLab(site, { hash: url.slice(url.indexOf('#')) });
  await surfaces(again.page);
  await idle(again.page);
  assert.equal(await pixels(again.page, 'surface-exact'), drawn, 'the same surface from the link');
  again.check();
  await again.context.close();
});

test('active learning on a generated set: both curves, the picks numbered on the plane; cancel stops a run mid-way', { timeout: 4 * TIMEOUT }, async () => {
  const { page, context, check } = await openLab(site, { hash: '#data=spiral' });
  await surfaces(page);
  await idle(page);
  const button = page.getByRole('button', { name: /active learning/i }).first();
  assert.equal(await button.getAttribute('id'), 'run-active');
  await button.click();
  await page.waitForFunction(() => document.getElementById('active-result').dataset.done === '1' || !document.getElementById('alert').hidden, null, { timeout: 2 * TIMEOUT });
  if (await page.isVisible('#alert')) assert.fail(await page.textContent('#alert-text'));
  const lines = await page.$$eval('#active-chart polyline', (ps) => ps.map((p) => p.getAttribute('points').split(' ').length));
  assert.deepEqual(lines, [10, 10], 'two curves (design and random), ten label counts each');
  assert.ok(await page.$$eval('#active-chart .key text', (t) => t.map((x) => x.textContent).join(' ')).then((k) => /design/.test(k) && /random/.test(k)), 'the key names both');
  assert.ok(await colours(page, 'active-plane') >= MANY_COLOURS, 'the plane shows the surface the picks give');
  assert.match(await page.textContent('#active-result'), /With 40 labels: the design reaches accuracy \d+\.\d%, random picks \d+\.\d%/);
  await idle(page);
  await page.locator('#active-panel').screenshot({ path: path.join(shots, 'playground-09-active.png') });

  // 80 labels among 400 points: the design alone takes seconds (about 3 s measured), long enough to cancel mid-way.
  await slide(page, 'points', 'End');
  await page.waitForFunction(() => /400 training points/.test(document.getElementById('toy-what').textContent), null, { timeout: TIMEOUT });
  await slide(page, 'labels', 'End');
  assert.match(await page.textContent('#labels-out'), /80/);
  await idle(page);
  await page.click('#run-active');
  // Cancel as soon as the run is under way: the design's selection alone takes seconds.
  await page.waitForFunction(() => !document.getElementById('cancel-active').disabled, null, { timeout: TIMEOUT });
  assert.equal(await page.isDisabled('#run-active'), true, 'one run at a time');
  assert.match(await page.textContent('#stage'), /active learning/, 'the page\'s progress line follows the run');
  await page.locator('#active-panel').screenshot({ path: path.join(shots, 'playground-10-active-running.png') });
  const t = Date.now();
  await page.click('#cancel-active');
  await page.waitForFunction(() => /^Cancelled/.test(document.getElementById('active-result').textContent), null, { timeout: 10_000 });
  assert.ok(Date.now() - t < 2000, `stopped ${Date.now() - t} ms after the click`);
  assert.equal(await page.getAttribute('#active-result', 'data-done'), null, 'no result from the cancelled run');
  assert.equal(await page.isDisabled('#run-active'), false, 'it can start again');
  assert.equal(await page.isDisabled('#cancel-active'), true);
  assert.equal(await page.isVisible('#alert'), false, 'a cancel is not an error');
  await idle(page);
  await page.locator('#active-panel').screenshot({ path: path.join(shots, 'playground-11-active-cancelled.png') });
  check();
  await context.close();
});

test('on a table the playground says where the surfaces are, and active learning scores held-out rows', { timeout: 3 * TIMEOUT }, async () => {
  const { page, context, check } = await openLab(site, { hash: '#data=iris' });
  await page.waitForFunction(() => /iris\.csv/.test(document.getElementById('source').textContent), null, { timeout: TIMEOUT });
  assert.equal(await page.isVisible('#play-surfaces'), false);
  assert.match(await page.textContent('#play-table-note'), /generated 2-D sets/);
  assert.equal(await page.isVisible('#toy-controls'), false, 'noise, size and seed are for generated sets');
  await idle(page);
  await page.click('#run-active');
  await page.waitForFunction(() => document.getElementById('active-result').dataset.done === '1' || !document.getElementById('alert').hidden, null, { timeout: 2 * TIMEOUT });
  if (await page.isVisible('#alert')) assert.fail(await page.textContent('#alert-text'));
  assert.equal(await page.$$eval('#active-chart polyline', (p) => p.length), 2);
  assert.match(await page.textContent('#active-result'), /on 45 held-out rows/, '30 % of 150 rows held out');
  assert.equal(await page.isVisible('#active-plane'), false, 'no plane for a table');
  await idle(page);
  await shot(page, '12-table', { fullPage: true });
  check();
  await context.close();
});

/**
 * Three round clouds of 30 rows each in the plane, far from the origin and
 * the generated sets' scale (x from 10 to 30), with their class named by word.
 */
function threeClassCSV() {
  const lines = ['width,height,kind'];
  const centres = [['alpha', 12, 22], ['beta', 28, 22], ['gamma', 20, 8]];
  for (let i = 0; i < 30; i++) {
    for (const [name, cx, cy] of centres) {
      const a = 2.4 * i, r = 0.5 + (i % 5) * 0.6;
      lines.push(`${(cx + r * Math.cos(a)).toFixed(4)},${(cy + r * Math.sin(a)).toFixed(4)},${name}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The share of a canvas's pixels nearest each of colours (RGB), within 40 of it. */
const colourShares = (page, id, colours) => page.evaluate(({ id, colours }) => {
  const c = document.getElementById(id);
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  const n = new Array(colours.length).fill(0);
  for (let i = 0; i < d.length; i += 4) {
    let best = -1, dist = 40 ** 2;
    colours.forEach(([r, g, b], j) => {
      const e = (d[i] - r) ** 2 + (d[i + 1] - g) ** 2 + (d[i + 2] - b) ** 2;
      if (e < dist) [best, dist] = [j, e];
    });
    if (best >= 0) n[best]++;
  }
  return n.map((k) => k / (d.length / 4));
}, { id, colours });

test('a table of two numeric columns and three classes: its points, three surfaces in three colours, a legend naming them, clicks of a chosen class', { timeout: 3 * TIMEOUT }, async () => {
  const { page, context, check } = await openLab(site);
  await surfaces(page);
  await page.setInputFiles('#file', { name: 'three.csv', mimeType: 'text/csv', buffer: Buffer.from(threeClassCSV()) });
  await page.waitForFunction(() => /three\.csv/.test(document.getElementById('source').textContent), null, { timeout: TIMEOUT });
  assert.equal(await page.isVisible('#play-surfaces'), true, 'a drawable table is drawn');
  assert.equal(await page.isVisible('#play-table-note'), false);
  assert.deepEqual(await page.$$eval('#play-classes .class', (e) => e.map((x) => x.textContent.trim())), ['alpha', 'beta', 'gamma'], 'the legend names the three classes');
  assert.deepEqual(await page.$$eval('input[name="paint"]', (e) => e.map((x) => x.parentElement.textContent.trim())), ['alpha', 'beta', 'gamma'], 'a click may add any class');
  assert.equal(await page.isVisible('#surface-bar'), false, 'no two-class colour bar for three classes');
  await surfaces(page);
  // Surface colours: each class's colour, light (its 0.65 mix with the undecided grey at the most).
  const { CLASS_COLOURS } = await import(pathToFileURL(path.join(root, 'www/lab/surface.js')).href);
  const light = CLASS_COLOURS.slice(0, 3).map((c) => c.map((v) => Math.round(246 + 0.65 * (v - 246))));
  for (const id of SURFACE_IDS) {
    const d = await dataset(page, `surface-${id}`);
    if (id !== 'rf') assert.ok(Number(d.accuracy) >= EXACT_ACCURACY_FLOOR, `${id}: test accuracy ${d.accuracy} on three separate clouds`);
    const shares = await colourShares(page, `surface-${id}`, light);
    assert.ok(shares.every((f) => f > 0.05), `${id}: every class colours part of the plane (${shares.map((f) => f.toFixed(3))})`);
  }
  // The split is the engine's (the page's Test share: 30 % of 90 rows held out).
  assert.match(await page.textContent('#play-status'), /three fits on 63 points/);
  const before = await runs(page);
  await page.check('input[name="paint"][value="2"]');
  const box = await page.locator('#surface-exact').boundingBox();
  await page.mouse.click(box.x + box.width * 0.1, box.y + box.height * 0.1);
  // In the table's own columns: a tenth of the plane from its top left is about the smallest width (9.14) and the largest height (24.9).
  assert.match(await page.textContent('#status'), /Added a gamma point at \(width 9\.\d+, height 2[45]\.\d+\)/);
  await surfaces(page, before);
  assert.match(await page.textContent('#play-status'), /three fits on 64 points/, 'the added point is fitted');
  // A larger Test share: the engine splits the table again (35 % of 90 rows held out), the added point stays.
  const added = await runs(page);
  await slide(page, 'testfrac', 'ArrowRight');
  await surfaces(page, added);
  const fitted = Number(/three fits on (\d+) points/.exec(await page.textContent('#play-status'))?.[1]);
  assert.ok(fitted === 90 - 31 + 1 || fitted === 90 - 32 + 1, `fitted on ${fitted} points: 58 or 59 training rows and the added one`);
  await idle(page);
  await shot(page, '13-three-classes');
  check();
  await context.close();
});

test('at 400 px the playground fits the window and comes first', { timeout: 2 * TIMEOUT }, async () => {
  const { page, context, check } = await openLab(site, { viewport: { width: 400, height: 800 }, hash: '#data=moons' });
  await surfaces(page);
  await idle(page);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 400, `page width ${width} px`);
  assert.ok(await onFirstScreen(page, '#surface-exact'), 'the first surface is on the first screen');
  await shot(page, '13-narrow', { fullPage: true });
  check();
  await context.close();
});

test('at 1024×768 and 1366×768 the pictures and the Depth, m and λ sliders share the first screen; a control focused backwards is not under the sticky header', { timeout: 3 * TIMEOUT }, async () => {
  for (const width of [1024, 1366]) {
    const { page, context, check } = await openLab(site, { viewport: { width, height: 768 }, hash: '#data=spiral' });
    await surfaces(page);
    await idle(page);
    for (const sel of ['#surface-exact', '#surface-rf', '#depth', '#dim', '#lambda']) assert.ok(await onFirstScreen(page, sel), `${width} px: ${sel} on the first screen`);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scrollWidth <= width, `${width} px: page width ${scrollWidth}`);
    await shot(page, `14-first-screen-${width}`);
    // Tabbing backwards: the control that takes focus scrolls clear of the sticky header.
    await page.focus('#train');
    await page.keyboard.press('Shift+Tab');
    const before = await page.evaluate(() => document.activeElement.id);
    assert.ok(before, 'a control before Train');
    // Put that control under the header (20 px from the window's top), focus Train, and tab back to it.
    await page.focus('#train');
    await page.evaluate((id) => window.scrollTo(0, window.scrollY + document.getElementById(id).getBoundingClientRect().top - 20), before);
    await page.keyboard.press('Shift+Tab');
    const at = await page.evaluate(() => {
      const el = document.activeElement;
      return { id: el.id, top: el.getBoundingClientRect().top, header: document.querySelector('.top').getBoundingClientRect().bottom };
    });
    assert.ok(at.top >= at.header, `${width} px: #${at.id} focused at ${at.top} px, under the header's ${at.header} px`);
    check();
    await context.close();
  }
});
