// The lab as a newcomer meets it (issue 42), in Chromium at 1024×768 and
// 1280×800: the way from "open a CSV" to Train is on the first screen
// (the header's buttons) with no blank gaps between panels; a new file
// resets what belonged to the old one and says so, and a refusal names the
// control to change; own 1-D and 2-D tables are drawn (a bounded sample of
// a large one) or the page says why not; a 20-class confusion matrix shows
// every count and full name; Φ's memory is counted at float32; a class
// name gets its article.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSite, openLab, idle, TIMEOUT } from './site.js';

const SIZES = [{ width: 1024, height: 768 }, { width: 1280, height: 800 }];
const csv = (name, text) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
const rows = (n, f) => Array.from({ length: n }, (_, i) => f(i)).join('\n');

let site;
before(async () => { site = await startSite(); });
after(async () => { await site?.close(); });

/** Loads a file through the file input and waits until the Data panel names it. */
async function loadFile(page, file) {
  await page.setInputFiles('#file', file);
  await page.waitForFunction((name) => document.getElementById('source').textContent === `Loaded: ${name}`, file.name, { timeout: TIMEOUT });
  await idle(page);
}

/** Panels (their boxes) and the viewport. */
const boxes = (page) => page.evaluate(() => ({
  panels: [...document.querySelectorAll('main .panel')].map((p) => { const r = p.getBoundingClientRect(); return { id: p.id, top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right }; }),
  header: document.querySelector('.top').getBoundingClientRect().bottom,
  height: innerHeight,
}));

for (const viewport of SIZES) {
  test(`at ${viewport.width}×${viewport.height}: "Open a CSV" and the way to Train are on the first screen, and no panel has a blank gap below it`, { timeout: TIMEOUT }, async () => {
    const { page, context, check } = await openLab(site, { viewport });
    const { panels, header, height } = await boxes(page);
    const file = await page.locator('#file').boundingBox();
    assert.ok(file && file.y > header && file.y + file.height < height, `the file input at ${JSON.stringify(file)}, the first screen ends at ${height}`);
    const go = page.locator('.jump [data-goto="train-panel"]');
    assert.ok(await go.isVisible(), 'the header\'s Train button');
    // Between a panel and the next one below it (in its column or across), at most the grid's gap.
    for (const p of panels) {
      const below = panels.filter((q) => q !== p && q.top >= p.bottom - 1 && q.left < p.right && q.right > p.left);
      if (!below.length) continue;
      const gap = Math.min(...below.map((q) => q.top - p.bottom));
      assert.ok(gap <= 20, `${gap} px blank below #${p.id}`);
    }
    // The header's buttons bring a panel into view and focus its step.
    await go.click();
    const train = await page.locator('#train').boundingBox();
    const top = await page.evaluate(() => document.querySelector('.top').getBoundingClientRect().bottom);
    assert.ok(train.y >= top && train.y + train.height <= height, `Train at ${train.y} after the header's button (header ends at ${top})`);
    await page.locator('.jump [data-goto="data-panel"]').click();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'file');
    await page.screenshot({ path: `test-results/lab-${viewport.width}x${viewport.height}.png` });
    check();
    await context.close();
  });
}

