// Hand-drawn SVG charts with labelled axes: lines (log or linear axes),
// scatter, confusion grid. Text goes in with textContent only. The number
// of SVG nodes is bounded whatever the data: many points or classes are
// drawn into a canvas shown as one <image>.
import { colour, SEQUENTIAL, short } from './heatmap.js';

/** Most scatter points drawn as SVG circles; beyond, dots go into a canvas. */
export const MAX_SVG_POINTS = 2000;
/** Most classes drawn as SVG cells with counts; beyond, the matrix is a canvas picture. */
export const MAX_SVG_CLASSES = 30;

const NS = 'http://www.w3.org/2000/svg';
const PAD = { left: 50, right: 16, top: 10, bottom: 36 };

function el(name, attrs = {}, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function reset(svg, w, h) {
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.classList.add('drawn');
}

/** Empties a chart. */
export function clearChart(svg) {
  svg.replaceChildren();
  svg.removeAttribute('viewBox');
  svg.classList.remove('drawn');
}

/** Nice linear ticks over [lo, hi]. */
function linearTicks(lo, hi, n = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * p).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** Powers of ten (with 2 and 5 when the range is short) inside [lo, hi]. */
function logTicks(lo, hi) {
  const out = [];
  const mults = Math.log10(hi / lo) < 2 ? [1, 2, 5] : [1];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of mults) {
      const v = m * 10 ** e;
      if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push(Number(v.toPrecision(12)));
    }
  }
  return out;
}

/** A scale [lo, hi] → [a, b], linear or logarithmic. */
function scale(lo, hi, a, b, log) {
  if (log) {
    const l0 = Math.log(lo), l1 = Math.log(hi);
    return (v) => a + ((Math.log(v) - l0) / (l1 - l0 || 1)) * (b - a);
  }
  return (v) => a + ((v - lo) / (hi - lo || 1)) * (b - a);
}

