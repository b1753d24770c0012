// The page's one state object: what is loaded, the settings, the models,
// the runs. Every panel reads it; each field says which panel writes it.
import { Jobs } from './jobs.js';
import { INITIAL_RATE } from './cost.js';

/** A fresh state; onJobs() is called whenever a run starts, progresses or ends (page.js draws them). */
export function createApp(onJobs) {
  const app = {
    /** The engine once it has started (lab.js). */
    engine: null,
    /** Resolves to the engine once it has started (and the settings are read), or to null if it cannot start; loads wait for it. */
    engineReady: null,
    engineStarted: null,
    /** The lab's vocabulary (vocab.js) from the engine's schema, and the URL hash table built from it. */
    vocab: null,
    table: null,
    /** The settings (state.js), null until the engine has started (controls.js writes them). */
    settings: null,
    /** The engine's 'auto' search (experiments.js autoSearch), for its help and the cost estimate. */
    search: null,
    /**
     * The loaded data set (data-panel.js): id (a serial number), name,
     * bytes, bundled id (a menu id: a bundled file or a generated set),
     * preview, parsed dataset, sample for the pictures; for a generated set
     * also toy: its training points (with those added by clicks), its test
     * points.
     */
    current: null,
    /**
     * A generated set whose load is under way (data-panel.js): { plane },
     * the points the playground draws before the load ends (the loaded set
     * keeps the same plane); null otherwise.
     */
    pending: null,
    /** Points added by clicks on a generated set: { id, x: [x1, x2, …], y: [class, …] } (dropped with another set). */
    added: { id: '', x: [], y: [] },
    /** Data sets loaded so far (the id of the next), and loads started (the default data set is loaded only if the user has not chosen one). */
    datasetSerial: 0,
    loadsStarted: 0,
    /** The sample rows preprocessed by the engine: { key, X } (key: data set and preprocessing). */
    sample: null,
    /** The last pictures (for redrawing the difference and for export). */
    pictures: null,
    /** Comparison rows for export. */
    comparisons: [],
    /** The last training run, for export. */
    lastRun: null,
    /**
     * Models (model-panel.js): trained (the last training's, to download)
     * and loaded (from a file), each { model, fileName, origin, about
     * (models.js describeModel), choice }; inUse is the one the user chose
     * last (choice: the count of choices when Train was pressed or the model
     * file picked, so that a training that ends after a model was loaded
     * does not replace it), which predicts files. predicted: the last file's
     * predictions { values, fileName, targetName, model, by }: by, the model
     * that made them, is the one in use (model-panel.js drops them with it).
     */
    trained: null,
    loaded: null,
    inUse: null,
    choices: 0,
    predicted: null,
    /** The measured rate of training (cost.js measuredRate: an overhead and a throughput), refined after each run. */
    rate: INITIAL_RATE,
    /** Runs in progress. */
    jobs: new Jobs(() => onJobs()),
    /** Alerts shown so far, and the one showing: { seq, lane }, so that a later success can clear it. */
    alertSeq: 0,
    alertShown: null,
  };
  app.engineReady = new Promise((resolve) => { app.engineStarted = resolve; });
  return app;
}
