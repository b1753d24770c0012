// Data sets: loading bytes, the preview table, row sampling, the
// preprocessing used for kernel pictures, and CSV export. No event wiring.

/** Bundled data sets (served from data/). */
export const BUNDLED = {
  iris: { file: 'iris.csv', title: 'Iris flowers (150 × 4)' },
  wine: { file: 'wine.csv', title: 'Wine cultivars (178 × 13)' },
  Glass: { file: 'Glass.csv', title: 'Glass types (214 × 9)' },
  BostonHousing: { file: 'BostonHousing.csv', title: 'Boston house prices (506 × 13)' },
};

/** Largest file the page reads (the engine accepts more; a tab has less). */
export const MAX_FILE_BYTES = 128 << 20;

/** Fetches a bundled data set's bytes. */
export async function fetchBundled(id) {
  const url = `data/${BUNDLED[id].file}`;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`could not load ${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** Reads a user's File into bytes (gzip stays compressed: the engine inflates it). */
export async function readFile(file) {
  if (file.size > MAX_FILE_BYTES) {
    throw new Error(`${file.name} is ${formatBytes(file.size)}; this page reads files up to ${formatBytes(MAX_FILE_BYTES)}`);
  }
  return new Uint8Array(await file.arrayBuffer());
}

export function formatBytes(b) {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (b >= 1024 && i < units.length - 1) { b /= 1024; i++; }
  return `${i === 0 ? b : b.toFixed(b < 10 ? 1 : 0)} ${units[i]}`;
}

/**
 * Up to max row indices, evenly spread over the rows sorted by target, so
 * that a kernel heatmap shows classes as blocks.
 */
export function sampleRows(y, max) {
  const order = Array.from(y.keys()).sort((a, b) => y[a] - y[b] || a - b);
  if (order.length <= max) return order;
  return Array.from({ length: max }, (_, i) => order[Math.floor((i * order.length) / max)]);
}

/** The rows idx of matrix X as a new matrix. */
export function takeRows(X, idx) {
  const data = new Float64Array(idx.length * X.cols);
  idx.forEach((r, i) => data.set(X.data.subarray(r * X.cols, (r + 1) * X.cols), i * X.cols));
  return { rows: idx.length, cols: X.cols, data };
}

export function takeValues(y, idx) {
  return Float64Array.from(idx, (i) => y[i]);
}

/**
 * The preprocessing fitRidge applies, for the pictures: missing values
 * (NaN) become the column mean; then optionally each column is centred and
 * scaled to unit (population) variance, constant columns only centred; then
 * optionally each row scaled to unit norm. Returns a new matrix.
 */
export function prepare(X, { standardize, unitNorm }) {
  const { rows, cols } = X;
  const data = Float64Array.from(X.data);
  for (let j = 0; j < cols; j++) {
    let sum = 0, n = 0;
    for (let i = 0; i < rows; i++) { const v = data[i * cols + j]; if (!Number.isNaN(v)) { sum += v; n++; } }
    const mean = n ? sum / n : 0;
    let ss = 0;
    for (let i = 0; i < rows; i++) {
      const k = i * cols + j;
      if (Number.isNaN(data[k])) data[k] = mean;
      ss += (data[k] - mean) ** 2;
    }
    if (!standardize) continue;
    const sd = Math.sqrt(ss / rows);
    for (let i = 0; i < rows; i++) data[i * cols + j] = sd > 0 ? (data[i * cols + j] - mean) / sd : data[i * cols + j] - mean;
  }
  if (unitNorm) {
    for (let i = 0; i < rows; i++) {
      const row = data.subarray(i * cols, (i + 1) * cols);
      const norm = Math.hypot(...row);
      if (norm > 0) row.forEach((v, j) => { row[j] = v / norm; });
    }
  }
  return { rows, cols, data };
}

/** Fills table with the preview's names and rows, as text only. */
export function renderPreview(table, preview) {
  const caption = table.querySelector('caption');
  table.replaceChildren(...(caption ? [caption] : []));
  const head = table.createTHead().insertRow();
  for (const name of preview.names) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = name;
    head.append(th);
  }
  const body = table.createTBody();
  for (const row of preview.rows) {
    const tr = body.insertRow();
    for (const cell of row) tr.insertCell().textContent = cell;
  }
  if (preview.more) {
    const td = body.insertRow().insertCell();
    td.colSpan = preview.names.length;
    td.className = 'more';
    td.textContent = '…';
  }
}

/** One CSV cell: numbers at full precision (String round-trips a double), text quoted when needed. */
function cell(v) {
  if (typeof v === 'number') return String(v);
  const s = String(v);
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replaceAll('"', '""')}"` : s;
}

/** A CSV text from a header and rows of numbers or strings. */
export function toCSV(header, rows) {
  const lines = [header.map(cell).join(',')];
  for (const r of rows) lines.push(r.map(cell).join(','));
  return lines.join('\n') + '\n';
}
