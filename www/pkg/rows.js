// Rows: how the rows of a call are cut into chunks, spread over the
// workers, and put back together; and picking rows by index (take).
import { ntkrfError, typeError, describe } from './errors.js';
import { readMatrix, CHUNK_BYTES, MIN_BLOCK_ROWS, MAX_ARRAY_VALUES } from './options.js';

/**
 * The most bytes of rows a call sends a worker at once, and the largest
 * sample whose selection is split over the workers: Go's
 * (protocol.ChunkBytes, jsbridge.SplitSelectBytes), read from the first worker
 * (options.js). Larger inputs go in several chunks per worker, so that a
 * worker's memory (the rows in JavaScript, their copy in Go, the scaled
 * copy) stays a few times CHUNK_BYTES, whatever the number of rows.
 */
export { CHUNK_BYTES, SPLIT_SELECT_BYTES } from './options.js';

/**
 * Splits n rows into contiguous chunks: at least one per worker (of at
 * least MIN_BLOCK_ROWS rows), and more when a chunk would exceed maxRows.
 */
export function rowBlocks(n, parts, maxRows = Infinity) {
  const wanted = Math.max(parts, Math.ceil(n / Math.max(maxRows, MIN_BLOCK_ROWS)));
  const k = Math.max(1, Math.min(wanted, Math.ceil(n / MIN_BLOCK_ROWS)));
  const blocks = [];
  for (let i = 0; i < k; i++) blocks.push([Math.floor((i * n) / k), Math.floor(((i + 1) * n) / k)]);
  return blocks;
}

/** Rows that fit in CHUNK_BYTES at `values` numbers per row. */
export const chunkRows = (values) => Math.floor(CHUNK_BYTES / (8 * values));

/**
 * Runs callBlock(lo, hi, control, spare, i) for the blocks of rows
 * (rowBlocks; i indexes them), at most one per worker at a time. spare is
 * an object of its own per lane, where callBlock keeps the buffers a
 * worker gave back (see copyRange). Progress is reported in rows; resolves
 * to the results in row order.
 */
export async function overRows(pool, blocks, control, callBlock) {
  const progress = rowProgress(blocks, control);
  const results = new Array(blocks.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    const spare = {};
    while (next < blocks.length && !failed) {
      const i = next++;
      try {
        results[i] = await callBlock(blocks[i][0], blocks[i][1], { signal: control.signal, onProgress: progress(i) }, spare, i);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(pool.slots.length, blocks.length) }, lane));
  return results;
}

/**
 * The progress of calls on blocks of rows as one count of rows, which
 * never runs backwards: progress(i) is block i's call's onProgress.
 */
function rowProgress(blocks, control) {
  const rows = blocks.at(-1)[1];
  const done = new Array(blocks.length).fill(0);
  let last = -1;
  return (i) => control.onProgress && ((p) => {
    const [lo, hi] = blocks[i];
    done[i] = p.total > 0 ? Math.round((p.done / p.total) * (hi - lo)) : 0;
    const d = done.reduce((a, b) => a + b, 0);
    if (d > last) {
      last = d;
      control.onProgress({ done: d, total: rows, stage: p.stage });
    }
  });
}

/**
 * overRows with each worker taking neighbouring blocks: the blocks are
 * cut into one contiguous share per worker, each worker runs its share
 * from the start, and a worker whose share is done takes the last block
 * of the share with the most left. Each worker's blocks then form a few
 * runs of neighbours (its own, and those it took from the ends of
 * others'), so that what it keeps of them merges into few sums (fit.js:
 * a fit's parts stay where they are made). A worker still starting takes
 * no block until it has started (Pool.whenStarted): the others take its
 * share's blocks meanwhile. callBlock(lo, hi, control, spare, i, slot)
 * must run its call on slot. onIdle(slot, last) is told when a worker
 * that ran blocks has none left, last true when every block is answered
 * (the last worker to finish); it may start another call on slot.
 * Resolves to the results in row order once every block is answered, and
 * rejects with the first call's error.
 */