/** [min, max] of the usable values (a loop: spreading a million values overflows the stack). */
function extent(values, log) {
  let lo = Infinity, hi = -Infinity;
  for (const x of values) {
    if (!Number.isFinite(x) || (log && x <= 0)) continue;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  if (lo > hi) return null;
  if (lo === hi) {
    if (log) { lo /= 2; hi *= 2; } else { lo -= Math.abs(lo) * 0.1 || 1; hi += Math.abs(hi) * 0.1 || 1; }
  }
  return [lo, hi];
}

/**
 * Tick labels: on a linear axis with as many decimals as the spacing
 * needs (1.515, 1.52, 1.525 rather than 1.52 three times); on a log axis
 * compact.
 */
function tickLabels(ticks, log) {
  if (log || ticks.length < 2) return ticks.map(short);
  const step = Math.abs(ticks[1] - ticks[0]);
  const big = Math.max(...ticks.map(Math.abs));
  if (big >= 1e5 || (big > 0 && big < 1e-3)) return ticks.map(short);
  const decimals = Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
  return ticks.map((t) => t.toFixed(decimals));
}

/** Draws both axes with ticks, grid lines and labels in a W×H box. */
function axes(svg, [W, H], x, y, sx, sy, xTicks, yTicks) {
  const g = el('g', { class: 'axes' });
  const xl = tickLabels(xTicks, x.log), yl = tickLabels(yTicks, y.log);
  xTicks.forEach((t, i) => {
    const px = sx(t);
    g.append(el('line', { x1: px, x2: px, y1: PAD.top, y2: H - PAD.bottom, class: 'grid' }));
    g.append(el('text', { x: px, y: H - PAD.bottom + 14, 'text-anchor': 'middle', class: 'tick' }, xl[i]));
  });
  yTicks.forEach((t, i) => {
    const py = sy(t);
    g.append(el('line', { x1: PAD.left, x2: W - PAD.right, y1: py, y2: py, class: 'grid' }));
    g.append(el('text', { x: PAD.left - 5, y: py + 3.5, 'text-anchor': 'end', class: 'tick' }, yl[i]));
  });
  g.append(el('rect', { x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: H - PAD.top - PAD.bottom, class: 'frame' }));
  g.append(el('text', { x: (PAD.left + W - PAD.right) / 2, y: H - 6, 'text-anchor': 'middle', class: 'label' }, x.label));
  const cy = (PAD.top + H - PAD.bottom) / 2;
  g.append(el('text', { x: 12, y: cy, 'text-anchor': 'middle', transform: `rotate(-90 12 ${cy})`, class: 'label' }, y.label));
  svg.append(g);
}

/** Height of a tick label (10 px text): a label's baseline is at least this far below the top. */
const LABEL_HEIGHT = 11;

/**
 * Where a mark's label goes for a mark at (px, py) in a chart W wide:
 * above it and away from the nearer side, or below it when above would
 * leave the chart (a chosen λ at the top of the curve).
 */
export function markLabel(px, py, W) {
  const left = px < W / 2;
  const above = py - 8;
  return { x: px + (left ? 8 : -8), y: above >= LABEL_HEIGHT ? above : py + 8 + LABEL_HEIGHT, anchor: left ? 'start' : 'end' };
}

/**
 * Line chart. series: [{name, points: [[x, y], …], style?: 'both' | 'line'
 * | 'dots', colour?: the palette index}]; x, y: {label, log,
 * ticks?, domain?: [lo, hi] (the axis's range; default: the data's)};
 * marks: [{x, y, label}] ringed points (e.g. the chosen λ); bands: [{name,
 * lo, hi}] shaded areas between two curves of the same x; key:
 * 'right', 'left' or false: the top corner for the series names, or none
 * (when the page shows one key for several charts); size: the
 * viewBox [width, height], about the displayed size so text stays legible.
 * Non-finite points (and non-positive ones on log axes) are left out.
 */
export function lineChart(svg, { series, x, y, marks = [], bands = [], key = 'right', size = [360, 220] }) {
  const [W, H] = size;
  reset(svg, W, H);
  const bandPoints = bands.flatMap((b) => [...b.lo, ...b.hi]);
  const xs = x.domain ?? extent(series.flatMap((s) => s.points.map((p) => p[0])), x.log);
  const ys = y.domain ?? extent([...series.flatMap((s) => s.points.map((p) => p[1])), ...bandPoints.map((p) => p[1])], y.log);
  if (!xs || !ys) return;
  const sx = scale(xs[0], xs[1], PAD.left, W - PAD.right, x.log);
  const sy = scale(ys[0], ys[1], H - PAD.bottom, PAD.top, y.log);
  axes(svg, size, x, y, sx, sy, x.ticks ?? (x.log ? logTicks(...xs) : linearTicks(...xs)), y.log ? logTicks(...ys) : linearTicks(...ys));
  const ok = (p) => Number.isFinite(p[0]) && Number.isFinite(p[1]) && (!x.log || p[0] > 0) && (!y.log || p[1] > 0);
  // A band: the area between lo and hi (same x), under the lines.
  bands.forEach((b) => {
    const edge = [...b.lo.filter(ok), ...b.hi.filter(ok).reverse()];
    const g = el('polygon', { points: edge.map((p) => `${sx(p[0])},${sy(p[1])}`).join(' '), class: 'band' });
    g.append(el('title', {}, b.name));
    svg.append(g);
  });
  // A series is drawn as a line with dots (style 'both', the default), a line or dots only.
  series.forEach((s, i) => {
    const pts = s.points.filter(ok);
    const g = el('g', { class: `series s${s.colour ?? i}` });
    g.append(el('title', {}, s.name));
    if (pts.length > 1 && s.style !== 'dots') g.append(el('polyline', { points: pts.map((p) => `${sx(p[0])},${sy(p[1])}`).join(' ') }));
    if (s.style !== 'line') for (const p of pts) g.append(el('circle', { cx: sx(p[0]), cy: sy(p[1]), r: 2.5 }));
    svg.append(g);
  });
  for (const m of marks.filter((p) => ok([p.x, p.y]))) {
    svg.append(el('circle', { cx: sx(m.x), cy: sy(m.y), r: 5, class: 'mark' }));
    const at = markLabel(sx(m.x), sy(m.y), W);
    svg.append(el('text', { x: at.x, y: at.y, 'text-anchor': at.anchor, class: 'tick' }, m.label));
  }
  if (key && series.length > 1) {
    const g = el('g', { class: 'key' });
    const x0 = key === 'left' ? PAD.left + 6 : W - PAD.right - 98;
    series.forEach((s, i) => {
      const yy = PAD.top + 10 + i * 12;
      g.append(el('line', { x1: x0, x2: x0 + 14, y1: yy - 3, y2: yy - 3, class: `s${s.colour ?? i}` }));
      g.append(el('text', { x: x0 + 18, y: yy, class: 'tick' }, s.name));
    });
    svg.append(g);
  }
}

/** A canvas of w×h CSS pixels at twice the resolution, and its context scaled to CSS pixels. */
function canvas2x(w, h) {
  const c = document.createElement('canvas');
  c.width = Math.ceil(2 * w);
  c.height = Math.ceil(2 * h);
  const ctx = c.getContext('2d');
  ctx.scale(2, 2);
  return { c, ctx };
}

/** Puts a canvas into the SVG as one <image> at (x, y), w×h. */
function image(svg, c, x, y, w, h, cls) {
  svg.append(el('image', { x, y, width: w, height: h, href: c.toDataURL('image/png'), preserveAspectRatio: 'none', class: cls }));
}

/**
 * Scatter of predicted against true values, with the line y = x. Up to
 * MAX_SVG_POINTS points are circles; more are painted into one image.
 */
export function scatterChart(svg, { points, x, y, size = [360, 220] }) {
  const [W, H] = size;
  reset(svg, W, H);
  const all = extent(points.flat(), false);
  if (!all) return;
  const sx = scale(all[0], all[1], PAD.left, W - PAD.right, false);
  const sy = scale(all[0], all[1], H - PAD.bottom, PAD.top, false);
  const ticks = linearTicks(...all);
  axes(svg, size, x, y, sx, sy, ticks, ticks);
  svg.append(el('line', { x1: sx(all[0]), y1: sy(all[0]), x2: sx(all[1]), y2: sy(all[1]), class: 'diagonal' }));
  const finite = points.filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b));
  if (finite.length > MAX_SVG_POINTS) {
    const { c, ctx } = canvas2x(W, H);
    // Fainter dots as they multiply, so that density still shows.
    ctx.globalAlpha = Math.max(0.05, Math.min(0.55, 400 / Math.sqrt(finite.length) / 20));
    ctx.fillStyle = getComputedStyle(svg).getPropertyValue('--s0').trim() || '#1d4e89';
    for (const [a, b] of finite) ctx.fillRect(sx(a) - 1.2, sy(b) - 1.2, 2.4, 2.4);
    image(svg, c, 0, 0, W, H, 'dots-image');
    return;
  }
  const g = el('g', { class: 'series s0 dots' });
  for (const [a, b] of finite) g.append(el('circle', { cx: sx(a), cy: sy(b), r: 2.5 }));
  svg.append(g);
}

