// Panel 3, Compare with the exact kernel: the heatmaps of K, ΦΦᵀ and their
// difference on a sample of rows, redrawn as the settings move, the entry
// under the pointer, and the comparison and features exports.
import { $, download } from './dom.js';
import { formatBytes } from './data.js';
import { drawHeatmap, clearHeatmap, drawLegend, SEQUENTIAL, DIVERGING, short } from './heatmap.js';
import { check } from './jobs.js';
import { dim, featureOptions, targetKernel, kernelName, preprocessed, compareOn, comparisonRow, pictureScales } from './experiments.js';
import { MAX_EXPORT_VALUES, baseName, comparisonsCSV, featuresCSV } from './downloads.js';
import { seconds } from './format.js';

const MAPS = ['map-exact', 'map-approx', 'map-diff'];

export function createComparePanel({ app, page }) {
  const { say, run, showError } = page;
  let timer = 0;

  /**
   * The sample rows of current preprocessed as a fit would (by the engine,
   * with statistics of all rows), computed once per data set and
   * preprocessing.
   */
  async function sampleMatrix(current, settings, control) {
    const key = JSON.stringify([current.id, settings.std, settings.unit]);
    if (app.sample?.key !== key) app.sample = { key, X: await preprocessed(app.engine, current.ds, settings, current.sample, control) };
    return app.sample.X;
  }

  /** Recomputes the heatmaps soon (settings moving fast replace each other). */
  function refreshSoon() {
    clearTimeout(timer);
    timer = setTimeout(refresh, 150);
  }

  async function refresh() {
    if (!app.current) return;
    const { engine, current } = app;
    // The settings of this run: the controls may move while it runs.
    const settings = { ...app.settings };
    const method = settings.method, m = dim(settings);
    const spec = targetKernel(settings, method);
    const name = app.vocab.methods[method].name;
    $('sample-note').textContent = `${current.sample.length} of ${current.ds.X.rows} rows, sorted by target; exact kernel: ${kernelName(spec)}.`;
    $('cap-exact').textContent = `exact kernel K (${kernelName(spec)})`;
    const outcome = await run('kernel pictures', 'pictures', async (ctl, signal) => {
      const X = await sampleMatrix(current, settings, ctl(0, 3));
      check(signal);
      // A new exact kernel is drawn first, as immediate feedback; when only
      // the features change, the old pictures stay until the new ones are in.
      // The key names the data set by its serial: two files may share a name.
      const key = JSON.stringify([current.id, settings.std, settings.unit, spec]);
      if (app.pictures?.key !== key) {
        const K = await engine.kernel(X, null, { ...spec, ...ctl(1, 3) });
        check(signal);
        app.pictures = { key, K, approx: null };
        draw();
      }
      const c = await compareOn(engine, X, settings, method, m, ctl(2, 3), true);
      check(signal);
      app.pictures = { key, K: c.K, approx: c.approx };
      app.comparisons = app.comparisons.filter((r) => r.kind !== 'current');
      app.comparisons.push(comparisonRow('current', method, m, c));
      $('export-compare').disabled = false;
      draw();
      const spectral = Number.isFinite(c.spectral) ? `, spectral condition number ${short(c.spectral)} (1 is perfect)` : '';
      $('compare-numbers').dataset.rel = String(c.relFrobenius);
      $('compare-numbers').textContent =
        `${name}, m = ${m}: relative error ‖ΦΦᵀ − K‖/‖K‖ = ${short(c.relFrobenius)}${spectral}. ` +
        `Time: exact kernel ${seconds(c.seconds.exact * 1000)}, features ${seconds(c.seconds.features * 1000)}.`;
    }, { fallback: 'try a smaller Features m or another Method' });
    if (!outcome.ok && outcome.why === 'failed') {
      // The numbers of earlier settings would pass for these ones.
      delete $('compare-numbers').dataset.rel;
      $('compare-numbers').textContent = `No comparison for ${name}, m = ${m}: it failed (the message at the top says why).`;
    }
  }

  function draw() {
    if (!app.pictures) return;
    const { K, approx } = app.pictures;
    const { lo, hi, diff, s } = pictureScales(K, approx, app.settings.magnify);
    drawHeatmap($('map-exact'), K, SEQUENTIAL, lo, hi);
    drawLegend($('legend-seq'), $('ticks-seq'), SEQUENTIAL, lo, hi);
    $('note-seq').textContent = 'K and ΦΦᵀ: 1st to 99th percentile, beyond clipped';
    if (!approx) {
      clearHeatmap($('map-approx'));
      clearHeatmap($('map-diff'));
      return;
    }
    drawHeatmap($('map-approx'), approx, SEQUENTIAL, lo, hi);
    drawHeatmap($('map-diff'), diff, DIVERGING, -s, s);
    drawLegend($('legend-div'), $('ticks-div'), DIVERGING, -s, s);
    $('note-div').textContent = app.settings.magnify ? 'difference: ± its largest value' : 'difference: ± the kernel scale';
  }

  /** Shows the entries under the pointer: rows i and j of the sample, K, ΦΦᵀ and their difference. */
  function showEntry(e) {
    if (!app.pictures) return;
    const { K, approx } = app.pictures;
    const box = e.currentTarget.getBoundingClientRect();
    const j = Math.floor(((e.clientX - box.left) / box.width) * K.cols);
    const i = Math.floor(((e.clientY - box.top) / box.height) * K.rows);
    if (i < 0 || j < 0 || i >= K.rows || j >= K.cols) return;
    const k = K.data[i * K.cols + j];
    const rows = `rows ${app.current.sample[i] + 1} and ${app.current.sample[j] + 1}`;
    $('hover').textContent = approx
      ? `${rows}: K = ${short(k)}, ΦΦᵀ = ${short(approx.data[i * K.cols + j])}, difference ${short(approx.data[i * K.cols + j] - k)}`
      : `${rows}: K = ${short(k)}`;
  }

  /** Drops the pictures and numbers of the previous data set. */
  function clear() {
    app.pictures = null;
    app.comparisons = [];
    for (const id of MAPS) clearHeatmap($(id));
    $('compare-numbers').textContent = '';
    $('hover').textContent = 'Point at a heatmap to read its entries.';
    $('export-compare').disabled = true;
  }

  function exportComparison() {
    const { text, rows } = comparisonsCSV(app.comparisons);
    download(`${baseName(app.current.name)}-comparison.csv`, text);
    say(`Exported ${rows} comparison rows.`);
  }

  async function exportFeatures() {
    if (!app.current) return;
    const { ds, name } = app.current;
    const m = dim(app.settings), method = app.settings.method, file = `${baseName(name)}-features-${method}-m${m}.csv`;
    if (ds.X.rows * m > MAX_EXPORT_VALUES) {
      showError(`Exporting ${ds.X.rows} × ${m} features would make a CSV of about ${formatBytes(ds.X.rows * m * 20)}; choose a smaller Features m (at most ${MAX_EXPORT_VALUES.toLocaleString('en')} numbers in all).`, { control: { id: 'dim' } });
      say('The features were not exported.');
      return;
    }
    const settings = { ...app.settings };
    const options = featureOptions(settings, method, m);
    const outcome = await run('features export', 'export', async (ctl, signal) => {
      const X = await preprocessed(app.engine, ds, settings, null, ctl(0, 3));
      check(signal);
      const P = await app.engine.features(X, { ...options, ...ctl(1, 3) });
      check(signal);
      return { parts: await featuresCSV(P, ds, signal, ctl(2, 3).onProgress), rows: P.rows, cols: P.cols };
    });
    if (!outcome.ok) return;
    download(file, outcome.value.parts);
    say(`Exported ${outcome.value.rows} × ${outcome.value.cols} features.`);
  }

  function renderJobs() {
    $('export-features').disabled = !app.current || app.jobs.busy('export');
  }

  function bind() {
    for (const id of MAPS) $(id).addEventListener('pointermove', showEntry);
    $('export-compare').addEventListener('click', exportComparison);
    $('export-features').addEventListener('click', exportFeatures);
    page.onJobs(renderJobs);
  }

  return { sampleMatrix, refresh, refreshSoon, draw, clear, bind };
}