export function overRowsBySlot(pool, blocks, control, callBlock, onIdle) {
  const progress = rowProgress(blocks, control);
  const results = new Array(blocks.length);
  // The workers that can take calls; none: every one, whose calls then
  // reject with the engine's error (ERR_INSTANCE).
  const live = pool.slots.filter((s) => !s.dead);
  const slots = live.length > 0 ? live : pool.slots;
  const k = slots.length;
  // The first workers get the larger shares (and a single block): they started first.
  const shares = slots.map((_, w) => ({ next: Math.ceil((w * blocks.length) / k), end: Math.ceil(((w + 1) * blocks.length) / k) }));
  const take = (w) => {
    const own = shares[w];
    if (own.next < own.end) return own.next++;
    // The share with the most left gives its last block.
    const most = shares.reduce((a, b) => (b.end - b.next > a.end - a.next ? b : a));
    return most.end > most.next ? --most.end : -1;
  };
  let unanswered = blocks.length;
  let failed = false;
  return new Promise((resolve, reject) => {
    if (unanswered === 0) resolve(results);
    const lane = async (slot, w) => {
      await pool.whenStarted?.(slot);
      const spare = {};
      let ran = false;
      for (let i = take(w); i >= 0 && !failed; i = take(w)) {
        ran = true;
        try {
          results[i] = await callBlock(blocks[i][0], blocks[i][1], { signal: control.signal, onProgress: progress(i) }, spare, i, slot);
        } catch (e) {
          if (!failed) reject(e);
          failed = true;
          return;
        }
        unanswered--;
      }
      if (failed) return;
      if (ran) onIdle?.(slot, unanswered === 0);
      if (unanswered === 0) resolve(results);
    };
    slots.forEach(lane);
  });
}

/**
 * src[lo:hi] as a new array to transfer to a worker, written into `spare`
 * (an array a worker gave back) when its buffer is large enough: a worker's
 * JavaScript collects the chunks it was sent only rarely, so fresh copies
 * would pile up there, as much as all the rows in all.
 */
export function copyRange(src, lo, hi, spare) {
  if (!spare || spare.buffer.byteLength < (hi - lo) * 8) return src.slice(lo, hi);
  const a = new Float64Array(spare.buffer, 0, hi - lo);
  a.set(src.subarray(lo, hi));
  return a;
}

/**
 * Rows lo…hi−1 of a matrix read by readMatrix, as a new Float64Array: a
 * block of the call's own copy of X, made when the call is made.
 */
export const copyRows = (M, lo, hi) => new Float64Array(M.data.subarray(lo * M.cols, hi * M.cols));

export function concat(arrays) {
  if (arrays.length === 1) return arrays[0];
  const out = new Float64Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) { out.set(a, at); at += a.length; }
  return out;
}

/**
 * Engine.take(X, idx): the rows idx of a matrix X (a new Matrix64), or the
 * entries idx of a vector (a new array of the same type). Indices are
 * integers in 0…n−1, in any order, repeats allowed; an Array or a typed
 * array of them. Throws (synchronously) ERR_TYPE or ERR_VALUE with option
 * 'idx' for a bad index, and the usual matrix errors for a bad X.
 */
export function take(X, idx) {
  const where = 'take';
  const vector = Array.isArray(X) || X instanceof Float64Array || X instanceof Float32Array;
  if (!vector && (ArrayBuffer.isView(X) || X === null || typeof X !== 'object')) {
    throw typeError(`${where}: X must be a matrix {rows, cols, data}, a Float64Array, a Float32Array or an array, got ${describe(X)}`, 'X');
  }
  if (vector && !Array.isArray(X) && X.buffer.detached === true) { // where the engine can tell
    throw typeError(`${where}: X is detached (its buffer was transferred)`, 'X');
  }
  // X and idx are read once each: the checks and the copy see the same values.
  const M = vector ? null : readMatrix(where, 'X', X);
  const data = vector ? X : M.data;
  const n = vector ? X.length : M.rows;
  const width = vector ? 1 : M.cols;
  if (!Array.isArray(idx) && !(ArrayBuffer.isView(idx) && !(idx instanceof DataView) && !(idx instanceof BigInt64Array) && !(idx instanceof BigUint64Array))) {
    throw typeError(`${where}: idx must be an array of integer indices (or a typed array of them), got ${describe(idx)}`, 'idx');
  }
  const what = n === 0 ? 'X, which is empty' : vector ? `the ${n} entries of X (an integer in 0…${n - 1})` : `the ${n} rows of X (an integer in 0…${n - 1})`;
  const count = idx.length;
  if (count * width > MAX_ARRAY_VALUES) { // the core's
    throw ntkrfError('ERR_TOO_LARGE', `${where}: ${count} × ${width} values are more than one array holds (${MAX_ARRAY_VALUES}); take fewer rows`, 'idx');
  }
  const at = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const r = idx[i];
    if (typeof r !== 'number') throw typeError(`${where}: idx[${i}] must be an integer index, got ${describe(r)}`, 'idx');
    if (!Number.isInteger(r) || r < 0 || r >= n) {
      throw ntkrfError('ERR_VALUE', `${where}: idx[${i}] = ${describe(r)} is not an index of ${what}`, 'idx');
    }
    at[i] = r;
  }
  if (Array.isArray(X)) return Array.from(at, (r) => X[r]);
  if (vector) {
    const out = new X.constructor(count);
    for (let i = 0; i < count; i++) out[i] = X[at[i]];
    return out;
  }
  const out = new Float64Array(count * width);
  for (let i = 0; i < count; i++) out.set(data.subarray(at[i] * width, (at[i] + 1) * width), i * width);
  return { rows: count, cols: width, data: out };
}
