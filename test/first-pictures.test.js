// The order of the lab's start in Chromium (issue 41, "first pictures"):
// what the page's first pictures wait for, asserted as an order of events
// rather than a time (the machine's load decides the times; the note gives
// them, bench/first-pictures.mjs measures them). The first worker loads
// while ntkrf.wasm compiles (compiled once, in the page), and the engine is
// ready with its instance; the second worker is made once the first call
// is answered, not beside it (it would take CPU from it); the playground's first
// engine call goes out before the Data panel's (the landing set's points
// are known before the engine has read them as a table); until the first
// coarse picture is painted no other engine call (the Data panel's reading
// of the set, the 1-D curves, the kernel pictures) goes to the workers;
// and the load that ends meanwhile does not stop and restart the surfaces
// it finds drawn.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSite, openLab, openProfile, wasmCodeCached, awaitCodeCache, picturesDrawn, idle } from './site.js';

let site;
before(async () => { site = await startSite(); });
after(async () => { await site?.close(); });

test('first pictures: the playground does not wait for the Data panel, other panels wait for it, the module compiles once while the workers load', { timeout: 180_000 }, async () => {
  const { page, check } = await openLab(site, {
    ready: false,
    // Before the page's scripts: every engine call the page posts to a
    // worker (its op), the compiles of WebAssembly modules, and when each
    // worker was made and said it was ready, on the page's clock.
    prepare: (context) => context.addInitScript(() => {
      const log = (globalThis.__start = { calls: [], compiles: [], workers: [], ready: [], compiled: [], answers: [] });
      for (const k of ['compile', 'compileStreaming']) {
        const f = WebAssembly[k];
        WebAssembly[k] = async (...a) => {
          log.compiles.push(performance.now());
          const r = await f.apply(WebAssembly, a);
          log.compiled.push(performance.now());
          return r;
        };
      }
      const W = globalThis.Worker;
      globalThis.Worker = class extends W {
        constructor(...a) {
          super(...a);
          log.workers.push(performance.now());
          this.addEventListener('message', (e) => {
            if (e.data?.type === 'ready') log.ready.push(performance.now());
            if (e.data?.type === 'result') log.answers.push(performance.now());
          });
        }

        postMessage(m, ...rest) {
          if (m?.type === 'call') log.calls.push({ op: m.op, at: performance.now() });
          return super.postMessage(m, ...rest);
        }
      };
    }),
  });
  await picturesDrawn(page);
  // The kernel pictures come after the surfaces (they wait, they are not dropped).
  await idle(page);
  const s = await page.evaluate(() => ({ ...globalThis.__start, firstCoarse: +document.getElementById('play-status').dataset.firstCoarse, surfaces: ['exact', 'rf', 'rbf'].map((id) => document.getElementById(`surface-${id}`).dataset.state) }));
  const ops = s.calls.map((c) => c.op);

  assert.equal(s.compiles.length, 1, `ntkrf.wasm is compiled once, in the page (compiles: ${s.compiles.length})`);
  assert.equal(s.workers.length, 2, 'two workers (this machine: 2 cores)');
  assert.ok(s.workers[0] <= s.compiled[0], `the first worker is made while the module compiles (made at ${Math.round(s.workers[0])} ms, compiled at ${Math.round(s.compiled[0])} ms), not after`);
  assert.ok(s.workers[1] >= s.answers[0], `the second worker is made once the first call is answered (made at ${Math.round(s.workers[1])} ms, the first answer at ${Math.round(s.answers[0])} ms), not beside it`);
  assert.equal(ops[0], 'playground', `the first engine call is the playground's, not the Data panel's (calls: ${ops.slice(0, 6).join(', ')})`);
  assert.ok(ops.indexOf('previewCSV') > 0, 'the landing set is still read as a table');
  // (data-first-coarse is rounded to the millisecond.)
  const before = s.calls.filter((c) => c.at < s.firstCoarse - 1).map((c) => c.op);
  const others = before.filter((op) => op !== 'playground');
  assert.deepEqual(others, [], `until the first coarse picture only the surfaces reach the workers (before it: ${before.join(', ')})`);
  assert.ok(ops.includes('kernel') || ops.includes('compare'), `the kernel pictures are computed after the surfaces (calls: ${ops.join(', ')})`);
  assert.ok(ops.includes('fitPlan'), 'the 1-D curves are fitted after the surfaces');
  // The load ended while the surfaces were drawn: they were not stopped (a
  // stop restarts a worker) nor drawn again from a coarse picture.
  assert.deepEqual(s.surfaces, ['done', 'done', 'done']);
  assert.equal(s.ready.length, 2, `no worker was restarted (ready messages: ${s.ready.length})`);
  const playgroundCalls = ops.filter((op) => op === 'playground').length;
  // The first full picture is not split: the second worker is not started
  // yet, and lane 0 keeps the models the coarse call fitted.
  assert.equal(playgroundCalls, 2, `one redraw: the coarse picture and the full one, whole (playground calls: ${playgroundCalls})`);
  check();
});

// boot.js compiles ntkrf.wasm with compileStreaming of a fetch() response,
// which Chrome's WebAssembly code cache serves: a returning visitor's page
// deserializes the code the last visit optimised instead of compiling it.
// (With the module preloaded by <link rel=preload>, the second visit
// compiled it again and wrote a second cache entry.) Two browsers on one
// profile: the first visit, until Chrome has written the module's code to
// the profile's cache; the second, traced: V8 deserialized the module.
test('a revisit: Chrome serves the module\'s compile from its WebAssembly code cache', { timeout: 180_000 }, async () => {
  const profile = mkdtempSync(path.join(tmpdir(), 'ntkrf-revisit-'));
  try {
    const first = await openProfile(profile);
    await first.page.goto(`${site.base}/`);
    await picturesDrawn(first.page);
    const cached = await awaitCodeCache(first.page, profile);
    await first.context.close();
    assert.equal(cached, 1, 'the first visit left the module\'s code in the profile\'s WebAssembly code cache');

    const second = await openProfile(profile);
    const cdp = await second.context.newCDPSession(second.page);
    const events = [];
    cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
    const complete = new Promise((resolve) => cdp.on('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['v8.wasm'] }, transferMode: 'ReportEvents' });
    await second.page.goto(`${site.base}/`);
    await picturesDrawn(second.page);
    await cdp.send('Tracing.end');
    await complete;
    await second.context.close();
    const names = events.map((e) => e.name);
    const streamed = names.filter((n) => n === 'wasm.StartStreamingCompilation').length;
    assert.equal(streamed, 1, 'the page compiled ntkrf.wasm once, streamed (the kernels are compiled from bytes)');
    assert.ok(names.includes('wasm.Deserialize'), `the second visit deserialized the module's code from the cache (v8.wasm events: ${[...new Set(names)].slice(0, 20).join(', ')})`);
    assert.equal(wasmCodeCached(profile), 1, 'and wrote no second entry');
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
});
