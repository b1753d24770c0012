// Heatmaps: one canvas pixel per matrix entry, scaled up by CSS, coloured
// through a 256-entry lookup table (no per-pixel colour parsing).

/** Builds a 256×RGB lookup table by linear interpolation between anchor colours (the heatmaps' and the surfaces' palettes). */
export function lut(anchors) {
  const t = new Uint8ClampedArray(256 * 3);
  const segs = anchors.length - 1;
  for (let i = 0; i < 256; i++) {
    const x = (i / 255) * segs;
    const k = Math.min(segs - 1, Math.floor(x));
    const f = x - k;
    for (let c = 0; c < 3; c++) t[i * 3 + c] = anchors[k][c] + f * (anchors[k + 1][c] - anchors[k][c]);
  }
  return t;
}

/** Sequential (viridis anchors) for kernel values. */
export const SEQUENTIAL = lut([[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]]);
/** Diverging (blue – white – red) for signed differences. */
export const DIVERGING = lut([[33, 102, 172], [146, 197, 222], [247, 247, 247], [244, 165, 130], [178, 24, 43]]);

/** The LUT index of v on [lo, hi], clamped. */
function index(v, lo, hi) {
  if (!(hi > lo)) return 128;
  const i = Math.round(((v - lo) / (hi - lo)) * 255);
  return i < 0 ? 0 : i > 255 ? 255 : i;
}

/** The CSS colour of v on [lo, hi] in palette. */
export function colour(palette, v, lo, hi) {
  const i = index(v, lo, hi) * 3;
  return `rgb(${palette[i]},${palette[i + 1]},${palette[i + 2]})`;
}

/** Draws matrix M (rows × cols) into canvas, one pixel per entry. */
export function drawHeatmap(canvas, M, palette, lo, hi) {
  canvas.width = M.cols;
  canvas.height = M.rows;
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(M.cols, M.rows);
  const px = img.data;
  for (let k = 0; k < M.rows * M.cols; k++) {
    const i = index(M.data[k], lo, hi) * 3;
    px[k * 4] = palette[i];
    px[k * 4 + 1] = palette[i + 1];
    px[k * 4 + 2] = palette[i + 2];
    px[k * 4 + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
}

/** Empties a heatmap canvas (nothing to show yet). */
export function clearHeatmap(canvas) {
  canvas.width = 1;
  canvas.height = 1;
}

/** Draws the colour bar of palette and writes lo, middle and hi as tick labels. */
export function drawLegend(canvas, ticks, palette, lo, hi) {
  canvas.width = 256;
  canvas.height = 1;
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(256, 1);
  for (let i = 0; i < 256; i++) {
    img.data.set([palette[i * 3], palette[i * 3 + 1], palette[i * 3 + 2], 255], i * 4);
  }
  ctx.putImageData(img, 0, 0);
  ticks.replaceChildren(...[lo, (lo + hi) / 2, hi].map((v) => {
    const s = document.createElement('span');
    s.textContent = short(v);
    return s;
  }));
}

/** A compact number for labels. */
export function short(v) {
  // The engine reports undefined values (a criterion at a singular λ) as null or NaN.
  if (typeof v !== 'number' || Number.isNaN(v)) return '—';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '−∞';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (Number.isInteger(v) && a < 1e5) return String(v);
  if (a >= 1e4 || a < 1e-2) return v.toExponential(1).replace('e+', 'e').replace('.0e', 'e');
  return String(Number(v.toPrecision(3)));
}
