// Panel 5, Error against the number of features: the sweep over m and its
// three charts.
import { $ } from './dom.js';
import { lineChart, clearChart } from './charts.js';
import { check } from './jobs.js';
import { sweep, sweepSeries, exactTimes, SWEEP_METHODS, SWEEP_STEPS } from './sweep.js';
import { seconds } from './format.js';

const CHARTS = ['sweep-chart', 'cond-chart', 'time-chart'];

/** The panel on the page's state; sampleMatrix: the compare panel's preprocessed sample rows. */
export function createSweepPanel({ app, page, sampleMatrix }) {
  const { say, run } = page;

  async function runSweep() {
    if (!app.current) return;
    const current = app.current, settings = { ...app.settings };
    const t0 = performance.now();
    let done = 0;
    const outcome = await run('error vs m', 'sweep', async (ctl, signal) => {
      const X = await sampleMatrix(current, settings, { signal });
      check(signal);
      return sweep(app.engine, X, settings, ctl, signal, (rows) => {
        done = rows.length;
        draw(rows);
      });
    }, { failStatus: () => `Error vs m failed after ${done} of ${SWEEP_STEPS} comparisons; the charts show those.` });
    if (!outcome.ok) return;
    const rows = outcome.value;
    app.comparisons = app.comparisons.filter((r) => r.kind !== 'sweep').concat(rows);
    $('export-compare').disabled = false;
    say(`Error vs m: ${rows.length} comparisons on ${current.sample.length} rows in ${seconds(performance.now() - t0)}.`);
  }

  function draw(rows) {
    const x = { label: 'features m', log: true, ticks: [64, 256, 1024, 4096] };
    const size = [280, 210];
    const key = (names) => names.map((name, i) => {
      const item = document.createElement('span');
      const swatch = document.createElement('span');
      swatch.className = `swatch s${i}`;
      item.append(swatch, name);
      return item;
    });
    $('sweep-key').replaceChildren(...key([...SWEEP_METHODS.map((mth) => app.vocab.methods[mth]?.name ?? mth), 'exact kernel (time only)']));
    lineChart($('sweep-chart'), { series: sweepSeries(rows, 'relFrobenius'), x, y: { label: 'relative error', log: true }, size, key: false });
    if (rows.some((r) => Number.isFinite(r.spectral))) {
      lineChart($('cond-chart'), { series: sweepSeries(rows, 'spectral'), x, y: { label: 'condition number', log: true }, size, key: false });
    }
    lineChart($('time-chart'), {
      series: [...sweepSeries(rows, 'featureSeconds'), { name: 'exact kernel', points: exactTimes(rows) }],
      x,
      y: { label: 'seconds', log: true },
      key: false,
      size,
    });
  }

  function clear() {
    for (const id of CHARTS) clearChart($(id));
    $('sweep-key').replaceChildren();
  }

  function bind() {
    $('run-sweep').addEventListener('click', runSweep);
    page.onJobs(() => { $('run-sweep').disabled = app.jobs.busy('sweep') || !app.current; });
  }

  return { clear, bind };
}
