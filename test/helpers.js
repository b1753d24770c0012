// Shared helpers for the Node tests of the built package (dist/npm).
import { fileURLToPath } from 'node:url';
import path from 'node:path';
// A seeded uniform generator for test data: the lab's (mulberry32).
import { rng } from '../www/lab/toy.js';

export { rng };

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const pkg = path.join(root, 'dist', 'npm', 'index.js');

/**
 * The directory where this run's hosts hand each other models (native Go,
 * Node, Chromium): ./build.sh test makes a fresh one per run and names it in
 * NTKRF_CROSSHOST_DIR, so that no test reads a file an earlier run left;
 * null when unset (the cross-host tests then skip, saying so).
 */
export const crossHostDir = process.env.NTKRF_CROSSHOST_DIR || null;
export const CROSSHOST_SKIP = 'NTKRF_CROSSHOST_DIR is not set: ./build.sh test makes a fresh directory per run for the hosts to hand each other models';

/** Reference rows of ../shared/REFERENCE.md. */
export const refX = () => ({ rows: 3, cols: 3, data: Float64Array.from([1, 2, 0, 0.5, -1, 3, -2, 0.25, 1]) });

/** ../shared/REFERENCE.md, NTK and NNGP values for pairs (1,2), (1,3), (2,3). */
export const reference = {
  ntk: {
    1: [0.929748487903, 0.317734398640, 4.247645813606],
    2: [3.654574907598, 2.267625755618, 6.900169605308],
    3: [6.413877736095, 4.229851586649, 9.554994540434],
  },
  nngp: {
    1: [1.578958845595, 0.923183854534, 3.235951880892],
    2: [3.123885623718, 2.090094638749, 4.146431376587],
    3: [4.061304571599, 2.786804685692, 4.757746689591],
  },
};


export function randomMatrix(rows, cols, seed = 1) {
  const r = rng(seed);
  return { rows, cols, data: Float64Array.from({ length: rows * cols }, () => r() * 2 - 1) };
}

/** FNV-1a 64 over the little-endian bits of the values, as hex (see testdata/checksums.json). */
export function fnv64a(values) {
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  let h = 0xcbf29ce484222325n;
  const prime = 0x100000001b3n;
  const mask = (1n << 64n) - 1n;
  for (const b of bytes) h = ((h ^ BigInt(b)) * prime) & mask;
  return h.toString(16).padStart(16, '0');
}

/** The input of the golden checksums: x_ij = ((7i + 3j) mod 11 − 5)/4. */
export function checksumX(rows, cols) {
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) data[i * cols + j] = (((7 * i + 3 * j) % 11) - 5) / 4;
  return { rows, cols, data };
}

/** Rows idx of a matrix, and of a vector. */
export function takeRows(X, idx) {
  const data = new Float64Array(idx.length * X.cols);
  idx.forEach((r, i) => data.set(X.data.subarray(r * X.cols, (r + 1) * X.cols), i * X.cols));
  return { rows: idx.length, cols: X.cols, data };
}
export const take = (y, idx) => Float64Array.from(idx, (i) => y[i]);

/** An RFC 4180 reader for the lab's exports: rows of fields, quotes and line breaks inside quoted fields. */
export function parseCSV(text) {
  const rows = [];
  let row = [], cell = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; }
    else if (c === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; }
    else cell += c;
  }
  if (cell || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

/**
 * Calls onCall(message) for every call the package posts to its Node
 * workers (node:worker_threads) until the returned function restores
 * postMessage: which ops a fit ran, and with what.
 */
export async function watchCalls(onCall) {
  const { Worker } = await import('node:worker_threads');
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (m, ...rest) {
    if (m?.type === 'call') onCall(m);
    return post.call(this, m, ...rest);
  };
  return () => { Worker.prototype.postMessage = post; };
}
