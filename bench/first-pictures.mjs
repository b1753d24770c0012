// The lab's first pictures, timed in Chromium (dist/www served by
// dist/bin/serve): opens a bare address N times in fresh contexts (no
// cache) and prints, per load, the page's own clock (milliseconds since
// navigation began) at each step of its start: the page's performance
// marks (ntkrf: …, set by lab.js and playground.js), the wasm download,
// the first coarse and full pictures (#play-status data-first-coarse,
// data-first-full) and the page's ready flag.
// With --base DIR (another build's dist/www), the loads alternate between
// the two, so that both see the same machine load. With --repeat, each
// context loads the page twice and the second load is timed (the renderer's
// compiled module may be reused; the HTTP cache is off there, as Playwright's
// routing, which keeps the page off other hosts, turns it off). With
// --revisit, each load is a revisit: a browser with a profile of its own
// (a fresh directory per load) opens the page, waits for its pictures and
// a while more (the code cache is written after the module's hot functions
// are optimised), and is closed; a second browser on that profile opens
// the page again, and that load is timed: what the disk's HTTP cache and
// Chrome's WebAssembly code cache give a returning visitor, with nothing
// left in memory.
//   CHROMIUM=/usr/bin/chromium node bench/first-pictures.mjs [--loads 3] [--base DIR] [--repeat | --revisit]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSite, openProfile, awaitCodeCache, picturesDrawn } from '../test/site.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const loads = +arg('loads', 3);
const base = arg('base', null);
const repeat = process.argv.includes('--repeat');
const revisit = process.argv.includes('--revisit');
const view = { viewport: { width: 1280, height: 800 } };
const sites = { this: await startSite() };
if (base) sites.base = await startSite({ dir: path.resolve(base) });
const rows = { this: [], base: [] };
try {
  for (let i = 0; i < loads; i++) for (const [which, site] of Object.entries(sites)) {
    const profile = revisit ? fs.mkdtempSync(path.join(os.tmpdir(), 'ntkrf-revisit-')) : null;
    if (revisit) {
      // The first visit, on a browser of its own, then closed once Chrome
      // has written the module's code to the profile's cache.
      const first = await openProfile(profile, view);
      await first.page.goto(`${site.base}/`);
      await picturesDrawn(first.page, 120_000);
      if (!await awaitCodeCache(first.page, profile)) console.log(`${which} load ${i + 1}: no code cache written after a minute`);
      await first.context.close();
    }
    const opened = revisit ? await openProfile(profile, view) : null;
    const context = opened?.context ?? await site.browser.newContext(view);
    if (!revisit) await context.route(/^(?!http:\/\/127\.0\.0\.1[:/])/, (r) => r.abort());
    // The package's start seen from the page: the module's compile and each
    // worker's 'ready' (the instance started), as marks of the page's clock.
    await context.addInitScript(() => {
      const mark = (n) => performance.mark(`ntkrf: ${n}`);
      for (const k of ['compile', 'compileStreaming']) {
        const f = WebAssembly[k];
        WebAssembly[k] = async (...a) => { mark(`${k} start`); const r = await f.apply(WebAssembly, a); mark(`${k} end`); return r; };
      }
      const W = globalThis.Worker;
      let n = 0;
      globalThis.Worker = class extends W {
        constructor(...a) {
          super(...a);
          const i = n++;
          mark(`worker ${i} created`);
          this.addEventListener('message', (e) => { if (e.data?.type === 'ready') mark(`worker ${i} ready`); });
        }
      };
    });
    const page = opened?.page ?? await context.newPage();
    const wait = () => picturesDrawn(page, 120_000);
    if (repeat) {
      await page.goto(`${site.base}/`);
      await wait();
      // The code cache is written a while after the module tiers up.
      await page.waitForTimeout(3000);
    }
    await page.goto(`${site.base}/`);
    await wait();
    const t = await page.evaluate(() => {
      const out = {};
      for (const m of performance.getEntriesByType('mark')) if (m.name.startsWith('ntkrf:')) out[m.name.slice(7)] ??= Math.round(m.startTime);
      const nav = performance.getEntriesByType('navigation')[0];
      if (nav) out['page fetched'] = Math.round(nav.responseEnd);
      for (const r of performance.getEntriesByType('resource')) {
        const name = r.name.split('/').pop();
        if (/\.(wasm)$/.test(name)) out[`${name} fetched`] = Math.round(r.responseEnd);
      }
      const s = document.getElementById('play-status').dataset;
      out['first coarse picture'] = +s.firstCoarse;
      out['first full picture'] = +s.firstFull;
      out.workers = navigator.hardwareConcurrency;
      return out;
    });
    rows[which].push(t);
    console.log(`${which} load ${i + 1}: ${Object.entries(t).sort((a, b) => a[1] - b[1]).map(([k, v]) => `${k} ${v}`).join(' · ')}`);
    await context.close();
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
  }
} finally {
  for (const site of Object.values(sites)) await site.close();
}
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [which, rs] of Object.entries(rows)) {
  if (rs.length) console.log(`${which}: median first coarse ${median(rs.map((r) => r['first coarse picture']))} ms, first full ${median(rs.map((r) => r['first full picture']))} ms over ${rs.length} loads (each: ${rs.map((r) => r['first coarse picture']).join(', ')})`);
}