/**
 * The n largest off-diagonal cells of a confusion matrix (rows true class,
 * columns predicted): [{ trueClass, predicted, count, share }], share of the
 * true class's rows, largest count first.
 */
export function topConfusions(matrix, labels, n = 8) {
  const out = [];
  matrix.forEach((row, i) => {
    let total = 0;
    for (const v of row) total += v;
    row.forEach((v, j) => {
      if (i === j || !(v > 0)) return;
      out.push({ trueClass: labels[i], predicted: labels[j], count: v, share: v / total });
      // Keep the list short while scanning a k² matrix.
      if (out.length > 4 * n) { out.sort((a, b) => b.count - a.count || b.share - a.share); out.length = n; }
    });
  });
  out.sort((a, b) => b.count - a.count || b.share - a.share);
  return out.slice(0, n);
}

/**
 * Confusion matrix: rows true class, columns predicted, colour by share of
 * the row. Above MAX_SVG_CLASSES classes, a picture of one pixel per cell
 * without labels (a 1,000-class matrix as SVG cells is 3 million nodes).
 */
export function confusionChart(svg, matrix, labels) {
  const k = matrix.length;
  if (k > MAX_SVG_CLASSES) return confusionPicture(svg, matrix);
  // Cells wide enough for a count at any k the SVG draws (the chart widens with k).
  const cell = Math.max(20, Math.min(40, Math.floor(200 / k)));
  // Many classes: columns by number (the rows and hovers give the names), rows by number and name.
  const numbered = k > 8;
  const left = numbered ? 120 : 70, top = 44;
  const w = left + k * cell + 10, h = top + k * cell + 10;
  reset(svg, w, h);
  svg.append(el('text', { x: left + (k * cell) / 2, y: 12, 'text-anchor': 'middle', class: 'label' }, numbered ? 'predicted class (by number)' : 'predicted class'));
  svg.append(el('text', { x: 4, y: top - 6, class: 'label' }, 'true class'));
  // Column labels get a cell's width (about 6 px a character at 10 px); row labels the left margin.
  const fit = (text, chars) => (text.length > chars ? `${text.slice(0, chars - 1)}…` : text);
  const width = Math.max(2, Math.floor(cell / 6));
  const rowName = (i) => (numbered ? `${fit(labels[i], 14)} ${i + 1}` : fit(labels[i], 9));
  for (let j = 0; j < k; j++) {
    const t = el('text', { x: left + j * cell + cell / 2, y: top - 6, 'text-anchor': 'middle', class: 'tick' }, numbered ? String(j + 1) : fit(labels[j], width));
    t.append(el('title', {}, `${j + 1}: ${labels[j]}`));
    svg.append(t);
  }
  for (let i = 0; i < k; i++) {
    const rowSum = matrix[i].reduce((a, b) => a + b, 0) || 1;
    const t = el('text', { x: left - 5, y: top + i * cell + cell / 2 + 4, 'text-anchor': 'end', class: 'tick' }, rowName(i));
    t.append(el('title', {}, `${i + 1}: ${labels[i]}`));
    svg.append(t);
    for (let j = 0; j < k; j++) {
      const share = matrix[i][j] / rowSum;
      const g = el('g', { class: 'cell' });
      g.append(el('rect', { x: left + j * cell, y: top + i * cell, width: cell - 1, height: cell - 1, fill: colour(SEQUENTIAL, share, 0, 1) }));
      g.append(el('text', { x: left + j * cell + cell / 2, y: top + i * cell + cell / 2 + 4, 'text-anchor': 'middle', class: share > 0.6 ? 'count dark' : 'count' }, String(matrix[i][j])));
      g.append(el('title', {}, `true ${labels[i]}, predicted ${labels[j]}: ${matrix[i][j]}`));
      svg.append(g);
    }
  }
}

