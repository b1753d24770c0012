// Panel 4, Train kernel ridge regression: one training run on the loaded
// data with the evaluation settings, its score, charts and predictions
// export. The model it makes goes to the model panel.
import { $, line, download } from './dom.js';
import { short } from './heatmap.js';
import { lineChart, scatterChart, confusionChart, confusionTable, clearChart, topConfusions, MAX_SVG_CLASSES } from './charts.js';
import { quote } from './messages.js';
import { EXACT_MAX, measuredRate } from './cost.js';
import { kernelName, trainingPlan, untrainable, trainAndTest, metric, shortfall, shortBy, checkM } from './experiments.js';
import { SETTINGS, optionAt, toOption } from './vocab.js';
import { baseName, predictionsCSV } from './downloads.js';
import { count, seconds } from './format.js';
import { NAMES } from './names.js';
import { modelFileName, selectionText } from './models.js';

/** The panel on the page's state: models (model-panel.js) takes the model, controls (controls.js) shows the new cost. */
export function createTrainPanel({ app, page, models, controls }) {
  const { say, run, showError } = page;

  async function train() {
    if (!app.current) return;
    const { ds, name } = app.current;
    if (untrainable(ds)) {
      showError(`${ds.targetName} has one class only (${quote(ds.classes[0] ?? '')}): there is nothing to tell apart; choose another Target.`, { lane: 'train', control: { id: 'target' } });
      say('Not trained.');
      return;
    }
    // The settings of this run: the controls may move while it runs.
    const plan = trainingPlan(app.settings, ds, app.search);
    // The estimate shown for these settings (controls.js showCost), to set beside the time taken.
    const estimatedMs = Number($('cost').dataset.ms);
    const t0 = performance.now();
    // Pressing Train chooses its model, unless a model file is chosen before it ends.
    const choice = ++app.choices;
    // The previous run's charts and model would pass for this run's until it ends.
    app.lastRun = null;
    models.drop('trained');
    $('export-pred').disabled = true;
    clearChart($('train-chart'));
    clearChart($('lambda-chart'));
    $('confusion-view').hidden = true;
    $('train-result').replaceChildren(line('Training…'));
    say(`Training on ${name}…`);
    const limits = { defaultM: optionAt(app.vocab.schema, 'fitRidge.features.dim')?.default, maxM: toOption(SETTINGS.logm.scale, app.vocab.settings.logm.max) };
    const outcome = await run('training', 'train', async (ctl, signal) => {
      const r = await trainAndTest(app.engine, ds, plan, ctl, signal);
      // Falling short of the exact kernel: the larger m the page would
      // suggest is fitted on the same rows, so that the advice is checked.
      const next = checkM(plan.m, limits);
      if (r.withExact && next && shortBy(ds, metric(ds, r.scores, r.yTrue), metric(ds, r.exactScores, r.yTrue))) {
        const more = await trainAndTest(app.engine, ds, { ...plan, m: next, features: { ...plan.features, dim: next }, exactWanted: false }, ctl, signal);
        more.model?.dispose();
        r.checked = { m: next, ...metric(ds, more.scores, more.yTrue) };
      }
      return r;
    }, { fallback: 'try Standardize columns, a smaller Features m or another Method' });
    if (!outcome.ok) {
      const why = {
        failed: 'No result: training failed (the message at the top says why).',
        cancelled: 'No result: training was cancelled.',
        'new data': 'No result: other data was loaded while training.',
      }[outcome.why];
      // A replacing run has written its own line.
      if (why) $('train-result').replaceChildren(line(why));
      return;
    }
    const result = outcome.value;
    // The rate from the whole run (every fit, the exact kernel's too), as the estimate counts it.
    app.rate = measuredRate(app.rate, result.work, result.totalMs, app.engine.workers, result.calls, { cold: app.rate.runs.length === 0 });
    app.lastRun = { ...result, ds, name, method: plan.method, m: plan.m, kernel: plan.kernel, estimatedMs, wallMs: performance.now() - t0 };
    const rows = plan.evaluation === 'split' ? `its ${count(result.modelRows, 'training row')}` : `all ${count(result.modelRows, 'row')} (the folds only measure)`;
    // Described by its file: the depth 'auto' chose, not the 'auto' sent.
    models.set('trained', result.model, modelFileName(name, plan.method), `Trained on ${name}, ${rows}.`, { features: result.model.toJSON().features }, choice);
    show(app.lastRun);
    if (app.inUse !== app.trained) say(`Trained on ${name}; the model in use stays ${app.inUse.fileName}, loaded after Train was pressed.`);
    controls.showCost();
    $('export-pred').disabled = false;
  }

  function show(r) {
    const { ds, scores } = r;
    const main = metric(ds, scores, r.yTrue);
    const box = $('train-result');
    box.replaceChildren();
    const big = line('', 'metric');
    const label = document.createElement('span');
    label.textContent = `${main.name} `;
    const value = document.createElement('strong');
    value.id = 'metric-value';
    value.dataset.value = String(main.value);
    value.textContent = main.text;
    big.append(label, value);
    box.append(big);
    if (main.note) box.append(line(main.note));
    const by = r.curve ? ` (by validated ${r.curve.accuracy ? 'accuracy' : 'squared error'})` : '';
    const lambda = r.lambda.length > 1 ? `λ = ${short(Math.min(...r.lambda))} … ${short(Math.max(...r.lambda))} over the folds${by}` : `λ = ${short(r.lambda[0])}${by}`;
    box.append(line(`${app.vocab.methods[r.method].name}, m = ${r.m}, on ${r.how}; ${lambda}; fit and predict ${seconds(r.rfMs)}.`));
    const est = Number.isFinite(r.estimatedMs) ? ` (estimated ${seconds(r.estimatedMs)})` : '';
    const check = r.checked ? `, and the check at m = ${r.checked.m} ${seconds(r.wallMs - r.totalMs)} more` : '';
    if (Number.isFinite(r.wallMs)) box.append(line(`Train took ${seconds(r.totalMs)}${est}${check}.`, 'took'));
    if (r.selection) box.append(line(selectionText(r.selection), 'selection'));
    // The engine's advice on the fit's size (features far beyond the rows' needs), without its method prefix.
    for (const w of r.model?.warnings ?? []) box.append(line(w.replace(/^fitRidge: /, ''), 'advice'));
    if (ds.task === NAMES.Regression) box.append(line(`test MSE ${short(scores.mse)}`));
    if (r.withExact) {
      const e = metric(ds, r.exactScores, r.yTrue);
      const speedup = r.exactMs / r.rfMs;
      box.append(line(`Exact ${kernelName(r.kernel, r.exactDepths)}: ${e.name} ${e.text}, ${seconds(r.exactMs)} — random features are ${speedup >= 1 ? `${speedup.toFixed(1)}× faster` : `${(1 / speedup).toFixed(1)}× slower at this size (they pay off when rows far outnumber m)`}.`, 'exact'));
      const short = shortfall(ds, main, e, r.m, { checked: r.checked ?? null });
      if (short) box.append(line(short, 'shortfall'));
    } else if (r.exactSkipped) {
      box.append(line(`Exact kernel not fitted: ${r.maxTrain} training rows, more than the ${EXACT_MAX} this page fits it for.`, 'exact'));
    }
    box.dataset.rows = String(r.rows.length);
    if (ds.task === NAMES.Classification) {
      confusionChart($('train-chart'), scores.confusion, ds.classes);
      $('train-chart').classList.toggle('wide', ds.classes.length > 8);
      // Beside the picture, the table: every count with its classes' full names (built when opened).
      const view = $('confusion-view');
      view.open = false;
      $('confusion-table').replaceChildren();
      view.ontoggle = () => { if (view.open && !$('confusion-table').firstChild) confusionTable($('confusion-table'), scores.confusion, ds.classes, scores.perClass); };
      view.hidden = false;
      if (ds.classes.length > MAX_SVG_CLASSES) {
        // Too many classes to label the matrix: name the pairs most often confused.
        const pairs = topConfusions(scores.confusion, ds.classes, 8);
        if (pairs.length) {
          box.append(line('Most often confused (true → predicted: test rows):'));
          const list = document.createElement('ol');
          list.className = 'pairs';
          list.id = 'confused-pairs';
          for (const p of pairs) {
            const li = document.createElement('li');
            li.textContent = `${p.trueClass} → ${p.predicted}: ${p.count} (${(100 * p.share).toFixed(0)}% of ${p.trueClass})`;
            list.append(li);
          }
          box.append(list);
        }
      }
    } else {
      scatterChart($('train-chart'), { points: r.rows.map((_, i) => [r.yTrue[i], r.pred[i]]), x: { label: `true ${ds.targetName}` }, y: { label: 'predicted' } });
    }
    if (r.curve?.points.length) {
      const best = r.curve.points.find((p) => p.lambda === r.curve.lambda);
      const acc = r.curve.accuracy;
      const value = (p) => (acc ? p.accuracy : p.score);
      lineChart($('lambda-chart'), {
        series: [{ name: acc ? 'validated accuracy' : 'validated squared error', points: r.curve.points.map((p) => [p.lambda, value(p)]) }],
        x: { label: 'λ (log)', log: true },
        y: acc ? { label: 'validated accuracy' } : { label: 'validation MSE (log)', log: true },
        marks: best ? [{ x: best.lambda, y: value(best), label: 'chosen' }] : [],
      });
    } else {
      clearChart($('lambda-chart'));
    }
    say(`Trained on ${app.current.name}: ${main.name} ${main.text}.`);
  }

  function exportPredictions() {
    if (!app.lastRun) return;
    const { text, rows } = predictionsCSV(app.lastRun);
    download(`${baseName(app.current.name)}-predictions.csv`, text);
    say(`Exported ${rows} predictions.`);
  }

  /** Drops the result of a training on the previous data set. */
  function clear() {
    app.lastRun = null;
    for (const id of ['train-chart', 'lambda-chart']) clearChart($(id));
    $('confusion-view').hidden = true;
    $('train-result').replaceChildren();
    $('export-pred').disabled = true;
  }

  function bind() {
    $('train').addEventListener('click', train);
    $('export-pred').addEventListener('click', exportPredictions);
    page.onJobs(() => { $('train').disabled = app.jobs.busy('train') || !app.current; });
  }

  return { clear, bind };
}
