// A fitted ridge model. Its numbers live in JavaScript, so any worker can
// predict with it; predictions are split over the workers by rows.
import { ntkrfError } from './errors.js';
import { splitControl, matrixData } from './options.js';
import { overRows, chunkRows, concat } from './rows.js';

/** A fitted ridge model; its numbers live in JavaScript, so any worker can predict. */
export class Model {
  #pool;
  #model;

  constructor(pool, model, classes) {
    this.#pool = pool;
    this.#model = model;
    this.kind = model.kind;
    this.task = model.task;
    this.classes = classes;
    this.lambda = model.lambda;
    this.curve = model.curve;
  }

  async #run(X, options, scores) {
    const where = scores ? 'predictScores' : 'predict';
    const [, control] = splitControl(where, options, 'predict');
    if (!this.#model) throw ntkrfError('ERR_CLOSED', `${where}: this model was disposed`);
    const data = matrixData(where, 'X', X, 'predict');
    const m = this.#model;
    const arrays = [null, m.coef.data];
    const model = { ...m, coef: { rows: m.coef.rows, cols: m.coef.cols, array: 1 } };
    if (m.train) {
      arrays.push(m.train.data);
      model.train = { rows: m.train.rows, cols: m.train.cols, array: 2 };
    }
    const parts = await overRows(this.#pool, X.rows, control, (lo, hi, ctl) => {
      const a = [...arrays];
      a[0] = data.slice(lo * X.cols, hi * X.cols);
      return this.#pool.call('predict', { X: { rows: hi - lo, cols: X.cols, array: 0 }, model, scores }, a, ctl, { where });
    }, chunkRows(X.cols));
    if (!scores) return concat(parts.map((p) => p.labels));
    const cols = parts[0].scores.cols;
    return { rows: X.rows, cols, data: concat(parts.map((p) => p.scores.data)) };
  }

  predict(X, options = {}) { return this.#run(X, options, false); }

  predictScores(X, options = {}) { return this.#run(X, options, true); }

  dispose() { this.#model = null; }
}