/** The most classes the table view shows as a whole matrix; beyond, a row per class. */
export const MAX_TABLE_CLASSES = 60;

/**
 * The confusion matrix as an HTML table, readable at any number of classes
 * where a picture's labels are not: up to MAX_TABLE_CLASSES, every class by
 * its full name and number, each cell a count (the diagonal marked); beyond,
 * a row per class (its rows, recall, precision and the class it is most
 * often taken for). perClass: the engine's score figures. The page builds
 * it when the reader opens it, so that a thousand classes cost nothing
 * until then.
 */
export function confusionTable(table, matrix, labels, perClass = []) {
  const k = matrix.length;
  const cell = (tag, text, attrs = {}) => {
    const c = document.createElement(tag);
    c.textContent = text;
    for (const [a, v] of Object.entries(attrs)) if (v) c.setAttribute(a, v);
    return c;
  };
  const pct = (v) => (Number.isFinite(v) ? `${(100 * v).toFixed(0)}%` : '—');
  const whole = k <= MAX_TABLE_CLASSES;
  const head = document.createElement('tr');
  head.append(cell('th', whole ? 'true \\ predicted' : 'true class'), ...(whole ? labels.map((name, j) => cell('th', String(j + 1), { title: name, scope: 'col' })) : []),
    cell('th', 'rows'), cell('th', 'recall'), cell('th', 'precision'), ...(whole ? [] : [cell('th', 'most often taken for')]));
  const rows = [head];
  for (let i = 0; i < k; i++) {
    const tr = document.createElement('tr');
    tr.append(cell('th', `${i + 1}. ${labels[i]}`, { scope: 'row', title: labels[i] }));
    if (whole) for (let j = 0; j < k; j++) tr.append(cell('td', String(matrix[i][j]), { title: `true ${labels[i]}, predicted ${labels[j]}`, class: i === j ? 'hit' : matrix[i][j] ? 'miss' : '' }));
    const pc = perClass[i] ?? {};
    tr.append(cell('td', String(matrix[i].reduce((a, b) => a + b, 0))), cell('td', pct(pc.recall)), cell('td', pct(pc.precision)));
    if (!whole) {
      let top = -1;
      for (let j = 0; j < k; j++) if (j !== i && matrix[i][j] > 0 && (top < 0 || matrix[i][j] > matrix[i][top])) top = j;
      tr.append(cell('td', top < 0 ? '—' : `${labels[top]} (${matrix[i][top]})`, { class: top < 0 ? '' : 'miss' }));
    }
    rows.push(tr);
  }
  const what = whole ? 'test rows counted by true class (rows) and predicted class (columns, by number)' : 'each class\'s test rows, recall and precision, and the class it is most often taken for';
  table.replaceChildren(cell('caption', `Confusion matrix: ${k} classes, ${what}`), ...rows);
}

