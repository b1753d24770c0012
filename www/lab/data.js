// Data sets: loading bytes, the preview table, row sampling, the
// preprocessing used for kernel pictures. No event wiring.

/** Bundled data sets (served from data/). */
export const BUNDLED = {
  iris: { file: 'iris.csv', title: 'Iris flowers (150 × 4)' },
  wine: { file: 'wine.csv', title: 'Wine cultivars (178 × 13)' },
  Glass: { file: 'Glass.csv', title: 'Glass types (214 × 9)' },
  BostonHousing: { file: 'BostonHousing.csv', title: 'Boston house prices (506 × 13)' },
};

/** Ids of the bundled data sets, in menu order. */
export const DATASETS = Object.keys(BUNDLED);

/** Largest file the page reads (the engine accepts more; a tab has less). */
export const MAX_FILE_BYTES = 128 << 20;

/** Fetches a bundled data set's bytes; signal stops the download. */
export async function fetchBundled(id, signal) {
  const url = `data/${BUNDLED[id].file}`;
  const res = await fetch(url, { signal });
  if (!res.ok) throw new Error(`the server answered HTTP ${res.status} for ${url}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** Reads a user's File into bytes (gzip stays compressed: the engine inflates it). */
export async function readFile(file) {
  if (file.size > MAX_FILE_BYTES) {
    throw new Error(`it is ${formatBytes(file.size)}, and this page reads files up to ${formatBytes(MAX_FILE_BYTES)}; use a sample of its rows`);
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
 * The preprocessing fitRidge applies, for the pictures and the features
 * export: missing values (NaN) become the column mean; then optionally each
 * column is centred and scaled to unit (population) variance, constant
 * columns only centred; then optionally each row scaled to unit norm. The
 * statistics come from every row of X; the result holds the rows idx (all
 * rows when idx is null) as a new matrix.
 *
 * Sums run over values divided by the column's (or row's) largest
 * magnitude, so that values near 1e200 do not overflow a sum of squares;
 * and loops, not spreads: a row may have more columns than a call takes
 * arguments.
 */
export function prepare(X, { standardize, unitNorm }, idx = null) {
  const { rows, cols, data } = X;
  const big = new Float64Array(cols);
  for (let k = 0; k < rows * cols; k++) {
    const a = Math.abs(data[k]);
    if (a > big[k % cols]) big[k % cols] = a;
  }
  big.forEach((b, j) => { if (!(b > 0 && b < Infinity)) big[j] = 1; });
  const sum = new Float64Array(cols), count = new Float64Array(cols);
  for (let k = 0; k < rows * cols; k++) {
    const v = data[k], j = k % cols;
    if (!Number.isNaN(v)) { sum[j] += v / big[j]; count[j]++; }
  }
  // Mean and standard deviation in units of big.
  const mean = sum.map((s, j) => (count[j] ? s / count[j] : 0));
  const sd = new Float64Array(cols);
  if (standardize) {
    // Imputed cells equal the mean and add nothing to the sum of squares.
    for (let k = 0; k < rows * cols; k++) {
      const v = data[k], j = k % cols;
      if (!Number.isNaN(v)) sd[j] += (v / big[j] - mean[j]) ** 2;
    }
    sd.forEach((s, j) => { sd[j] = Math.sqrt(s / rows); });
  }
  const n = idx ? idx.length : rows;
  const out = new Float64Array(n * cols);
  for (let r = 0; r < n; r++) {
    const i = idx ? idx[r] : r;
    const row = out.subarray(r * cols, (r + 1) * cols);
    for (let j = 0; j < cols; j++) {
      const v = data[i * cols + j];
      if (!standardize) row[j] = Number.isNaN(v) ? mean[j] * big[j] : v;
      else {
        const c = Number.isNaN(v) ? 0 : v / big[j] - mean[j];
        row[j] = sd[j] > 0 ? c / sd[j] : c * big[j];
      }
    }
    if (unitNorm) {
      let top = 0;
      for (let j = 0; j < cols; j++) top = Math.max(top, Math.abs(row[j]));
      if (!(top > 0 && top < Infinity)) continue;
      let ss = 0;
      for (let j = 0; j < cols; j++) ss += (row[j] / top) ** 2;
      const norm = Math.sqrt(ss);
      for (let j = 0; j < cols; j++) row[j] = row[j] / top / norm;
    }
  }
  return { rows: n, cols, data: out };
}

/** Columns the preview table shows; more would make thousands of cells for wide files. */
export const PREVIEW_COLUMNS = 40;

/** Fills table with the preview's names and rows, as text only. */
export function renderPreview(table, preview) {
  const caption = table.querySelector('caption');
  table.replaceChildren(...(caption ? [caption] : []));
  const shown = Math.min(preview.names.length, PREVIEW_COLUMNS);
  const hidden = preview.names.length - shown;
  const head = table.createTHead().insertRow();
  for (const name of preview.names.slice(0, shown)) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = name;
    th.title = name;
    head.append(th);
  }
  if (hidden) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.className = 'more';
    th.textContent = `+${hidden} more columns`;
    head.append(th);
  }
  const body = table.createTBody();
  for (const row of preview.rows) {
    const tr = body.insertRow();
    for (const cell of row.slice(0, shown)) tr.insertCell().textContent = cell;
    if (hidden) tr.insertCell().className = 'more';
  }
  if (preview.more) {
    const td = body.insertRow().insertCell();
    td.colSpan = shown + (hidden ? 1 : 0);
    td.className = 'more';
    td.textContent = '…';
  }
}

/** The first max items of a list joined with commas, and how many more there are. */
export function summarizeList(items, max = 12) {
  if (items.length <= max) return items.join(', ');
  return `${items.slice(0, max).join(', ')} … and ${items.length - max} more`;
}
