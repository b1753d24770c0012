// rows.js overRowsBySlot, the schedule of a fit's parts (fit.js): every
// block once, on the worker its call names, each worker's blocks in few
// runs of neighbours (so that the parts it keeps merge), a worker that is
// done taking blocks from the end of the share with the most left, and the
// last worker to finish told so. With a pool of stand-in workers whose
// calls take the time the test says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { root } from './helpers.js';

const { overRowsBySlot } = await import(path.join(root, 'dist', 'npm', 'rows.js'));

const blocksOf = (k) => Array.from({ length: k }, (_, i) => [i * 10, (i + 1) * 10]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs the schedule with each worker's call taking ms[w] ms; returns what happened. */
async function schedule(blocks, ms, { dead = [] } = {}) {
  const slots = ms.map((_, w) => ({ w, dead: dead.includes(w) }));
  const ran = slots.map(() => []);
  const idle = [];
  const progress = [];
  const results = await overRowsBySlot({ slots }, blocks, { onProgress: (p) => progress.push(p.done) }, async (lo, hi, ctl, spare, i, slot) => {
    ran[slot.w].push(i);
    ctl.onProgress({ done: 0, total: 1, stage: 'features' });
    await sleep(ms[slot.w]);
    ctl.onProgress({ done: 1, total: 1, stage: 'features' });
    return { lo, hi };
  }, (slot, last) => idle.push([slot.w, last]));
  return { results, ran, idle, progress };
}

/** The runs of consecutive blocks in a worker's list. */
const runs = (list) => [...list].sort((a, b) => a - b).filter((v, i, a) => i === 0 || v !== a[i - 1] + 1).length;

test('overRowsBySlot: every block once, in row order, in contiguous shares on equal workers', async () => {
  const blocks = blocksOf(8);
  const { results, ran, idle, progress } = await schedule(blocks, [5, 5]);
  assert.deepEqual(results, blocks.map(([lo, hi]) => ({ lo, hi })), 'the results in row order');
  assert.deepEqual(ran.flat().sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7], 'each block once');
  assert.deepEqual(ran, [[0, 1, 2, 3], [4, 5, 6, 7]], 'each worker its share, from its start');
  assert.equal(idle.length, 2);
  assert.deepEqual(idle.filter(([, last]) => last).length, 1, 'one last worker');
  assert.equal(progress.at(-1), 80, 'the rows done, all of them');
  assert.ok(progress.every((d, i) => i === 0 || d >= progress[i - 1]), 'progress never runs backwards');
});

test('overRowsBySlot: a fast worker takes the ends of a slow one\'s share, and each keeps few runs', async () => {
  const { ran, idle } = await schedule(blocksOf(12), [2, 20]);
  assert.deepEqual(ran.flat().sort((a, b) => a - b), [...Array(12).keys()], 'each block once');
  assert.ok(ran[0].length > ran[1].length, `the fast worker ran more: ${JSON.stringify(ran)}`);
  assert.deepEqual(ran[1].slice(0, 1), [6], 'the slow worker starts its share');
  assert.ok(runs(ran[0]) <= 2 && runs(ran[1]) === 1, `few runs of neighbours: ${JSON.stringify(ran)}`);
  assert.deepEqual(idle.at(-1), [1, true], 'the slow worker finishes last');
  assert.deepEqual(idle[0], [0, false], 'the fast one first, not last');
});

test('overRowsBySlot: fewer blocks than workers go to the first; dead workers take none', async () => {
  let { ran, idle } = await schedule(blocksOf(1), [5, 5, 5]);
  assert.deepEqual(ran, [[0], [], []]);
  assert.deepEqual(idle.find(([, last]) => last), [0, true], 'the worker with the block is last');
  ({ ran } = await schedule(blocksOf(4), [5, 5, 5], { dead: [1] }));
  assert.deepEqual(ran[1], [], 'a dead worker takes no block');
  assert.deepEqual(ran.flat().sort((a, b) => a - b), [0, 1, 2, 3]);
  // No worker alive: the calls go to all, whose calls reject with the engine's error.
  ({ ran } = await schedule(blocksOf(2), [1, 1], { dead: [0, 1] }));
  assert.deepEqual(ran.flat().sort((a, b) => a - b), [0, 1]);
});

test('overRowsBySlot: a failed call rejects the schedule, and no worker is told it is idle after it', async () => {
  const slots = [{ w: 0 }, { w: 1 }];
  const idle = [];
  await assert.rejects(overRowsBySlot({ slots }, blocksOf(6), {}, async (lo, hi, ctl, spare, i) => {
    await sleep(3);
    if (i === 1) throw new Error('block 1 failed');
    return i;
  }, (slot, last) => idle.push([slot.w, last])), /block 1 failed/);
  await sleep(30);
  assert.deepEqual(idle, [], 'no worker is told to send or solve');
});

test('overRowsBySlot: a worker still starting takes no block until it has started; the others take its share, and nothing waits for it', async () => {
  const slots = [{ w: 0 }, { w: 1 }];
  let start;
  const late = new Promise((resolve) => { start = resolve; }); // worker 1 starts when the test says
  const pool = { slots, whenStarted: (slot) => (slot.w === 0 ? Promise.resolve() : late) };
  const ran = [[], []];
  const idle = [];
  await overRowsBySlot(pool, blocksOf(4), {}, async (lo, hi, ctl, spare, i, slot) => {
    ran[slot.w].push(i);
    await sleep(2);
    return i;
  }, (slot, last) => idle.push([slot.w, last]));
  assert.deepEqual(ran[0].sort((a, b) => a - b), [0, 1, 2, 3], 'the started worker ran every block, before the other started');
  assert.deepEqual(idle, [[0, true]], 'the worker that ran them is the last');
  start();
  await sleep(10);
  assert.deepEqual(ran[1], [], 'the late worker found nothing left');
  assert.deepEqual(idle, [[0, true]], 'and is told nothing');
});