test('a new file resets the task, target and columns left out of the old one, says so, keeps depth, m and λ; a refusal names Task; no alert outlives its data', { timeout: 3 * TIMEOUT }, async () => {
  const { page, context, check } = await openLab(site, { viewport: SIZES[0] });
  const cars = csv('cars.csv', `hp,wt,am\n${rows(40, (i) => `${90 + 5 * i},${2 + (i % 7) / 3},${i % 2}`)}\n`);
  await loadFile(page, cars);
  assert.match(await page.textContent('#facts'), /classification/, 'am (0/1) is classes by default');
  await page.selectOption('#task', 'regression');
  await page.waitForFunction(() => /^regression$/m.test(document.getElementById('facts').textContent.replace(/^task/m, '')) || /taskregression/.test(document.getElementById('facts').textContent), null, { timeout: TIMEOUT });
  await idle(page);
  await page.selectOption('#exclude', ['hp']);
  await page.waitForFunction(() => /features1/.test(document.getElementById('facts').textContent), null, { timeout: TIMEOUT });
  await idle(page);
  // The user's own settings: depth and m.
  await page.locator('#depth').fill('3');
  await page.locator('#dim').fill('7');
  const kept = await page.evaluate(() => [document.getElementById('depth').value, document.getElementById('dim').value]);
  // An 11-class table: read as classes, with Task back to auto, and said.
  const letters = csv('letters.csv', `x1,x2,x3,label\n${rows(110, (i) => `${i % 13},${(i * 7) % 11},${i / 10},${'abcdefghijk'[i % 11]}`)}\n`);
  await loadFile(page, letters);
  assert.match(await page.textContent('#facts'), /classification, 11 classes/);
  assert.equal(await page.inputValue('#task'), 'auto');
  const said = await page.textContent('#reset-note');
  assert.match(said, /Task auto \(was regression\)/);
  assert.match(said, /Leave out none \(was “hp”\)/);
  assert.match(said, /Depth, Features m and λ are kept/);
  assert.match(await page.textContent('#notice-text'), /Task auto \(was regression\)/);
  assert.deepEqual(await page.evaluate(() => [document.getElementById('depth').value, document.getElementById('dim').value]), kept);
  assert.ok(await page.locator('#alert').isHidden());
  // Task regression on a text target: refused, naming Task, which is outlined.
  await page.selectOption('#task', 'regression');
  await page.waitForSelector('#alert:not([hidden])', { timeout: TIMEOUT });
  assert.match(await page.textContent('#alert-text'), /Task is set to regression: set Task to auto/);
  assert.ok(await page.locator('.fault #task, #task.fault').count() > 0, 'the Task control is outlined');
  // A bundled table then: classes again, Task auto, and the alert about the old data gone.
  await page.selectOption('#dataset', 'iris');
  await page.waitForFunction(() => document.getElementById('source').textContent === 'Loaded: iris.csv', null, { timeout: TIMEOUT });
  await idle(page);
  assert.match(await page.textContent('#facts'), /classification, 3 classes/);
  assert.equal(await page.inputValue('#task'), 'auto');
  assert.ok(await page.locator('#alert').isHidden(), 'no stale alert');
  check();
  await context.close();
});

test('own tables in the playground: a 1-D table as a curve with its band; a large 2-D table as a bounded sample, said; each refusal its reason', { timeout: 4 * TIMEOUT }, async () => {
  const { page, context, check } = await openLab(site, { viewport: SIZES[0] });
  // One numeric column and a numeric target: the 1-D panel draws it.
  await loadFile(page, csv('wave.csv', `t,level\n${rows(60, (i) => `${(i / 6).toFixed(3)},${Math.sin(i / 6).toFixed(4)}`)}\n`));
  await page.waitForFunction(() => document.getElementById('line1d-chart').dataset.set === 'file' && document.getElementById('line1d-chart').dataset.state === 'done', null, { timeout: TIMEOUT });
  assert.equal(await page.inputValue('#line1d-set'), 'file');
  assert.match(await page.textContent('#line1d-note'), /wave\.csv, level against t/);
  assert.ok(Number(await page.getAttribute('#line1d-chart', 'data-widest')) > 0, 'the band');
  assert.match(await page.textContent('#play-table-note'), /wave\.csv is drawn as a curve below, not on the plane: it has one input column/);
  // 2-D with 9 classes, with missing cells: each says its reason.
  await loadFile(page, csv('nine.csv', `a,b,c\n${rows(90, (i) => `${i % 10},${(i * 3) % 7},k${i % 9}`)}\n`));
  assert.match(await page.textContent('#play-table-note'), /has 9 classes; the pictures have colours for at most 8 \(choose a Target with fewer classes\)/);
  await loadFile(page, csv('holes.csv', `a,b,c\n${rows(40, (i) => `${i % 5 === 0 ? '' : i},${i % 3},${i % 2 ? 'yes' : 'no'}`)}\n`));
  assert.match(await page.textContent('#play-table-note'), /8 of its cells are missing .*remove those rows/);
  // 30,000 rows: drawn from a sample of at most 2,000, and said.
  await loadFile(page, csv('big.csv', `u,v,side\n${rows(30000, (i) => { const u = Math.cos(i) * (i % 97) / 97, v = Math.sin(i * 1.3) * (i % 89) / 89; return `${u.toFixed(4)},${v.toFixed(4)},${u * v > 0 ? 'same' : 'other'}`; })}\n`));
  assert.equal(await page.getAttribute('#play-surfaces', 'data-points'), '2000');
  assert.match(await page.textContent('#play-table-note'), /a sample of 2000 of the 30000 rows of big\.csv/);
  await page.waitForFunction(() => document.getElementById('surface-exact').dataset.state === 'done', null, { timeout: 2 * TIMEOUT });
  check();
  await context.close();
});