function confusionPicture(svg, matrix) {
  const k = matrix.length;
  const left = 24, top = 24, side = 280;
  reset(svg, left + side + 10, top + side + 10);
  svg.append(el('text', { x: left + side / 2, y: 14, 'text-anchor': 'middle', class: 'label' }, `predicted class (${k} classes)`));
  svg.append(el('text', { x: 14, y: top + side / 2, 'text-anchor': 'middle', transform: `rotate(-90 14 ${top + side / 2})`, class: 'label' }, 'true class'));
  const c = document.createElement('canvas');
  c.width = k;
  c.height = k;
  const ctx = c.getContext('2d');
  const img = ctx.createImageData(k, k);
  for (let i = 0; i < k; i++) {
    let rowSum = 0;
    for (const v of matrix[i]) rowSum += v;
    for (let j = 0; j < k; j++) {
      // Empty cells stay white so that the few filled ones stand out.
      const v = matrix[i][j];
      const p = (i * k + j) * 4;
      if (!(v > 0)) { img.data.fill(255, p, p + 4); continue; }
      const idx = Math.min(255, Math.round((v / (rowSum || 1)) * 255)) * 3;
      img.data[p] = SEQUENTIAL[idx];
      img.data[p + 1] = SEQUENTIAL[idx + 1];
      img.data[p + 2] = SEQUENTIAL[idx + 2];
      img.data[p + 3] = 255;
    }
  }
  ctx.putImageData(img, 0, 0);
  image(svg, c, left, top, side, side, 'pixels');
  svg.append(el('rect', { x: left, y: top, width: side, height: side, class: 'frame' }));
}
