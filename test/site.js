// Serves dist/www with the project's server and starts Debian's Chromium,
// for the browser tests.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { root } from './helpers.js';

/**
 * Starts the server on a free port and a headless Chromium. Resolves to
 * { base, browser, close }: base is the site's origin.
 */
export async function startSite() {
  const server = spawn(path.join(root, 'dist/bin/serve'), ['-dir', path.join(root, 'dist/www'), '-addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
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
    args: ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
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