test('a 20-class confusion matrix shows every count and full class name; Φ\'s memory is counted at float32; a class gets its article', { timeout: 3 * TIMEOUT }, async () => {
  const { page, context, check } = await openLab(site, { viewport: SIZES[0] });
  const name = (c) => `a rather long class name ${String(c).padStart(2, '0')}`;
  await loadFile(page, csv('twenty.csv', `p,q,r,kind\n${rows(200, (i) => `${(i % 20) + Math.sin(i) / 4},${(i % 20) * 0.5 + Math.cos(i) / 5},${i % 3},${name(i % 20)}`)}\n`));
  assert.match(await page.textContent('#cost'), /Φ for all 200 rows: 200 × 512 × 4 bytes = 409\.6 kB/);
  await page.locator('#auto').setChecked(false);
  await page.locator('#exact').setChecked(true);
  // The estimate is of the whole Train: the exact kernel beside, and the engine's warm-up before a page's first run.
  await page.waitForFunction(() => /exact kernel/.test(document.getElementById('cost').textContent), null, { timeout: TIMEOUT });
  assert.match(await page.textContent('#cost'), /training ≈ [\d.]+ m?s \(rough; the exact kernel [\d.]+ m?s of it, [\d.]+ m?s more for a first run\)/);
  await page.click('#train');
  await page.waitForSelector('#metric-value, #alert:not([hidden])', { timeout: 2 * TIMEOUT });
  assert.ok(await page.locator('#alert').isHidden(), await page.textContent('#alert-text'));
  // What it took, beside what was estimated; the next estimate has no warm-up.
  assert.match(await page.textContent('#train-result'), /Train took [\d.]+ m?s \(estimated [\d.]+ m?s\)/);
  assert.doesNotMatch(await page.textContent('#cost'), /first run/);
  assert.ok(await page.locator('#confusion-view').isVisible());
  await page.locator('#confusion-view summary').click();
  await page.waitForSelector('#confusion-table tr');
  const table = await page.evaluate(() => [...document.querySelectorAll('#confusion-table tr')].map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.equal(table.length, 21, 'a header and a row per class');
  for (let c = 0; c < 20; c++) assert.equal(table[c + 1][0], `${c + 1}. ${name(c)}`);
  const total = table.slice(1).reduce((a, r) => a + r.slice(1, 21).reduce((s, v) => s + Number(v), 0), 0);
  assert.equal(total, Number(await page.getAttribute('#train-result', 'data-rows')), 'every test row counted');
  assert.equal(await page.locator('#train-chart text.count').count(), 400, 'the picture shows every count');
  // A drawable table of apples and pears: a click adds "an apple" point.
  await loadFile(page, csv('fruit.csv', `w,h,fruit\n${rows(60, (i) => `${(i % 10) / 10},${((i * 7) % 10) / 10},${i % 2 ? 'pear' : 'apple'}`)}\n`));
  await page.waitForFunction(() => document.getElementById('surface-exact').dataset.state === 'done', null, { timeout: TIMEOUT });
  await page.locator('#surface-exact').click({ position: { x: 40, y: 40 } });
  assert.match(await page.textContent('#status'), /^Added an apple point/);
  check();
  await context.close();
});
