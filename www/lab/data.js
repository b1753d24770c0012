// Data sets: loading bytes, the preview table, row sampling. No event
// wiring. (Preprocessing is the engine's: experiments.js preprocessed.)
import { formatBytes } from './ntkrf/options.js';

/** Byte counts in words as the engine's own messages write them (the package's, after Go's check.FormatBytes). */
export { formatBytes };

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


/**
 * Up to max row indices, evenly spread over the rows sorted by target, so
 * that a kernel heatmap shows classes as blocks.
 */
export function sampleRows(y, max) {
  const order = Array.from(y.keys()).sort((a, b) => y[a] - y[b] || a - b);
  if (order.length <= max) return order;
  return Array.from({ length: max }, (_, i) => order[Math.floor((i * order.length) / max)]);
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
