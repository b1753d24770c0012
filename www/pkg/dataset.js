// A Dataset (parseCSV's result) split by rows into Datasets that keep its
// schema, so that fitRidge(part) makes a model that reads CSV files
// (predictCSV) as one fitted on the whole file does. Which rows go where is
// Go's rule (data.Split and data.KFold, the split and kfold ops); the parts
// are the dataset's rows, taken here.
import { typeError, describe } from './errors.js';
import { snapshotMatrix, snapshotVector } from './options.js';
import { take } from './rows.js';

/** The fields of a Dataset besides X, y and the two counts of its file: the same for every part. */
const SCHEMA_KEYS = ['task', 'classes', 'featureNames', 'columns', 'target', 'targetName', 'excluded', 'groups', 'delimiter', 'header'];

/** The Dataset's X, y and schema, each field read once, as the call's own copies. */
function readDataset(where, d) {
  if (!('X' in d) || !('y' in d)) {
    throw typeError(`${where}: the first argument must be a row count or a Dataset (parseCSV's result, with X and y), got ${describe(d)}`, 'n');
  }
  const X = snapshotMatrix(where, 'dataset.X', d.X);
  const y = snapshotVector(where, 'dataset.y', d.y);
  if (y.length !== X.rows) {
    throw typeError(`${where}: dataset.X has ${X.rows} rows but dataset.y has ${y.length} values; pass parseCSV's result`, 'n');
  }
  const schema = {};
  for (const k of SCHEMA_KEYS) {
    const v = d[k];
    try {
      schema[k] = structuredClone(v);
    } catch (e) {
      throw typeError(`${where}: dataset.${k} cannot be copied (${e.message}); pass parseCSV's result`, 'n');
    }
  }
  return { X, y, schema };
}

/**
 * The missing cells of a part's rows: one per input column that is NaN in
 * a row (a one-hot group is NaN across its width, so it counts once). A
 * part's rows all have their target (parseCSV drops rows without one).
 */
function missingCells(X, groups) {
  const starts = Array.isArray(groups) && groups.length ? groups.map((g) => g.start) : Array.from({ length: X.cols }, (_, j) => j);
  let n = 0;
  for (let i = 0; i < X.rows; i++) for (const j of starts) if (Number.isNaN(X.data[i * X.cols + j])) n++;
  return n;
}

/** One part: the rows idx of the dataset, with its schema; no rows dropped from it. */
function part({ X, y, schema }, idx) {
  const Xp = take(X, idx);
  return { X: Xp, y: take(y, idx), ...structuredClone(schema), droppedRows: 0, missingCells: missingCells(Xp, schema.groups) };
}

/**
 * Engine.split(dataset, options) and Engine.kfold(dataset, options): the
 * split or the folds Go draws for dataset.X.rows rows (op: 'split' or
 * 'kfold', with the checked options), as {train, test, rows} with train
 * and test Datasets and rows their row indices.
 */
export async function splitDataset(pool, op, d, opts, control) {
  const ds = readDataset(op, d);
  const r = await pool.call(op, { ...opts, n: ds.X.rows }, [], control);
  const parts = ({ train, test }) => ({ train: part(ds, train), test: part(ds, test), rows: { train, test } });
  return op === 'kfold' ? r.map(parts) : parts(r);
}
