// Serves dist/www with the project's server and starts Debian's Chromium,
// for the browser tests; opens the lab in a context that can reach only
// that server and records what went wrong.
import { spawn } from 'node:child_process';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { root } from './helpers.js';

/** How long the browser tests wait for a step of the page. */
export const TIMEOUT = 60_000;

/** Chromium's flags: nothing of its own on the network. */
const LAUNCH_ARGS = ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

/**
 * Starts the server on a free port (serving dir, dist/www by default) and a headless Chromium. Resolves to
 * { base, browser, close }: base is the site's origin.
 */
export async function startSite({ dir = path.join(root, 'dist/www') } = {}) {
  const server = spawn(path.join(root, 'dist/bin/serve'), ['-dir', dir, '-addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = /serving .* at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`serve exited with ${code} before printing its address (run ./build.sh build first)`)));
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: LAUNCH_ARGS,
  });
  return {
    base,
    browser,
    async close() {
      await browser.close();
      server.kill();
    },
  };
}

/**
 * Opens the lab of site (startSite) in a fresh context that can reach only
 * the local server and records every request, console error, page error
 * and dialog. check() asserts that none of them went wrong. ready: wait
 * until the page has started; prepare(context) runs before the page opens
 * (to hold a request).
 */
export async function openLab({ base, browser }, { viewport = { width: 1280, height: 800 }, hash = '', ready = true, prepare } = {}) {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  await context.route(/^(?!http:\/\/127\.0\.0\.1[:/])/, (r) => r.abort());
  await prepare?.(context);
  const page = await context.newPage();
  const seen = { requests: [], errors: [], dialogs: [] };
  page.on('request', (r) => seen.requests.push(r.url()));
  page.on('console', (m) => { if (m.type() === 'error') seen.errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => seen.errors.push(`page: ${e.message}`));
  page.on('dialog', (d) => { seen.dialogs.push(d.message()); d.dismiss(); });
  await page.goto(`${base}/${hash}`);
  if (ready) await page.waitForSelector('body[data-ready="1"]', { timeout: 30_000 });
  const check = () => {
    assert.deepEqual(seen.errors, [], 'no console or page errors');
    assert.deepEqual(seen.dialogs, [], 'no dialogs');
    const outside = seen.requests.filter((u) => !u.startsWith(`${base}/`));
    assert.deepEqual(outside, [], 'every request goes to the local server');
  };
  return { page, context, seen, check };
}

/** Distinct colours in a canvas (0 when it is still the 1×1 placeholder). */
export function colours(page, id) {
  return page.evaluate((id) => {
    const c = document.getElementById(id);
    if (c.width < 2) return 0;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const set = new Set();
    for (let i = 0; i < d.length; i += 4) set.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return set.size;
  }, id);
}

/** Waits until no run is in progress. */
export const idle = (page, timeout = TIMEOUT) => page.waitForFunction(() => !document.body.classList.contains('busy'), null, { timeout });

/**
 * A browser of its own on the profile in dir (made when new), as one
 * context, and its page: what a returning visitor has on disk. No host but
 * the local server resolves (not openLab's context.route: Playwright's
 * routing turns the HTTP cache off, and with it the code cache).
 */
export async function openProfile(dir, { viewport } = {}) {
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    viewport,
    args: [...LAUNCH_ARGS, '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
  return { context, page: context.pages()[0] ?? await context.newPage() };
}

/** How many modules Chrome's WebAssembly code cache holds in the profile in dir (entries over 100 kB). */
export function wasmCodeCached(dir) {
  const cache = path.join(dir, 'Default', 'Code Cache', 'wasm');
  try {
    return fs.readdirSync(cache).filter((f) => f !== 'index-dir' && fs.statSync(path.join(cache, f)).size > 100_000).length;
  } catch {
    return 0;
  }
}

/**
 * Keeps page open until Chrome has written a module to the code cache of
 * the profile in dir (it does once enough of the module is optimised), at
 * most a minute; resolves to wasmCodeCached(dir).
 */
export async function awaitCodeCache(page, dir) {
  for (let t = 0; !wasmCodeCached(dir) && t < 120; t++) await page.waitForTimeout(500);
  return wasmCodeCached(dir);
}

/** Waits until the lab has started and drawn its first full pictures. */
export const picturesDrawn = (page, timeout = TIMEOUT) => page.waitForFunction(() => document.body.dataset.ready === '1' && document.getElementById('play-status')?.dataset.firstFull, null, { timeout });
